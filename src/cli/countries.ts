import { INTERNATIONAL_PHONE } from '../domain/shipment-input.js';

/** What the packing desk needs to know of a destination country: its calling code, trunk prefixes and usual currency. */
export interface CountryFacts {
  /** ITU calling code without `+`, e.g. `420`. */
  callingCode: string;
  /** What a national number starts with that the international form leaves out (`0` of `0170 …` in Germany). */
  trunkPrefixes: readonly string[];
  /** The currency cash on delivery is most likely paid in. */
  currency: string;
}

const country = (callingCode: string, currency: string, trunkPrefixes: readonly string[] = []): CountryFacts => ({ callingCode, currency, trunkPrefixes });

/**
 * The countries the carriers of packdesk deliver to (their regions: central Europe, the EU, Iberia, Italy, DHL Express
 * beyond). Italy and San Marino keep the leading 0 of landlines in the international form, so they have no trunk prefix.
 */
export const COUNTRIES: Readonly<Record<string, CountryFacts>> = {
  AD: country('376', 'EUR'),
  AT: country('43', 'EUR', ['0']),
  BE: country('32', 'EUR', ['0']),
  BG: country('359', 'EUR', ['0']),
  CA: country('1', 'CAD', ['1']),
  CH: country('41', 'CHF', ['0']),
  CY: country('357', 'EUR'),
  CZ: country('420', 'CZK'),
  DE: country('49', 'EUR', ['0']),
  DK: country('45', 'DKK'),
  EE: country('372', 'EUR'),
  ES: country('34', 'EUR'),
  FI: country('358', 'EUR', ['0']),
  FR: country('33', 'EUR', ['0']),
  GB: country('44', 'GBP', ['0']),
  GR: country('30', 'EUR'),
  HR: country('385', 'EUR', ['0']),
  HU: country('36', 'HUF', ['06']),
  IE: country('353', 'EUR', ['0']),
  IT: country('39', 'EUR'),
  LI: country('423', 'CHF'),
  // Lithuania's trunk prefix was 8 until 2025 and is 0 since; people write both
  LT: country('370', 'EUR', ['0', '8']),
  LU: country('352', 'EUR'),
  LV: country('371', 'EUR'),
  MC: country('377', 'EUR'),
  MT: country('356', 'EUR'),
  NL: country('31', 'EUR', ['0']),
  NO: country('47', 'NOK'),
  PL: country('48', 'PLN'),
  PT: country('351', 'EUR'),
  RO: country('40', 'RON', ['0']),
  RS: country('381', 'RSD', ['0']),
  SE: country('46', 'SEK', ['0']),
  SI: country('386', 'EUR', ['0']),
  SK: country('421', 'EUR', ['0']),
  SM: country('378', 'EUR'),
  UA: country('380', 'UAH', ['0']),
  US: country('1', 'USD', ['1']),
};

export function countryFacts(code: unknown): CountryFacts | undefined {
  return typeof code === 'string' ? COUNTRIES[code.trim().toUpperCase()] : undefined;
}


/** Spaces, dashes, dots, slashes and brackets people write in phone numbers; `(0)` of `+44 (0)20 …` is not dialled. */
function cleanPhone(text: string): string {
  return text.trim().replace(/\(0\)/g, '').replace(/[\s\u00a0\u202f.\/()-]/g, '');
}

/**
 * A phone number in the international form the API takes: `+420 602 333 444` and `00420602333444` as they are, a
 * national number (`602 333 444`, `0170 1234567`) with the calling code of `country` in front of it (and its trunk
 * prefix taken off). Undefined when it is neither, or national for a country packdesk has no calling code of.
 */
export function internationalPhone(text: string, country: unknown): string | undefined {
  const phone = cleanPhone(text);
  if (phone.startsWith('+')) return INTERNATIONAL_PHONE.test(phone) ? phone : undefined;
  if (!/^\d+$/.test(phone)) return undefined;
  if (phone.startsWith('00')) return INTERNATIONAL_PHONE.test(`+${phone.slice(2)}`) ? `+${phone.slice(2)}` : undefined;
  const facts = countryFacts(country);
  if (!facts) return undefined;
  const trunk = facts.trunkPrefixes.find((prefix) => phone.startsWith(prefix));
  const national = trunk ? phone.slice(trunk.length) : phone;
  const international = `+${facts.callingCode}${national}`;
  return national.length >= 4 && INTERNATIONAL_PHONE.test(international) ? international : undefined;
}

/** Looks like a phone number at all: international, or national digits that a country's calling code can complete. */
export function isPhoneNumber(text: string): boolean {
  const phone = cleanPhone(text);
  return INTERNATIONAL_PHONE.test(phone) || /^\d{4,15}$/.test(phone);
}
