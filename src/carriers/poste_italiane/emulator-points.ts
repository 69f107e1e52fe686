/**
 * Poste's delivery points in the emulator: generated Punto Poste shops, Punto Poste Lockers and post offices in Italy,
 * answered as `parcel/deliveryPoint` answers them (mlocati/MLPosteDeliveryExpress `Library/DeliveryPoint/Response/*.cs`;
 * values right-padded as smart-dato/post-it-sdk's DeliveryPointTest shows them), and looked up by a waybill's point service.
 */
import { generatePoints, searchPoints, type GeneratedPoint } from '../emulator/points.js';
import type { PickupPointType } from '../types.js';
import { POSTE_POINT_SERVICES } from './codes.js';

const POINTS = 300;

/**
 * Point codes by type: a Punto Poste "Z" and four digits (the sandbox's "Z1625"), an office a five-digit frazionario
 * (the sandbox examples "00534", "20534"), a locker "L" and four digits (Poste's locker codes are not published: inferred).
 */
const pointCode = (p: GeneratedPoint) => (p.type === 'post_office' ? String(10000 + p.seq) : `${p.type === 'locker' ? 'L' : 'Z'}${String(1000 + p.seq)}`);

const TYPE_OF_SERVICE_TYPE = Object.fromEntries(Object.entries(POSTE_POINT_SERVICES).map(([type, s]) => [s.serviceType, type])) as Record<string, PickupPointType>;
const TYPE_OF_SERVICE = Object.fromEntries(Object.entries(POSTE_POINT_SERVICES).map(([type, s]) => [s.service, type])) as Record<string, PickupPointType>;

/** Poste's "casella postale" search type: a valid type whose points packdesk never ships to, answered empty. */
const PO_BOX = 'CPT';

const pad = (text: string, width: number) => text.padEnd(width, ' ');
const seconds = (hhmm: string) => (hhmm === '24:00' ? '23:59:59' : `${hhmm}:00`);

export class PosteDeliveryPoints {
  private generated?: Map<string, GeneratedPoint>;

  private get all(): Map<string, GeneratedPoint> {
    this.generated ??= new Map(generatePoints({ countryCode: 'IT', count: POINTS, seed: 'poste_italiane', types: ['parcelshop', 'locker', 'post_office'] })
      .map((p) => [pointCode(p), p]));
    return this.generated;
  }

  /** The point a code names, closed ones included. */
  get(code: string): GeneratedPoint | undefined {
    return this.all.get(code.trim());
  }

  /** Codes of the points, for tests that need one closed. */
  codes(): string[] {
    return [...this.all.keys()];
  }

  /** The type a point service (APT000947…) delivers to, undefined for other services. */
  typeOfService(service: string): PickupPointType | undefined {
    return TYPE_OF_SERVICE[service];
  }

  /** The answer of `parcel/deliveryPoint`: 101 for a missing parameter, 102 for a malformed one (Response/Exception.cs: 1xx formal). */
  search(zipCode: string | undefined, serviceType: string | undefined): Record<string, unknown> {
    if (!zipCode || !serviceType) return { return: { outcome: 'KO', code: 101, deliveryPoint: [] } };
    const type = TYPE_OF_SERVICE_TYPE[serviceType];
    if (!/^\d{5}$/.test(zipCode) || (!type && serviceType !== PO_BOX)) return { return: { outcome: 'KO', code: 102, deliveryPoint: [] } };
    const found = type ? searchPoints([...this.all.values()], { postalCode: zipCode, type, limit: 50 }) : [];
    return { return: { outcome: 'OK', code: 0, deliveryPoint: found.map((p) => view(p)) } };
  }
}

/** A point as Poste lists it; a closed point is full (100 % saturation). */
function view(p: GeneratedPoint): Record<string, unknown> {
  const weekday = p.hours.find((h) => h.day === 1);
  const saturday = p.hours.find((h) => h.day === 6);
  const brand = { parcelshop: 'Punto Poste', locker: 'Punto Poste Locker', post_office: 'Ufficio Postale' }[p.type];
  return {
    zipCode: pad(p.postalCode, 8), officeCode: pad(pointCode(p), 7), officeDescription: pad(`${brand} ${p.name}`.toUpperCase(), 40),
    address: pad(`VIA ${p.street} ${p.houseNumber}`.toUpperCase(), 40), place: pad(p.city.toUpperCase(), 30),
    province: p.city === 'Roma' ? 'RM ' : 'MI ', phone: '',
    openTimeMon: weekday ? seconds(weekday.from) : null, closeTimeMon: weekday ? seconds(weekday.to) : null,
    openTimeSat: saturday ? seconds(saturday.from) : null, closeTimeSat: saturday ? seconds(saturday.to) : null,
    saturationPercentage: p.open ? String((p.seq * 7) % 90).padStart(3, '0') : '100',
    XDegree: pad(p.lon.toFixed(8), 13), YDegree: pad(p.lat.toFixed(8), 13),
  };
}
