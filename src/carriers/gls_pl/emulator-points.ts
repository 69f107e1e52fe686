/**
 * GLS Poland's ParcelShops in the ADE emulator: a few hundred generated in Poland, answered by ADE's point operations
 * in cParcelShop's shape (points.ts). Ids are inferred (`PL` and five digits): no public source shows a GLS Poland
 * ParcelShop id. ADE lists the points that take parcels; a closed one is known to the emulator only to refuse it.
 */
import { generatePoints, searchPoints, type GeneratedPoint } from '../emulator/points.js';
import type { XmlElement } from '../soap.js';

const POINTS = 300;
/** How many points adeParcelShop_SearchByZip answers (inferred). */
const ZIP_ANSWER = 30;
const DAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export type EmulatedParcelShops = ReadonlyMap<string, GeneratedPoint>;

/** The same points every run, by id. */
export function glsPlParcelShops(): EmulatedParcelShops {
  const points = generatePoints({ countryCode: 'PL', count: POINTS, seed: 'gls_pl', types: ['parcelshop'] });
  return new Map(points.map((p) => [`PL${String(10001 + p.seq)}`, p]));
}

/** One cParcelShop. */
export function parcelShopView(id: string, p: GeneratedPoint): XmlElement {
  const hours = new Map(p.hours.map((h) => [h.day, h]));
  const opening = Object.fromEntries(DAY_KEYS.flatMap((key, i) => {
    const h = hours.get(i + 1);
    return [[`${key}_open`, h?.from ?? ''], [`${key}_close`, h?.to ?? '']];
  }));
  return {
    id, name1: `GLS ParcelShop ${p.name}`, country: p.countryCode, zipcode: p.postalCode, city: p.city, street: `${p.street} ${p.houseNumber}`,
    gps_lati: p.lat, gps_long: p.lon, ...opening,
  };
}

function openShops(shops: EmulatedParcelShops, country: string): [string, GeneratedPoint][] {
  return [...shops].filter(([, p]) => p.open && p.countryCode === country.trim().toUpperCase());
}

/** adeParcelShop_SearchByZip: the open points sharing the most leading digits of the post code. */
export function shopsByZip(shops: EmulatedParcelShops, country: string, zipcode: string): XmlElement {
  const open = openShops(shops, country);
  const idOf = new Map(open.map(([id, p]) => [p, id]));
  const found = searchPoints(open.map(([, p]) => p), { postalCode: zipcode, limit: ZIP_ANSWER });
  return { items: found.map((p) => parcelShopView(idOf.get(p)!, p)) };
}

/** adeParcelShop_GetByCountry: every open point of the country. */
export function shopsOfCountry(shops: EmulatedParcelShops, country: string): XmlElement {
  return { items: openShops(shops, country).map(([id, p]) => parcelShopView(id, p)) };
}
