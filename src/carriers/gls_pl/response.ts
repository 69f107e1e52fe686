import type { FieldErrors } from '../../domain/errors.js';
import { statusOfCode } from '../codes.js';
import { CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { warsawTime } from '../local-time.js';
import { readSoapBody, SoapFault, xmlList, xmlObject, xmlString, type XmlObject } from '../soap.js';
import type { TrackingEventFromCarrier, TrackResult } from '../types.js';
import { GLS_PL_TRACKING } from './codes.js';

/** ADE answers (each operation's response element) → our results; ADE faults → our field paths. Pure. */

/** `{return: {id}}` of adePreparingBox_Insert / _DeleteConsign (cID). */
export function parseConsignId(body: XmlObject): string {
  const id = xmlString(xmlObject(body.return).id);
  if (!id) throw new CarrierRefusedError('GLS Poland answered without a consignment id');
  return id;
}

/** `{return: {id}}` of adePickup_Create (cID): the pickup's id, the number of its hand-over receipt. */
export function parsePickupId(body: XmlObject): string {
  const id = xmlString(xmlObject(body.return).id);
  if (!id) throw new CarrierTransientError('GLS Poland answered adePickup_Create without a pickup id');
  return id;
}

/**
 * `{return: {items: [id…]}}` of adePreparingBox_GetConsignIDs (cConsignsIDsArray) and adePickup_GetIDs
 * (cPickupsIDsArray), newest first.
 */
export function parseIds(body: XmlObject): string[] {
  return xmlList(xmlObject(body.return).items).map((n) => xmlString(n)).filter((n): n is string => n !== undefined);
}

export interface GlsPlPickupView {
  desc: string;
  /** When ADE made the pickup, Unix ms (cPickup.datetime is Warsaw wall-clock time). */
  createdAt: number | undefined;
}

/** `{return: cPickup{desc, quantity, weight, datetime}}` of adePickup_Get. */
export function parsePickup(body: XmlObject): GlsPlPickupView {
  const pickup = xmlObject(body.return);
  const datetime = xmlString(pickup.datetime);
  return { desc: xmlString(pickup.desc) ?? '', createdAt: datetime === undefined ? undefined : warsawTime.parse(datetime) };
}

/** `{return: cReceipt{receipt}}` of adePickup_GetReceipt: the receipt's PDF, base64. */
export function parseReceipt(body: XmlObject): Buffer {
  const receipt = Buffer.from(xmlString(xmlObject(body.return).receipt) ?? '', 'base64');
  if (receipt.subarray(0, 5).toString('latin1') !== '%PDF-') throw new CarrierTransientError('GLS Poland answered adePickup_GetReceipt without a PDF receipt');
  return receipt;
}

/** `{return: cBooleanValue{value}}` of adeCourier_Order: whether ADE took the courier order. */
export function parseCourierOrdered(body: XmlObject): boolean {
  const value = xmlString(xmlObject(body.return).value);
  return value === 'true' || value === '1';
}

export interface GlsPlConsignView {
  notes: string | undefined;
  /** Parcel numbers in the consignment's parcel order; empty strings for parcels not numbered yet. */
  numbers: string[];
}

/** `{return: cConsign}` of adePreparingBox_GetConsign. */
export function parseConsign(body: XmlObject): GlsPlConsignView {
  const consign = xmlObject(body.return);
  const items = xmlList(xmlObject(consign.parcels).items);
  return { notes: xmlString(consign.notes), numbers: items.map((p) => xmlString(xmlObject(p).number) ?? '') };
}

export interface GlsPlParcelLabel {
  number: string;
  labelBase64: string;
}

/** `{return: {items: [cLabel{number, file}…]}}` of adePreparingBox_GetConsignLabelsExt: one label file per parcel. */
export function parseParcelLabels(body: XmlObject): GlsPlParcelLabel[] {
  return xmlList(xmlObject(body.return).items).map((item) => {
    const label = xmlObject(item);
    return { number: xmlString(label.number) ?? '', labelBase64: xmlString(label.file) ?? '' };
  });
}

/**
 * The labels in our parcel order: ADE numbers the parcels when their labels are first fetched, and the consignment
 * (adePreparingBox_GetConsign) lists the numbers in the order the parcels were sent.
 */
export function labelsInParcelOrder(labels: readonly GlsPlParcelLabel[], numbers: readonly string[], parcelCount: number): GlsPlParcelLabel[] {
  const ordered = numbers.length === labels.length ? numbers.map((n) => labels.find((l) => l.number === n)) : labels;
  if (ordered.length !== parcelCount || ordered.some((l) => !l || !l.number || !l.labelBase64)) {
    throw new CarrierRefusedError(`GLS Poland returned ${labels.length} parcel labels for ${parcelCount} parcels`);
  }
  return ordered as GlsPlParcelLabel[];
}

/** ADE's fault codes (`err_*`, the faultcode of its SOAP Faults) → our field paths; by prefix, longest first. */
const FAULT_PATHS: readonly [prefix: string, path: string][] = [
  ['err_cons_receiver_zipcode', 'destination_address.postal_code'],
  ['err_cons_receiver_city', 'destination_address.city_name'],
  ['err_cons_receiver_street', 'destination_address.street_name'],
  ['err_cons_receiver_country', 'destination_address.country_code'],
  ['err_cons_receiver_name1', 'recipient_contact.company_name'],
  ['err_cons_receiver_address', 'destination_address'],
  ['err_cons_sender_address_zipcode', 'origin_address.postal_code'],
  ['err_cons_sender_address_city', 'origin_address.city_name'],
  ['err_cons_sender_address_street', 'origin_address.street_name'],
  ['err_cons_sender_address_country', 'origin_address.country_code'],
  ['err_cons_sender_address', 'origin_address'],
  // ShopReturn-Service: the customer sending back ("sendback") and the warehouse ("rec") of srv_ppe
  ['err_cons_srv_srs_sendback_zipcode', 'origin_address.postal_code'],
  ['err_cons_srv_srs_sendback_city', 'origin_address.city_name'],
  ['err_cons_srv_srs_sendback_street', 'origin_address.street_name'],
  ['err_cons_srv_srs_sendback_country', 'origin_address.country_code'],
  ['err_cons_srv_srs_sendback_name1', 'sender_contact.company_name'],
  ['err_cons_srv_srs_rec_zipcode', 'destination_address.postal_code'],
  ['err_cons_srv_srs_rec_city', 'destination_address.city_name'],
  ['err_cons_srv_srs_rec_street', 'destination_address.street_name'],
  ['err_cons_srv_srs_rec_country', 'destination_address.country_code'],
  ['err_cons_srv_srs_rec_name1', 'recipient_contact.company_name'],
  ['err_cons_srv_srs_both_addresses', 'origin_address.country_code'],
  ['err_cons_srv_srs_weight', 'parcels'],
  ['err_cons_weight', 'parcels'],
  ['err_cons_number_of_parcels', 'parcels'],
  ['err_cons_srv_sds', 'pickup_point'],
  ['err_cons_srv_amount_of_cod', 'cash_on_delivery_amount'],
  ['err_cons_srv_cod', 'cash_on_delivery_amount'],
  ['err_cons_references', 'reference_number'],
  ['err_cons_srv', 'shipping_channel_id'],
  ['err_cons_pfc', 'shipping_channel_id'],
  ['err_date', 'shipping_date'],
];

/** Login faults: the user name or password is wrong, or the account may not use the WebAPI. */
export const CREDENTIAL_FAULTS = new Set([
  'err_user_incorrect_username_password', 'err_user_webapi_blocked', 'err_user_permissions_problem', 'err_user_invalid_right',
]);

/** The session expired or was never issued: log in again (dbojdo/gls-ade, kerogos/gls-polska do the same). */
export const SESSION_FAULTS = new Set(['err_sess_not_found', 'err_sess_expired']);

export function pathOfFault(code: string): string {
  return FAULT_PATHS.find(([prefix]) => code.startsWith(prefix))?.[1] ?? 'shipment';
}

/** An ADE fault → a message and field errors on our paths. */
export function parseGlsPlFault(fault: SoapFault): { message: string; errors: FieldErrors } {
  const text = fault.reason || fault.code;
  return {
    message: `GLS Poland refused the consignment: ${text} (${fault.code})`,
    errors: { [pathOfFault(fault.code)]: [`GLS Poland: ${text} (${fault.code})`] },
  };
}

/**
 * ADE's fault for a ParcelShop id it does not know. The code is inferred, after ADE's err_cons_not_found and
 * err_pickup_not_found: no public source lists the faults of the adeParcelShop_* operations.
 */
export const POINT_NOT_FOUND = 'err_parcelshop_not_found';

/** A fault of a point search → the search's fields. */
export function parsePointFault(fault: SoapFault): { message: string; errors: FieldErrors } {
  const text = fault.reason || fault.code;
  return { message: `GLS Poland refused the point search: ${text} (${fault.code})`, errors: { pickup_point: [`GLS Poland: ${text} (${fault.code})`] } };
}

/** A fault of the hand-over (pickup, receipt, courier order) → the dispatch's paths: its date, else its shipments. */
export function parseGlsPlHandOverFault(fault: SoapFault): { message: string; errors: FieldErrors } {
  const text = fault.reason || fault.code;
  const path = fault.code.startsWith('err_date') ? 'pickup.date' : 'shipment_ids';
  return { message: `GLS Poland refused the hand-over: ${text} (${fault.code})`, errors: { [path]: [`GLS Poland: ${text} (${fault.code})`] } };
}

/** A refusal answer (the response envelope's text) → a message and field errors. */
export function parseGlsPlRefusal(status: number, envelope: string): { message: string; errors: FieldErrors } {
  const body = readSoapBody(envelope);
  if (body instanceof SoapFault) return parseGlsPlFault(body);
  return { message: `GLS Poland refused the request (HTTP ${status})`, errors: { shipment: [`GLS Poland: HTTP ${status}`] } };
}

export interface GlsTrackedEvent {
  timestamp?: string;
  description?: string;
  location?: string;
  country?: string;
  code?: string;
}

/** `GET /public/v1/tracking/references/{n}` (shape as github.com/tjamps/gls-tracking src/Rest/Response reads it). */
export interface GlsTrackingAnswer {
  parcels?: { status?: string; trackid?: string; events?: GlsTrackedEvent[] }[];
}

/** Times without an offset are read as UTC. */
function occurredAt(timestamp: string | undefined): number {
  if (!timestamp) return Number.NaN;
  return Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(timestamp) ? timestamp : `${timestamp}Z`);
}

function trackingEvents(events: readonly GlsTrackedEvent[]): TrackingEventFromCarrier[] {
  const out: TrackingEventFromCarrier[] = [];
  for (const e of events) {
    const at = occurredAt(e.timestamp);
    if (!e.code || Number.isNaN(at)) continue;
    const location = e.location ? (e.country ? `${e.location}, ${e.country}` : e.location) : null;
    out.push({ code: e.code, text: e.description ?? null, status: statusOfCode(GLS_PL_TRACKING, e.code), location, description: e.description ?? null, occurredAt: at });
  }
  return out.sort((a, b) => a.occurredAt - b.occurredAt);
}

/**
 * One reference per call: the answer's parcels are the asked number's. No parcels (or a 404, passed as undefined)
 * means GLS does not know it (yet: ADE hands consignments to GLS tracking when they are picked up).
 */
export function parseTrackingAnswer(body: GlsTrackingAnswer | undefined, asked: readonly string[]): TrackResult[] {
  const parcels = body?.parcels ?? [];
  return asked.map((trackingNumber) => (parcels.length === 0
    ? { trackingNumber, found: false }
    : { trackingNumber, found: true, events: trackingEvents(parcels.flatMap((p) => p.events ?? [])) }));
}
