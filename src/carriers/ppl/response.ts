import type { FieldErrors } from '../../domain/errors.js';
import type { TrackingEventFromCarrier, TrackResult } from '../types.js';
import { statusOfCode } from '../codes.js';
import { PPL_SHIPMENT_STATES, PPL_TRACKING } from './codes.js';

/** PPL CPL API responses → our results. Pure. Docs: https://ppl-cpl-api-en.apidog.io */

export interface BatchItem {
  referenceId?: string;
  shipmentNumber?: string;
  importState?: string;
  errorMessage?: string;
  relatedItems?: { shipmentNumber?: string }[];
}

/** `GET /shipment/batch/{id}`, with `completeLabel` when the batch asked for all labels in one document. */
export interface BatchStatusBody {
  items?: BatchItem[];
  completeLabel?: { labelUrls?: string[] };
}

export type BatchOutcome =
  | { state: 'processing' }
  | { state: 'error'; message: string }
  | { state: 'complete'; trackingNumbers: string[]; labelDocumentUrl: string };

/**
 * The master parcel first, then the set's related parcels in order, and the batch's one label document (its first
 * page of 200 labels: a shipment has at most 20 parcels). Complete without that document is not complete yet.
 */
export function parseBatchStatus(body: BatchStatusBody, referenceId: string): BatchOutcome {
  const item = body.items?.find((i) => i.referenceId === referenceId) ?? body.items?.[0];
  if (!item) return { state: 'processing' };
  if (item.importState === 'Error') return { state: 'error', message: item.errorMessage ?? 'PPL refused the shipment' };
  const labelDocumentUrl = body.completeLabel?.labelUrls?.[0];
  if (item.importState !== 'Complete' || !item.shipmentNumber || !labelDocumentUrl) return { state: 'processing' };
  const trackingNumbers = [item.shipmentNumber];
  for (const related of item.relatedItems ?? []) {
    if (!related.shipmentNumber) return { state: 'processing' };
    trackingNumbers.push(related.shipmentNumber);
  }
  return { state: 'complete', trackingNumbers, labelDocumentUrl };
}

/** PPL's field names (`Shipments[0].Recipient.ZipCode`) → our field paths. */
const FIELD_PATHS: [RegExp, string][] = [
  [/^recipient\.zipcode$/, 'destination_address.postal_code'],
  [/^recipient\.city$/, 'destination_address.city_name'],
  [/^recipient\.street$/, 'destination_address.street_name'],
  [/^recipient\.country$/, 'destination_address.country_code'],
  [/^recipient\.(name|name2|contact)$/, 'recipient_contact.company_name'],
  [/^recipient\.phone$/, 'recipient_contact.phone_number'],
  [/^recipient\.email$/, 'recipient_contact.email_address'],
  [/^sender\.zipcode$/, 'origin_address.postal_code'],
  [/^sender\.city$/, 'origin_address.city_name'],
  [/^sender\.street$/, 'origin_address.street_name'],
  [/^sender\.country$/, 'origin_address.country_code'],
  [/^sender\.(name|name2|contact)$/, 'sender_contact.company_name'],
  [/^sender\.phone$/, 'sender_contact.phone_number'],
  [/^sender\.email$/, 'sender_contact.email_address'],
  [/^cashondelivery\.codcurrency$/, 'cash_on_delivery_currency'],
  [/^cashondelivery(\..*)?$/, 'cash_on_delivery_amount'],
  [/^shipmentset\.shipmentsetitems\[(\d+)\]\.weighedshipmentinfo\.weight$/, 'parcels.$1.weight_amount'],
  [/^shipmentset(\..*)?$/, 'parcels'],
  [/^producttype$/, 'shipping_channel_id'],
  [/^externalnumbers(\[\d+\])?(\..*)?$/, 'reference_number'],
  [/^note$/, 'label_comment'],
  [/^specificdelivery(\..*)?$/, 'pickup_point'],
  // a pickup order's fields (POST /order/batch) on the dispatch's pickup
  [/^orders\[\d+\]\.senddate$/, 'pickup.date'],
  [/^orders\[\d+\]\.sendtime(from|to)$/, 'pickup.$1'],
  [/^orders(\[\d+\])?(\..*)?$/, 'pickup'],
];

export function pplFieldPath(key: string): string {
  const local = key.replace(/^shipments\[\d+\]\./i, '').toLowerCase();
  const match = FIELD_PATHS.find(([pattern]) => pattern.test(local));
  return match ? local.replace(match[0], match[1]) : 'shipment';
}

export interface ProblemDetails {
  title?: string;
  detail?: string;
  status?: number;
  errors?: Record<string, string[]>;
}

/** An RFC 7807 problem from PPL → a message and our field errors. */
export function parseProblem(problem: ProblemDetails, status: number): { message: string; errors: FieldErrors } {
  const errors: FieldErrors = {};
  for (const [key, messages] of Object.entries(problem.errors ?? {})) {
    const path = pplFieldPath(key);
    for (const m of messages) (errors[path] ??= []).push(`PPL: ${m}`);
  }
  const first = Object.values(problem.errors ?? {})[0]?.[0];
  const message = `PPL refused the request (HTTP ${status})${first ? `: ${first}` : problem.detail ? `: ${problem.detail}` : ''}`;
  return { message, errors };
}

export interface PplTrackingEvent {
  statusId?: number;
  code?: string;
  name?: string;
  eventDate?: string;
  phase?: string;
  group?: string;
}

export interface PplTrackedShipment {
  shipmentNumber: string;
  shipmentState?: string;
  lastUpdateDate?: string;
  trackAndTrace?: { events?: PplTrackingEvent[] };
}

/** `GET /shipment?ShipmentNumbers=…` → one result per asked number (a number PPL does not return is not found). */
export function parseTrackedShipments(found: readonly PplTrackedShipment[], asked: readonly string[]): TrackResult[] {
  const byNumber = new Map(found.map((s) => [s.shipmentNumber, s]));
  return asked.map((trackingNumber) => {
    const shipment = byNumber.get(trackingNumber);
    return shipment ? { trackingNumber, found: true, events: trackingEvents(shipment) } : { trackingNumber, found: false };
  });
}

/** Events oldest first; a parcel without events yet is described by its `shipmentState` at `lastUpdateDate`. */
function trackingEvents(shipment: PplTrackedShipment): TrackingEventFromCarrier[] {
  const events: TrackingEventFromCarrier[] = [];
  for (const e of shipment.trackAndTrace?.events ?? []) {
    const code = e.statusId !== undefined ? String(e.statusId) : e.code;
    const occurredAt = Date.parse(e.eventDate ?? '');
    if (!code || Number.isNaN(occurredAt)) continue;
    events.push({ code, text: e.name ?? null, status: statusOfCode(PPL_TRACKING, code), location: null, description: e.name ?? null, occurredAt });
  }
  const stateAt = Date.parse(shipment.lastUpdateDate ?? '');
  if (events.length === 0 && shipment.shipmentState && !Number.isNaN(stateAt)) {
    const state = shipment.shipmentState;
    events.push({ code: state, text: state, status: Object.hasOwn(PPL_SHIPMENT_STATES, state) ? PPL_SHIPMENT_STATES[state]! : null, location: null, description: null, occurredAt: stateAt });
  }
  return events.sort((a, b) => a.occurredAt - b.occurredAt);
}
