import { splitStreet } from '../../domain/street.js';
import { distanceKm } from '../distance.js';
import type { PickupPoint, PickupPointQuery, PickupPointType } from '../types.js';

/**
 * Allegro's pickup drop-off points (One Box lockers, One Punkt and the DPD and UPS points Allegro lists): the answer
 * of `GET /order/carriers/ALLEGRO/points` (getAllegroPickupDropOffPointsGET, `AllegroPickupDropOffPointsResponse` of
 * Allegro's OpenAPI, em411/allegro-php-api `resources/spec.yaml`) → our points. Pure. Allegro answers the whole list
 * (filtered only by carrier), so the search happens here.
 */

/** `AllegroCarrier`: the carriers whose points the list holds. */
export const ALLEGRO_POINT_CARRIERS = ['UPS', 'ALLEGRO_ONE_KURIER', 'DPD'] as const;
export type AllegroPointCarrier = (typeof ALLEGRO_POINT_CARRIERS)[number];

/** `AllegroPickupDropOffPoint`. */
export interface AllegroPickupDropOffPoint {
  id: string;
  name: string;
  type: 'PUDO' | 'APM';
  services: { type: string }[];
  restrictions: { type: string }[];
  description?: string;
  payments: { method: 'CASH' | 'CARD' }[];
  address: { postCode: string; city: string; street: string; countryCode: string; coordinates: { lat: number; lon: number } };
  opening: { dayOfWeek: string; from: string; to: string }[];
  carriers: string[];
}

export interface AllegroPickupDropOffPoints {
  points?: AllegroPickupDropOffPoint[];
}

/**
 * The point carrier of a delivery service's `carrierId`: DPD and UPS by name, Allegro's own (One Box, One Kurier) as
 * ALLEGRO_ONE_KURIER (inferred: the delivery services call it ALLEGRO); undefined for networks the list does not hold
 * (InPost's Paczkomaty, Orlen Paczka…), whose point ids come from the buyer's order.
 */
export function pointCarrierOf(carrierId: string): AllegroPointCarrier | undefined {
  if (carrierId === 'ALLEGRO' || carrierId === 'ALLEGRO_ONE_KURIER') return 'ALLEGRO_ONE_KURIER';
  return (ALLEGRO_POINT_CARRIERS as readonly string[]).includes(carrierId) ? (carrierId as AllegroPointCarrier) : undefined;
}

const TYPES: Record<AllegroPickupDropOffPoint['type'], PickupPointType> = { PUDO: 'parcelshop', APM: 'locker' };
const DAYS: Readonly<Record<string, number>> = { MONDAY: 1, TUESDAY: 2, WEDNESDAY: 3, THURSDAY: 4, FRIDAY: 5, SATURDAY: 6, SUNDAY: 7 };

/**
 * One point as ours; undefined for a drop-off-only point (no PICKUP service: nothing is delivered there). COD where
 * the point takes a payment (cash or card; inferred), closed while it is OVERLOADED (inferred: it takes no parcels then).
 */
export function pickupPointOf(p: AllegroPickupDropOffPoint): PickupPoint | undefined {
  if (!p.id || !(p.services ?? []).some((s) => s.type === 'PICKUP')) return undefined;
  const countryCode = p.address?.countryCode ?? '';
  const street = splitStreet(p.address?.street ?? '', countryCode);
  const at = p.address?.coordinates;
  return {
    id: p.id,
    name: p.name || p.id,
    type: TYPES[p.type] ?? 'parcelshop',
    address: {
      street: street.street_name,
      houseNumber: street.apartment_number ? `${street.house_number}/${street.apartment_number}` : street.house_number ?? '',
      city: p.address?.city ?? '', postalCode: p.address?.postCode ?? '', countryCode,
    },
    openingHours: (p.opening ?? []).flatMap((o) => (DAYS[o.dayOfWeek] ? [{ day: DAYS[o.dayOfWeek]!, from: o.from, to: o.to }] : []))
      .sort((a, b) => a.day - b.day || a.from.localeCompare(b.from)),
    location: typeof at?.lat === 'number' && typeof at?.lon === 'number' ? { lat: at.lat, lon: at.lon } : null,
    cashOnDelivery: (p.payments ?? []).length > 0,
    open: !(p.restrictions ?? []).some((r) => r.type === 'OVERLOADED'),
  };
}

/**
 * The points of the list that a search asks for: of the country and type; nearest first around coordinates; in the
 * city (any case); else those sharing the most leading digits (at least two) of the postal code. At most `limit`.
 */
export function searchAllegroPoints(list: readonly PickupPoint[], query: PickupPointQuery): PickupPoint[] {
  const country = query.countryCode.toUpperCase();
  const matching = list.filter((p) => p.address.countryCode.toUpperCase() === country && (!query.type || p.type === query.type));
  const near = query.near;
  if (near) {
    const distance = (p: PickupPoint) => (p.location ? distanceKm(near, p.location) : Infinity);
    return matching.filter((p) => p.location).sort((a, b) => distance(a) - distance(b)).slice(0, query.limit);
  }
  if (query.city !== undefined) {
    const city = query.city.trim().toLocaleLowerCase();
    return matching.filter((p) => p.address.city.toLocaleLowerCase() === city).slice(0, query.limit);
  }
  const wanted = (query.postalCode ?? '').replace(/\D/g, '');
  const shared = (p: PickupPoint) => {
    const code = p.address.postalCode.replace(/\D/g, '');
    let n = 0;
    while (n < code.length && code[n] === wanted[n]) n++;
    return n;
  };
  const best = matching.reduce((most, p) => Math.max(most, shared(p)), 0);
  return best < 2 ? [] : matching.filter((p) => shared(p) === best).slice(0, query.limit);
}
