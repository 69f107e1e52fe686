import { describe, expect, it } from 'vitest';
import { parsePhone } from '../../src/domain/phones.js';

describe('phone numbers as packers and shops write them', () => {
  it.each([
    // Czechia: no trunk prefix; national, international and 00-dialled forms
    ['777 888 999', 'CZ', '+420777888999'],
    ['603-123-456', 'CZ', '+420603123456'],
    ['777.888.999', 'CZ', '+420777888999'],
    ['224 123 456', 'CZ', '+420224123456'],
    ['+420 777 888 999', 'CZ', '+420777888999'],
    ['+420/777888999', 'CZ', '+420777888999'],
    ['00420 777 888 999', 'CZ', '+420777888999'],
    ['  777 888 999\t', 'cz', '+420777888999'],
    // Slovakia: trunk 0
    ['0905 123 456', 'SK', '+421905123456'],
    ['905 123 456', 'SK', '+421905123456'],
    ['02/5930 1111', 'SK', '+421259301111'],
    ['+421 905 123 456', 'SK', '+421905123456'],
    // Poland
    ['512 345 678', 'PL', '+48512345678'],
    ['+48 22 123 45 67', 'PL', '+48221234567'],
    ['0048 601 234 567', 'PL', '+48601234567'],
    // Germany: trunk 0, `(0)` of the international form
    ['0170 1234567', 'DE', '+491701234567'],
    ['030 12345678', 'DE', '+493012345678'],
    ['+49 (0)170 1234567', 'DE', '+491701234567'],
    ['0049 89 1234567', 'DE', '+49891234567'],
    // Austria
    ['0664 1234567', 'AT', '+436641234567'],
    ['01 5123456', 'AT', '+4315123456'],
    ['+43 650 1234567', 'AT', '+436501234567'],
    // Spain
    ['612 345 678', 'ES', '+34612345678'],
    ['91 123 45 67', 'ES', '+34911234567'],
    ['+34 612 34 56 78', 'ES', '+34612345678'],
    // Italy: landlines keep their 0 in the international form
    ['347 123 4567', 'IT', '+393471234567'],
    ['06 1234 5678', 'IT', '+390612345678'],
    ['+39 06 1234 5678', 'IT', '+390612345678'],
    // Hungary: trunk 06
    ['06 20 123 4567', 'HU', '+36201234567'],
    ['06-30-1234567', 'HU', '+36301234567'],
    ['06-1-234-5678', 'HU', '+3612345678'],
    ['+36 20 123 4567', 'HU', '+36201234567'],
    // Britain: `(0)` written before the area code
    ['(0)20 7946 0958', 'GB', '+442079460958'],
    ['+44 (0)20 7946 0958', 'GB', '+442079460958'],
    ['07911 123456', 'GB', '+447911123456'],
    ['06 12 34 56 78', 'FR', '+33612345678'],
    ['(212) 555-0100', 'US', '+12125550100'],
    ['1 416 555 0100', 'CA', '+14165550100'],
    ['0664/123 45 67', 'AT', '+436641234567'],
  ])('reads %j for an address in %s as %s', (text, country, e164) => {
    expect(parsePhone(text, country)).toEqual({ ok: true, e164 });
  });

  it('takes a valid number of another country than the address: a Slovak mobile for a Czech address', () => {
    expect(parsePhone('+421 905 123 456', 'CZ')).toEqual({ ok: true, e164: '+421905123456' });
    expect(parsePhone('00421 905 123 456', 'CZ')).toEqual({ ok: true, e164: '+421905123456' });
    expect(parsePhone('+49 170 1234567', 'AT')).toEqual({ ok: true, e164: '+491701234567' });
    expect(parsePhone('+1 212 555 0123', 'PL')).toEqual({ ok: true, e164: '+12125550123' });
  });

  it('reads 00 as the international prefix where the country dials abroad otherwise (011 in the US)', () => {
    expect(parsePhone('00420 777 888 999', 'US')).toEqual({ ok: true, e164: '+420777888999' });
  });

  it('takes international numbers without an address country, or with one that has no numbering plan', () => {
    expect(parsePhone('+420 777 888 999', undefined)).toEqual({ ok: true, e164: '+420777888999' });
    expect(parsePhone('00420777888999', undefined)).toEqual({ ok: true, e164: '+420777888999' });
    expect(parsePhone('+420 777 888 999', 'XX')).toEqual({ ok: true, e164: '+420777888999' });
    expect(parsePhone('777 888 999', undefined)).toEqual({
      ok: false, empty: false, message: '777 888 999 has no country calling code: write it with + and the calling code',
    });
    expect(parsePhone('777 888 999', 'XX')).toMatchObject({ ok: false, message: '777 888 999 has no country calling code: write it with + and the calling code' });
  });

  it('leaves an extension out of the E.164 form', () => {
    expect(parsePhone('777 888 999 ext 12', 'CZ')).toEqual({ ok: true, e164: '+420777888999' });
  });

  it.each([
    // too short, and mobile prefixes mistyped: the number's real ranges, not only its length, are checked
    ['777 88', 'CZ', '777 88 is not a phone number in Czechia (write a foreign number with + and its calling code)'],
    ['780 123 456', 'CZ', '780 123 456 is not a phone number in Czechia (write a foreign number with + and its calling code)'],
    ['123 456 789', 'CZ', '123 456 789 is not a phone number in Czechia (write a foreign number with + and its calling code)'],
    ['0805 123 456', 'SK', '0805 123 456 is not a phone number in Slovakia (write a foreign number with + and its calling code)'],
    ['900 123 456', 'PL', '900 123 456 is not a phone number in Poland (write a foreign number with + and its calling code)'],
    ['0150 1234567', 'DE', '0150 1234567 is not a phone number in Germany (write a foreign number with + and its calling code)'],
    ['512 345 67', 'ES', '512 345 67 is not a phone number in Spain (write a foreign number with + and its calling code)'],
    ['247 123 4567', 'IT', '247 123 4567 is not a phone number in Italy (write a foreign number with + and its calling code)'],
    ['06 99 123 4567', 'HU', '06 99 123 4567 is not a phone number in Hungary (write a foreign number with + and its calling code)'],
    ['0664 12', 'AT', '0664 12 is not a phone number in Austria (write a foreign number with + and its calling code)'],
    // a Slovak national number for a Czech address: only its calling code would make it Slovak
    ['0905 123 456', 'CZ', '0905 123 456 is not a phone number in Czechia (write a foreign number with + and its calling code)'],
    // international numbers are judged by their own country
    ['+420 777 88', 'DE', '+420 777 88 is not a phone number in Czechia'],
    ['00420 123 456 789', 'CZ', '00420 123 456 789 is not a phone number in Czechia'],
    ['+31 6 1234', 'NL', '+31 6 1234 is not a phone number in the Netherlands'],
    ['+999 123 4567', 'CZ', '+999 123 4567 is not a valid phone number'],
    ['++420777888999', 'CZ', '++420777888999 is not a valid phone number'],
    // the whole text must be the number
    ['tel: 777 888 999', 'CZ', 'tel: 777 888 999 is not a phone number in Czechia (write a foreign number with + and its calling code)'],
    ['777 888 999, 602 111 222', 'CZ', '777 888 999, 602 111 222 is not a phone number in Czechia (write a foreign number with + and its calling code)'],
    ['abc', 'CZ', 'abc is not a phone number in Czechia (write a foreign number with + and its calling code)'],
  ])('refuses %j for an address in %s', (text, country, message) => {
    expect(parsePhone(text, country)).toEqual({ ok: false, empty: false, message });
  });

  it('tells blank apart from wrong, so the caller decides whether a phone number is required', () => {
    expect(parsePhone('', 'CZ')).toEqual({ ok: false, empty: true, message: 'a phone number is required' });
    expect(parsePhone(' \t\u00a0', 'CZ')).toEqual({ ok: false, empty: true, message: 'a phone number is required' });
  });

  it('answers 64 KiB of hostile text at once, quoting only its beginning', () => {
    const hostile = ['7'.repeat(65536), `+${'4'.repeat(65535)}`, `00${'4'.repeat(65534)}`, '('.repeat(65536), `777 888 999${' '.repeat(65536)}x`, 'x '.repeat(32768)];
    for (const text of hostile) {
      const parsed = parsePhone(text, 'CZ');
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message.length).toBeLessThan(160);
    }
    expect(parsePhone(' '.repeat(65536), 'CZ')).toMatchObject({ ok: false, empty: true });
    expect(parsePhone('777 888 999', 'C'.repeat(65536))).toMatchObject({ ok: false, empty: false });
  });
});
