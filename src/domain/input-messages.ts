import { COUNTRY_CODES } from './reference-data.js';

/** What messages to a packer say of the value they typed and of its country. */

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
/** Countries whose English name takes "the" in a sentence ("in the Netherlands"). */
const NAMED_WITH_THE = new Set(['AE', 'BS', 'CF', 'CK', 'DO', 'FK', 'FO', 'GB', 'GM', 'KM', 'KY', 'MH', 'MV', 'NL', 'PH', 'SB', 'SC', 'TC', 'US', 'VA', 'VG', 'VI']);
const SHOWN_INPUT_LENGTH = 40;

/** The English name of an ISO 3166-1 alpha-2 country as it reads after "in" (`Czechia`, `the Netherlands`); undefined for anything else. */
export function countryInText(code: string): string | undefined {
  const country = code.trim().toUpperCase();
  if (!COUNTRY_CODES.has(country)) return undefined;
  const name = REGION_NAMES.of(country);
  if (name === undefined) return undefined;
  return NAMED_WITH_THE.has(country) ? `the ${name}` : name;
}

/** The value as a message quotes it: whitespace collapsed and cut short, so a hostile 64 KiB value makes a short message. */
export function shownInput(text: string): string {
  const head = text.slice(0, SHOWN_INPUT_LENGTH * 2).replace(/\s+/g, ' ').trim();
  return head.length > SHOWN_INPUT_LENGTH || text.length > SHOWN_INPUT_LENGTH * 2 ? `${head.slice(0, SHOWN_INPUT_LENGTH)}…` : head;
}
