import { createHash } from 'node:crypto';
import { distanceKm } from '../distance.js';
import type { PickupPointType } from '../types.js';

export { distanceKm };

/**
 * Pickup points for the carriers' emulators: a few hundred per country, generated (never copied from a carrier) from
 * a seed, so every run and every carrier's emulator answers the same points. Each emulator names, numbers and shapes
 * them as its carrier does; this module gives the places: towns, streets, postcodes of the country's form,
 * coordinates near the town, opening hours, whether the point takes cash on delivery and whether it is open.
 */

export interface GeneratedPoint {
  /** 0-based, stable for a seed: emulators derive their carrier's point id from it. */
  seq: number;
  type: PickupPointType;
  /** A shop-like name ("Trafika Na Nábřeží"); emulators may prefix their brand. */
  name: string;
  street: string;
  houseNumber: string;
  city: string;
  postalCode: string;
  countryCode: string;
  lat: number;
  lon: number;
  /** ISO weekday 1–7 → intervals; a day absent is closed. */
  hours: { day: number; from: string; to: string }[];
  cashOnDelivery: boolean;
  open: boolean;
}

interface Town { name: string; lat: number; lon: number; postal: (n: number) => string }

const digits = (n: number, width: number) => String(n).padStart(width, '0');
/** Postcodes in each country's written form, from a town's base number and a district offset. */
const CZ = (base: number) => (n: number) => { const v = base + n * 10; return `${digits(Math.floor(v / 100), 3)} ${digits(v % 100, 2)}`; };
const PL = (base: number) => (n: number) => { const v = base + n; return `${digits(Math.floor(v / 1000), 2)}-${digits(v % 1000, 3)}`; };
const PLAIN = (base: number, width: number) => (n: number) => digits(base + n, width);

const TOWNS: Record<string, Town[]> = {
  CZ: [
    { name: 'Praha', lat: 50.0755, lon: 14.4378, postal: CZ(11000) }, { name: 'Brno', lat: 49.1951, lon: 16.6068, postal: CZ(60200) },
    { name: 'Ostrava', lat: 49.8209, lon: 18.2625, postal: CZ(70200) }, { name: 'Plzeň', lat: 49.7384, lon: 13.3736, postal: CZ(30100) },
    { name: 'Olomouc', lat: 49.5938, lon: 17.2509, postal: CZ(77900) }, { name: 'Liberec', lat: 50.7663, lon: 15.0543, postal: CZ(46001) },
    { name: 'České Budějovice', lat: 48.9745, lon: 14.4743, postal: CZ(37001) }, { name: 'Hradec Králové', lat: 50.2104, lon: 15.8252, postal: CZ(50002) },
  ],
  SK: [
    { name: 'Bratislava', lat: 48.1486, lon: 17.1077, postal: CZ(81101) }, { name: 'Košice', lat: 48.7164, lon: 21.2611, postal: CZ(4001) },
    { name: 'Žilina', lat: 49.2231, lon: 18.7394, postal: CZ(1001) }, { name: 'Nitra', lat: 48.3069, lon: 18.0864, postal: CZ(94901) },
  ],
  PL: [
    { name: 'Warszawa', lat: 52.2297, lon: 21.0122, postal: PL(1), }, { name: 'Kraków', lat: 50.0647, lon: 19.945, postal: PL(30001) },
    { name: 'Łódź', lat: 51.7592, lon: 19.456, postal: PL(90001) }, { name: 'Wrocław', lat: 51.1079, lon: 17.0385, postal: PL(50001) },
    { name: 'Poznań', lat: 52.4064, lon: 16.9252, postal: PL(60001) }, { name: 'Gdańsk', lat: 54.352, lon: 18.6466, postal: PL(80001) },
    { name: 'Katowice', lat: 50.2649, lon: 19.0238, postal: PL(40001) }, { name: 'Lublin', lat: 51.2465, lon: 22.5684, postal: PL(20001) },
  ],
  HU: [{ name: 'Budapest', lat: 47.4979, lon: 19.0402, postal: PLAIN(1011, 4) }, { name: 'Debrecen', lat: 47.5316, lon: 21.6273, postal: PLAIN(4024, 4) }],
  RO: [{ name: 'București', lat: 44.4268, lon: 26.1025, postal: PLAIN(10011, 6) }, { name: 'Cluj-Napoca', lat: 46.7712, lon: 23.6236, postal: PLAIN(400001, 6) }],
  SI: [{ name: 'Ljubljana', lat: 46.0569, lon: 14.5058, postal: PLAIN(1000, 4) }],
  HR: [{ name: 'Zagreb', lat: 45.815, lon: 15.9819, postal: PLAIN(10000, 5) }],
  RS: [{ name: 'Beograd', lat: 44.7866, lon: 20.4489, postal: PLAIN(11000, 5) }],
  IT: [{ name: 'Roma', lat: 41.9028, lon: 12.4964, postal: PLAIN(118, 5) }, { name: 'Milano', lat: 45.4642, lon: 9.19, postal: PLAIN(20121, 5) }],
  ES: [{ name: 'Madrid', lat: 40.4168, lon: -3.7038, postal: PLAIN(28001, 5) }, { name: 'Barcelona', lat: 41.3874, lon: 2.1686, postal: PLAIN(8001, 5) }],
  DE: [{ name: 'Berlin', lat: 52.52, lon: 13.405, postal: PLAIN(10115, 5) }, { name: 'Dresden', lat: 51.0504, lon: 13.7373, postal: PLAIN(1067, 5) }],
  AT: [{ name: 'Wien', lat: 48.2082, lon: 16.3738, postal: PLAIN(1010, 4) }],
};

