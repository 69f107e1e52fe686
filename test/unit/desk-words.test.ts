import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unreachableStatus } from '../../printers/types.js';
import { zebraPrinterStatus } from '../../printers/zebra-status.js';
import { readDecimal } from '../../web/src/decimal.js';

/** The desk's words and numbers, read outside a browser: i18n.ts asks the browser for a language when it loads. */
type I18n = typeof import('../../web/src/i18n.js');
let i18n: I18n;

beforeAll(async () => {
  vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined });
  vi.stubGlobal('navigator', { languages: ['en-GB'], language: 'en-GB' });
  vi.stubGlobal('document', { documentElement: {} });
  i18n = await import('../../web/src/i18n.js');
});
// the test files of a worker share its globals
afterAll(() => vi.unstubAllGlobals());

describe('numbers as packers type them, on every page of the desk', () => {
  it.each([
    ['2,4', 2.4], ['2.4', 2.4], ['1 249,90', 1249.9], ['1\u00a0249,90', 1249.9], ['1\u202f249,90', 1249.9], ['1.249,90', 1249.9],
    ['1,249.90', 1249.9], [' 30 ', 30], [',5', 0.5], ['-1', -1],
  ])('reads %j as %d', (typed, value) => {
    expect(readDecimal(typed)).toBe(value);
  });

  it('leaves an empty field out and sends anything else on as not a number, for the API to name', () => {
    expect(readDecimal('  ')).toBeUndefined();
    for (const typed of ['2,4 kg', '1,249,90', 'abc', '1..2']) expect(readDecimal(typed), typed).toBeNaN();
  });
});

describe('a printer\'s problems in the desk\'s three languages', () => {
  const allFlags = {
    paperOut: true, paused: true, labelLengthDots: 0, formatsInBuffer: 0, bufferFull: false, corruptRam: true, underTemperature: true,
    overTemperature: true, headOpen: true, ribbonOut: true, labelsRemaining: 0,
  };
  const reported = [...zebraPrinterStatus(allFlags).problems, ...unreachableStatus('no route').problems];

  it.each(['en', 'cs', 'pl'] as const)('has a word in %s for every problem a Zebra or an unreachable printer reports', (language) => {
    i18n.setLanguage(language);
    expect(reported.length).toBeGreaterThan(5);
    for (const problem of reported) {
      expect(i18n.hasProblemWord(problem), problem).toBe(true);
      if (language !== 'en') expect(i18n.problemWord(problem), problem).not.toBe(problem);
    }
  });

  it('says "paper out" as Czech and Polish packers do', () => {
    const said = (['en', 'cs', 'pl'] as const).map((language) => {
      i18n.setLanguage(language);
      return i18n.problemWord('paper_out');
    });
    expect(said).toEqual(['paper out', 'došel papír', 'brak papieru']);
  });
});
