import type { FieldErrors } from '../../domain/errors.js';
import { nameOfCode, statusOfCode } from '../codes.js';
import { readSoapBody, SoapFault, xmlList, xmlObject, xmlString, type XmlNode, type XmlObject } from '../soap.js';
import type { TrackingEventFromCarrier, TrackResult } from '../types.js';
import { DPD_PL_AT_POINT, DPD_PL_TRACKING } from './codes.js';
import { warsawTime } from '../local-time.js';

/**
 * DPDServices answers → our results. Pure. Shapes: DPD's schema (packagesGenerationResponseV2, documentGeneration-
 * ResponseV1, DPDServiceException) and the statuses and error codes of its customer documentation 2.87 and its
 * "Error codes" sheet; Info Services events: customerEventsResponseV3 (JAXB classes generated from its WSDL).
 */

const NAME = 'DPD Poland';

export type DpdPlCreated =
  | { state: 'created'; sessionId: string; packageId: string; waybills: string[] }
  /** A package with our reference exists already: an earlier attempt created it. */
  | { state: 'duplicate_reference' }
  | { state: 'refused'; message: string; errors: FieldErrors };

export type DpdPlLabels =
  | { state: 'found'; packageId: string; waybills: string[]; document: Buffer }
  | { state: 'not_found' }
  | { state: 'refused'; message: string };

/** The Body of an answer, or a SoapFault; an answer that is no SOAP envelope reads as an empty Body. */
export function soapBodyOf(xml: string): XmlObject | SoapFault {
  return readSoapBody(xml) ?? {};
}

/** A business fault (DPDServiceException, SchemaValidationException …): its detail element and message. */
export function faultDetail(fault: SoapFault): { kind: string; message: string } | undefined {
  const [kind] = Object.keys(fault.detail);
  if (!kind) return undefined;
  return { kind, message: xmlString(xmlObject(fault.detail[kind]).message) ?? fault.reason };
}

/** "Login failed" (customer documentation §1.2.1), "AuthData is null", denied access: the channel's credentials. */
export function isCredentialFault(fault: SoapFault): boolean {
  const detail = faultDetail(fault);
  if (!detail) return false;
  if (detail.kind === 'DeniedAccessWSException') return true;
  return detail.kind !== 'SchemaValidationException' && /login failed|incorrect_login|password|authdata|disabled_api/i.test(detail.message);
}

type Party = { contact: string; address: string };
const RECEIVER: Party = { contact: 'recipient_contact', address: 'destination_address' };
const SENDER: Party = { contact: 'sender_contact', address: 'origin_address' };

/**
 * Our field for one validation problem, from DPD's ErrorCode and FieldNames (e.g. INCORRECT_RECEIVER_POSTAL_CODE /
 * ReceiverPostalCode, ERROR_SENDER_PHONE_MAX_SIZE_EXCEEDED, ERROR_PARCEL_WEIGHT_INCORRECT).
 */
export function dpdFieldPath(errorCode: string, fieldNames: string, parcelIndex: number | undefined): string {
  const words = new Set(`${errorCode} ${fieldNames.replace(/([a-z0-9])([A-Z])/g, '$1_$2')}`.toUpperCase().split(/[^A-Z0-9]+/));
  const has = (...any: string[]) => any.some((w) => words.has(w));
  const dimension = (has('SIZE') && has('X', 'Y', 'Z')) || has('DIM');
  if (has('WEIGHT') || dimension) {
    return parcelIndex === undefined ? 'parcels' : `parcels.${parcelIndex}.${dimension ? 'length_dimension' : 'weight_amount'}`;
  }
  // the point itself (ERROR_EMPTY_PUDO, ERROR_SERVICES_NOT_SUPPORTED_BY_PUDO, ERROR_DPD_PICKUP_*_EXCLUDING …), not its recipient
  if (has('PUDO') || (has('PICKUP') && !has('RECEIVER'))) return 'pickup_point';
  if (has('COD')) return has('CURRENCY') ? 'cash_on_delivery_currency' : 'cash_on_delivery_amount';
  if (has('NO1', 'REF1')) return 'reference_number';
  if (has('NO2', 'REF2')) return 'label_comment';
  if (has('FID', 'CONTENT')) return 'shipping_channel_id';
  const party = has('RECEIVER') ? RECEIVER : has('SENDER') ? SENDER : undefined;
  if (!party) return has('POSTAL') ? `${RECEIVER.address}.postal_code` : 'shipment';
  if (has('POSTAL')) return `${party.address}.postal_code`;
  if (has('PHONE')) return `${party.contact}.phone_number`;
  if (has('EMAIL')) return `${party.contact}.email_address`;
  if (has('COUNTRY')) return `${party.address}.country_code`;
  if (has('CITY')) return `${party.address}.city_name`;
  if (has('ADDRESS')) return `${party.address}.street_name`;
  // a DPD Pickup recipient is a person: "Recipient name and surname cannot be blank"
  if (has('NAME') && has('PICKUP')) return `${party.contact}.last_name`;
  if (has('COMPANY', 'NAME')) return `${party.contact}.company_name`;
  return party.address;
}

