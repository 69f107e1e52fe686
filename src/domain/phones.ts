// `max` metadata knows each country's real number ranges, so a mistyped mobile prefix is refused (`min` checks lengths only); its 157 KB over min's 83 KB buys that
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';
import { countryInText, shownInput } from './input-messages.js';

/** A phone number as packdesk stores it (E.164, `+420777888999`), or why the text is not one. */
export type PhoneParse =
  | { ok: true; e164: string }
  | { ok: false; empty: boolean; message: string };

/** Longer than any phone number written with spaces, brackets and an extension; refused before it is parsed. */
const LONGEST_PHONE_TEXT = 64;

/**
 * Reads a phone number as people write it for an address in `country` (ISO 3166-1 alpha-2): national (`777 888 999`
 * for CZ, `0170 1234567` for DE, `(0)20 7946 0958` for GB) or international (`+420 777 888 999`, `00420777888999`,
 * `+44 (0)20 7946 0958`), and gives its E.164 form. An international number of another country than the address is
 * taken when it is a valid number of its own country (a Slovak mobile for a Czech address). The whole text must be the
 * number (`tel: 777 888 999` is refused rather than guessed at); an extension (`… ext 12`) is left out of the E.164 form.
 * Without a country (or with one that has no numbering plan) only international numbers are taken.
 * Blank text is `{ ok: false, empty: true }`: whether a phone number is required is the caller's rule.
 */
export function parsePhone(text: string, country: string | undefined): PhoneParse {
  const written = text.trim();
  if (written === '') return { ok: false, empty: true, message: 'a phone number is required' };
  const region = numberingPlanOf(country);
  if (written.length > LONGEST_PHONE_TEXT) return { ok: false, empty: false, message: refusal(written, region, undefined) };
  const parsed = parse(written, region);
  if (parsed?.isValid()) return { ok: true, e164: parsed.number };
  // where the international call prefix is not 00 (011 in the US), 00 still starts an international number
  const dialledAbroad = written.startsWith('00') ? parse(`+${written.slice(2)}`, undefined) : undefined;
  if (dialledAbroad?.isValid()) return { ok: true, e164: dialledAbroad.number };
  return { ok: false, empty: false, message: refusal(written, region, (dialledAbroad ?? parsed)?.country) };
}

function parse(text: string, region: CountryCode | undefined): PhoneNumber | undefined {
  return parsePhoneNumberFromString(text, { defaultCountry: region, extract: false });
}

function numberingPlanOf(country: string | undefined): CountryCode | undefined {
  const code = country?.trim().toUpperCase();
  return code && isSupportedCountry(code) ? code : undefined;
}

function refusal(written: string, region: CountryCode | undefined, numberCountry: CountryCode | undefined): string {
  const shown = shownInput(written);
  if (written.startsWith('+') || written.startsWith('00')) {
    const countryName = numberCountry && countryInText(numberCountry);
    return countryName ? `${shown} is not a phone number in ${countryName}` : `${shown} is not a valid phone number`;
  }
  const countryName = region && countryInText(region);
  if (countryName) return `${shown} is not a phone number in ${countryName} (write a foreign number with + and its calling code)`;
  return `${shown} has no country calling code: write it with + and the calling code`;
}
