import { localTime, type LocalTime } from '../local-time.js';
import type { GlsCountry } from './codes.js';

/**
 * MyGLS is a WCF service: its JSON dates are `/Date(<Unix ms>[±hhmm])/` (webapix/mygls-sdk sends
 * `/Date(1594764000000+0200)/`); the milliseconds are UTC, the offset only says which zone wrote them.
 */
export function wcfDate(ms: number): string {
  return `/Date(${ms})/`;
}

/** A WCF date → Unix ms, or undefined when the text is not one. */
export function parseWcfDate(text: unknown): number | undefined {
  const m = typeof text === 'string' ? /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/.exec(text) : null;
  return m ? Number(m[1]) : undefined;
}

const ZONES: Readonly<Record<GlsCountry, string>> = {
  cz: 'Europe/Prague', sk: 'Europe/Bratislava', hu: 'Europe/Budapest', ro: 'Europe/Bucharest',
  si: 'Europe/Ljubljana', hr: 'Europe/Zagreb', rs: 'Europe/Belgrade',
};

/** The time zone of a MyGLS country, by its host's code (`cz`) or ISO code (`CZ`); undefined for any other. */
export function glsZone(country: string): string | undefined {
  return ZONES[country.toLowerCase() as GlsCountry];
}

/** Wall-clock times in a MyGLS country. */
export function glsLocalTime(country: GlsCountry): LocalTime {
  return localTime(ZONES[country]);
}

/** A calendar day and an `HH:MM` on the account's country's clock → Unix ms. */
export function glsLocalMs(day: string, hhmm: string, country: GlsCountry): number {
  const ms = glsLocalTime(country).parse(`${day} ${hhmm}:00`);
  if (ms === undefined) throw new Error(`not a calendar day and time: ${day} ${hhmm}`);
  return ms;
}

/** A calendar day (`2026-11-23`) as the WCF date of its midnight in the account's country. */
export function wcfDay(day: string, country: GlsCountry): string {
  return wcfDate(glsLocalMs(day, '00:00', country));
}
