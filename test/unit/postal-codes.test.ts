import { describe, expect, it } from 'vitest';
import { checkPostalCode } from '../../src/domain/postal-codes.js';

describe('postal codes checked per country before any carrier sees them', () => {
  it.each([
    // Czechia and Slovakia: carriers take the five digits
    ['602 00', 'CZ', '60200'], ['110 00', 'CZ', '11000'], ['70200', 'CZ', '70200'], [' 301 00 ', 'CZ', '30100'], ['CZ-530 02', 'CZ', '53002'],
    ['811 01', 'SK', '81101'], ['040 01', 'SK', '04001'], ['01001', 'SK', '01001'], ['949 01', 'SK', '94901'],
    // Poland: the dash after two digits
    ['00590', 'PL', '00-590'], ['00-590', 'PL', '00-590'], ['31 042', 'PL', '31-042'], ['80-001', 'PL', '80-001'], ['PL-61-001', 'PL', '61-001'],
    // Germany: five digits, the old D- prefix taken off
    ['10115', 'DE', '10115'], ['01067', 'DE', '01067'], ['80331', 'DE', '80331'], ['D-20095', 'DE', '20095'], ['DE-50667', 'DE', '50667'],
    // Austria: four digits
    ['1010', 'AT', '1010'], ['8010', 'AT', '8010'], ['A-5020', 'AT', '5020'], ['6020', 'AT', '6020'],
    // Spain: five digits, provinces 01 to 52
    ['28013', 'ES', '28013'], ['08001', 'ES', '08001'], ['46001', 'ES', '46001'], ['52001', 'ES', '52001'], ['E-41001', 'ES', '41001'],
    // Italy: five digits
    ['00186', 'IT', '00186'], ['20121', 'IT', '20121'], ['80121', 'IT', '80121'], ['I-50122', 'IT', '50122'],
    // Hungary: four digits
    ['1051', 'HU', '1051'], ['6720', 'HU', '6720'], ['H-4025', 'HU', '4025'], ['7621', 'HU', '7621'],
    // the Netherlands, Britain, Ireland, Canada, Malta: upper case, one space where carriers write it
    ['1012 AB', 'NL', '1012 AB'], ['1012ab', 'NL', '1012 AB'], ['NL-3011 ad', 'NL', '3011 AD'],
    ['SW1A 1AA', 'GB', 'SW1A 1AA'], ['sw1a1aa', 'GB', 'SW1A 1AA'], ['M1 1AE', 'GB', 'M1 1AE'], ['b33  8th', 'GB', 'B33 8TH'], ['DN551PT', 'GB', 'DN55 1PT'],
    ['d02x285', 'IE', 'D02 X285'], ['k1a0b1', 'CA', 'K1A 0B1'], ['VLT1117', 'MT', 'VLT 1117'],
    // Portugal and the US: the dash of the long form
    ['1100-148', 'PT', '1100-148'], ['1100148', 'PT', '1100-148'], ['90210', 'US', '90210'], ['902101234', 'US', '90210-1234'],
    // others: without spaces, and with the country's prefix taken off
    ['75008', 'FR', '75008'], ['F-75008', 'FR', '75008'], ['113 51', 'SE', '11351'], ['SE-113 51', 'SE', '11351'], ['105 57', 'GR', '10557'],
    ['LV-1050', 'LV', '1050'], ['LT-01100', 'LT', '01100'], ['100-0001', 'JP', '100-0001'], ['1000001', 'JP', '100-0001'],
    ['010011', 'RO', '010011'], ['9490', 'LI', '9490'],
  ])('takes %j in %s as %j', (code, country, normalised) => {
    expect(checkPostalCode(code, country)).toEqual({ ok: true, normalised });
  });

  it('takes the country code in any case', () => {
    expect(checkPostalCode('602 00', ' cz ')).toEqual({ ok: true, normalised: '60200' });
  });

  it.each([
    ['7790', 'CZ', '7790 is not a postal code in Czechia (5 digits, like 602 00)'],
    ['602 000', 'CZ', '602 000 is not a postal code in Czechia (5 digits, like 602 00)'],
    ['811 01', 'CZ', '811 01 is not a postal code in Czechia (5 digits, like 602 00)'],
    ['602 00', 'SK', '602 00 is not a postal code in Slovakia (5 digits, like 811 01)'],
    ['00-59', 'PL', '00-59 is not a postal code in Poland (5 digits, like 00-590)'],
    ['1011', 'DE', '1011 is not a postal code in Germany (5 digits, like 10115)'],
    ['00123', 'DE', '00123 is not a postal code in Germany (5 digits, like 10115)'],
    ['0123', 'AT', '0123 is not a postal code in Austria (4 digits, like 1010)'],
    ['10115', 'AT', '10115 is not a postal code in Austria (4 digits, like 1010)'],
    ['53001', 'ES', '53001 is not a postal code in Spain (5 digits from 01000 to 52999, like 28013)'],
    ['00123', 'ES', '00123 is not a postal code in Spain (5 digits from 01000 to 52999, like 28013)'],
    ['0186', 'IT', '0186 is not a postal code in Italy (5 digits, like 00186)'],
    ['12345', 'HU', '12345 is not a postal code in Hungary (4 digits, like 1051)'],
    ['0123', 'HU', '0123 is not a postal code in Hungary (4 digits, like 1051)'],
    ['1012 A', 'NL', '1012 A is not a postal code in the Netherlands (4 digits and 2 letters, like 1012 AB)'],
    ['SW1A', 'GB', 'SW1A is not a postal code in the United Kingdom (like SW1A 1AA)'],
    ['60200x', 'CZ', '60200x is not a postal code in Czechia (5 digits, like 602 00)'],
    ['D-20095', 'AT', 'D-20095 is not a postal code in Austria (4 digits, like 1010)'],
    ['1234', 'MN', '1234 is not a postal code in Mongolia'],
  ])('refuses %j in %s', (code, country, message) => {
    expect(checkPostalCode(code, country)).toEqual({ ok: false, message });
  });

  it('asks for a postal code where the country has them, and takes none where its pattern allows that', () => {
    expect(checkPostalCode('  ', 'CZ')).toEqual({ ok: false, message: 'a postal code is required in Czechia (5 digits, like 602 00)' });
    expect(checkPostalCode('', 'PL')).toEqual({ ok: false, message: 'a postal code is required in Poland (5 digits, like 00-590)' });
    expect(checkPostalCode('', 'HN')).toEqual({ ok: true, normalised: '' });
  });

  it('takes a code as given, trimmed, where no pattern is known (or the country has no postal codes)', () => {
    expect(checkPostalCode(' 999077 ', 'HK')).toEqual({ ok: true, normalised: '999077' });
    expect(checkPostalCode('', 'AE')).toEqual({ ok: true, normalised: '' });
    expect(checkPostalCode('12 34', 'XX')).toEqual({ ok: true, normalised: '12 34' });
  });

  it('answers 64 KiB of hostile text at once, quoting only its beginning', () => {
    const hostile = ['1'.repeat(65536), `${' '.repeat(65536)}602 00x`, '-'.repeat(65536), `CZ-${'0'.repeat(65533)}`, 'A1'.repeat(32768)];
    for (const country of ['CZ', 'PL', 'GB', 'NL', 'US', 'CA', 'JP']) {
      for (const code of hostile) {
        const checked = checkPostalCode(code, country);
        expect(checked.ok).toBe(false);
        if (!checked.ok) expect(checked.message.length).toBeLessThan(160);
      }
    }
    expect(checkPostalCode(`${' '.repeat(65536)}602 00${'\t'.repeat(65536)}`, 'CZ')).toEqual({ ok: true, normalised: '60200' });
    expect(checkPostalCode('602 00', 'C'.repeat(65536))).toEqual({ ok: true, normalised: '602 00' });
  });
});
