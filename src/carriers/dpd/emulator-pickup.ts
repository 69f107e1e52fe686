/**
 * `POST /shipping/v1/pickupscheduling` of the META-API emulator: the published `pickupscheduling.PickupSchedule`
 * schema (meta-api-docs.json; a field it does not declare is refused, as the gateway's validation would), then the
 * business unit's rules, answered as `pickupscheduling.Response` entries without a `pickupreference`. The status
 * codes and wordings are the emulator's own: DPD publishes none.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Clock } from '../../domain/clock.js';
import type { EmulatedShipments } from '../emulator/shipments.js';
import type { SeenShipment } from './emulator-validation.js';
import pickupSchema from './fixtures/schema/pickupscheduling-request.schema.json' with { type: 'json' };
import type { DpdError } from './response.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

interface SeenPickupSchedule {
  shipmentNumbers?: string[];
  parcelNumbers?: string[];
  pickup?: { date: string; fromTime?: string; toTime?: string };
  pickupAddress?: unknown;
  addressId?: string;
}

type PickupEntry = { pickupreference?: string; statusCode: string; statusDescription: string };
export type PickupVerdict = { status: 400; errors: DpdError[] } | { status: 200; body: { scheduledPickupResponse: PickupEntry[] } };

/** Every object of the schema closed to undeclared fields. */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (typeof node !== 'object' || node === null) return node;
  const copy = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closed(v)]));
  return 'properties' in copy && copy.type === 'object' ? { ...copy, additionalProperties: false } : copy;
}

let compiled: ValidateFunction | undefined;
function validator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    compiled = ajv.compile(closed(pickupSchema) as object);
  }
  return compiled;
}

function schemaMessage(e: ErrorObject): string {
  const field = e.instancePath.split('/').filter(Boolean).join('.');
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return `${field ? `${field}.` : ''}${String(params.missingProperty)}: is mandatory`;
  if (e.keyword === 'additionalProperties') return `${field ? `${field}.` : ''}${String(params.additionalProperty)}: unknown field`;
  return `${field || 'pickup'}: ${e.message ?? e.keyword}`;
}

const HHMM = /^([01]\d|2[0-3])[0-5]\d$/;
const refused = (statusCode: string, statusDescription: string): PickupVerdict => ({ status: 200, body: { scheduledPickupResponse: [{ statusCode, statusDescription }] } });

/** The business unit's pickups: which parcel a courier is booked for, and the next reference. */
export function emulatedPickups(clock: Clock, shipments: EmulatedShipments<SeenShipment>) {
  const booked = new Map<string, string>();
  let next = 1;

  function schedule(owner: string, body: unknown): PickupVerdict {
    const validate = validator();
    if (!validate(body)) return { status: 400, errors: [...new Set((validate.errors ?? []).map(schemaMessage))].map((m) => ({ errorCode: 'INVALID_REQUEST', errorMessage: m, errorOrigin: 'META-API' })) };
    const r = body as SeenPickupSchedule;
    if (!r.pickup) return refused('PICKUP_MISSING', 'pickup: the day and window of the pickup are mandatory');
    // the date is compared in UTC: the emulator serves every business unit
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    if (r.pickup.date < today) return refused('PICKUP_DATE_PAST', `Pickup date ${r.pickup.date} is in the past: the earliest is ${today}`);
    const { fromTime = '', toTime = '' } = r.pickup;
    if (!HHMM.test(fromTime) || !HHMM.test(toTime) || fromTime >= toTime) return refused('PICKUP_TIME_INVALID', `Pickup window ${fromTime}-${toTime} is not a window of HHMM times`);
    if (!r.pickupAddress && !r.addressId) return refused('PICKUP_ADDRESS_MISSING', 'pickupAddress or addressId is mandatory');
    const parcels = [...(r.parcelNumbers ?? []), ...(r.shipmentNumbers ?? []).flatMap((id) => shipments.byId(owner, id)?.parcels.map((p) => p.number) ?? [])];
    const unknownShipment = (r.shipmentNumbers ?? []).find((id) => !shipments.byId(owner, id));
    if (unknownShipment) return refused('SHIPMENT_UNKNOWN', `Shipment ${unknownShipment} is unknown`);
    const unknownParcel = (r.parcelNumbers ?? []).find((n) => !shipments.parcel(n, owner));
    if (unknownParcel) return refused('PARCEL_UNKNOWN', `Parcel ${unknownParcel} is unknown`);
    if (parcels.length === 0) return refused('PARCEL_MISSING', 'shipmentNumbers or parcelNumbers: no parcel to pick up');
    const twice = parcels.find((n) => booked.has(n));
    if (twice) return refused('PARCEL_ALREADY_SCHEDULED', `Parcel ${twice} is in pickup ${booked.get(twice)} already`);
    const reference = `PU${today.replaceAll('-', '')}${String(next++).padStart(4, '0')}`;
    for (const n of parcels) booked.set(n, reference);
    return { status: 200, body: { scheduledPickupResponse: [{ pickupreference: reference, statusCode: 'OK', statusDescription: 'Pickup scheduled' }] } };
  }

  return {
    schedule,
    /** The pickup a parcel is booked for, if any. */
    of: (parcelNumber: string) => booked.get(parcelNumber) ?? null,
    reset: () => { booked.clear(); next = 1; },
  };
}