function validationErrors(node: XmlNode | undefined, parcelIndex: number | undefined, errors: FieldErrors): void {
  for (const item of xmlList(xmlObject(node).ValidationInfo)) {
    const info = xmlObject(item);
    const code = xmlString(info.ErrorCode) ?? '';
    const text = xmlString(info.Info) || code || 'incorrect data';
    (errors[dpdFieldPath(code, xmlString(info.FieldNames) ?? '', parcelIndex)] ??= []).push(`${NAME}: ${text}`);
  }
}

const DUPLICATE_REFERENCE = new Set(['DUPLICATED_PACKAGE_REFERENCE', 'DUPLICATED_PACKAGE_SEARCH_KEY']);

/** generatePackagesNumbersV4Response → the package's waybills (one per parcel, in our order), or why not. */
export function parseCreatedBody(body: XmlObject): DpdPlCreated {
  const result = xmlObject(xmlObject(body.generatePackagesNumbersV4Response).return);
  const status = xmlString(result.Status) ?? 'NO_ANSWER';
  const pkg = xmlObject(xmlList(xmlObject(result.Packages).Package)[0]);
  const pkgStatus = xmlString(pkg.Status) ?? status;
  if (DUPLICATE_REFERENCE.has(pkgStatus)) return { state: 'duplicate_reference' };
  const parcels = xmlList(xmlObject(pkg.Parcels).Parcel).map(xmlObject);
  const waybills = parcels.map((p) => xmlString(p.Waybill) ?? '');
  if (status === 'OK' && pkgStatus === 'OK' && waybills.length > 0 && waybills.every(Boolean)) {
    return { state: 'created', sessionId: xmlString(result.SessionId) ?? '', packageId: xmlString(pkg.PackageId) ?? '', waybills };
  }
  const errors: FieldErrors = {};
  validationErrors(pkg.ValidationDetails, undefined, errors);
  parcels.forEach((p, i) => validationErrors(p.ValidationDetails, i, errors));
  const first = Object.values(errors)[0]?.[0]?.slice(NAME.length + 2);
  if (Object.keys(errors).length === 0) errors.shipment = [`${NAME}: the package was not created (${pkgStatus})`];
  return { state: 'refused', message: `${NAME} refused the shipment (${pkgStatus})${first ? `: ${first}` : ''}`, errors };
}

export function parseCreated(xml: string): DpdPlCreated {
  const body = soapBodyOf(xml);
  if (body instanceof SoapFault) return { state: 'refused', ...faultRefusal(body) };
  return parseCreatedBody(body);
}

/** A Fault as a refusal: credentials on the channel, anything else (schema, DPD's own checks) on the shipment. */
export function faultRefusal(fault: SoapFault): { message: string; errors: FieldErrors } {
  const reason = faultDetail(fault)?.message ?? fault.reason;
  const path = isCredentialFault(fault) ? 'shipping_channel_id' : 'shipment';
  return { message: `${NAME} refused the request: ${reason}`, errors: { [path]: [`${NAME}: ${reason}`] } };
}

/** A refusal as our errors: a Fault, or a create answer that created nothing. */
export function parseRefusal(_status: number, xml: string): { message: string; errors: FieldErrors } {
  const body = soapBodyOf(xml);
  if (body instanceof SoapFault) return faultRefusal(body);
  const created = parseCreatedBody(body);
  if (created.state === 'refused') return created;
  return { message: `${NAME} refused the request`, errors: { shipment: [`${NAME}: no package was created`] } };
}

