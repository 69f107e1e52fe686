import type { FieldErrors } from '../../domain/errors.js';
import { nameOfCode, statusOfCode } from '../codes.js';
import { CarrierRefusedError } from '../errors.js';
import type { CarrierRate, TrackingEventFromCarrier, TrackResult } from '../types.js';
import { INPOST_CURRENCY, INPOST_TRACKING } from './codes.js';

/**
 * InPost ShipX answers → our results. Pure. Shapes: michalbiarda/shipx-php-sdk `Model/Shipment`, `ParcelsSimple`,
 * `Tracking`, `TrackingDetails`, `DispatchOrder`, `Error` and `AbstractCollection`, and ShipX's pages on errors and
 * form validation (dokumentacja-inpost.atlassian.net/wiki/spaces/PL, 18153492).
 */

const NAME = 'InPost';

/** A shipment resource (`POST …/shipments`, `GET /v1/shipments/{id}`, the items of the organization's list). */
export interface InpostShipment {
  href?: string;
  id?: number;
  status?: string;
  tracking_number?: string | null;
  service?: string;
  reference?: string | null;
  parcels?: { id?: number | string | null; template?: string | null; tracking_number?: string | null }[];
  cod?: { amount?: number | null; currency?: string | null } | null;
  custom_attributes?: { target_point?: string | null; sending_method?: string | null } | null;
  created_at?: string;
}

/** A page of a list (`AbstractCollection`). */
export interface InpostPage<T> {
  href?: string;
  count?: number;
  page?: number;
  per_page?: number;
  items?: T[];
}

/** Every ShipX error body (`Model/Error`): `details` nests the form's fields, through arrays, down to lists of keys. */
export interface InpostError {
  status?: number;
  error?: string;
  message?: string;
  description?: string;
  details?: unknown;
}

/** The shipment once bought: its id, and a tracking number a parcel in parcel order. */
export interface InpostCreated {
  id: string;
  status: string;
  service: string | null;
  trackingNumbers: string[];
}

/** Statuses before InPost bought the label (18153478): still being made, not yet a shipment with numbers. */
const BEFORE_PURCHASE = new Set(['created', 'offers_prepared', 'offer_selected']);

export function isBought(shipment: InpostShipment): boolean {
  return shipment.status !== undefined && !BEFORE_PURCHASE.has(shipment.status) && shipment.status !== 'canceled';
}

/** Its parcels' numbers; a one-parcel shipment may name its number on the shipment only. */
export function parseCreated(body: InpostShipment): InpostCreated {
  const perParcel = (body.parcels ?? []).map((p) => p.tracking_number ?? '').filter(Boolean);
  const trackingNumbers = perParcel.length > 0 ? perParcel : body.tracking_number ? [body.tracking_number] : [];
  return { id: String(body.id ?? ''), status: body.status ?? '', service: body.service ?? null, trackingNumbers };
}

type Party = { contact: string; address: string };
const PARTIES: Readonly<Record<string, Party>> = {
  receiver: { contact: 'recipient_contact', address: 'destination_address' },
  sender: { contact: 'sender_contact', address: 'origin_address' },
};
const CONTACT_FIELDS: Readonly<Record<string, string>> = {
  phone: 'phone_number', email: 'email_address', first_name: 'first_name', last_name: 'last_name', company_name: 'company_name',
};
const ADDRESS_FIELDS: Readonly<Record<string, string>> = {
  street: 'street_name', building_number: 'house_number', line1: 'street_name', city: 'city_name', post_code: 'postal_code', country_code: 'country_code',
};
const SHIPMENT_FIELDS: Readonly<Record<string, string>> = {
  target_point: 'pickup_point', 'custom_attributes.target_point': 'pickup_point',
  sending_method: 'shipping_channel_id', 'custom_attributes.sending_method': 'shipping_channel_id', service: 'shipping_channel_id',
  cod: 'cash_on_delivery_amount', 'cod.amount': 'cash_on_delivery_amount', 'cod.currency': 'cash_on_delivery_currency',
  insurance: 'cash_on_delivery_amount', 'insurance.amount': 'cash_on_delivery_amount', 'insurance.currency': 'cash_on_delivery_currency',
  comments: 'reference_number', reference: 'shipment', is_return: 'return_of',
  // a dispatch order's fields
  shipments: 'shipment_ids', address: 'origin_address',
};

/** Where a ShipX field (`receiver.address.post_code`, `parcels.1.weight.amount`) lands among ours. */
export function inpostFieldPath(field: string): string {
  const [head, ...rest] = field.split('.');
  const party = PARTIES[head ?? ''];
  if (party) {
    if (rest[0] === 'address') return rest[1] && ADDRESS_FIELDS[rest[1]] ? `${party.address}.${ADDRESS_FIELDS[rest[1]]}` : party.address;
    return rest[0] && CONTACT_FIELDS[rest[0]] ? `${party.contact}.${CONTACT_FIELDS[rest[0]]}` : party.contact;
  }
  if (head === 'parcels') {
    const index = /^\d+$/.test(rest[0] ?? '') ? Number(rest[0]) : undefined;
    const inner = index === undefined ? rest : rest.slice(1);
    if (index === undefined) return 'parcels';
    return inner[0] === 'weight' ? `parcels.${index}.weight_amount` : `parcels.${index}`;
  }
  return SHIPMENT_FIELDS[field] ?? SHIPMENT_FIELDS[head ?? ''] ?? 'shipment';
}

