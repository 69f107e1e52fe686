/**
 * PPL's access points in the emulator: generated ParcelShops, ParcelBoxes and AlzaBoxes as `GET /accessPoint` answers
 * them (`AccessPointModel` of PPL's CPL OpenAPI, fixtures/schema/SOURCE.md), and the checks of a shipment's
 * `specificDelivery.parcelShopCode` against them.
 */
import { distanceKm, generatePoints, searchPoints, type GeneratedPoint } from '../emulator/points.js';
import { PPL_PRODUCTS } from './codes.js';
import type { FieldErrors, PplShipmentRequest } from './emulator-validation.js';

export type PplAccessPointType = 'ParcelShop' | 'ParcelBox' | 'AlzaBox';
export const PPL_ACCESS_POINT_TYPE_NAMES: readonly PplAccessPointType[] = ['ParcelShop', 'ParcelBox', 'AlzaBox'];

export interface EmulatedAccessPoint {
  code: string;
  type: PplAccessPointType;
  place: GeneratedPoint;
  cashPayment: boolean;
  cardPayment: boolean;
}

/**
 * The countries of PPL's point map (PPL's shop module: CZ, SK, PL, DE, NL, RO, BG, HU, AT) that the generator has towns
 * in; the code's first digit tells them apart.
 */
const COUNTRY_DIGITS: Readonly<Record<string, number>> = { CZ: 1, SK: 2, PL: 3, DE: 4, HU: 5, RO: 6, AT: 7 };
const POINTS_PER_COUNTRY = 300;
const DEFAULT_RADIUS_KM = 5;

/** Point codes: "KM" and eight digits (as the codes PPL's integrations show, e.g. KM12345678: inferred). */
const pointCode = (countryCode: string, seq: number) => `KM${COUNTRY_DIGITS[countryCode]}${String(seq).padStart(7, '0')}`;

export interface AccessPointFilters {
  code?: string;
  countryCode?: string;
  types: readonly PplAccessPointType[];
  zipCode?: string;
  city?: string;
  near?: { lat: number; lon: number; radiusKm?: number };
}

export class PplAccessPoints {
  private generated?: { points: EmulatedAccessPoint[]; byCode: Map<string, EmulatedAccessPoint> };

  /** Generated on first use: most emulator runs never ask for a point. */
  private get all() {
    if (!this.generated) {
      const points = Object.keys(COUNTRY_DIGITS).flatMap((countryCode) =>
        generatePoints({ countryCode, count: POINTS_PER_COUNTRY, seed: 'ppl', types: ['parcelshop', 'locker'] }).map(accessPoint));
      this.generated = { points, byCode: new Map(points.map((p) => [p.code, p])) };
    }
    return this.generated;
  }

  /** A point by its code, closed ones included (a shipment to one is refused, not unknown). */
  get(code: string): EmulatedAccessPoint | undefined {
    return this.all.byCode.get(code.toUpperCase());
  }

  /**
   * The points in service that match, a closed point not listed (inferred: PPL has no closed flag). Around coordinates
   * the points within the radius come in the list's order, as PPL documents no order (a default radius is inferred).
   */
  list(filters: AccessPointFilters): EmulatedAccessPoint[] {
    const matching = this.all.points.filter((p) => p.place.open
      && (filters.code === undefined || p.code === filters.code.toUpperCase())
      && (filters.countryCode === undefined || p.place.countryCode === filters.countryCode.toUpperCase())
      && (filters.types.length === 0 || filters.types.includes(p.type)));
    const { near, city, zipCode } = filters;
    if (near) return matching.filter((p) => distanceKm(near, p.place) <= (near.radiusKm ?? DEFAULT_RADIUS_KM));
    if (city === undefined && zipCode === undefined) return matching;
    const byPlace = new Map(matching.map((p) => [p.place, p]));
    const found = searchPoints(matching.map((p) => p.place), {
      ...(city !== undefined ? { city } : {}), ...(zipCode !== undefined ? { postalCode: zipCode } : {}), limit: Infinity,
    });
    return found.map((place) => byPlace.get(place)!);
  }
}