/** generateSpedLabelsV4Response → the document of the package's labels and its waybills in DPD's order. */
export function parseLabelsBody(body: XmlObject): DpdPlLabels {
  const result = xmlObject(xmlObject(body.generateSpedLabelsV4Response).return);
  const session = xmlObject(result.session);
  const sessionStatus = xmlObject(session.statusInfo);
  const pkg = xmlObject(xmlList(session.packages)[0]);
  const status = xmlString(xmlObject(pkg.statusInfo).status) ?? xmlString(sessionStatus.status) ?? 'NO_ANSWER';
  if (status === 'NOT_FOUND') return { state: 'not_found' };
  const data = xmlString(result.documentData);
  if (status !== 'OK' || !data) {
    return { state: 'refused', message: `${NAME} made no labels (${status}${xmlString(sessionStatus.description) ? `: ${xmlString(sessionStatus.description)}` : ''})` };
  }
  const waybills = xmlList(pkg.parcels).map((p) => xmlString(xmlObject(p).waybill) ?? '');
  return { state: 'found', packageId: xmlString(pkg.packageId) ?? '', waybills, document: Buffer.from(data, 'base64') };
}

export type DpdPlReturnLabel =
  | { state: 'made'; packageId: string; waybills: string[]; document: Buffer }
  | { state: 'refused'; message: string; errors: FieldErrors };

/**
 * generate(Domestic)ReturnLabelV1Response (documentGenerationResponseV1) → the return's label document and its
 * waybills, read from the session's package as generateSpedLabelsV4's; DPD Polska's module checks only the session's
 * status and shows its description. NOT_FOUND (a returned waybill DPD does not know) is the return's `return_of`.
 */
export function parseReturnLabelBody(body: XmlObject, operation: string): DpdPlReturnLabel {
  const result = xmlObject(xmlObject(body[`${operation}Response`]).return);
  const session = xmlObject(result.session);
  const sessionStatus = xmlObject(session.statusInfo);
  const status = xmlString(sessionStatus.status) ?? 'NO_ANSWER';
  const data = xmlString(result.documentData);
  const pkg = xmlObject(xmlList(session.packages)[0]);
  if (status === 'OK' && data) {
    const waybills = xmlList(pkg.parcels).map((p) => xmlString(xmlObject(p).waybill) ?? '');
    return { state: 'made', packageId: xmlString(pkg.packageId) ?? '', waybills, document: Buffer.from(data, 'base64') };
  }
  const reason = `${NAME} made no return label (${status}${xmlString(sessionStatus.description) ? `: ${xmlString(sessionStatus.description)}` : ''})`;
  return { state: 'refused', message: reason, errors: { [status === 'NOT_FOUND' ? 'return_of' : 'shipment']: [reason] } };
}

/** getEventsForWaybillV1Response → one result per asked waybill; a waybill without events is not found. */
export function parseTrackingBody(body: XmlObject, asked: readonly string[]): TrackResult[] {
  const result = xmlObject(xmlObject(body.getEventsForWaybillV1Response).return);
  const events = xmlList(result.eventsList).map(xmlObject);
  return asked.map((trackingNumber) => {
    const own = events.filter((e) => (xmlString(e.waybill) ?? trackingNumber) === trackingNumber);
    const found = own.flatMap((e) => trackingEvent(e) ?? []);
    return found.length === 0 ? { trackingNumber, found: false } : { trackingNumber, found: true, events: found.sort((a, b) => a.occurredAt - b.occurredAt) };
  });
}

export function parseTracking(xml: string, asked: readonly string[]): TrackResult[] {
  const body = soapBodyOf(xml);
  return parseTrackingBody(body instanceof SoapFault ? {} : body, asked);
}

