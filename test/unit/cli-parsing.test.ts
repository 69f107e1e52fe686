import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/client.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { fitColumns, formatMoney } from '../../src/cli/output.js';
import { parseCodAmount, parseParcel } from '../../src/cli/ship-body.js';
import { usualCurrency } from '../../src/domain/reference-data.js';

describe('what the packing desk types: amounts and weights', () => {
  it('takes a COD amount the way people write it, with grouped thousands and a decimal comma', () => {
    expect(parseCodAmount('1 249,90')).toBe(1249.9);
    expect(parseCodAmount('1\u00a0249,90')).toBe(1249.9); // a no-break space, as copied from a spreadsheet
    expect(parseCodAmount('1\u202f249.90')).toBe(1249.9);
    expect(parseCodAmount('12 345 678,5')).toBe(12345678.5);
    expect(parseCodAmount('1249.90')).toBe(1249.9);
    expect(parseCodAmount(' 450 ')).toBe(450);
  });

  it('refuses amounts that are not one: misplaced groups, three decimals, zero, negative, letters', () => {
    for (const text of ['12 34', '1 2490', '1,999', '0', '0,00', '-5', '1249.90 CZK', '', '1.249,90']) {
      expect(() => parseCodAmount(text), text).toThrow(/must be an amount above 0 with at most 2 decimals/);
    }
    const thrown = (() => {
      try {
        parseCodAmount('12 34');
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(thrown).toMatchObject({ exitCode: EXIT.usage });
  });

  it('shows money with two decimals and its currency', () => {
    expect(formatMoney(1249.9, 'CZK')).toBe('1249.90 CZK');
    expect(formatMoney(450, 'EUR')).toBe('450.00 EUR');
    expect(formatMoney(12.5, null)).toBe('12.50');
  });

  it('takes a weight with a decimal comma, as the COD amount', () => {
    expect(parseParcel('2,4x40x30x20')).toMatchObject({ weight_amount: 2.4, length_dimension: 40, width_dimension: 30, height_dimension: 20 });
    expect(parseParcel('0,8 × 25 × 20 × 10')).toMatchObject({ weight_amount: 0.8, height_dimension: 10 });
  });

  it('knows the COD currency of every country the carriers serve', () => {
    for (const code of ['CZ', 'SK', 'PL', 'DE', 'AT', 'HU', 'RO', 'SI', 'HR', 'RS', 'ES', 'PT', 'IT', 'FR', 'BE', 'NL', 'LU', 'GB', 'US', 'CA', 'AD', 'BG', 'EE', 'LT', 'LV', 'CH', 'IE']) {
      expect(usualCurrency(code), code).toMatch(/^[A-Z]{3}$/);
    }
    expect(usualCurrency('cz')).toBe('CZK');
    expect(usualCurrency('HU')).toBe('HUF');
    expect(usualCurrency('XX')).toBeUndefined();
  });
});

describe('exit codes of refused requests', () => {
  const invalid = (field: string) => ({ [field]: ['must be at most 100'] });

  it('a 422 on the query parameters of the request is a usage error: they came from flags', () => {
    expect(exitCodeOf(422, invalid('per_page'), '/v1/shipments?per_page=1000')).toBe(EXIT.usage);
    expect(exitCodeOf(422, { status: ['x'], per_page: ['y'] }, '/v1/tracking-parcels?status=nope&per_page=1000')).toBe(EXIT.usage);
  });

  it('a 422 on a body field, or on anything besides the query, is a failure; 404 is not found', () => {
    expect(exitCodeOf(422, invalid('name'), '/v1/shipping-channels')).toBe(EXIT.failure);
    expect(exitCodeOf(422, { per_page: ['x'], name: ['y'] }, '/v1/things?per_page=5')).toBe(EXIT.failure);
    expect(exitCodeOf(422, undefined, '/v1/shipments?per_page=1000')).toBe(EXIT.failure);
    expect(exitCodeOf(404, undefined, '/v1/shipments/sh_x')).toBe(EXIT.notFound);
    expect(exitCodeOf(503, undefined, '/v1/shipments')).toBe(EXIT.failure);
  });
});

describe('tables for 100 columns', () => {
  it('wraps the widest column of several words until the table fits, never breaking a word', () => {
    const rows = [['code', 'regions'], ['dpd', 'DE FR NL GB AT CZ SK HU BG ES PL IT SI HR PT EE LT LV BE CH RO IE']];
    const widths = fitColumns(rows, 40)!;
    expect(widths.reduce((a, b) => a + b, 0) + widths.length + 1).toBe(40);
    expect(widths[0]).toBe(6); // "code" and its padding: untouched
    expect(fitColumns([['id'], ['sh_0123456789012345678901234567890123456789']], 20)).toBeUndefined(); // an id cannot wrap
    expect(fitColumns([['a', 'b'], ['x', 'y']], 100)).toBeUndefined(); // fits as it is
  });
});

describe('the daemon import limits an admin gives', () => {
  it('takes NAME=VALUE for the limits it names, keeps the defaults of the rest, and refuses other names and values', async () => {
    const { importLimitsOf } = await import('../../daemon/cli.js');
    expect(importLimitsOf(['rows=200000', 'file-mib=64'])).toEqual({ maxRows: 200_000, maxFileBytes: 64 * 2 ** 20, maxLineChars: 65_536, maxColumns: 256 });
    for (const flag of ['bytes=5', 'rows=0', 'rows=many', 'constructor=1', 'rows']) {
      expect(() => importLimitsOf([flag]), flag).toThrow(/--import-limit/);
    }
  });
});
