/**
 * Allegro's pickup drop-off points in the emulator: generated One Box lockers (APM) and points (PUDO) as
 * `GET /order/carriers/ALLEGRO/points` answers them (AllegroPickupDropOffPoint of Allegro's OpenAPI), and the checks
 * of a create command's `receiver.point` against them and the delivery method.
 */
import { generatePoints, type GeneratedPoint } from '../emulator/points.js';
import type { EmulatedService } from './emulator-validation.js';
import { ALLEGRO_POINT_CARRIERS, pointCarrierOf, type AllegroPickupDropOffPoint } from './points.js';
import type { AllegroCreateInput } from './request.js';
import type { AllegroError } from './response.js';

const POINTS = 400;
const DAY_NAMES = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];

/** Ten digits, as the OpenAPI's example point id (`1234567890`); the digits themselves are inferred. */
const pointId = (seq: number) => String(1_200_000_000 + seq);

/** Lockers are Allegro One Box; shops take turns, in every town, between Allegro's and DPD's network and DPD's and UPS's (inferred). */
function carriersOf(place: GeneratedPoint): string[] {
  if (place.type === 'locker') return ['ALLEGRO_ONE_KURIER'];
  return Math.floor(place.seq / 16) % 2 === 0 ? ['ALLEGRO_ONE_KURIER', 'DPD'] : ['DPD', 'UPS'];
}

function view(place: GeneratedPoint): AllegroPickupDropOffPoint {
  const locker = place.type === 'locker';
  return {
    id: pointId(place.seq),
    name: locker ? `Allegro One Box ${place.name}` : place.name,
    type: locker ? 'APM' : 'PUDO',
    services: [{ type: 'PICKUP' }, { type: 'DROPOFF' }],
    // a point out of service is one Allegro marks OVERLOADED: it takes no parcels now
    restrictions: place.open ? [] : [{ type: 'OVERLOADED' }],
    payments: !place.cashOnDelivery ? [] : locker ? [{ method: 'CARD' }] : [{ method: 'CASH' }, { method: 'CARD' }],
    address: {
      postCode: place.postalCode, city: place.city, street: `${place.street} ${place.houseNumber}`, countryCode: place.countryCode,
      coordinates: { lat: place.lat, lon: place.lon },
    },
    opening: place.hours.map((h) => ({ dayOfWeek: DAY_NAMES[h.day - 1]!, from: h.from, to: h.to })),
    carriers: carriersOf(place),
  };
}

export class AllegroEmulatedPoints {
  private generated?: { points: AllegroPickupDropOffPoint[]; byId: Map<string, AllegroPickupDropOffPoint> };

  /** Generated on first use: most emulator runs never ask for a point. */
  private get all() {
    if (!this.generated) {
      const points = generatePoints({ countryCode: 'PL', count: POINTS, seed: 'allegro', types: ['parcelshop', 'locker'] }).map(view);
      this.generated = { points, byId: new Map(points.map((p) => [p.id, p])) };
    }
    return this.generated;
  }

  get(id: string): AllegroPickupDropOffPoint | undefined {
    return this.all.byId.get(id);
  }

  /** The points where any of `carriers` operates, every point when none is named (the operation's `carriers`). */
  list(carriers: readonly string[]): AllegroPickupDropOffPoint[] {
    return carriers.length === 0 ? this.all.points : this.all.points.filter((p) => p.carriers.some((c) => carriers.includes(c)));
  }
}

/** Carrier names the list's `carriers` parameter takes (AllegroCarrier). */
export function unknownPointCarriers(carriers: readonly string[]): string[] {
  return carriers.filter((c) => !(ALLEGRO_POINT_CARRIERS as readonly string[]).includes(c));
}

/**
 * What the command's ERROR lists about its point (path `receiver.point`): a point method without a point, a point on
 * a door method, an unknown point, one the method's carrier does not serve, an overloaded one, COD where nothing can
 * be paid. The wording and that Allegro checks these when it carries the command out are inferred.
 */
export function pointProblems(input: AllegroCreateInput, service: EmulatedService, points: AllegroEmulatedPoints): AllegroError[] {
  const id = input.receiver.point;
  const refuse = (code: string, userMessage: string): AllegroError[] => [{ code, message: userMessage, details: id ? `Invalid value: ${id}` : '', path: 'receiver.point', userMessage }];
  if (!service.toPoint) return id ? refuse('VALIDATION_ERROR', `${service.name} delivers to the receiver's address, not to a pickup point.`) : [];
  if (!id) return refuse('VALIDATION_ERROR', `${service.name} delivers to a pickup point; the point id is required.`);
  const point = points.get(id);
  if (!point) return refuse('POINT_NOT_FOUND', `Pickup point ${id} does not exist.`);
  const carrier = pointCarrierOf(service.carrierId);
  if (!carrier || !point.carriers.includes(carrier)) return refuse('VALIDATION_ERROR', `Pickup point ${id} is not served by ${service.name}.`);
  if (point.restrictions.some((r) => r.type === 'OVERLOADED')) return refuse('POINT_UNAVAILABLE', `Pickup point ${id} is overloaded and takes no parcels now.`);
  if (input.cashOnDelivery && point.payments.length === 0) return refuse('VALIDATION_ERROR', `Pickup point ${id} takes no payments: cash on delivery is not possible there.`);
  return [];
}