function accessPoint(place: GeneratedPoint): EmulatedAccessPoint {
  // about every fourth Czech or Slovak locker is an AlzaBox, where PPL also delivers
  const alza = place.type === 'locker' && ['CZ', 'SK'].includes(place.countryCode) && place.seq % 8 === 1;
  const type: PplAccessPointType = place.type === 'parcelshop' ? 'ParcelShop' : alza ? 'AlzaBox' : 'ParcelBox';
  // shops take cash and mostly cards, boxes only cards; a point that takes no COD takes neither
  return {
    code: pointCode(place.countryCode, place.seq), type, place,
    cashPayment: place.cashOnDelivery && type === 'ParcelShop',
    cardPayment: place.cashOnDelivery && (type !== 'ParcelShop' || place.seq % 5 !== 0),
  };
}

/** .NET TimeSpan of "HH:MM" as the API writes it; 24:00 is a whole day (inferred serialisation). */
const timeSpan = (hhmm: string) => (hhmm === '24:00' ? '1.00:00:00' : `${hhmm}:00`);

/** The point as `GET /accessPoint` shows it (AccessPointModel). */
export function accessPointView(p: EmulatedAccessPoint): Record<string, unknown> {
  const { place } = p;
  const brand = { ParcelShop: 'PPL Parcelshop', ParcelBox: 'PPL Parcelbox', AlzaBox: 'AlzaBox' }[p.type];
  return {
    accessPointCode: p.code,
    accessPointType: p.type,
    name: p.type === 'ParcelShop' ? place.name : `${brand} ${place.name}`,
    name2: p.type === 'ParcelShop' ? brand : null,
    street: `${place.street} ${place.houseNumber}`,
    city: place.city,
    country: place.countryCode,
    // PPL writes Czech and Slovak postcodes without the space (inferred)
    zipCode: ['CZ', 'SK'].includes(place.countryCode) ? place.postalCode.replace(/\s+/g, '') : place.postalCode,
    phone: null,
    email: null,
    tribalServicePoint: false,
    activeCardPayment: p.cardPayment,
    activeCashPayment: p.cashPayment,
    pickupEnabled: true,
    dimensionForced: p.type !== 'ParcelShop',
    // PPL numbers the days 1 Sunday … 7 Saturday; one part (0, morning) per day here
    workHours: place.hours.map((h) => ({ weekDay: h.day === 7 ? 1 : h.day + 1, dayPart: 0, openFrom: timeSpan(h.from), openTo: timeSpan(h.to) })),
    accessPointNote: null,
    gps: { latitude: place.lat, longitude: place.lon },
    capacitySettings: [],
  };
}

/**
 * What PPL refuses of a shipment's access point (keys like `Shipments[0].SpecificDelivery.ParcelShopCode`): an unknown
 * point, one out of service, COD where the recipient cannot pay, a point outside the product's countries (SMAR: CZ,
 * SMEU: abroad). The wording and that PPL refuses these while it takes the batch are inferred.
 */
export function accessPointRefusals(shipments: readonly PplShipmentRequest[], points: PplAccessPoints): FieldErrors {
  const errors: FieldErrors = {};
  shipments.forEach((s, i) => {
    if (s.parcelShopCode === undefined) return;
    const key = `Shipments[${i}].SpecificDelivery.ParcelShopCode`;
    const point = points.get(s.parcelShopCode);
    const reach = PPL_PRODUCTS[s.productType]?.toAccessPoint;
    let message: string | undefined;
    if (!point) message = `Access point ${s.parcelShopCode} does not exist.`;
    else if (!point.place.open) message = `Access point ${point.code} is out of service.`;
    else if (s.cashOnDelivery && !point.cashPayment && !point.cardPayment) message = `Access point ${point.code} does not accept cash on delivery.`;
    else if ((reach === 'CZ') !== (point.place.countryCode === 'CZ')) {
      message = `Access point ${point.code} is in ${point.place.countryCode}; product ${s.productType} delivers to access points ${reach === 'CZ' ? 'in CZ' : 'outside CZ'}.`;
    }
    if (message) errors[key] = [message];
  });
  return errors;
}
