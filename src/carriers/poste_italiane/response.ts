import type { FieldErrors } from '../../domain/errors.js';
import { nameOfCode, statusOfCode } from '../codes.js';
import type { TrackingEventFromCarrier, TrackResult } from '../types.js';
import { POSTE_TRACKING } from './codes.js';
import { romeTime } from '../local-time.js';

/**
 * Poste Delivery Business answers → our results. Pure. Shapes: mlocati/MLPosteDeliveryExpress
 * `Library/Service/{ResponseContainer,ResponseResult}.cs`, `Library/Waybill/Response/*.cs`, `Library/Tracking/Response/*.cs`.
 */

/** `errorCode` 0 is OK, anything else an error (ResponseResult.cs); "OK" or empty describes success. */
export interface PosteResult {
  errorCode?: number;
  errorDescription?: string | null;
}

export interface PosteCreatedWaybill extends PosteResult {
  code?: string | null;
  internationalCode?: string | null;
  internationalCode2?: string | null;
  downloadURL?: string | null;
  downloadUrlImg?: string | null;
}

export interface PosteCreateAnswer {
  channel?: string;
  contractCode?: string;
  costCenterCode?: string;
  Paperless?: boolean;
  result?: PosteResult;
  waybills?: PosteCreatedWaybill[] | null;
}

/** A failed call outside the waybill envelope: the session endpoint's `{error, error_description}`, the gateway's `{statusCode, message}`. */
export interface PosteGatewayError {
  error?: string;
  error_description?: string;
  statusCode?: number;
  message?: string;
}

const failed = (r: PosteResult | undefined) => (r?.errorCode ?? 0) !== 0 || !['', 'OK', undefined, null].includes(r?.errorDescription);

/** One waybill per parcel, in the order of `declared` (MultiPack: "a waybill instance for every package you declared"). */
export function parseCreated(body: PosteCreateAnswer): { parcels: { trackingNumber: string; downloadUrl: string }[] } {
  return {
    parcels: (body.waybills ?? []).map((w) => ({ trackingNumber: w.code ?? '', downloadUrl: w.downloadURL ?? '' })),
  };
}

/** An answer that reports an error in `result` or in any waybill (as Waybill/Creator.cs checks both). */
export function isRefusal(body: PosteCreateAnswer | undefined): boolean {
  return body !== undefined && (failed(body.result) || (body.waybills ?? []).some(failed));
}

const PARTIES: Record<string, { contact: string; address: string }> = {
  sender: { contact: 'sender_contact', address: 'origin_address' },
  receiver: { contact: 'recipient_contact', address: 'destination_address' },
};

const ADDRESS_FIELDS: Record<string, (p: { contact: string; address: string }) => string> = {
  nameSurname: (p) => `${p.contact}.last_name`, contactName: (p) => `${p.contact}.last_name`,
  email: (p) => `${p.contact}.email_address`, phone: (p) => `${p.contact}.phone_number`, cellphone: (p) => `${p.contact}.phone_number`,
  address: (p) => `${p.address}.street_name`, streetNumber: (p) => `${p.address}.house_number`,
  zipCode: (p) => `${p.address}.postal_code`, city: (p) => `${p.address}.city_name`, province: (p) => `${p.address}.postal_code`,
  country: (p) => `${p.address}.country_code`, countryName: (p) => `${p.address}.country_code`,
  note1: () => 'reference_number', note2: () => 'label_comment',
};

const DECLARED_FIELDS: Record<string, string> = { weight: 'weight_amount', height: 'height_dimension', length: 'length_dimension', width: 'width_dimension' };

/**
 * Poste names the field it refuses in its message ("Dati obbligatori mancanti: waybills[].data.services"): that path
 * → ours. A path packdesk fills from the channel's settings lands on `shipping_channel_id`, one it builds itself on `shipment`.
 */
export function posteFieldPath(requestPath: string): string {
  const party = /data\.(sender|receiver)\.(\w+)/.exec(requestPath);
  if (party) return ADDRESS_FIELDS[party[2]!]?.(PARTIES[party[1]!]!) ?? PARTIES[party[1]!]!.address;
  const parcel = /data\.declared\[(\d*)\](?:\.(\w+))?/.exec(requestPath);
  if (parcel) return parcel[1] && parcel[2] && DECLARED_FIELDS[parcel[2]] ? `parcels.${parcel[1]}.${DECLARED_FIELDS[parcel[2]]}` : 'parcels';
  if (/APT000918/.test(requestPath)) return 'cash_on_delivery_amount';
  if (/APT00094[789]/.test(requestPath)) return 'pickup_point';
  if (/printFormat/.test(requestPath)) return 'label_format';
  if (/shipmentDate/.test(requestPath)) return 'shipping_date';
  if (/APT000945/.test(requestPath)) return 'parcels';
  if (/costCenterCode|product|content|paymentMode/.test(requestPath)) return 'shipping_channel_id';
  return 'shipment';
}