/** Street and shop words in the country's language (Czech for CZ and SK, Polish for PL, neutral elsewhere). */
const WORDS: Record<'cs' | 'pl' | 'other', { streets: string[]; shops: string[] }> = {
  cs: {
    streets: ['Nádražní', 'Hlavní', 'Školní', 'Zahradní', 'Polní', 'Lipová', 'Krátká', 'Dlouhá', 'Sadová', 'Luční', 'Tovární', 'Husova'],
    shops: ['Trafika', 'Papírnictví', 'Drogerie', 'Potraviny', 'Květinářství', 'Čerpací stanice', 'Knihkupectví', 'Elektro'],
  },
  pl: {
    streets: ['Kwiatowa', 'Polna', 'Leśna', 'Słoneczna', 'Krótka', 'Szkolna', 'Ogrodowa', 'Lipowa', 'Łąkowa', 'Brzozowa', 'Kościuszki', 'Mickiewicza'],
    shops: ['Kiosk', 'Sklep spożywczy', 'Drogeria', 'Księgarnia', 'Kwiaciarnia', 'Stacja paliw', 'Sklep papierniczy', 'Sklep RTV'],
  },
  other: {
    streets: ['Central', 'Park', 'Station', 'Market', 'Garden', 'River', 'Church', 'School', 'Mill', 'Bridge', 'Forest', 'Castle'],
    shops: ['Kiosk', 'Market', 'Drugstore', 'Bookshop', 'Florist', 'Petrol station', 'Stationery', 'Electronics'],
  },
};
const wordsOf = (country: string) => WORDS[country === 'CZ' || country === 'SK' ? 'cs' : country === 'PL' ? 'pl' : 'other'];

/** A deterministic stream of numbers in [0, 1) from a seed. */
function random(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest();
  let at = 0;
  return () => {
    if (at + 4 > state.length) {
      state = createHash('sha256').update(state).digest();
      at = 0;
    }
    const value = state.readUInt32BE(at) / 2 ** 32;
    at += 4;
    return value;
  };
}

const hhmm = (minutes: number) => `${digits(Math.floor(minutes / 60), 2)}:${digits(minutes % 60, 2)}`;

/** The country's towns the generator knows (points exist only there). */
export const POINT_COUNTRIES: readonly string[] = Object.keys(TOWNS);

/**
 * `count` points of `types` in `countryCode`, spread over its towns; about one in ten takes no cash on delivery and
 * one in forty is closed. Lockers are open all week round the clock.
 */
export function generatePoints(options: { countryCode: string; count: number; seed: string; types: readonly PickupPointType[] }): GeneratedPoint[] {
  const towns = TOWNS[options.countryCode] ?? [];
  if (towns.length === 0 || options.types.length === 0) return [];
  const next = random(`${options.seed}:${options.countryCode}`);
  const { streets, shops } = wordsOf(options.countryCode);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: options.count }, (_, seq) => {
    // types take turns within a town, so every town has every type
    const type = options.types[seq % options.types.length]!;
    const town = towns[Math.floor(seq / options.types.length) % towns.length]!;
    const street = pick(streets);
    const opens = 7 * 60 + Math.floor(next() * 4) * 30;
    const closes = 17 * 60 + Math.floor(next() * 8) * 30;
    const hours = type === 'locker'
      ? [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '00:00', to: '24:00' }))
      : [1, 2, 3, 4, 5, ...(next() < 0.6 ? [6] : [])].map((day) => ({ day, from: hhmm(opens), to: hhmm(day === 6 ? Math.min(closes, 12 * 60) : closes) }));
    return {
      seq, type,
      name: type === 'locker' ? `${street} ${seq + 1}` : `${pick(shops)} ${street}`,
      street, houseNumber: String(1 + Math.floor(next() * 120)),
      city: town.name, postalCode: town.postal(Math.floor(next() * 9)), countryCode: options.countryCode,
      lat: Math.round((town.lat + (next() - 0.5) * 0.08) * 1e6) / 1e6,
      lon: Math.round((town.lon + (next() - 0.5) * 0.12) * 1e6) / 1e6,
      hours, cashOnDelivery: next() >= 0.1, open: next() >= 0.025,
    };
  });
}

/**
 * The points a carrier's search would answer: of `type` if given, near `near`, else in `city` (case-insensitive), else
 * sharing the postcode's first digits (the longest prefix any point shares), nearest or best first, at most `limit`.
 */
export function searchPoints(
  points: readonly GeneratedPoint[], query: { postalCode?: string; city?: string; near?: { lat: number; lon: number }; type?: PickupPointType; limit: number },
): GeneratedPoint[] {
  const ofType = points.filter((p) => !query.type || p.type === query.type);
  if (query.near) return [...ofType].sort((a, b) => distanceKm(query.near!, a) - distanceKm(query.near!, b)).slice(0, query.limit);
  if (query.city) return ofType.filter((p) => p.city.toLocaleLowerCase() === query.city!.toLocaleLowerCase()).slice(0, query.limit);
  const wanted = (query.postalCode ?? '').replace(/\D/g, '');
  if (!wanted) return [];
  const shared = (p: GeneratedPoint) => {
    const code = p.postalCode.replace(/\D/g, '');
    let n = 0;
    while (n < code.length && code[n] === wanted[n]) n++;
    return n;
  };
  const best = Math.max(0, ...ofType.map(shared));
  return best < 2 ? [] : ofType.filter((p) => shared(p) === best).slice(0, query.limit);
}
