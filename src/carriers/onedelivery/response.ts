import type { FieldErrors } from '../../domain/errors.js';
import { nameOfCode, statusOfCode } from '../codes.js';
import { localTime } from '../local-time.js';
import { CarrierTransientError } from '../errors.js';
import type { BookedPickup, PickupRequest, TrackingEventFromCarrier, TrackResult } from '../types.js';
import { ONEDELIVERY_TRACKING } from './codes.js';

/**
 * One by Allegro's (WE|DO's) answers → our results. Pure. Shapes: nuty456/WeDoApi `models/responses/*.java`,
 * `models/errors/ErrorMessageException.java` and the real answers in its README and `TestWeDoProdResponses`.
 */

const NAME = 'One by Allegro';

/** One writes Czech wall-clock times (`2023-08-28 13:47:34`). */
export const pragueTime = localTime('Europe/Prague');

/** `POST /package` (PkgResponse). */
export interface OnedeliveryCreateAnswer {
  order_number?: string;
  reference_number?: string;
  barcode?: string[];
  sorting_code?: string;
  product_name?: string;
  product_code?: string;
  delivery_price?: number | null;
}

/** `last_state` of a package (PkgResponseState). */
export interface OnedeliveryState {
  id?: number;
  code?: string;
  created?: string;
}

/** `GET /package/{order_number}` (PkgResponse): One keeps one `last_state` per package, which all its parcels share. */
export interface OnedeliveryPackageDetail extends OnedeliveryCreateAnswer {
  labels_pdf?: string[];
  last_state?: OnedeliveryState | null;
}

/** One row of `GET /package` (PkgList). */
export interface OnedeliveryPackageListed {
  reference_number?: string | null;
  order_number?: string;
  last_change?: string;
  delivered?: string | null;
}

/** A non-2xx answer (ErrorMessageException); One's REST documentation also names `error_code`. */
export interface OnedeliveryError {
  message?: string;
  detail?: string[] | string | null;
  error_code?: string;
}

export interface OnedeliveryCreated {
  orderNumber: string;
  /** One per parcel, in One's order: the parcels' tracking numbers. */
  barcodes: string[];
  productCode: string | null;
  deliveryPrice: number | null;
}

export function parseCreated(body: OnedeliveryCreateAnswer): OnedeliveryCreated {
  return {
    orderNumber: body.order_number ?? '',
    barcodes: body.barcode ?? [],
    productCode: body.product_code ?? null,
    deliveryPrice: typeof body.delivery_price === 'number' ? body.delivery_price : null,
  };
}

/**
 * A package's order number (`46F00000012`: the customer's three-character prefix and eight digits) from a parcel's
 * barcode (`46FS00000012*001001`: the prefix, a letter, the digits, `*` and the parcel's place), as the README's answers
 * pair them; an order number stays as it is.
 */
export function orderNumberOf(trackingNumber: string): string {
  const m = /^([0-9A-Z]{3})[A-Z](\d{8})\*\d{6}$/.exec(trackingNumber);
  return m ? `${m[1]}${m[2]}` : trackingNumber;
}

type Party = { contact: string; address: string };
const PARTIES: Readonly<Record<string, Party>> = {
  receiver: { contact: 'recipient_contact', address: 'destination_address' },
  sender: { contact: 'sender_contact', address: 'origin_address' },
};

function partyPath(party: Party, key: string): string {
  const fields: Record<string, string> = {
    name: party.contact, firstname: `${party.contact}.first_name`, surname: `${party.contact}.last_name`,
    email: `${party.contact}.email_address`, phone: `${party.contact}.phone_number`, mobile: `${party.contact}.phone_number`,
    street: `${party.address}.street_name`, city: `${party.address}.city_name`, postal_code: `${party.address}.postal_code`,
    state: `${party.address}.country_code`, note: 'label_comment',
  };
  return fields[key] ?? party.address;
}

const PACKAGE_FIELDS: Readonly<Record<string, string>> = {
  weight: 'parcels', volumetric_weight: 'parcels', package_count: 'parcels', package_number: 'parcels',
  value: 'shipping_channel_id', product: 'shipping_channel_id', comment: 'reference_number',
  'additional_service.cash_on_delivery': 'cash_on_delivery_amount',
  // WEDO POINT: the pickup place's code, and the recipient's mobile its notice goes to
  pup_branch: 'pickup_point', pup_contact: 'recipient_contact.phone_number',
  // the hand-over's calls: POST /batch names the packages, POST /pickup the day
  articles: 'shipment_ids', pickup_date: 'pickup.date',
};

/** Where a field One names (`receiver.postal_code`) lands among ours. */
export function onedeliveryFieldPath(field: string): string {
  const [head, ...rest] = field.split('.');
  const party = PARTIES[head ?? ''];
  if (party && rest.length > 0) return partyPath(party, rest.join('.'));
  return PACKAGE_FIELDS[field] ?? 'shipment';
}

/** Our paths of one side of a package and of the other: a return's receiver is our sender, its sender our recipient. */
const OTHER_SIDE: Readonly<Record<string, string>> = {
  origin_address: 'destination_address', destination_address: 'origin_address', sender_contact: 'recipient_contact', recipient_contact: 'sender_contact',
};

