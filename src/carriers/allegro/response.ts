import type { FieldErrors } from '../../domain/errors.js';
import { nameOfCode, statusOfCode } from '../codes.js';
import type { TrackingEventFromCarrier, TrackResult } from '../types.js';
import { ALLEGRO_TRACKING } from './codes.js';

/**
 * Allegro's answers → our results. Pure. Shapes: Allegro's OpenAPI (em411/allegro-php-api `resources/spec.yaml`):
 * Error400 / AuthError, CreateShipmentCommandStatusDto, ShipmentDto, DeliveryServicesDto, CarrierParcelTrackingResponse.
 */

/** One entry of `errors[]` (Error400): `path` points at the field, `userMessage` is for people. */
export interface AllegroError {
  code?: string;
  message?: string;
  details?: string | null;
  path?: string | null;
  userMessage?: string;
}

export interface AllegroErrors {
  errors?: AllegroError[];
}

/** The OAuth endpoints' and a refused token's answer (AuthError). */
export interface AllegroAuthError {
  error?: string;
  error_description?: string;
}

export interface AllegroCommandStatus {
  commandId?: string;
  status?: 'IN_PROGRESS' | 'SUCCESS' | 'ERROR';
  errors?: AllegroError[];
  shipmentId?: string;
  /** Pickup commands (CreatePickupCommandStatusDto): Allegro's pickup id and the carrier's, once SUCCESS. */
  pickupId?: string;
  carrierPickupId?: string;
}

/** PickupProposalsResponseDto: per shipment, the pickup slots its carrier offers (`proposalItems` is deprecated, still required to order). */
export interface AllegroPickupProposals {
  proposals?: {
    shipmentId?: string;
    proposalItems?: { id: string; name: string }[];
    pickupTimes?: { date: string; minTime?: string; maxTime?: string }[];
  }[];
}

export interface AllegroShipmentPackage {
  waybill?: string;
  transportingInfo?: { carrierId?: string; carrierWaybill?: string }[];
}

export interface AllegroShipment {
  id?: string;
  referenceNumber?: string;
  carrier?: string;
  labelFormat?: 'PDF' | 'ZPL' | 'EPL';
  canceledDate?: string | null;
  packages?: AllegroShipmentPackage[];
}

/** DeliveryServiceDto, as far as packdesk reads it. */
export interface AllegroDeliveryService {
  id: { deliveryMethodId?: string; credentialsId?: string | null };
  name: string;
  carrierId: string;
  cashOnDelivery?: { limit?: number; currency?: string; forceRequireIban?: boolean } | null;
}

export interface AllegroDeliveryServices {
  services?: AllegroDeliveryService[];
}

/** The channel's delivery service: its method, and its agreement where the channel names one. */
export function deliveryServiceFor(body: AllegroDeliveryServices, deliveryMethodId: string, credentialsId?: string): AllegroDeliveryService | undefined {
  return (body.services ?? []).find((s) => s.id?.deliveryMethodId === deliveryMethodId && (!credentialsId || s.id.credentialsId === credentialsId));
}

export type AllegroCreated =
  | { state: 'ready'; shipmentId: string; trackingNumbers: string[]; labelFormat: string | null }
  | { state: 'waiting'; shipmentId: string };

/** `GET /shipment-management/shipments/{id}`: one waybill per package, in the order of the request's packages. */
export function parseCreatedShipment(body: AllegroShipment): AllegroCreated {
  const shipmentId = body.id ?? '';
  const waybills = (body.packages ?? []).map((p) => p.waybill ?? '');
  if (waybills.length === 0 || waybills.some((w) => w === '')) return { state: 'waiting', shipmentId };
  return { state: 'ready', shipmentId, trackingNumbers: waybills, labelFormat: body.labelFormat ?? null };
}

const PARTIES: Record<string, { contact: string; address: string }> = {
  sender: { contact: 'sender_contact', address: 'origin_address' },
  receiver: { contact: 'recipient_contact', address: 'destination_address' },
};

const ADDRESS_FIELDS: Record<string, (p: { contact: string; address: string }) => string> = {
  name: (p) => `${p.contact}.last_name`, company: (p) => `${p.contact}.company_name`, email: (p) => `${p.contact}.email_address`,
  phone: (p) => `${p.contact}.phone_number`, street: (p) => `${p.address}.street_name`, postalCode: (p) => `${p.address}.postal_code`,
  city: (p) => `${p.address}.city_name`, countryCode: (p) => `${p.address}.country_code`, state: (p) => p.address, point: (p) => p.address,
};

const PACKAGE_FIELDS: Record<string, string> = {
  weight: 'weight_amount', length: 'length_dimension', width: 'width_dimension', height: 'height_dimension', type: 'parcel_type',
};

const INPUT_FIELDS: Record<string, string> = {
  labelFormat: 'label_format', deliveryMethodId: 'shipping_channel_id', credentialsId: 'shipping_channel_id',
  additionalServices: 'shipping_channel_id', additionalProperties: 'shipping_channel_id', insurance: 'shipment', referenceNumber: 'shipment',
};

/**
 * An Allegro error path (`receiver.postalCode`, `packages[0].weight`, maybe under `input.`) → our field path.
 * `parcelIndexes` maps a command's package positions to our parcels (a one-parcel command carries parcel k as packages[0]).
 */
