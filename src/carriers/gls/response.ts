import type { FieldErrors } from '../../domain/errors.js';
import { nameOfCode, statusOfCode } from '../codes.js';
import type { TrackingEventFromCarrier, TrackResult } from '../types.js';
import { GLS_TRACKING, glsStatusCode } from './codes.js';
import { parseWcfDate } from './dates.js';

/**
 * MyGLS answers → our results. Pure. Shapes: webapix/mygls-sdk `src/Responses/*.php`, `src/Models/ErrorInfo.php`,
 * `src/Models/PrintLabelsInfo.php`, and the WSDL data contracts (RustamKuramshin/mygls-java-clients). MyGLS answers
 * HTTP 200 and lists what went wrong in the method's own error list of `ErrorInfo`s.
 */

export interface GlsErrorInfo {
  ErrorCode?: number;
  ErrorDescription?: string | null;
  ClientReferenceList?: string[] | null;
  ParcelIdList?: number[] | null;
}

export interface GlsPrintLabelsInfo {
  ClientReference?: string | null;
  ParcelId?: number;
  ParcelNumber?: number;
}

/** PrintLabels; GetPrintedLabels and GetParcelList answer `PrintDataInfoList` with the same three members. */
export interface GlsLabelsAnswer {
  Labels?: number[] | string | null;
  PrintLabelsInfoList?: GlsPrintLabelsInfo[] | null;
  PrintDataInfoList?: GlsPrintLabelsInfo[] | null;
  PrintLabelsErrorList?: GlsErrorInfo[] | null;
  GetPrintedLabelsErrorList?: GlsErrorInfo[] | null;
  GetParcelListErrors?: GlsErrorInfo[] | null;
}

/** A MyGLS answer of any method: its error lists are the members whose names say so. */
export type GlsAnswer = Record<string, unknown> & { ErrorCode?: number; ErrorDescription?: string | null };

export interface GlsCreated {
  parcels: { parcelId: number; trackingNumber: string; clientReference: string | null }[];
  labelDocumentBytes: number;
}

/** The label document of an answer: MyGLS serialises the bytes as an array of numbers (WCF byte[]). */
export function labelDocument(body: GlsLabelsAnswer): Buffer | null {
  const labels = body.Labels;
  if (Array.isArray(labels) && labels.length > 0) return Buffer.from(labels);
  if (typeof labels === 'string' && labels.length > 0) return Buffer.from(labels, 'base64');
  return null;
}

/** The packages GLS numbered, in GLS's order, and the size of the one label document for all of them. */
export function parseCreated(body: GlsLabelsAnswer): GlsCreated {
  const infos = body.PrintLabelsInfoList ?? body.PrintDataInfoList ?? [];
  return {
    parcels: infos.flatMap((i) => (i.ParcelId !== undefined && i.ParcelNumber !== undefined
      ? [{ parcelId: i.ParcelId, trackingNumber: String(i.ParcelNumber), clientReference: i.ClientReference ?? null }]
      : [])),
    labelDocumentBytes: labelDocument(body)?.length ?? 0,
  };
}

/** Every ErrorInfo of an answer: its `…ErrorList`/`…Errors`/`…Error` members and a ResponseBase's own code. */
export function errorsOf(body: GlsAnswer | undefined): GlsErrorInfo[] {
  if (!body || typeof body !== 'object') return [];
  const listed = Object.entries(body)
    .filter(([key, value]) => /Errors?(List)?$/.test(key) && Array.isArray(value))
    .flatMap(([, value]) => value as GlsErrorInfo[]);
  const own = typeof body.ErrorCode === 'number' && body.ErrorCode !== 0 ? [{ ErrorCode: body.ErrorCode, ErrorDescription: body.ErrorDescription }] : [];
  return [...listed, ...own];
}

/** MyGLS API, Appendix A: -1 "Unauthorized.", 14 "User not exists". */
const CREDENTIAL_CODES = new Set([-1, 14]);
/**
 * Appendix A codes after which the parcel may exist or a later call will do: 16 label empty, 19/20 parcel numbers
 * not generated, 21 no printable labels, 31 same request 5 times within 5 minutes, 1000/1001 internal errors.
 */
const TRANSIENT_CODES = new Set([16, 19, 20, 21, 31, 1000, 1001]);
/** 4 parcel ID not exists, 9 parcel number not exists, 10 parcel number not assigned yet, 26 not found with current settings. */
export const NOT_FOUND_CODES: ReadonlySet<number> = new Set([4, 9, 10, 26]);
/** 6: "Parcel with this ID has different status than PRINTED" (handed over, or deleted before). */
export const NOT_PRINTED = 6;