/**
 * A refusal of a return shipment (`reverse_order`): One's `receiver` is the customer, our sender, and its `sender` the
 * warehouse, our recipient, so the paths of the two sides change places.
 */
export function returnRefusalErrors(errors: FieldErrors): FieldErrors {
  const swapped: FieldErrors = {};
  for (const [path, messages] of Object.entries(errors)) {
    const [head, ...rest] = path.split('.');
    const other = OTHER_SIDE[head ?? ''];
    (swapped[other ? [other, ...rest].join('.') : path] ??= []).push(...messages);
  }
  return swapped;
}

function detailsOf(body: OnedeliveryError | undefined): string[] {
  const detail = body?.detail;
  if (typeof detail === 'string') return detail ? [detail] : [];
  return Array.isArray(detail) ? detail.map(String).filter(Boolean) : [];
}

/** A refusal → a message and our field errors; a `detail` line that starts with One's field name (`weight: …`) lands on it. */
export function parseRefusal(status: number, body: OnedeliveryError | undefined): { message: string; errors: FieldErrors } {
  const message = body?.message || `HTTP ${status}`;
  const details = detailsOf(body);
  const errors: FieldErrors = {};
  for (const line of details) {
    const m = /^([a-z_][a-z0-9_.]*):\s*(.+)$/i.exec(line);
    const path = m ? onedeliveryFieldPath(m[1]!) : 'shipment';
    (errors[path] ??= []).push(`${NAME}: ${m ? m[2] : line}`);
  }
  if (Object.keys(errors).length === 0) errors[status === 401 ? 'shipping_channel_id' : 'shipment'] = [`${NAME}: ${message}`];
  return { message: `${NAME} refused the request (HTTP ${status}): ${message}${details[0] ? ` — ${details[0]}` : ''}`, errors };
}

/** `POST /batch` (BatchResponse): per package `code` "0" when it went into the batch, and the batch made. */
export interface OnedeliveryBatchAnswer {
  articles?: { code?: string; order_number?: string }[];
  batch?: { id?: string; number?: string; protocol_url?: string } | null;
}

export interface OnedeliveryBatch {
  /** `IT-46F-20230412212520`: what `GET /batch/{number}/…` takes. */
  number: string;
  /** The order numbers One did not take, with its code for each. */
  notTaken: { orderNumber: string; code: string | null }[];
}

/** The batch of `asked` packages; an answer without a batch number leaves it unknown whether One made one. */
export function parseBatch(body: OnedeliveryBatchAnswer, asked: readonly string[]): OnedeliveryBatch {
  const number = body.batch?.number;
  if (!number) throw new CarrierTransientError(`${NAME} answered POST /batch without a batch number`);
  const codes = new Map((body.articles ?? []).map((a) => [a.order_number, a.code ?? null]));
  return { number, notTaken: asked.filter((n) => codes.get(n) !== '0').map((orderNumber) => ({ orderNumber, code: codes.get(orderNumber) ?? null })) };
}

/** `POST /pickup` (PickupResponse): `pickup_from`/`pickup_to` are One's times of day (`14:24:35`). */
export interface OnedeliveryPickupAnswer {
  id?: string;
  pickup_type?: string;
  pickup_from?: string | null;
  pickup_to?: string | null;
  created?: string;
  is_deletable?: boolean;
  pickup_address?: { street?: string; building_number?: string; city?: string; postal_code?: string; country_code?: string } | null;
}

const hoursAndMinutes = (time: string | null | undefined) => /^(\d{2}):(\d{2})/.exec(time ?? '')?.slice(1, 3).join(':');

/**
 * The courier One booked, in the window One set; One may leave a bound out (the README's answer has `pickup_to:
 * null`), and the asked one stands for it. An answer without an id leaves it unknown whether One booked.
 */
export function parsePickup(body: OnedeliveryPickupAnswer, asked: PickupRequest): BookedPickup {
  if (!body.id) throw new CarrierTransientError(`${NAME} answered POST /pickup without a pickup id`);
  return { confirmation: body.id, date: asked.date, from: hoursAndMinutes(body.pickup_from) ?? asked.from, to: hoursAndMinutes(body.pickup_to) ?? asked.to };
}

function stateEvent(state: OnedeliveryState): TrackingEventFromCarrier | undefined {
  const occurredAt = pragueTime.parse(state.created ?? '');
  if (!state.code || occurredAt === undefined) return undefined;
  return {
    code: state.code, text: nameOfCode(ONEDELIVERY_TRACKING, state.code), status: statusOfCode(ONEDELIVERY_TRACKING, state.code),
    location: null, description: null, occurredAt,
  };
}

/**
 * The package details of the asked numbers' orders (`GET /package/{order_number}`, one per order One found) → one
 * result per asked number. One reports a package's last state only, so each parcel has at most one event.
 */
export function parseTracking(details: readonly OnedeliveryPackageDetail[], asked: readonly string[]): TrackResult[] {
  return asked.map((trackingNumber) => {
    const detail = details.find((d) => d.order_number === orderNumberOf(trackingNumber));
    if (!detail) return { trackingNumber, found: false };
    const event = detail.last_state ? stateEvent(detail.last_state) : undefined;
    return { trackingNumber, found: true, events: event ? [event] : [] };
  });
}