function trackingEvent(e: XmlObject): TrackingEventFromCarrier | undefined {
  const code = xmlString(e.businessCode);
  const occurredAt = warsawTime.parse(xmlString(e.eventTime) ?? '');
  if (!code || occurredAt === undefined) return undefined;
  const depot = xmlString(e.depotName);
  const country = xmlString(e.country);
  const description = xmlString(e.description) ?? null;
  return {
    code, text: nameOfCode(DPD_PL_TRACKING, code),
    status: statusOfCode(DPD_PL_TRACKING, code) ?? (DPD_PL_AT_POINT.wording.test(description ?? '') ? 'ready_for_pickup' : null),
    location: depot ? (country ? `${depot}, ${country}` : depot) : country ?? null,
    description, occurredAt,
  };
}

/** A generateProtocolV2 answer: the protocol, or DPD's refusal and what it means for the hand-over. */
export type DpdPlProtocol =
  | { state: 'made'; documentId: string; document: Buffer }
  | {
    state: 'refused'; message: string; errors: FieldErrors;
    /** Every asked parcel is in a protocol already (ALREADY_ADVICED). */
    allInProtocol: boolean;
    /** The packages DPD says are not of the asked session type (INCORRECT_PKGS_FOR_SESSION_TYPE). */
    otherSessionType: string[];
  };

const protocolProblems: Readonly<Record<string, (waybill: string) => string>> = {
  NOT_FOUND: (w) => `parcel ${w} is unknown`,
  ALREADY_ADVICED: (w) => `parcel ${w} is in a hand-over protocol already`,
  INCORRECT_PKGS_FOR_SESSION_TYPE: (w) => `parcel ${w} is not of the protocol's kind: protocols are separate for Poland and abroad`,
  ACCESS_DENIED_FOR_FID: (w) => `parcel ${w} belongs to another customer number`,
};

/**
 * generateProtocolV2Response (documentGenerationResponseV1, the labels' shape plus `documentId`) → the protocol, or
 * why not: the statuses of statusDGREnumV1 on the session, its packages and their parcels, with our field paths
 * (`shipment_ids` for parcels, the sender's address for INCORRECT_PICKUP_ADDRESS_*).
 */
export function parseProtocolBody(body: XmlObject): DpdPlProtocol {
  const result = xmlObject(xmlObject(body.generateProtocolV2Response).return);
  const session = xmlObject(result.session);
  const sessionStatus = xmlObject(session.statusInfo);
  const status = xmlString(sessionStatus.status) ?? 'NO_ANSWER';
  const data = xmlString(result.documentData);
  const documentId = xmlString(result.documentId);
  if (status === 'OK' && data && documentId) return { state: 'made', documentId, document: Buffer.from(data, 'base64') };
  const packages = xmlList(session.packages).map(xmlObject).map((pkg) => {
    const own = xmlString(xmlObject(pkg.statusInfo).status) ?? status;
    const parcels = xmlList(pkg.parcels).map(xmlObject).map((p) => ({ waybill: xmlString(p.waybill) ?? '', status: xmlString(xmlObject(p.statusInfo).status) ?? own }));
    return { packageId: xmlString(pkg.packageId) ?? '', status: own, parcels };
  });
  const parcels = packages.flatMap((p) => (p.parcels.length > 0 ? p.parcels : [{ waybill: `of package ${p.packageId}`, status: p.status }]));
  const description = xmlString(sessionStatus.description);
  const problems = parcels.filter((p) => p.status !== 'OK').map((p) => protocolProblems[p.status]?.(p.waybill) ?? `parcel ${p.waybill}: ${p.status}`);
  const reasons = status.startsWith('INCORRECT_PICKUP_ADDRESS') ? ['the sender differs from the one the shipments were created with']
    : problems.length > 0 ? problems : [`no protocol was made${description ? `: ${description}` : ''}`];
  const path = status.startsWith('INCORRECT_PICKUP_ADDRESS') ? 'origin_address' : 'shipment_ids';
  return {
    state: 'refused', message: `${NAME} refused the hand-over protocol: ${reasons[0]} (${status})`, errors: { [path]: reasons.map((r) => `${NAME}: ${r}`) },
    allInProtocol: parcels.length > 0 && parcels.every((p) => p.status === 'ALREADY_ADVICED'),
    otherSessionType: packages.filter((p) => p.status === 'INCORRECT_PKGS_FOR_SESSION_TYPE').map((p) => p.packageId),
  };
}