export type GlsFailure = { kind: 'credentials' | 'transient' | 'not_found' | 'refused'; code: number | null; message: string };

/** How an answer went wrong (null when it lists no error): the first error that decides, in the carrier's words. */
export function glsFailure(body: GlsAnswer | undefined): GlsFailure | null {
  const errors = errorsOf(body);
  if (errors.length === 0) return null;
  const message = errors.map((e) => e.ErrorDescription || `error ${e.ErrorCode ?? '?'}`).join('; ');
  const codes = errors.map((e) => e.ErrorCode ?? null);
  const code = codes[0] ?? null;
  if (codes.some((c) => c !== null && CREDENTIAL_CODES.has(c))) return { kind: 'credentials', code, message };
  if (codes.some((c) => c !== null && TRANSIENT_CODES.has(c))) return { kind: 'transient', code, message };
  if (codes.every((c) => c !== null && NOT_FOUND_CODES.has(c))) return { kind: 'not_found', code, message };
  return { kind: 'refused', code, message };
}

const ADDRESS_FIELDS: Record<string, string> = {
  Name: 'company_name', ContactName: 'last_name', ContactPhone: 'phone_number', ContactEmail: 'email_address',
  Street: 'street_name', HouseNumber: 'house_number', HouseNumberInfo: 'apartment_number', City: 'city_name',
  ZipCode: 'postal_code', CountryIsoCode: 'country_code',
};
const CONTACT_MEMBERS = new Set(['Name', 'ContactName', 'ContactPhone', 'ContactEmail']);
const PARCEL_FIELDS: Record<string, string> = {
  CODAmount: 'cash_on_delivery_amount', CODCurrency: 'cash_on_delivery_currency', CODReference: 'reference_number',
  Content: 'label_comment', Count: 'parcels', ClientNumber: 'shipping_channel_id', PickupDate: 'shipping_date',
  TypeOfPrinter: 'label_format',
};

/**
 * Which of our fields an error is about. MyGLS names the data member in `ErrorDescription`
 * ("DeliveryAddress.ZipCode: …"); the form is inferred, the member names are the WSDL's.
 */
function glsFieldPath(error: GlsErrorInfo): string {
  if (error.ErrorCode !== undefined && CREDENTIAL_CODES.has(error.ErrorCode)) return 'shipping_channel_id';
  // Appendix A 34: "Value of TypeOfPrinter is invalid"
  if (error.ErrorCode === 34) return 'label_format';
  const text = error.ErrorDescription ?? '';
  // the ParcelShop Delivery service carries the shipment's pickup point
  if (/\bPSD(Parameter)?\b/.test(text)) return 'pickup_point';
  const address = /\b(PickupAddress|DeliveryAddress)\.(\w+)/.exec(text);
  if (address) return addressFieldPath(address[1] === 'DeliveryAddress' ? 'recipient' : 'sender', address[2]!);
  const member = Object.keys(PARCEL_FIELDS).find((m) => new RegExp(`\\b${m}\\b`).test(text));
  return member ? PARCEL_FIELDS[member]! : 'shipment';
}

/** An `Address` member → our contact or address field of the sender or the recipient. */
function addressFieldPath(party: 'sender' | 'recipient', member: string): string {
  const [contact, place] = party === 'recipient' ? ['recipient_contact', 'destination_address'] : ['sender_contact', 'origin_address'];
  const field = ADDRESS_FIELDS[member];
  return field ? `${CONTACT_MEMBERS.has(member) ? contact : place}.${field}` : place;
}

/**
 * Which field of a dispatch a CreatePickupRequest error is about: its `Address` is the shipments' sender, its window
 * the pickup asked for, its `Count` the parcels of the shipments. The description's form is inferred, as above.
 */
function pickupFieldPath(error: GlsErrorInfo): string {
  if (error.ErrorCode !== undefined && CREDENTIAL_CODES.has(error.ErrorCode)) return 'shipping_channel_id';
  const text = error.ErrorDescription ?? '';
  const address = /\bAddress\.(\w+)/.exec(text);
  if (address) return addressFieldPath('sender', address[1]!);
  if (/\bAddress\b/.test(text)) return 'origin_address';
  // a window that is over is fixed by another day
  if (/\bin the past\b/.test(text)) return 'pickup.date';
  if (/\bPickupTimeFrom\b/.test(text)) return 'pickup.from';
  if (/\bPickupTimeTo\b/.test(text)) return 'pickup.to';
  if (/\bCount\b/.test(text)) return 'shipment_ids';
  if (/\bClientNumber\b/.test(text)) return 'shipping_channel_id';
  return 'pickup';
}

