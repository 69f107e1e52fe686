import { randomUUID } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { splitStreet } from '../../domain/street.js';
import { CarrierHttp } from '../carrier-http.js';
import { distanceKm } from '../distance.js';
import { CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { warsawTime } from '../local-time.js';
import type { CarrierContext, ChannelSettings, PickupPoint, PickupPointQuery, PickupPointService, PickupPointType } from '../types.js';

/**
 * DPD Polska's point API ("mypudo", DPD Pickup points and lockers): GET `details?pudoId=`, `list/byaddress?zipCode=&city=`
 * and `list/bylonglat?latitude=&longitude=&max_distance_search=` under /api/pudo, each with a `key`, answering
 * `<RESPONSE><PUDO_ITEMS><PUDO_ITEM active=… overloaded=…>` or `<RESPONSE><ERROR code=…><VALUE>`. DPD Polska's own
 * shop modules call `details` (dpdpoland `PudoService`, dpdshipping `Config::DPD_PUDO_WS_URL`, both © DPD Polska) and
 * read ADDRESS1, CITY, ZIPCODE and SERVICE_PUDO (101: cash on delivery); the list calls, the other elements and the
 * error shape are as answear/dpd-pl-pickup-services-bundle calls and reads them (its fixtures are DPD's answers).
 */

export const PUDO_HOST = 'https://mypudo.dpd.com.pl';
export const PUDO_PATH = '/api/pudo';

/** The key DPD Polska's own modules send (`…/details?pudoId=%s&key=4444`): DPD's public one, no customer's credential. */
const PUDO_KEY = '4444';

/** Metres, the unit of DISTANCE in the pudo API of DPD's group (DPD France's, ekyna/Dpd `Pudo\Model\Item`); inferred for DPD Polska. */
const SEARCH_RADIUS_M = 10_000;

/** SERVICE_PUDO codes (answear bundle `Enum\Service`): 100 delivery to the point, 101 cash on delivery there. */
const DELIVERY_SERVICE = '100';
export const COD_SERVICE = '101';

/** PUDO_TYPE codes of lockers (answear bundle `Enum\Type`: SwipBox 400401/400402, foreign lockers 400 and 501); the rest are shops. */
const LOCKER_TYPES = new Set(['400401', '400402', '400', '501']);

const NAME = 'DPD Poland';

const parser = new XMLParser({
  ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, parseAttributeValue: false, trimValues: true,
  isArray: (name) => ['PUDO_ITEM', 'OPENING_HOURS_ITEM', 'HOLIDAY_ITEM'].includes(name),
});

type Node = Record<string, unknown>;
const text = (node: Node, key: string): string => (typeof node[key] === 'string' ? (node[key] as string).trim() : '');
const list = (node: unknown, key: string): Node[] => (node && typeof node === 'object' && Array.isArray((node as Node)[key]) ? (node as Node)[key] as Node[] : []);

/** 9:00 → 09:00. */
const hhmm = (value: string) => {
  const m = /^(\d{1,2}):(\d{2})/.exec(value);
  return m ? `${m[1]!.padStart(2, '0')}:${m[2]}` : value;
};

/** dd/mm/yyyy → yyyy-mm-dd. */
const isoDay = (value: string) => value.replace(/^(\d{2})\/(\d{2})\/(\d{4})$/, '$3-$2-$1');

/** DPD writes Polish post codes as digits ("31564"); packdesk and the recipient's address read 31-564. */
const postalCode = (zip: string, countryCode: string) => (countryCode === 'PL' && /^\d{5}$/.test(zip) ? `${zip.slice(0, 2)}-${zip.slice(2)}` : zip);

/**
 * One PUDO_ITEM as a point. The name is NAME where DPD gives one, else LOCATION_HINT before its " : " and phone
 * ("Sklep Zoologiczny Akita : 885558055"). Open: `active`, not `overloaded` and no HOLIDAY_ITEM over `today`, and
 * (where SERVICE_PUDO is given) taking deliveries; overloaded and holidays as closed are inferred.
 */
export function pointOfItem(item: Node, today: string): PickupPoint {
  const id = text(item, 'PUDO_ID');
  const country = text(item, 'COUNTRY');
  const countryCode = country === 'POL' || country === '' ? 'PL' : /^[A-Z]{2}/.exec(id)?.[0] ?? country.slice(0, 2);
  const street = splitStreet(text(item, 'ADDRESS1'), countryCode);
  const services = text(item, 'SERVICE_PUDO').split(';').map((s) => s.trim()).filter(Boolean);
  const holiday = list(item.HOLIDAY_ITEMS, 'HOLIDAY_ITEM').some((h) => isoDay(text(h, 'START_TM')) <= today && today <= isoDay(text(h, 'END_TM')));
  const lat = Number(text(item, 'LATITUDE'));
  const lon = Number(text(item, 'LONGITUDE'));
  const hint = text(item, 'LOCATION_HINT').split(' : ')[0]!.trim();
  const type: PickupPointType = LOCKER_TYPES.has(text(item, 'PUDO_TYPE')) ? 'locker' : 'parcelshop';
  return {
    id,
    name: text(item, 'NAME') || hint || `DPD Pickup ${id}`,
    type,
    address: {
      street: street.street_name,
      houseNumber: street.apartment_number ? `${street.house_number}/${street.apartment_number}` : street.house_number ?? '',
      city: text(item, 'CITY'), postalCode: postalCode(text(item, 'ZIPCODE'), countryCode), countryCode,
    },
    openingHours: list(item.OPENING_HOURS_ITEMS, 'OPENING_HOURS_ITEM')
      .map((h) => ({ day: Number(text(h, 'DAY_ID')), from: hhmm(text(h, 'START_TM')), to: hhmm(text(h, 'END_TM')) }))
      .filter((h) => h.day >= 1 && h.day <= 7),
    location: Number.isFinite(lat) && Number.isFinite(lon) && (lat !== 0 || lon !== 0) ? { lat, lon } : null,
    cashOnDelivery: services.includes(COD_SERVICE),
    open: item['@active'] === 'true' && item['@overloaded'] !== 'true' && !holiday && (services.length === 0 || services.includes(DELIVERY_SERVICE)),
  };
}

/** An answer's PUDO_ITEMs, or DPD's ERROR: the key refused is DPD's service out of reach for packdesk, anything else a refusal on `field`. */
export function readPudoAnswer(status: number, body: string, field: string): Node[] {
  let parsed: Node;
  try {
    parsed = parser.parse(body) as Node;
  } catch {
    parsed = {};
  }
  const response = parsed.RESPONSE as Node | undefined;
  if (!response || typeof response !== 'object') throw new CarrierTransientError(`${NAME}'s point API answered HTTP ${status} without its XML`);
  const error = response.ERROR as Node | undefined;
  if (error && typeof error === 'object') {
    const code = String(error['@code'] ?? '');
    const message = `${NAME}'s point API: ${text(error, 'VALUE') || 'error'} (${code})`;
    // 314: "Podana wartość key jest niepoprawna" — DPD's public key, not the user's input
    if (code === '314' || status === 401 || status === 403) throw new CarrierTransientError(`${message}: the point API refused packdesk's key`);
    throw new CarrierRefusedError(message, { [field]: [message] });
  }
  return list(response.PUDO_ITEMS, 'PUDO_ITEM');
}

/** The point API's base: a channel's `baseUrl` (an emulator, a proxy) serves it too, else DPD's host. */
function pudoHttp(settings: ChannelSettings, ctx: CarrierContext): CarrierHttp {
  const base = typeof settings.baseUrl === 'string' ? settings.baseUrl : PUDO_HOST;
  return new CarrierHttp('dpd_pl', base, ctx, []);
}

async function ask(http: CarrierHttp, call: string, params: Record<string, string>, field: string): Promise<Node[]> {
  const query = new URLSearchParams({ ...params, key: PUDO_KEY });
  const res = await http.call('GET', `${PUDO_PATH}/${call}?${query}`);
  return readPudoAnswer(res.status, res.text(), field);
}

const today = (ctx: CarrierContext) => warsawTime.format(ctx.clock.now()).slice(0, 10);

/**
 * DPD Polska's point search: near coordinates (list/bylonglat), else by post code and city (list/byaddress, the code
 * in DPD's digits). The API takes no country and no type: it answers Poland's points (COUNTRY "POL"), so another
 * country has none, and the type and the limit are applied here; near coordinates, nearest first.
 */
async function search(query: PickupPointQuery, settings: ChannelSettings, ctx: CarrierContext): Promise<PickupPoint[]> {
  if (query.countryCode !== 'PL') return [];
  const http = pudoHttp(settings, ctx);
  const requestID = randomUUID().replace(/-/g, '').slice(0, 30);
  const items = query.near
    ? await ask(http, 'list/bylonglat', {
      requestID, latitude: String(query.near.lat), longitude: String(query.near.lon), max_distance_search: String(SEARCH_RADIUS_M), servicePudo_display: '1',
    }, 'near')
    : await ask(http, 'list/byaddress', {
      requestID, ...(query.postalCode !== undefined ? { zipCode: query.postalCode.replace(/[\s-]/g, '') } : {}),
      ...(query.city !== undefined ? { city: query.city } : {}), servicePudo_display: '1',
    }, query.postalCode !== undefined ? 'postal_code' : 'city');
  const day = today(ctx);
  const points = items.map((item) => pointOfItem(item, day)).filter((p) => !query.type || p.type === query.type);
  const near = query.near;
  if (near) points.sort((a, b) => (a.location ? distanceKm(near, a.location) : Infinity) - (b.location ? distanceKm(near, b.location) : Infinity));
  return points.slice(0, query.limit);
}

/** One point by its id (`details`); DPD answers no PUDO_ITEM for an id it does not know. */
async function find(id: string, settings: ChannelSettings, ctx: CarrierContext): Promise<PickupPoint | undefined> {
  const items = await ask(pudoHttp(settings, ctx), 'details', { pudoId: id }, 'provider_point_id');
  const item = items.find((i) => text(i, 'PUDO_ID').toUpperCase() === id.toUpperCase());
  return item ? pointOfItem(item, today(ctx)) : undefined;
}

/**
 * DPD Pickup: parcel shops and DPD Pickup Station lockers, both one `services.dpdPickup.pudo` at creation. The point
 * API is public (DPD's key), so the finder needs no channel.
 */
export const dpdPlPickupPoints: PickupPointService = {
  types: ['parcelshop', 'locker'],
  finder: { search, find },
};
