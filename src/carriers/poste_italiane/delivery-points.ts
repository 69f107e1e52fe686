import { splitStreet } from '../../domain/street.js';
import { distanceKm } from '../distance.js';
import type { PickupPoint, PickupPointQuery, PickupPointType } from '../types.js';
import { POSTE_POINT_SERVICES } from './codes.js';

/**
 * Poste's delivery points (Punto Poste, Punto Poste Locker, Ufficio Postale): `GET postalandlogistics/parcel/
 * deliveryPoint?zipCode=&serviceType=` and its `{return: {outcome, code, deliveryPoint[]}}` → our points. Pure. Shapes:
 * mlocati/MLPosteDeliveryExpress `Library/DeliveryPoint/{Finder,ServiceType}.cs`, `Response/*.cs` (run against Poste's
 * sandbox in its DeliveryPointTests), smart-dato/post-it-sdk `src/Data/DeliveryPoint*.php` (values right-padded).
 */

export interface PosteDeliveryPoint {
  officeCode?: string;
  officeDescription?: string;
  address?: string;
  place?: string;
  province?: string;
  zipCode?: string;
  phone?: string;
  /** Monday to Friday, and Saturday, "HH:MM:SS" (DeliveryPoint.cs); Poste gives no Sunday. */
  openTimeMon?: string | null;
  closeTimeMon?: string | null;
  openTimeSat?: string | null;
  closeTimeSat?: string | null;
  saturationPercentage?: string;
  /** Longitude and latitude, as strings (DeliveryPoint.cs: XDegree → Longitude, YDegree → Latitude). */
  XDegree?: string;
  YDegree?: string;
}

export interface PosteDeliveryPointAnswer {
  return?: { outcome?: string; code?: number; deliveryPoint?: PosteDeliveryPoint[] | null };
}

/** Poste's search takes a five-digit CAP and nothing else (Finder.cs). */
const CAP = /^\d{5}$/;

/** The `serviceType` searches a query asks for: one per point type, none where Poste cannot search it. */
export function deliveryPointSearches(query: PickupPointQuery): { type: PickupPointType; zipCode: string; serviceType: string }[] {
  const zipCode = (query.postalCode ?? '').replace(/\s/g, '');
  if (query.countryCode !== 'IT' || !CAP.test(zipCode)) return [];
  const types = query.type ? [query.type] : (Object.keys(POSTE_POINT_SERVICES) as PickupPointType[]);
  return types.map((type) => ({ type, zipCode, serviceType: POSTE_POINT_SERVICES[type].serviceType }));
}

/** One search's answer → our points of its type; undefined when Poste answered KO. */
export function deliveryPointsOf(answer: PosteDeliveryPointAnswer, type: PickupPointType): PickupPoint[] | undefined {
  const ret = answer.return;
  if (!ret || (ret.code ?? 0) !== 0 || ret.outcome?.trim().toUpperCase() === 'KO') return undefined;
  return (ret.deliveryPoint ?? []).flatMap((p) => {
    const point = deliveryPointOf(p, type);
    return point ? [point] : [];
  });
}

/** The found points, nearest first when the search was near coordinates, at most `limit`. */
export function nearestFirst(points: PickupPoint[], query: Pick<PickupPointQuery, 'near' | 'limit'>): PickupPoint[] {
  const near = query.near;
  if (near) points.sort((a, b) => (a.location ? distanceKm(near, a.location) : Infinity) - (b.location ? distanceKm(near, b.location) : Infinity));
  return points.slice(0, query.limit);
}

/**
 * One point. Poste's point data says nothing about cash on delivery: every point is taken to accept it (inferred;
 * Poste checks COD against the point service when the waybill is created). A point at 100 % `saturationPercentage`
 * is full and taken as closed (inferred from the field's name).
 */
function deliveryPointOf(p: PosteDeliveryPoint, type: PickupPointType): PickupPoint | undefined {
  const id = p.officeCode?.trim();
  if (!id) return undefined;
  const parts = splitStreet(p.address ?? '', 'IT');
  const lat = Number(p.YDegree?.trim());
  const lon = Number(p.XDegree?.trim());
  return {
    id,
    name: p.officeDescription?.trim() || id,
    type,
    address: { street: parts.street_name, houseNumber: parts.house_number ?? '', city: p.place?.trim() ?? '', postalCode: p.zipCode?.trim() ?? '', countryCode: 'IT' },
    openingHours: [
      ...[1, 2, 3, 4, 5].flatMap((day) => interval(day, p.openTimeMon, p.closeTimeMon)),
      ...interval(6, p.openTimeSat, p.closeTimeSat),
    ],
    location: p.YDegree?.trim() && p.XDegree?.trim() && Number.isFinite(lat) && Number.isFinite(lon) ? { lat, lon } : null,
    cashOnDelivery: true,
    open: Number(p.saturationPercentage ?? 0) < 100,
  };
}

/** "08:00:00"–"19:30:00" → one interval; a day without times is closed. Poste's last second of the day reads as 24:00. */
function interval(day: number, from: string | null | undefined, to: string | null | undefined): PickupPoint['openingHours'] {
  const start = hhmm(from);
  const end = to?.trim().startsWith('23:59') ? '24:00' : hhmm(to);
  return start && end ? [{ day, from: start, to: end }] : [];
}

function hhmm(time: string | null | undefined): string | undefined {
  const match = /^(\d{2}):(\d{2})(?::\d{2})?$/.exec(time?.trim() ?? '');
  return match ? `${match[1]}:${match[2]}` : undefined;
}
