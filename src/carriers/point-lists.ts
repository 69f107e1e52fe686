import type { Clock } from '../domain/clock.js';
import { distanceKm } from './distance.js';
import type { PickupPoint, PickupPointQuery } from './types.js';

/**
 * Whole point lists as carriers publish them (a country or a feed a file), downloaded once and kept for `lifetimeMs`,
 * shared by the calls that ask meanwhile; a failed download is not kept.
 */
export class KeptPointLists {
  private readonly lists = new Map<string, { fetchedAt: number; points: Promise<PickupPoint[]> }>();

  constructor(private readonly lifetimeMs: number) {}

  get(key: string, clock: Clock, download: () => Promise<PickupPoint[]>): Promise<PickupPoint[]> {
    const kept = this.lists.get(key);
    if (kept && clock.now() - kept.fetchedAt < this.lifetimeMs) return kept.points;
    const points = download();
    this.lists.set(key, { fetchedAt: clock.now(), points });
    points.catch(() => {
      if (this.lists.get(key)?.points === points) this.lists.delete(key);
    });
    return points;
  }
}

/** Case and accents set aside: `BUDAPEST I. KERÜLET` and `Budapest` are one town. */
function townKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase().trim();
}

/** How many leading digits two postal codes share. */
function sharedDigits(a: string, b: string): number {
  let n = 0;
  while (n < a.length && a[n] === b[n]) n++;
  return n;
}

/** The fewest leading postal-code digits a point shares with the asked code to count as near it. */
const MIN_SHARED_DIGITS = 2;

/**
 * A search over a carrier's whole point list, for carriers that publish a list but no search: nearest to `near`; else
 * in `city` (lists write a district or county after the town: `BUDAPEST I. KERÜLET`, `Brasov BV`); else by postal
 * code, the most shared leading digits and then the numerically nearest code first. Of `type` where asked; at most
 * `limit`.
 */
export function searchPickupPoints(points: readonly PickupPoint[], query: PickupPointQuery): PickupPoint[] {
  const ofType = points.filter((p) => !query.type || p.type === query.type);
  if (query.near) {
    const near = query.near;
    return ofType.flatMap((p) => (p.location ? [{ p, km: distanceKm(near, p.location) }] : []))
      .sort((a, b) => a.km - b.km).slice(0, query.limit).map(({ p }) => p);
  }
  if (query.city) {
    const town = townKey(query.city);
    return ofType.filter((p) => {
      const city = townKey(p.address.city);
      return city === town || city.startsWith(`${town} `);
    }).slice(0, query.limit);
  }
  const wanted = (query.postalCode ?? '').replace(/\D/g, '');
  if (!wanted) return [];
  return ofType.flatMap((p) => {
    const code = p.address.postalCode.replace(/\D/g, '');
    const shared = sharedDigits(code, wanted);
    return shared >= Math.min(MIN_SHARED_DIGITS, wanted.length) ? [{ p, shared, gap: Math.abs(Number(code) - Number(wanted)) }] : [];
  }).sort((a, b) => b.shared - a.shared || a.gap - b.gap).slice(0, query.limit).map(({ p }) => p);
}
