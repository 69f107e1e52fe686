import type { FieldErrors } from '../../domain/errors.js';
import { isLabelFormat, type LabelFormat } from '../../domain/labels.js';
import { nameOfCode, statusOfCode } from '../codes.js';
import type { TrackingEventFromCarrier, TrackResult } from '../types.js';
import { BASELINKER_ERRORS, BASELINKER_TRACKING } from './codes.js';

/**
 * Base.com answers → our results. Pure. Every answer is `{status: "SUCCESS", …}` or `{status: "ERROR", error_code,
 * error_message}`, errors too with HTTP 200 (https://api.baselinker.com, s0rus/baselinker-js `src/internal/utils.ts`).
 */

export interface BaselinkerAnswer {
  status?: string;
  error_code?: string;
  error_message?: string;
}

export interface BaselinkerOrderAdded extends BaselinkerAnswer {
  order_id?: number;
}

export interface BaselinkerPackageCreated extends BaselinkerAnswer {
  package_id?: number;
  package_number?: string;
  courier_inner_number?: string;
}

export interface BaselinkerLabelAnswer extends BaselinkerAnswer {
  extension?: string;
  label?: string;
}

export interface BaselinkerStatusEntry {
  tracking_status_date?: number;
  courier_status_code?: string;
  tracking_status?: number;
}

export interface BaselinkerStatusHistory extends BaselinkerAnswer {
  packages_history?: Record<string, BaselinkerStatusEntry[]>;
}

/** What one shipment's create calls answered: `addOrder`, then `createPackage` once per parcel. */
export interface BaselinkerCreateAnswers {
  addOrder: BaselinkerOrderAdded;
  createPackage: BaselinkerPackageCreated[];
}

export interface BaselinkerCreated {
  orderId: number;
  parcels: { packageId: number; trackingNumber: string }[];
}

export function parseCreated(body: BaselinkerCreateAnswers): BaselinkerCreated {
  return {
    orderId: Number(body.addOrder.order_id),
    parcels: body.createPackage.map((p) => ({ packageId: Number(p.package_id), trackingNumber: String(p.package_number) })),
  };
}

/** `getLabel`: the courier's file, byte-exact, and its format when it is one packdesk handles. */
export function parseLabel(answer: BaselinkerLabelAnswer): { format: LabelFormat | null; extension: string; bytes: Buffer } {
  const extension = (answer.extension ?? '').toLowerCase();
  return { format: isLabelFormat(extension) ? extension : null, extension, bytes: Buffer.from(answer.label ?? '', 'base64') };
}

const CREDENTIAL_CODES: ReadonlySet<string> = new Set([BASELINKER_ERRORS.badToken, BASELINKER_ERRORS.accountBlocked]);
const CHANNEL_CODES: ReadonlySet<string> = new Set([
  BASELINKER_ERRORS.courierNotFound, BASELINKER_ERRORS.courierAccountNotFound, BASELINKER_ERRORS.orderStatusNotFound,
]);

export type BaselinkerFailure = { kind: 'credentials' | 'blocked' | 'transient' | 'refused'; code: string; message: string };

/** An ERROR answer: what kind of failure it is, with Base.com's own words (null for a SUCCESS answer). */
export function baselinkerFailure(answer: BaselinkerAnswer): BaselinkerFailure | null {
  if (answer.status === 'SUCCESS') return null;
  const code = answer.error_code ?? 'ERROR';
  const message = answer.error_message || code;
  if (CREDENTIAL_CODES.has(code)) return { kind: 'credentials', code, message };
  if (code === BASELINKER_ERRORS.blockedToken) return { kind: 'blocked', code, message };
  if (code === BASELINKER_ERRORS.internal) return { kind: 'transient', code, message };
  return { kind: 'refused', code, message };
}

/**
 * Courier refusals come as the courier's own sentence, so the field is read from its words; the first match wins
 * (the sender is the courier account's in Base.com, so every address problem is the recipient's).
 */
const WORDED_PATHS: readonly [RegExp, string][] = [
  // before cash on delivery: "the pickup point takes no cash on delivery" is about the point
  [/pickup point|delivery_point|paczkomat|punkt odbioru/i, 'pickup_point'],
  [/post(al)?[\s_-]*code|postcode|zip/i, 'destination_address.postal_code'],
  [/phone|telefon/i, 'recipient_contact.phone_number'],
  [/e-?mail/i, 'recipient_contact.email_address'],
  [/weight|heavy|waga/i, 'parcels'],
  [/cash on delivery|\bcod\b|pobrani/i, 'cash_on_delivery_amount'],
  [/label/i, 'label_format'],
  [/country/i, 'destination_address.country_code'],
  [/city/i, 'destination_address.city_name'],
  [/street|address/i, 'destination_address.street_name'],
];

/** A request Base.com cannot read is packdesk's to fix, whatever field it names. */
const REQUEST_CODES: ReadonlySet<string> = new Set([BASELINKER_ERRORS.parameters, BASELINKER_ERRORS.unknownMethod]);

function pathOf(code: string, message: string): string {
  if (CREDENTIAL_CODES.has(code) || CHANNEL_CODES.has(code)) return 'shipping_channel_id';
  if (REQUEST_CODES.has(code)) return 'shipment';
  return WORDED_PATHS.find(([words]) => words.test(message))?.[1] ?? 'shipment';
}

/** A refusal → a message and our field errors. */
export function parseRefusal(status: number, body: BaselinkerAnswer | undefined): { message: string; errors: FieldErrors } {
  const code = body?.error_code ?? `HTTP ${status}`;
  const message = body?.error_message || code;
  return { message: `Baselinker refused the request (${code}): ${message}`, errors: { [pathOf(code, message)]: [`Baselinker: ${message}`] } };
}

/** The package ids packdesk knows for the asked numbers, and Base.com's getCourierPackagesStatusHistory answer. */
export interface BaselinkerTrackingBody {
  packageIds: Record<string, number>;
  answer: BaselinkerStatusHistory;
}

/** One result per asked number: unknown to packdesk, or without history at Base.com, it is not found. */
export function parseTracking(body: BaselinkerTrackingBody, asked: readonly string[]): TrackResult[] {
  const history = body.answer.packages_history ?? {};
  return asked.map((trackingNumber) => {
    const id = Object.hasOwn(body.packageIds, trackingNumber) ? String(body.packageIds[trackingNumber]) : undefined;
    const entries = id !== undefined && Object.hasOwn(history, id) ? history[id]! : [];
    return entries.length > 0 ? { trackingNumber, found: true, events: trackingEvents(entries) } : { trackingNumber, found: false };
  });
}

function trackingEvents(entries: readonly BaselinkerStatusEntry[]): TrackingEventFromCarrier[] {
  const events: TrackingEventFromCarrier[] = [];
  for (const e of entries) {
    if (e.tracking_status === undefined || e.tracking_status_date === undefined) continue;
    const code = String(e.tracking_status);
    events.push({
      code, text: nameOfCode(BASELINKER_TRACKING, code), status: statusOfCode(BASELINKER_TRACKING, code), location: null,
      description: e.courier_status_code ? `courier status ${e.courier_status_code}` : null, occurredAt: e.tracking_status_date * 1000,
    });
  }
  return events.sort((a, b) => a.occurredAt - b.occurredAt);
}