export type DpdPlPickup =
  | { state: 'booked'; orderNumber: string; checkSum: string | undefined }
  | { state: 'refused'; message: string; errors: FieldErrors };

/** Our field of a courier booking problem, from the `fields` DPD names (pickupDate, pickupTimeFrom, payerNumber …). */
function pickupPath(fields: string): string {
  if (/date/i.test(fields)) return 'pickup.date';
  if (/timeFrom/i.test(fields)) return 'pickup.from';
  if (/timeTo/i.test(fields)) return 'pickup.to';
  if (/payer/i.test(fields)) return 'shipping_channel_id';
  if (/phone/i.test(fields)) return 'sender_contact.phone_number';
  if (/sender|customer/i.test(fields)) return 'origin_address';
  return 'pickup';
}

/** packagesPickupCallV4Response (packagesPickupCallResponseV3: orderNumber, checkSum, statusInfo with errorDetails) → the order, or why not. */
export function parsePickupBody(body: XmlObject): DpdPlPickup {
  const result = xmlObject(xmlObject(body.packagesPickupCallV4Response).return);
  const statusInfo = xmlObject(result.statusInfo);
  const status = xmlString(statusInfo.status) ?? 'NO_ANSWER';
  const orderNumber = xmlString(result.orderNumber);
  if (status === 'OK' && orderNumber) return { state: 'booked', orderNumber, checkSum: xmlString(result.checkSum) };
  const errors: FieldErrors = {};
  for (const detail of xmlList(statusInfo.errorDetails).map(xmlObject)) {
    const text = xmlString(detail.description) ?? xmlString(detail.code) ?? status;
    (errors[pickupPath(xmlString(detail.fields) ?? '')] ??= []).push(`${NAME}: ${text}`);
  }
  if (Object.keys(errors).length === 0) errors.pickup = [`${NAME}: the courier was not booked (${status})`];
  const first = Object.values(errors)[0]![0]!.slice(NAME.length + 2);
  return { state: 'refused', message: `${NAME} refused the courier booking: ${first}`, errors };
}

/** One range of the courier at a place: its hours, and how many minutes before its start DPD must have the order. */
export interface DpdPlCourierRange {
  from: string;
  to: string;
  offsetMinutes: number;
}

export type DpdPlAvailability =
  | { state: 'available'; ranges: DpdPlCourierRange[] }
  | { state: 'refused'; message: string; errors: FieldErrors };

const RANGE = /^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$/;
const hhmm = (h: string, m: string) => `${h.padStart(2, '0')}:${m}`;

/**
 * getCourierOrderAvailabilityV1Response (getCourierOrderAvailabilityResponseV1: `status`, `ranges` of
 * courierOrderAvailabilityRangeV1 `{offset, range}`) → the ranges, or why not. customer documentation 2.87: `range`
 * is "hh:mm-hh:mm", `offset` the "minimum advance time (in minutes), when the courier needs to be booked"; its own
 * example answers an empty `<ranges/>` among them, which holds no range. DPD documents only the status OK: any other
 * is read as DPD's word on the place asked about.
 */
export function parseAvailabilityBody(body: XmlObject, postalCode: string): DpdPlAvailability {
  const result = xmlObject(xmlObject(body.getCourierOrderAvailabilityV1Response).return);
  const status = xmlString(result.status) ?? 'NO_ANSWER';
  if (status !== 'OK') {
    const path = /COUNTRY/.test(status) ? 'sender.country_code' : 'sender.postal_code';
    const reason = `DPD has no courier for post code ${postalCode} (${status})`;
    return { state: 'refused', message: `${NAME} refused the courier availability: ${reason}`, errors: { [path]: [`${NAME}: ${reason}`] } };
  }
  const ranges = xmlList(result.ranges).map(xmlObject).flatMap((r): DpdPlCourierRange[] => {
    const hours = RANGE.exec(xmlString(r.range) ?? '');
    const offset = Number(xmlString(r.offset) ?? 0);
    return hours ? [{ from: hhmm(hours[1]!, hours[2]!), to: hhmm(hours[3]!, hours[4]!), offsetMinutes: Number.isFinite(offset) ? offset : 0 }] : [];
  });
  return { state: 'available', ranges };
}
