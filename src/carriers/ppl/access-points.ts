import { distanceKm } from '../distance.js';
import type { PickupPoint, PickupPointQuery } from '../types.js';
import { PPL_ACCESS_POINT_TYPES } from './codes.js';

/**
 * PPL's access points (ParcelShops, ParcelBoxes, AlzaBoxes): our point search → the query of `GET /accessPoint`, and
 * its answer → our points. Pure. Shapes: `AccessPointModel` and the operation's parameters in PPL's CPL OpenAPI (the
 * `api.json` of PPL's own shop module, github.com/PPL-CZ/PPL-PrestaShop `pplshipping/src/api.json`), docs:
 * https://ppl-cpl-api-en.apidog.io/list-of-access-points-13601458e0
 */

/** One entry of `workHours`: `weekDay` 1 Sunday … 7 Saturday, `dayPart` 0 morning / 1 afternoon, times as .NET TimeSpans. */
export interface PplWorkHour {
  weekDay?: number;
  dayPart?: number;
  openFrom?: string | null;
  openTo?: string | null;
}

/** `Eps.Api.MyApi2.Web.Models.AccessPoint.AccessPointModel`, the fields packdesk reads. */
export interface PplAccessPoint {
  accessPointCode?: string | null;
  accessPointType?: string;
  name?: string | null;
  name2?: string | null;
  street?: string | null;
  city?: string | null;
  country?: string | null;
  zipCode?: string | null;
  activeCardPayment?: boolean;
  activeCashPayment?: boolean;
  workHours?: PplWorkHour[] | null;
  gps?: { latitude?: number | null; longitude?: number | null } | null;
}

/** PPL's types of our point types; PPL has no post offices. */
const ACCESS_POINT_TYPES_OF = {
  parcelshop: ['ParcelShop'],
  locker: ['ParcelBox', 'AlzaBox'],
  post_office: [],
} as const;

/** Around coordinates: points within this many km, more than asked for, sorted here (PPL documents no order). */
const NEAR_RADIUS_KM = 10;
const NEAR_CANDIDATES = 200;
/** `Limit` of `GET /accessPoint` is 1 to 1000. */
const LIMIT_MAX = 1000;

/** The query of a point search; undefined when PPL has no point of the asked type. */
export function accessPointSearch(query: PickupPointQuery): URLSearchParams | undefined {
  const params = new URLSearchParams({ CountryCode: query.countryCode });
  if (query.type) {
    const types = ACCESS_POINT_TYPES_OF[query.type];
    if (types.length === 0) return undefined;
    for (const t of types) params.append('AccessPointTypes', t);
  }
  if (query.near) {
    params.set('Latitude', String(query.near.lat));
    params.set('Longitude', String(query.near.lon));
    params.set('Radius', String(NEAR_RADIUS_KM));
  } else if (query.city !== undefined) params.set('City', query.city);
  else if (query.postalCode !== undefined) params.set('ZipCode', query.postalCode.replace(/\s+/g, ''));
  params.set('Limit', String(Math.min(query.near ? Math.max(query.limit, NEAR_CANDIDATES) : query.limit, LIMIT_MAX)));
  params.set('Offset', '0');
  return params;
}

/** The query that looks one point up by its code (as PPL's own shop module does). */
export function accessPointLookup(code: string): URLSearchParams {
  return new URLSearchParams({ AccessPointCode: code, Limit: '10', Offset: '0' });
}

/** PPL's answer → our points, nearest first when the search was near coordinates, at most `limit`. */
export function pickupPointsOf(found: readonly PplAccessPoint[], query: Pick<PickupPointQuery, 'near' | 'limit'>): PickupPoint[] {
  const points = found.map(pickupPointOf).filter((p): p is PickupPoint => p !== undefined);
  const near = query.near;
  if (near) points.sort((a, b) => (a.location ? distanceKm(near, a.location) : Infinity) - (b.location ? distanceKm(near, b.location) : Infinity));
  return points.slice(0, query.limit);
}

/**
 * One access point as our point. It takes cash on delivery where the recipient can pay there by cash or card (PPL's
 * shop modules offer card-paying points for COD orders: inferred). PPL lists only points in service and has no
 * closed flag, so every listed point is open (inferred).
 */
export function pickupPointOf(p: PplAccessPoint): PickupPoint | undefined {
  if (!p.accessPointCode) return undefined;
  const { street, houseNumber } = splitStreet(p.street ?? '');
  const lat = p.gps?.latitude;
  const lon = p.gps?.longitude;
  return {
    id: p.accessPointCode,
    name: p.name || p.accessPointCode,
    type: PPL_ACCESS_POINT_TYPES[p.accessPointType ?? 'None'] ?? 'parcelshop',
    address: { street, houseNumber, city: p.city ?? '', postalCode: p.zipCode ?? '', countryCode: p.country ?? '' },
    openingHours: openingHours(p.workHours ?? []),
    location: typeof lat === 'number' && typeof lon === 'number' ? { lat, lon } : null,
    cashOnDelivery: p.activeCashPayment === true || p.activeCardPayment === true,
    open: true,
  };
}

/** PPL gives the street with its number ("Nádražní 12/3"): the number is the last word when it starts with a digit. */
function splitStreet(line: string): { street: string; houseNumber: string } {
  const match = /^(.*\S)\s+(\d\S*)$/.exec(line.trim());
  return match ? { street: match[1]!, houseNumber: match[2]! } : { street: line.trim(), houseNumber: '' };
}

/** Work hours by ISO weekday (PPL counts 1 Sunday … 7 Saturday), each day's parts in order. */
function openingHours(hours: readonly PplWorkHour[]): PickupPoint['openingHours'] {
  const intervals = hours.flatMap((h) => {
    const from = hhmm(h.openFrom);
    const to = hhmm(h.openTo);
    if (h.weekDay === undefined || h.weekDay < 1 || h.weekDay > 7 || !from || !to) return [];
    return [{ day: h.weekDay === 1 ? 7 : h.weekDay - 1, from, to }];
  });
  return intervals.sort((a, b) => a.day - b.day || a.from.localeCompare(b.from));
}

/** A .NET TimeSpan ("08:30:00", "1.00:00:00" for a whole day) → "HH:MM". */
function hhmm(span: string | null | undefined): string | undefined {
  const match = /^(?:(\d+)\.)?(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(span ?? '');
  if (!match) return undefined;
  const hours = Number(match[1] ?? 0) * 24 + Number(match[2]);
  return hours > 24 ? undefined : `${String(hours).padStart(2, '0')}:${match[3]}`;
}
