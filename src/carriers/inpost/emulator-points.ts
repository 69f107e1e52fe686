/**
 * InPost's points in the emulator: generated Paczkomat lockers and PaczkoPunkt shops in Poland, named as InPost names
 * them (a locker `KRA010`: three letters of its town and three digits, as in ShipX's examples; a PaczkoPunkt
 * `POP-KRA012`), served as ShipX's `GET /v1/points` answers them (shipx-php-sdk `Model/Point`,
 * moku-systems/inpost-shipx `ApiPointResponse`).
 */
import { generatePoints, searchPoints, type GeneratedPoint } from '../emulator/points.js';
import type { PickupPointType } from '../types.js';

const POINTS = 400;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const DAY_LETTERS = ['Pn', 'Wt', 'Śr', 'Cz', 'Pt', 'Sb', 'Nd'];

const townCode = (city: string) => city.normalize('NFD').replace(/[^A-Za-z]/g, '').slice(0, 3).toUpperCase();
const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** `name` is InPost's id of the point; `shop` the generated shop's name (a PaczkoPunkt's description). */
export type InpostEmulatedPoint = GeneratedPoint & { shop: string };

export class InpostPoints {
  private generated?: Map<string, InpostEmulatedPoint>;

  /** Generated on first use: most emulator runs never ask for a point. */
  private get byName(): Map<string, InpostEmulatedPoint> {
    this.generated ??= new Map(generatePoints({ countryCode: 'PL', count: POINTS, seed: 'inpost', types: ['locker', 'parcelshop'] }).map((p) => {
      const seq = String(p.seq + 1).padStart(3, '0');
      const name = p.type === 'locker' ? `${townCode(p.city)}${seq}` : `POP-${townCode(p.city)}${seq}`;
      return [name, { ...p, shop: p.name, name }];
    }));
    return this.generated;
  }

  get(name: string): InpostEmulatedPoint | undefined {
    return this.byName.get(name.toUpperCase());
  }

  /** `GET /v1/points` filters: name, type, functions, city, post_code, relative_post_code, relative_point. */
  search(query: Record<string, string | undefined>): InpostEmulatedPoint[] {
    const all = [...this.byName.values()];
    if (query.name) {
      const names = new Set(query.name.split(',').map((n) => n.trim().toUpperCase()));
      return all.filter((p) => names.has(p.name));
    }
    const types = query.type?.split(',').map((t) => (t === 'pop' ? 'parcelshop' : t.startsWith('parcel_locker') ? 'locker' : t)) as PickupPointType[] | undefined;
    const ofType = types ? all.filter((p) => types.includes(p.type)) : all;
    const [lat, lon] = (query.relative_point ?? '').split(',').map(Number);
    const near = query.relative_point && Number.isFinite(lat) && Number.isFinite(lon) ? { lat: lat!, lon: lon! } : undefined;
    const postalCode = query.relative_post_code ?? query.post_code;
    if (!near && !query.city && !postalCode) return ofType;
    return searchPoints(ofType, { near, city: query.city, postalCode, limit: ofType.length }) as InpostEmulatedPoint[];
  }
}

/** A point as ShipX answers it. */
export function pointView(p: InpostEmulatedPoint, base: string): Record<string, unknown> {
  const locker = p.type === 'locker';
  const byDay = new Map(p.hours.map((h) => [h.day, h]));
  return {
    href: `${base}/v1/points/${p.name}`,
    name: p.name,
    type: locker ? ['parcel_locker'] : ['pop'],
    status: p.open ? 'Operating' : 'NonOperating',
    location: { longitude: p.lon, latitude: p.lat },
    location_type: locker ? 'Outdoor' : 'Indoor',
    location_description: locker ? `przy ${p.street} ${p.houseNumber}` : p.shop,
    distance: null,
    opening_hours: locker ? '24/7' : p.hours.map((h) => `${DAY_LETTERS[h.day - 1]} ${h.from}-${h.to}`).join(', '),
    address: { line1: `${p.street} ${p.houseNumber}`, line2: `${p.postalCode} ${p.city}` },
    address_details: { city: p.city, province: null, post_code: p.postalCode, street: p.street, building_number: p.houseNumber, flat_number: null },
    phone_number: null,
    payment_point_descr: p.cashOnDelivery ? 'Płatność kartą' : null,
    functions: ['parcel', 'parcel_collect', 'parcel_send'],
    partner_id: 0,
    is_next: false,
    payment_available: p.cashOnDelivery,
    payment_type: p.cashOnDelivery ? { 2: 'Payment by card' } : {},
    virtual: '0',
    location_247: locker,
    operating_hours_extended: {
      customer: Object.fromEntries(WEEKDAYS.map((day, i) => {
        const h = byDay.get(i + 1);
        return [day, h ? [{ start: minutes(h.from), end: minutes(h.to) }] : []];
      })),
    },
  };
}