export function allegroFieldPath(path: string | null | undefined, parcelIndexes?: readonly number[]): string {
  const parts = (path ?? '').replace(/^input\./, '').split(/[.[\]]+/).filter(Boolean);
  const [head, second, third] = parts;
  if (head === undefined) return 'shipment';
  if (head === 'receiver' && second === 'point') return 'pickup_point';
  if (Object.hasOwn(PARTIES, head)) {
    const party = PARTIES[head]!;
    return second !== undefined && Object.hasOwn(ADDRESS_FIELDS, second) ? ADDRESS_FIELDS[second]!(party) : party.address;
  }
  if (head === 'packages') {
    if (second === undefined || !/^\d+$/.test(second)) return 'parcels';
    const parcel = parcelIndexes?.[Number(second)] ?? Number(second);
    if (third === 'textOnLabel') return 'label_comment';
    return third !== undefined && Object.hasOwn(PACKAGE_FIELDS, third) ? `parcels.${parcel}.${PACKAGE_FIELDS[third]}` : `parcels.${parcel}`;
  }
  if (head === 'cashOnDelivery') return second === 'currency' ? 'cash_on_delivery_currency' : second === 'amount' || second === undefined ? 'cash_on_delivery_amount' : 'shipping_channel_id';
  return Object.hasOwn(INPUT_FIELDS, head) ? INPUT_FIELDS[head]! : 'shipment';
}

function wordsOf(e: AllegroError): string {
  return e.userMessage || e.message || e.details || e.code || 'no reason given';
}

/** What a refusal is about, when not a shipment: its words, where Allegro's paths land among our fields, and the field of a refusal without path. */
export interface RefusalSubject {
  noun: string;
  field: string;
  fieldOf(path: string | null | undefined): string;
}

/** A hand-over's Allegro paths (PickupCreateRequestDto, PickupProposalsRequestDto, ShipmentIdsDto) → the dispatch's fields. */
export const HAND_OVER_REFUSAL: RefusalSubject = {
  noun: 'the hand-over',
  field: 'dispatch',
  fieldOf(path) {
    const [head, second] = (path ?? '').replace(/^input\./, '').split(/[.[\]]+/).filter(Boolean);
    if (head === 'shipmentIds') return 'shipment_ids';
    if (head === 'address') return 'sender';
    if (head === 'pickupTime') return second === 'minTime' ? 'pickup.from' : second === 'maxTime' ? 'pickup.to' : 'pickup.date';
    if (head === 'readyDate' || head === 'pickupDateProposalId') return 'pickup.date';
    return 'dispatch';
  },
};

/** A pickup-windows query's Allegro paths (PickupProposalsRequestDto) → its fields: the day, the sender's address, the shipments. */
export const PICKUP_WINDOWS_REFUSAL: RefusalSubject = {
  noun: 'the pickup proposals',
  field: 'date',
  fieldOf(path) {
    const [head, second] = (path ?? '').split(/[.[\]]+/).filter(Boolean);
    if (head === 'shipmentIds') return 'shipment_ids';
    if (head === 'address') return second === 'postalCode' ? 'sender.postal_code' : second === 'countryCode' ? 'sender.country_code' : 'sender';
    return 'date';
  },
};

/**
 * A refusal — an HTTP 4xx with `errors[]`, or a command that ended in ERROR — → a message and our field errors.
 * A command answer carries its errors the same way, so one reader serves both.
 */
export function parseRefusal(
  status: number, body: (AllegroErrors & AllegroAuthError) | undefined, parcelIndexes?: readonly number[], subject?: RefusalSubject,
): { message: string; errors: FieldErrors } {
  const list = body?.errors ?? [];
  const errors: FieldErrors = {};
  const fieldOf = subject?.fieldOf ?? ((path: string | null | undefined) => allegroFieldPath(path, parcelIndexes));
  for (const e of list) (errors[fieldOf(e.path)] ??= []).push(`Allegro: ${wordsOf(e)}`);
  const first = list[0];
  const reason = first ? `${wordsOf(first)}${first.code ? ` (${first.code})` : ''}`
    : body?.error_description || body?.error || (status < 400 ? 'the command ended in ERROR without a reason' : `HTTP ${status}`);
  if (list.length === 0) errors[status === 401 || status === 403 ? 'shipping_channel_id' : subject?.field ?? 'shipment'] = [`Allegro: ${reason}`];
  return { message: `Allegro refused ${subject?.noun ?? 'the shipment'}: ${reason}`, errors };
}

interface AllegroTrackingStatus {
  occurredAt?: string;
  code?: string;
  description?: string;
}

interface AllegroWaybillHistory {
  waybill?: string;
  trackingDetails?: { statuses?: AllegroTrackingStatus[]; createdAt?: string; updatedAt?: string } | null;
}

export interface AllegroTrackingAnswer {
  carrierId?: string;
  waybills?: AllegroWaybillHistory[];
}

/** `GET /order/carriers/{carrierId}/tracking` → one result per asked number; a waybill without tracking details is not found. */
export function parseTracking(body: AllegroTrackingAnswer, asked: readonly string[]): TrackResult[] {
  const byWaybill = new Map((body.waybills ?? []).map((w) => [w.waybill, w]));
  return asked.map((trackingNumber) => {
    const details = byWaybill.get(trackingNumber)?.trackingDetails;
    if (!details) return { trackingNumber, found: false };
    const events: TrackingEventFromCarrier[] = [];
    for (const s of details.statuses ?? []) {
      const occurredAt = Date.parse(s.occurredAt ?? '');
      if (!s.code || Number.isNaN(occurredAt)) continue;
      events.push({
        code: s.code, text: nameOfCode(ALLEGRO_TRACKING, s.code), status: statusOfCode(ALLEGRO_TRACKING, s.code),
        location: null, description: s.description || null, occurredAt,
      });
    }
    return { trackingNumber, found: true, events: events.sort((a, b) => a.occurredAt - b.occurredAt) };
  });
}