/** An answer's errors → a message naming what was refused, and our field errors. */
function refusalOf(what: string, fieldPath: (e: GlsErrorInfo) => string, fallback: string, status: number, body: GlsAnswer | undefined): { message: string; errors: FieldErrors } {
  const list = errorsOf(body);
  const errors: FieldErrors = {};
  for (const e of list) (errors[fieldPath(e)] ??= []).push(`GLS: ${e.ErrorDescription || `error ${e.ErrorCode ?? '?'}`}`);
  if (list.length === 0) errors[fallback] = [`GLS: HTTP ${status} without a reason`];
  const first = list[0];
  const why = first ? `(error ${first.ErrorCode ?? '?'}): ${list.map((e) => e.ErrorDescription || `error ${e.ErrorCode ?? '?'}`).join('; ')}` : `(HTTP ${status})`;
  return { message: `GLS refused ${what} ${why}`, errors };
}

/** A refusal → a message and our field errors. */
export function parseRefusal(status: number, body: GlsAnswer | undefined): { message: string; errors: FieldErrors } {
  return refusalOf('the request', glsFieldPath, 'shipment', status, body);
}

/** A refused CreatePickupRequest → a message and the dispatch's field errors. */
export function parsePickupRefusal(status: number, body: GlsAnswer | undefined): { message: string; errors: FieldErrors } {
  return refusalOf('the pickup request', pickupFieldPath, 'pickup', status, body);
}

/**
 * CreatePickupRequest's answer. GLS's plugin reads `PickupRequestErrors` and, where present, `PickupRequestId`
 * (includes/admin/class-gls-shipping-pickup-history.php `save_pickup_request`): the id is not certain to come.
 */
export interface GlsPickupAnswer {
  PickupRequestId?: number | string | null;
  PickupRequestErrors?: GlsErrorInfo[] | null;
}

/** How a booking GLS accepted without a request number is confirmed: by the moment it accepted it. */
export const ACCEPTED_WITHOUT_NUMBER = 'accepted by GLS at ';

/**
 * GLS's confirmation of an accepted pickup request: its PickupRequestId, or, where GLS gives none, the moment it
 * accepted the request (`YYYY-MM-DD HH:MM`, the account country's clock), so an accepted booking never reads as lost.
 */
export function pickupConfirmation(answer: GlsPickupAnswer, acceptedAt: string): string {
  const id = answer.PickupRequestId;
  const number = typeof id === 'number' ? (id > 0 ? String(id) : '') : (id ?? '').trim();
  return number || `${ACCEPTED_WITHOUT_NUMBER}${acceptedAt}`;
}

interface GlsParcelStatus {
  StatusCode?: string | number;
  StatusDate?: string;
  StatusDescription?: string | null;
  StatusInfo?: string | null;
  DepotCity?: string | null;
  DepotNumber?: string | null;
}

/** GetParcelStatuses, one parcel number per call (webapix/mygls-sdk `src/Responses/GetParcelStatuses.php`). */
export interface GlsParcelStatusesAnswer {
  ParcelNumber?: number | null;
  ClientReference?: string | null;
  ParcelStatusList?: GlsParcelStatus[] | null;
  GetParcelStatusErrors?: GlsErrorInfo[] | null;
}

/** The answers of GetParcelStatuses for the asked numbers, in the order asked → one result per number. */
export function parseTracking(answers: readonly GlsParcelStatusesAnswer[], asked: readonly string[]): TrackResult[] {
  return asked.map((trackingNumber, i) => {
    const answer = answers[i];
    if (!answer || (answer.GetParcelStatusErrors?.length ?? 0) > 0) return { trackingNumber, found: false };
    return { trackingNumber, found: true, events: trackingEvents(answer.ParcelStatusList ?? []) };
  });
}

/** MyGLS lists the newest status first; ours run oldest first. */
function trackingEvents(statuses: readonly GlsParcelStatus[]): TrackingEventFromCarrier[] {
  const events: TrackingEventFromCarrier[] = [];
  for (const s of statuses) {
    const occurredAt = parseWcfDate(s.StatusDate);
    if (s.StatusCode === undefined || occurredAt === undefined) continue;
    const code = glsStatusCode(s.StatusCode);
    events.push({
      code, text: s.StatusDescription || nameOfCode(GLS_TRACKING, code), status: statusOfCode(GLS_TRACKING, code),
      location: s.DepotCity || null, description: s.StatusInfo || null, occurredAt,
    });
  }
  return events.sort((a, b) => a.occurredAt - b.occurredAt);
}