/** The request paths a message names (`waybills[].data.receiver.zipCode`, `costCenterCode` …) after its colon. */
function namedPaths(description: string): string[] {
  const tail = description.includes(':') ? description.slice(description.indexOf(':') + 1) : '';
  return tail.split(/[,;]/).map((p) => p.trim()).filter((p) => /^[\w.[\]]+$/.test(p));
}

/** A refusal → a message and our field errors. */
export function parseRefusal(status: number, body: (PosteCreateAnswer & PosteGatewayError) | undefined): { message: string; errors: FieldErrors } {
  const refusals = [body?.result, ...(body?.waybills ?? [])].filter((r): r is PosteResult => failed(r));
  const described = refusals.map((r) => ({ text: r.errorDescription || 'no description', code: r.errorCode ?? 0 }));
  const gateway = described.length === 0;
  if (gateway) described.push({ text: body?.error_description || body?.message || body?.error || `HTTP ${status}`, code: 0 });
  // outside the waybill envelope only the session or the gateway speaks: the channel's credentials or Poste itself
  const fallback = gateway && (body?.error !== undefined || status === 401 || status === 403) ? 'shipping_channel_id' : 'shipment';
  const errors: FieldErrors = {};
  const messages = described.map(({ text, code }) => `${text}${code ? ` (error ${code})` : ''}`);
  described.forEach(({ text }, i) => {
    const paths = namedPaths(text);
    for (const path of paths.length > 0 ? paths.map(posteFieldPath) : [fallback]) (errors[path] ??= []).push(`Poste Italiane: ${messages[i]}`);
  });
  return { message: `Poste Italiane refused the request: ${messages.join('; ')}`, errors };
}

interface PosteTrackingEvent {
  data?: string;
  officeDescription?: string | null;
  officeId?: string | null;
  status?: string | null;
  phase?: string | null;
  StatusDescription?: string | null;
  synthesisStatusDescription?: string | null;
}

interface PosteTrackedShipment {
  waybillNumber?: string;
  product?: string;
  NotificationFlag?: string;
  returnFlag?: string;
  tracking?: PosteTrackingEvent[] | null;
}

export interface PosteTrackAnswer {
  return?: {
    outcome?: string;
    code?: number;
    result?: string;
    messages?: { messages?: { code?: string; field?: string; message?: string; objectName?: string; severity?: number }[] }[];
    shipment?: PosteTrackedShipment[] | null;
  };
}

/**
 * `GET postalandlogistics/parcel/tracking` → one result per asked number. A number missing from `shipment[]`, or
 * an answer with `code` ≠ 0 (100–199 formal, 200–299 business errors, Return.cs), is not found; a waybill without
 * events yet is found with none.
 */
export function parseTracking(body: PosteTrackAnswer, asked: readonly string[]): TrackResult[] {
  const answer = body.return;
  const ok = answer !== undefined && (answer.code ?? -1) === 0;
  const shipments = new Map((ok ? answer.shipment ?? [] : []).map((s) => [s.waybillNumber, s]));
  return asked.map((trackingNumber) => {
    const shipment = shipments.get(trackingNumber);
    return shipment ? { trackingNumber, found: true, events: trackingEvents(shipment) } : { trackingNumber, found: false };
  });
}

function trackingEvents(shipment: PosteTrackedShipment): TrackingEventFromCarrier[] {
  const events: TrackingEventFromCarrier[] = [];
  for (const e of shipment.tracking ?? []) {
    const occurredAt = romeTime.parse(e.data ?? '');
    if (!e.status || occurredAt === undefined) continue;
    events.push({
      code: e.status, text: nameOfCode(POSTE_TRACKING, e.status), status: statusOfCode(POSTE_TRACKING, e.status),
      location: e.officeDescription || null, description: e.StatusDescription || e.synthesisStatusDescription || e.phase || null, occurredAt,
    });
  }
  return events.sort((a, b) => a.occurredAt - b.occurredAt);
}