/**
 * `details` as (field, keys) pairs: objects name fields, arrays of objects are a form's items (a parcel's index is
 * kept; the one-item arrays ShipX wraps a form in, `{"custom_attributes":[{"target_point":[…]}]}`, are not), arrays of
 * strings are the keys (`does_not_exist`, `invalid`).
 */
function flatten(details: unknown, path: string[] = []): { field: string; keys: string[] }[] {
  if (Array.isArray(details)) {
    if (details.every((d) => typeof d === 'string')) return path.length > 0 ? [{ field: path.join('.'), keys: details as string[] }] : [];
    const keepIndex = path[path.length - 1] === 'parcels';
    return details.flatMap((d, i) => flatten(d, keepIndex ? [...path, String(i)] : path));
  }
  if (details && typeof details === 'object') return Object.entries(details).flatMap(([key, value]) => flatten(value, [...path, key]));
  if (typeof details === 'string' && path.length > 0) return [{ field: path.join('.'), keys: [details] }];
  return [];
}

/** A refusal → a message and our field errors; 401 and 403 name the channel's credentials. */
export function parseRefusal(status: number, body: InpostError | undefined): { message: string; errors: FieldErrors } {
  const key = body?.error ?? `HTTP ${status}`;
  const said = body?.message || body?.description || key;
  const errors: FieldErrors = {};
  for (const { field, keys } of flatten(body?.details)) {
    // `details` of invalid_action (`{action, shipment_status}`) describe the state, not fields
    if (body?.error === 'invalid_action') break;
    (errors[inpostFieldPath(field)] ??= []).push(`${NAME}: ${field} ${keys.join(', ')}`);
  }
  if (Object.keys(errors).length === 0) {
    const path = status === 401 || status === 403 || key === 'missing_trucker_id' || key === 'carrier_unavailable' || key === 'no_carriers' ? 'shipping_channel_id' : 'shipment';
    errors[path] = [`${NAME}: ${said}`];
  }
  return { message: `${NAME} refused the request (HTTP ${status}, ${key}): ${said}`, errors };
}

/** `GET /v1/tracking/{tracking_number}` (`Model/Tracking`). */
export interface InpostTracking {
  tracking_number?: string;
  service?: string;
  status?: string;
  tracking_details?: { status?: string; origin_status?: string | null; agency?: string | null; location?: string | null; datetime?: string }[];
}

function eventOf(detail: NonNullable<InpostTracking['tracking_details']>[number]): TrackingEventFromCarrier | undefined {
  const occurredAt = Date.parse(detail.datetime ?? '');
  if (!detail.status || Number.isNaN(occurredAt)) return undefined;
  return {
    code: detail.status, text: nameOfCode(INPOST_TRACKING, detail.status), status: statusOfCode(INPOST_TRACKING, detail.status),
    location: detail.agency ?? detail.location ?? null, description: detail.origin_status ?? null, occurredAt,
  };
}

/** The tracking answers found (one per number, ShipX answers newest first) → one result per asked number, events oldest first. */
export function parseTracking(found: readonly InpostTracking[], asked: readonly string[]): TrackResult[] {
  return asked.map((trackingNumber) => {
    const tracking = found.find((t) => t.tracking_number === trackingNumber);
    if (!tracking) return { trackingNumber, found: false };
    const events = (tracking.tracking_details ?? []).map(eventOf).filter((e): e is TrackingEventFromCarrier => e !== undefined).sort((a, b) => a.occurredAt - b.occurredAt);
    return { trackingNumber, found: true, events };
  });
}

/** A dispatch order (`Model/DispatchOrder`); statuses new, sent, accepted … (18153482), `canceled` once withdrawn. */
export interface InpostDispatchOrder {
  href?: string;
  id?: number;
  status?: string;
  shipments?: { id?: number; tracking_number?: string | null }[];
  created_at?: string;
}

/** One shipment's prices from `shipments/calculate` (18153505): amounts in PLN as text, null where ShipX prices nothing. */
export interface InpostCalculatedPrice {
  id?: string;
  calculated_charge_amount?: string | null;
  fuel_charge_amount?: string | null;
  cod_charge_amount?: string | null;
  insurance_charge_amount?: string | null;
}

/**
 * The shipment's total (`calculated_charge_amount`, fees included) in PLN. ShipX gives none to a postpaid (debit)
 * organization ("Prices are not returned for postpaid (debit) customers"): a refusal saying so.
 */
export function parseCalculatedPrice(answer: InpostCalculatedPrice[], id: string): CarrierRate {
  const price = (Array.isArray(answer) ? answer : []).find((p) => p.id === undefined || p.id === id);
  const amount = Number(price?.calculated_charge_amount ?? Number.NaN);
  if (!price || price.calculated_charge_amount == null || !Number.isFinite(amount)) {
    throw new CarrierRefusedError('InPost calculated no price: ShipX prices shipments only for prepaid organizations, not postpaid (debit) ones');
  }
  return { amountMinor: Math.round(amount * 100), currency: INPOST_CURRENCY, transitDays: null, estimatedDelivery: null };
}
