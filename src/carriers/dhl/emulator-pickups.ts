/**
 * MyDHL `POST /pickups` as the DHL Express emulator serves it (MyDHL OpenAPI 3.1.1): first the published request
 * schema (422), then DHL's rules (400): a shipper account DHL knows, a ready time that is "not a past date or a date
 * more than 10 days in the future", a close time after the ready time and not yet over, and waybills of the caller.
 * Requests for one address and day make one consolidated pickup (the OpenAPI's PATCH and DELETE: "subject to entire
 * consolidated pickup"): a repeat gets the same dispatch confirmation number and a warning, and a waybill already in
 * a pickup for another address or day is refused. The 400 wordings and the consolidation's details are inferred.
 */
import type { Clock } from '../../domain/clock.js';
import { numberSequence } from '../emulator/numbers.js';
import type { EmulatedShipments } from '../emulator/shipments.js';
import { isKnownAccount, pickupSchemaValidator, schemaMessage, type SeenParty, type SeenShipmentRequest } from './emulator-validation.js';

/** One booked courier visit: its dispatch confirmation number (e.g. `PRG221222000062`), day, hours and waybills. */
export interface EmulatedPickup {
  dispatchConfirmationNumber: string;
  date: string;
  readyTime: string;
  closeTime: string;
  waybills: Set<string>;
}

/** The parts of a schema-valid pickup request the emulator reads. */
interface SeenPickupRequest {
  plannedPickupDateAndTime: string;
  closeTime?: string;
  accounts: { typeCode: string; number: string }[];
  customerDetails: { shipperDetails: SeenParty };
  shipmentDetails: { shipmentTrackingNumber?: string }[];
}

export type PickupAnswer = { ok: true; body: Record<string, unknown> } | { ok: false; status: 400 | 422; messages: string[] };

const PLANNED = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}):\d{2} ?GMT([+-])(\d{2}):(\d{2})$/;
const DAY_MS = 86_400_000;
/** "not a past date or a date more than 10 days in the future" (plannedPickupDateAndTime). */
const MAX_DAYS_AHEAD = 10;

/** DHL's service area code of a city, as dispatch confirmation numbers begin (PRG for Prague): its first three letters here. */
function serviceArea(city: string): string {
  return city.normalize('NFD').replace(/[^A-Za-z]/g, '').toUpperCase().slice(0, 3).padEnd(3, 'X');
}

export function dhlPickupDesk(clock: Clock, shipments: EmulatedShipments<SeenShipmentRequest>) {
  pickupSchemaValidator(); // before the first request, which a caller's timeout would otherwise measure
  const pickups = new Map<string, EmulatedPickup>();
  const nextSerial = numberSequence(clock, { prefix: '', digits: 6 });

  /** The rules a schema-valid request breaks, each naming its field by pointer. */
  const broken = (owner: string, r: SeenPickupRequest, key: string): string[] => {
    const messages: string[] = [];
    r.accounts.forEach((a, i) => {
      if (!isKnownAccount(a.number)) messages.push(`The account number #/accounts/${i}/number '${a.number}' is not found or invalid. Please check the account number and retry.`);
    });
    const planned = PLANNED.exec(r.plannedPickupDateAndTime);
    if (!planned) {
      messages.push(
        `The pickup date and time #/plannedPickupDateAndTime '${r.plannedPickupDateAndTime}' is not well formatted (expected sample format: '2010-02-11T17:10:09 GMT+01:00').`,
      );
    } else {
      const [date, readyTime, sign, hours, minutes] = planned.slice(1) as [string, string, string, string, string];
      // the shipper's clock: now at the request's own offset
      const local = new Date(clock.now() + (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) * 60_000).toISOString();
      const today = local.slice(0, 10);
      const closeTime = r.closeTime ?? '23:59';
      if (date < today) messages.push(`The pickup date #/plannedPickupDateAndTime '${date}' is in the past.`);
      else if (Date.parse(date) - Date.parse(today) > MAX_DAYS_AHEAD * DAY_MS) {
        messages.push(`The pickup date #/plannedPickupDateAndTime '${date}' is more than ${MAX_DAYS_AHEAD} days in the future.`);
      }
      if (closeTime <= readyTime) messages.push(`The close time #/closeTime '${closeTime}' must be later than the ready time ${readyTime}.`);
      else if (date === today && closeTime <= local.slice(11, 16)) messages.push(`The close time #/closeTime '${closeTime}' of today is already over.`);
    }
    r.shipmentDetails.forEach((d, i) => {
      const awb = d.shipmentTrackingNumber;
      if (awb === undefined) return;
      const inPickup = [...pickups.entries()].find(([k, p]) => k !== key && p.waybills.has(awb))?.[1];
      if (!shipments.byId(owner, awb)) messages.push(`The shipment #/shipmentDetails/${i}/shipmentTrackingNumber '${awb}' is not found for this account.`);
      else if (inPickup) {
        messages.push(`The shipment #/shipmentDetails/${i}/shipmentTrackingNumber '${awb}' is already in pickup ${inPickup.dispatchConfirmationNumber} on ${inPickup.date}.`);
      }
    });
    return messages;
  };

  const book = (owner: string, body: unknown): PickupAnswer => {
    const validate = pickupSchemaValidator();
    if (!validate(body)) return { ok: false, status: 422, messages: [...new Set((validate.errors ?? []).map(schemaMessage))] };
    const r = body as SeenPickupRequest;
    const { postalAddress } = r.customerDetails.shipperDetails;
    const date = r.plannedPickupDateAndTime.slice(0, 10);
    const key = [owner, date, postalAddress.countryCode, postalAddress.postalCode, postalAddress.addressLine1].join('|').toLowerCase();
    const messages = broken(owner, r, key);
    if (messages.length > 0) return { ok: false, status: 400, messages };
    const awbs = r.shipmentDetails.flatMap((d) => (d.shipmentTrackingNumber ? [d.shipmentTrackingNumber] : []));
    const earlier = pickups.get(key);
    const pickup = earlier ?? {
      dispatchConfirmationNumber: `${serviceArea(postalAddress.cityName)}${date.slice(2).replace(/-/g, '')}${nextSerial()}`,
      date, readyTime: r.plannedPickupDateAndTime.slice(11, 16), closeTime: r.closeTime ?? '23:59', waybills: new Set<string>(),
    };
    for (const awb of awbs) pickup.waybills.add(awb);
    pickups.set(key, pickup);
    return {
      ok: true,
      body: {
        dispatchConfirmationNumbers: [pickup.dispatchConfirmationNumber], readyByTime: pickup.readyTime, nextPickupDate: pickup.date,
        ...(earlier ? { warnings: [`Pickup consolidated with pickup ${pickup.dispatchConfirmationNumber} already booked for this address on ${date}`] } : {}),
      },
    };
  };

  return {
    book,
    /** The pickup a waybill is in. */
    pickupOf: (awb: string) => [...pickups.values()].find((p) => p.waybills.has(awb)),
    reset: () => pickups.clear(),
  };
}
