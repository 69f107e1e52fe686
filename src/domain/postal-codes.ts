import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { countryInText, shownInput } from './input-messages.js';

/** A postal code in the form carriers take, or why it is not one of its country. */
export type PostalCodeCheck = { ok: true; normalised: string } | { ok: false; message: string };

/** Where the carriers' form keeps a separator: after `at` characters (from the end when negative), when it is `length` long. */
interface Separator { mark: ' ' | '-'; at: number; length?: number }
const SEPARATED: Readonly<Record<string, Separator>> = {
  BR: { mark: '-', at: 5 },
  CA: { mark: ' ', at: 3 },
  GB: { mark: ' ', at: -3 },
  GG: { mark: ' ', at: -3 },
  IE: { mark: ' ', at: 3 },
  IM: { mark: ' ', at: -3 },
  JE: { mark: ' ', at: -3 },
  JP: { mark: '-', at: 3 },
  MT: { mark: ' ', at: 3 },
  NL: { mark: ' ', at: 4 },
  PL: { mark: '-', at: 2 },
  PT: { mark: '-', at: 4, length: 7 },
  US: { mark: '-', at: 5, length: 9 },
};

/** Countries' signs on cars that people still write before a postal code (`D-10115`, `A-1010`), beside the ISO code. */
const VEHICLE_SIGNS: Readonly<Record<string, string>> = {
  AT: 'A', BE: 'B', DE: 'D', ES: 'E', FI: 'FIN', FR: 'F', HU: 'H', IT: 'I', LU: 'L', NO: 'N', PT: 'P', SE: 'S', SI: 'SLO',
};

// the library takes any digits there: Czech codes begin 1–7 and Slovak 0, 8 or 9 (mixing the two up is common), no Hungarian one 0, no German one 00
const FIRST_DIGITS: Readonly<Record<string, RegExp>> = { CZ: /^[1-7]/, SK: /^[089]/, HU: /^[1-9]/, DE: /^(?!00)/ };

/** What a packer is shown of a country's postal codes when one is refused. */
const HINTS: Readonly<Record<string, string>> = {
  AD: 'AD and 3 digits, like AD500', AT: '4 digits, like 1010', BE: '4 digits, like 1000', BG: '4 digits, like 1000',
  CA: 'like K1A 0B1', CH: '4 digits, like 8001', CY: '4 digits, like 1010', CZ: '5 digits, like 602 00',
  DE: '5 digits, like 10115', DK: '4 digits, like 1050', EE: '5 digits, like 10111', ES: '5 digits from 01000 to 52999, like 28013',
  FI: '5 digits, like 00100', FR: '5 digits, like 75008', GB: 'like SW1A 1AA', GR: '5 digits, like 105 57',
  HR: '5 digits, like 10000', HU: '4 digits, like 1051', IE: 'an Eircode, like D02 X285', IT: '5 digits, like 00186',
  LI: '4 digits from 9485 to 9497, like 9490', LT: '5 digits, like 01100', LU: '4 digits, like 1009', LV: '4 digits, like LV-1050',
  MC: '5 digits, like 98000', MT: 'like VLT 1117', NL: '4 digits and 2 letters, like 1012 AB', NO: '4 digits, like 0150',
  PL: '5 digits, like 00-590', PT: '7 digits, like 1100-148', RO: '6 digits, like 010011', RS: '5 digits, like 11000',
  SE: '5 digits, like 113 51', SI: '4 digits, like 1000', SK: '5 digits, like 811 01', SM: '5 digits, like 47890',
  UA: '5 digits, like 01001', US: '5 digits or ZIP+4, like 90210 or 90210-1234',
};

/** No postal code is this long, even written with its country's prefix: refused before any pattern reads it. */
const LONGEST_POSTAL_CODE = 20;

/**
 * Checks a postal code against its country's pattern (postcode-validator) and gives the form carriers take: Czech and
 * Slovak `602 00` → `60200`, Polish `00590` → `00-590`, Dutch `1012ab` → `1012 AB`, British `sw1a1aa` → `SW1A 1AA`,
 * `D-10115` → `10115`; other countries without spaces or dashes unless their pattern needs them. A country without a
 * known pattern (or without postal codes) takes the code as given, trimmed; so does blank where its pattern allows it.
 */
export function checkPostalCode(code: string, country: string): PostalCodeCheck {
  const written = code.trim();
  const countryCode = country.trim().toUpperCase();
  if (!postcodeValidatorExistsForCountry(countryCode)) return { ok: true, normalised: written };
  if (written.length <= LONGEST_POSTAL_CODE) {
    const normalised = carrierForm(written, countryCode);
    if (postcodeValidator(normalised, countryCode) && (FIRST_DIGITS[countryCode]?.test(normalised) ?? true)) return { ok: true, normalised };
  }
  return { ok: false, message: refusal(written, countryCode) };
}

function carrierForm(written: string, country: string): string {
  const upper = withoutCountryPrefix(written.toUpperCase(), country);
  const compact = upper.replace(/[\s-]/g, '');
  const spaced = upper.replace(/\s+/g, ' ');
  // a code written with the separator its pattern needs (`00-590`, `CP 1101`, `KY1-1234`) keeps it
  if (!postcodeValidator(compact, country) && postcodeValidator(spaced, country)) return spaced;
  const separator = SEPARATED[country];
  if (!separator || (separator.length !== undefined && compact.length !== separator.length)) return compact;
  const at = separator.at < 0 ? compact.length + separator.at : separator.at;
  return at > 0 && at < compact.length ? `${compact.slice(0, at)}${separator.mark}${compact.slice(at)}` : compact;
}

function withoutCountryPrefix(upper: string, country: string): string {
  const sign = VEHICLE_SIGNS[country];
  for (const prefix of sign ? [country, sign] : [country]) {
    if (upper.startsWith(`${prefix}-`)) return upper.slice(prefix.length + 1).trim();
  }
  return upper;
}

function refusal(written: string, country: string): string {
  const where = countryInText(country) ?? country;
  const hint = HINTS[country] ? ` (${HINTS[country]})` : '';
  return written === '' ? `a postal code is required in ${where}${hint}` : `${shownInput(written)} is not a postal code in ${where}${hint}`;
}
