import { validateHeaderValue } from 'node:http';
import { describe, expect, it } from 'vitest';
import { attachment } from '../../daemon/http/reply.js';

describe('download file names', () => {
  it('make a valid Content-Disposition of any name, with the real name as filename*', () => {
    for (const name of ['orders.errors.csv', 'שלום.result.csv', '\u202Eevil.csv', 'a"b\\\\c.csv', 'Zażółć gęślą.csv', 'x\ud800y.csv']) {
      const header = attachment(name);
      expect(() => validateHeaderValue('content-disposition', header), name).not.toThrow();
      expect(header, name).toMatch(/^attachment; filename="[\x20-\x7e]*"(; filename\*=UTF-8''[^\s"]*)?$/);
    }
    expect(attachment('orders.errors.csv')).toBe('attachment; filename="orders.errors.csv"');
    expect(attachment('a"b.csv')).toBe(`attachment; filename="a_b.csv"; filename*=UTF-8''a%22b.csv`);
    expect(decodeURIComponent(attachment('Zażółć.csv').split("UTF-8''")[1]!)).toBe('Zażółć.csv');
  });
});
