import type { CarrierContext, ChannelSettings, PickupPoint, PickupPointQuery, PickupPointService, PickupPointType } from '../types.js';
import { InpostClient } from './client.js';
import { inpostSettings } from './settings.js';

/**
 * InPost's points, Paczkomat lockers and PaczkoPunkt shops: ShipX's public `GET /v1/points` (filters as
 * michalbiarda/shipx-php-sdk `Point/GetList` lists them: type, functions, city, relative_point, relative_post_code,
 * sort_by distance_to_relative_point) and `GET /v1/points/{name}`; the resource as shipx-php-sdk `Model/Point` and
 * moku-systems/inpost-shipx `ApiPointResponse` read it.
 */

/** A point resource. */
export interface InpostPoint {
  name?: string;
  type?: string[];
  status?: string;
  location?: { latitude?: number; longitude?: number } | null;
  location_description?: string | null;
  opening_hours?: string | null;
  address_details?: { city?: string | null; province?: string | null; post_code?: string | null; street?: string | null; building_number?: string | null; flat_number?: string | null } | null;
  functions?: string[];
  payment_available?: boolean;
  location_247?: boolean;
  /** Per weekday (`monday` …), minutes from midnight (moku-systems/inpost-shipx `OperatingHours`). */
  operating_hours_extended?: { customer?: Record<string, { start?: number; end?: number }[]> | null } | null;
}

/** ShipX point types (moku-systems/inpost-shipx `ApiPointType` and its filter notes): the lockers, and PaczkoPunkt shops (`pop`). */
const LOCKER_TYPES = ['parcel_locker', 'parcel_locker_only', 'parcel_locker_superpop'];
const SHIP_TYPE: Readonly<Record<Exclude<PickupPointType, 'post_office'>, string>> = { locker: 'parcel_locker', parcelshop: 'pop' };
/** Where a recipient collects a parcel (`functions`, moku-systems/inpost-shipx `ApiPointFunction`). */
const COLLECT = 'parcel_collect';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** Kilometres ShipX searches around a point by default and at most (`max_distance` in metres, 50 000 at most). */
const MAX_DISTANCE_M = 50_000;

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

function typeOf(point: InpostPoint): PickupPointType | undefined {
  const types = point.type ?? [];
  if (types.some((t) => LOCKER_TYPES.includes(t))) return 'locker';
  return types.includes('pop') ? 'parcelshop' : undefined;
}

function hoursOf(point: InpostPoint): PickupPoint['openingHours'] {
  const customer = point.operating_hours_extended?.customer;
  if (customer) {
    return WEEKDAYS.flatMap((name, i) => (customer[name] ?? [])
      .filter((h) => typeof h.start === 'number' && typeof h.end === 'number')
      .map((h) => ({ day: i + 1, from: hhmm(h.start!), to: hhmm(h.end!) })));
  }
  return point.location_247 || point.opening_hours === '24/7' ? WEEKDAYS.map((_, i) => ({ day: i + 1, from: '00:00', to: '24:00' })) : [];
}

/** A ShipX point as ours; undefined for one no parcel is collected at, or of a type packdesk does not deliver to. */
export function pickupPointOf(point: InpostPoint): PickupPoint | undefined {
  const type = typeOf(point);
  if (!point.name || !type || !(point.functions ?? [COLLECT]).includes(COLLECT)) return undefined;
  const a = point.address_details ?? {};
  const { latitude, longitude } = point.location ?? {};
  return {
    id: point.name,
    name: point.location_description ? `${point.name} — ${point.location_description}` : point.name,
    type,
    address: {
      street: a.street ?? '', houseNumber: [a.building_number, a.flat_number].filter(Boolean).join('/'),
      city: a.city ?? '', postalCode: a.post_code ?? '', countryCode: 'PL',
    },
    openingHours: hoursOf(point),
    location: typeof latitude === 'number' && typeof longitude === 'number' ? { lat: latitude, lon: longitude } : null,
    cashOnDelivery: point.payment_available === true,
    // point statuses: Operating, NonOperating, Disabled (moku-systems/inpost-shipx `PointStatus`)
    open: point.status === 'Operating',
  };
}

/** Our query as ShipX's filters; undefined where ShipX Poland has no points (another country, a post office). */
export function pointSearch(query: PickupPointQuery): URLSearchParams | undefined {
  if (query.countryCode !== 'PL' || query.type === 'post_office') return undefined;
  const params = new URLSearchParams({ functions: COLLECT, per_page: String(query.limit) });
  if (query.type) params.set('type', SHIP_TYPE[query.type]);
  if (query.near) {
    params.set('relative_point', `${query.near.lat},${query.near.lon}`);
    params.set('max_distance', String(MAX_DISTANCE_M));
    params.set('sort_by', 'distance_to_relative_point');
  } else if (query.city) {
    params.set('city', query.city);
  } else if (query.postalCode) {
    params.set('relative_post_code', query.postalCode);
    params.set('sort_by', 'distance_to_relative_point');
  } else {
    return undefined;
  }
  return params;
}

const client = (settings: ChannelSettings, ctx: CarrierContext) => new InpostClient(inpostSettings.parse(settings), ctx);

/** Delivery to Paczkomat lockers and PaczkoPunkt shops, found in ShipX's public point list. */
export const inpostPickupPoints: PickupPointService = {
  types: ['locker', 'parcelshop'],
  finder: {
    async search(query, settings, ctx) {
      const params = pointSearch(query);
      if (!params) return [];
      const page = await client(settings, ctx).points(params);
      return (page.items ?? []).map(pickupPointOf).filter((p): p is PickupPoint => p !== undefined && (!query.type || p.type === query.type)).slice(0, query.limit);
    },
    async find(id, settings, ctx) {
      const found = await client(settings, ctx).point(id.trim().toUpperCase());
      return found ? pickupPointOf(found) : undefined;
    },
  },
};
