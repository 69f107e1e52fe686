import { splitStreet } from '../../domain/street.js';
import type { PickupPoint, PickupPointQuery, PickupPointType } from '../types.js';

/**
 * DHL Express Service Points through MyDHL's own `GET /servicepoints` (MyDHL OpenAPI 3.1.1, operation
 * exp-api-servicepoints, answer ServicePointsRestResponseV3): the query a search sends and the answer → our points.
 * Pure. A shipment names the point by its `facilityId` (`PRG041`: the service area, then the facility) in
 * `onDemandDelivery.servicePointId` with `deliveryOption` `servicepoint` (request.ts).
 */

/** `servicePointType` of the answer → ours: DHL's own counters and partner shops are shops; 24/7 points are lockers. */
export const DHL_POINT_TYPES: Readonly<Record<string, PickupPointType>> = {
  CITY: 'parcelshop', STATION: 'parcelshop', PARTNER: 'parcelshop', TWENTYFOURSEVEN: 'locker',
};

/** Our type → the query's `servicePointTypes` codes (CTY, STN, PRT, 247). */
const QUERY_TYPES: Readonly<Record<string, string>> = { parcelshop: 'CTY,STN,PRT', locker: '247' };

/** Physical process capabilities "78,79: I'm collecting a DHL Express parcel": points where a recipient collects. */
export const COLLECTION_CAPABILITY = '78,79';

/** A Service Point ID: 3 characters of service area, 3 of facility (`BRU001`; the request's servicePointId takes at most 6). */
export const SERVICE_POINT_ID = /^[A-Z0-9]{6}$/;

/** `status.statusCode` 1 is OK, 3 a warning with points; 201, 202 and 600 find none; 100 and 101 are a bad query. */
const FOUND = new Set([1, 3]);
const NONE_FOUND = new Set([201, 202, 600]);

export interface DhlServicePoint {
  facilityId?: string;
  servicePointName?: string;
  servicePointNameFormatted?: string;
  localName?: string;
  servicePointType?: string;
  address?: { addressLine1?: string | null; street?: string | null; houseNumber?: string | null; city?: string | null; zipCode?: string | null; country?: string | null };
  geoLocation?: { latitude?: number; longitude?: number } | null;
  openingHours?: { openingHours?: { dayOfWeek?: string; openingTime?: string; closingTime?: string }[] | null } | null;
  servicePointCapabilities?: { shipmentCollection?: boolean; payWithCash?: boolean; payWithCreditCard?: boolean; capabilityCodes?: string } | null;
  svpStatus?: string;
}

export interface DhlServicePointsAnswer {
  status?: { statusCode?: number; statusMessage?: string };
  servicePoints?: DhlServicePoint[] | null;
}

/** The query of a search: the address DHL geocodes (postal code or city), or coordinates; points where parcels are collected. */
export function servicePointSearch(query: PickupPointQuery): URLSearchParams {
  const params = new URLSearchParams({ countryCode: query.countryCode.toUpperCase() });
  if (query.near) {
    params.set('latitude', String(query.near.lat));
    params.set('longitude', String(query.near.lon));
  } else {
    params.set('address', (query.postalCode ?? query.city ?? '').trim());
  }
  params.set('servicePointResults', String(query.limit));
  params.set('capability', COLLECTION_CAPABILITY);
  if (query.type) params.set('servicePointTypes', QUERY_TYPES[query.type] ?? '');
  params.set('resultUom', 'km');
  return params;
}

/**
 * The look-up of one point: its id, every `svpStatus` (A open, S/U/Y/X temporarily closed, the OpenAPI's list), so a
 * closed point is answered as closed rather than not found. The OpenAPI says lat/lon and address are not needed with
 * the id; that the country is not needed either is inferred (the id names no country).
 */
export function servicePointLookup(id: string): URLSearchParams {
  const params = new URLSearchParams({ servicePointID: id });
  for (const status of ['A', 'S', 'U', 'Y', 'X']) params.append('svpStatus', status);
  return params;
}

/** The answer's points, [] where DHL found none; undefined for a query DHL calls bad (status 100, 101). */
export function answeredPoints(answer: DhlServicePointsAnswer): DhlServicePoint[] | undefined {
  const code = answer.status?.statusCode;
  if (code !== undefined && NONE_FOUND.has(code)) return [];
  if (code !== undefined && !FOUND.has(code)) return undefined;
  return answer.servicePoints ?? [];
}

const DAYS: Readonly<Record<string, number>> = { MONDAY: 1, TUESDAY: 2, WEDNESDAY: 3, THURSDAY: 4, FRIDAY: 5, SATURDAY: 6, SUNDAY: 7 };

/** `10:00`, `9:00 AM`, `9:00 PM`, `14:00:00.000` → `HH:MM`; undefined for anything else. */
export function clockTime(value: string | undefined): string | undefined {
  const m = /^(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?\s*(AM|PM)?$/i.exec(value?.trim() ?? '');
  if (!m) return undefined;
  let hours = Number(m[1]);
  const half = m[3]?.toUpperCase();
  if (half === 'PM' && hours < 12) hours += 12;
  if (half === 'AM' && hours === 12) hours = 0;
  return hours > 24 ? undefined : `${String(hours).padStart(2, '0')}:${m[2]}`;
}

/**
 * One answered point as ours, or undefined where it names no id or a type DHL delivers nowhere to. Inferred from the
 * capabilities (DHL publishes no "cash on delivery" capability): a point takes COD where it collects parcels and takes
 * cash or a card; it is open where its status is A (available) and it collects parcels.
 */
export function pickupPointOf(p: DhlServicePoint): PickupPoint | undefined {
  const type = DHL_POINT_TYPES[p.servicePointType ?? ''];
  const id = p.facilityId?.trim() ?? '';
  if (!type || id === '') return undefined;
  const a = p.address ?? {};
  const countryCode = (a.country ?? '').toUpperCase();
  const split = splitStreet(a.addressLine1 ?? '', countryCode);
  const street = a.street?.trim() || split.street_name;
  const houseNumber = a.houseNumber?.trim() || [split.house_number, split.apartment_number].filter(Boolean).join('/');
  const capabilities = p.servicePointCapabilities ?? {};
  const collects = capabilities.shipmentCollection !== false;
  const { latitude, longitude } = p.geoLocation ?? {};
  return {
    id,
    name: p.localName?.trim() || p.servicePointNameFormatted?.trim() || p.servicePointName?.trim() || id,
    type,
    address: { street, houseNumber, city: a.city?.trim() ?? '', postalCode: a.zipCode?.trim() ?? '', countryCode },
    openingHours: (p.openingHours?.openingHours ?? []).flatMap((h) => {
      const day = DAYS[(h.dayOfWeek ?? '').toUpperCase()];
      const from = clockTime(h.openingTime);
      const to = clockTime(h.closingTime);
      return day && from && to ? [{ day, from, to }] : [];
    }).sort((x, y) => x.day - y.day || x.from.localeCompare(y.from)),
    location: typeof latitude === 'number' && typeof longitude === 'number' ? { lat: latitude, lon: longitude } : null,
    cashOnDelivery: collects && (capabilities.payWithCash === true || capabilities.payWithCreditCard === true),
    open: (p.svpStatus ?? 'A') === 'A' && collects,
  };
}
