import { statusOfCode } from '../codes.js';
import { CarrierRefusedError } from '../errors.js';
import { readSoapBody, SoapFault, xmlList, xmlObject, xmlString, type XmlNode } from '../soap.js';
import type { FieldErrors } from '../../domain/errors.js';
import type { TrackingEventFromCarrier, TrackResult } from '../types.js';
import { DPD_TRACKING } from './codes.js';

/** DPD's answers → our results: META-API create answers and errors, ParcelLifeCycleService tracking. Pure. */

/** `shipment.ShipmentResponse` of the META-API (meta-api-docs.json); one label document holds every parcel's label. */
export interface DpdCreatedBody {
  shipmentId?: string;
  parcelIds?: string[];
  parcelBarcodes?: { parcel?: string; barcode?: string; reference?: string }[];
  label?: { base64Data?: string; 'media-type'?: string };
  warningMessage?: string;
}

export interface DpdCreated {
  shipmentId: string;
  parcelIds: string[];
  labelBase64: string;
}

export function parseCreatedShipment(body: DpdCreatedBody, parcelCount: number): DpdCreated {
  const parcelIds = body.parcelIds ?? [];
  if (!body.shipmentId || parcelIds.length !== parcelCount) {
    throw new CarrierRefusedError(`DPD returned ${parcelIds.length} parcel numbers for ${parcelCount} parcels`);
  }
  if (!body.label?.base64Data) throw new CarrierRefusedError(`DPD returned no label for shipment ${body.shipmentId}`);
  return { shipmentId: body.shipmentId, parcelIds, labelBase64: body.label.base64Data };
}

/** The META-API error (`Error`): a list of them on 400, one on 401, 408 and 500. */
export interface DpdError {
  errorCode?: string;
  errorMessage?: string;
  errorOrigin?: string;
}

const PARTIES: Record<string, { address: string; contact: string }> = {
  receiver: { address: 'destination_address', contact: 'recipient_contact' },
  sender: { address: 'origin_address', contact: 'sender_contact' },
};
const ADDRESS_FIELDS: Record<string, string> = {
  zipCode: 'postal_code', city: 'city_name', country: 'country_code', street: 'street_name', houseNumber: 'house_number',
};
const NAME_FIELDS: Record<string, string> = { companyName: 'company_name', name1: 'last_name', name2: 'company_name' };
const CONTACT_FIELDS: Record<string, string> = { phone1: 'phone_number', phone2: 'phone_number', email: 'email_address', contactPerson: 'last_name' };
const PARCEL_FIELDS: Record<string, string> = { weight: 'weight_amount', length: 'length_dimension', width: 'width_dimension', height: 'height_dimension' };

/** `InterInvoiceLine` fields → the fields of a customs item. */
const INVOICE_LINE_FIELDS: Record<string, string> = {
  content: 'description', productDescription: 'description', quantityOfItems: 'quantity', amountOfPosition: 'unit_value',
  manufacturedCountry: 'origin_country', netWeight: 'unit_weight', grossWeight: 'unit_weight', customerProductCode: 'sku',
  importTarifCode: 'hs_code', exportTarifCode: 'hs_code',
};
/** `International` fields → the declaration's fields (the total is the items' values, so it lands on them). */
const INTERNATIONAL_FIELDS: Record<string, string> = {
  customsAmount: 'customs.items', numberOfArticles: 'customs.items', interInvoiceLines: 'customs.items', customsTerms: 'customs.incoterm',
  customsInvoice: 'customs.invoice_number', customsInvoiceDates: 'customs.invoice_date', exportReason: 'customs.contents_type',
  parcelType: 'customs.contents_type',
};

/** `international.…` → our path under `customs`. */
function internationalPath([block = '', index, key = '']: string[]): string {
  if (block === 'interInvoiceLines' && index !== undefined && /^\d+$/.test(index)) {
    return INVOICE_LINE_FIELDS[key] ? `customs.items.${index}.${INVOICE_LINE_FIELDS[key]}` : `customs.items.${index}`;
  }
  if (block === 'customsAmount' && index === 'currency') return 'customs.currency';
  if (block === 'exporter' && index === 'eori') return 'customs.exporter_eori';
  if (block === 'importer' && index === 'vatNumber') return 'customs.importer_tax_id';
  if (block === 'importer' && index === 'eori') return 'customs.exporter_eori';
  return INTERNATIONAL_FIELDS[block] ?? 'customs';
}

/** A party's `legalEntity` carries the warehouse's numbers, the declaration's exporter's. */
const LEGAL_ENTITY_FIELDS: Record<string, string> = { eori: 'customs.exporter_eori', vatNumber: 'customs.exporter_vat_number' };

/** A field of the META-API request (`receiver.address.zipCode`, `parcel[1].parcelInfos.weight`) → our field path. */
export function dpdFieldPath(field: string): string {
  const [head = '', ...rest] = field.replace(/\[(\d+)\]/g, '.$1').split('.');
  if (head === 'international') return internationalPath(rest);
  const party = PARTIES[head];
  if (party) {
    const [block, key = ''] = rest;
    if (head === 'receiver' && block === 'pudoId') return 'pickup_point';
    if (block === 'legalEntity') return LEGAL_ENTITY_FIELDS[key] ?? 'customs';
    if (block === 'address' && ADDRESS_FIELDS[key]) return `${party.address}.${ADDRESS_FIELDS[key]}`;
    if (block === 'address' && NAME_FIELDS[key]) return `${party.contact}.${NAME_FIELDS[key]}`;
    if (block === 'contact') return CONTACT_FIELDS[key] ? `${party.contact}.${CONTACT_FIELDS[key]}` : party.contact;
    return party.address;
  }
  if (head === 'parcel') {
    const [index, block, ...more] = rest;
    if (index === undefined || !/^\d+$/.test(index)) return 'parcels';
    if (block === 'cod') return more.includes('currency') ? 'cash_on_delivery_currency' : 'cash_on_delivery_amount';
    if (block === 'senderParcelRefs') return 'reference_number';
    const key = more[more.length - 1] ?? '';
    return PARCEL_FIELDS[key] ? `parcels.${index}.${PARCEL_FIELDS[key]}` : `parcels.${index}`;
  }
  if (head === 'numberOfParcels') return 'parcels';
  if (head === 'mpsCompleteDelivery') return 'cash_on_delivery_amount';
  if (head === 'customerReferenceNumbers') return 'reference_number';
  if (head === 'shipmentInfos') return 'shipping_channel_id';
  if (head === 'LabelPrintFormat' || head === 'LabelPaperFormat') return 'label_format';
  return 'shipment';
}

const REQUEST_FIELD = /\b(?:sender|receiver|parcel\[\d+\]|parcel|numberOfParcels|mpsCompleteDelivery|customerReferenceNumbers|shipmentInfos|international|LabelPrintFormat|LabelPaperFormat)(?:\.\w+(?:\[\d+\])?)*/;

/** A META-API error answer → a message and our field errors, one per DPD error, on the field its message names. */
export function parseDpdErrors(body: unknown, status: number): { message: string; errors: FieldErrors } {
  const list = (Array.isArray(body) ? body : [body]).filter((e): e is DpdError => typeof e === 'object' && e !== null);
  const errors: FieldErrors = {};
  const texts: string[] = [];
  for (const e of list) {
    const text = [e.errorCode, e.errorMessage].filter(Boolean).join(': ');
    if (!text) continue;
    texts.push(text);
    const field = REQUEST_FIELD.exec(e.errorMessage ?? '')?.[0];
    (errors[field ? dpdFieldPath(field) : 'shipment'] ??= []).push(`DPD: ${text}`);
  }
  return { message: `DPD refused the request (HTTP ${status})${texts[0] ? `: ${texts[0]}` : ''}`, errors };
}

/** A ParcelLifeCycleService date, `8/17/2021 7:11:26 PM`; it carries no offset, so it is read as UTC. */
function lifeCycleTime(text: string | undefined): number {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}) (\d{1,2}):(\d{2}):(\d{2}) ?([AP]M)?$/i.exec(text?.trim() ?? '');
  if (!m) return Number.NaN;
  const h = Number(m[4]);
  const hour = m[7] ? (h % 12) + (m[7].toUpperCase() === 'PM' ? 12 : 0) : h;
  return Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2]), hour, Number(m[5]), Number(m[6]));
}

function lineText(node: XmlNode | undefined): string | null {
  return xmlString(xmlObject(node).content) ?? null;
}

/** The statuses a parcel has reached, oldest first; each `statusInfo` is one step of its life cycle. */
function reachedEvents(result: XmlNode | undefined): TrackingEventFromCarrier[] {
  const events: TrackingEventFromCarrier[] = [];
  for (const info of xmlList(xmlObject(result).statusInfo).map(xmlObject)) {
    const code = xmlString(info.status);
    const occurredAt = lifeCycleTime(lineText(info.date) ?? undefined);
    if (!code || xmlString(info.statusHasBeenReached) !== 'true' || Number.isNaN(occurredAt)) continue;
    const description = xmlList(xmlObject(info.description).content).map(lineText).filter((t): t is string => t !== null).join(' ') || null;
    events.push({ code, text: lineText(info.label), status: statusOfCode(DPD_TRACKING, code), location: lineText(info.location), description, occurredAt });
  }
  return events.sort((a, b) => a.occurredAt - b.occurredAt);
}

/**
 * `getTrackingData` answers (the SOAP envelope of each asked parcel number) → one result per asked number. A number
 * without an answer, with a fault, or whose life cycle has no reached status is not found.
 */
export function parseTrackingAnswers(answers: Readonly<Record<string, string>>, asked: readonly string[]): TrackResult[] {
  return asked.map((trackingNumber) => {
    const xml = answers[trackingNumber];
    const body = xml === undefined ? undefined : readSoapBody(xml);
    if (body === undefined || body instanceof SoapFault) return { trackingNumber, found: false };
    const events = reachedEvents(xmlObject(body.getTrackingDataResponse).trackingresult);
    return events.length > 0 ? { trackingNumber, found: true, events } : { trackingNumber, found: false };
  });
}

/** `pickupscheduling.Response`: one entry a pickup; an entry without `pickupreference` is the business unit's refusal. */
export interface DpdPickupAnswer {
  scheduledPickupResponse?: { pickupreference?: string; statusCode?: string; statusDescription?: string }[];
}

/** The field a refused pickup entry is about; DPD publishes no status codes, these are read from their wording. */
function pickupField(code: string): string {
  if (/PARCEL|SHIPMENT/i.test(code)) return 'shipment_ids';
  if (/DATE/i.test(code)) return 'pickup.date';
  if (/TIME/i.test(code)) return 'pickup.from';
  return 'pickup';
}

/** DPD's pickup reference, else a CarrierRefusedError with the business unit's reasons (as karrio's dpd_meta parses them). */
export function parsePickupAnswer(body: DpdPickupAnswer): string {
  const entries = body.scheduledPickupResponse ?? [];
  const booked = entries.find((e) => e.pickupreference)?.pickupreference;
  const refusals = entries.filter((e) => !e.pickupreference && e.statusDescription);
  if (booked && refusals.length === 0) return booked;
  if (refusals.length === 0) throw new CarrierRefusedError('DPD answered the courier booking without a pickup reference', { pickup: ['DPD booked no pickup'] });
  const errors: FieldErrors = {};
  for (const e of refusals) (errors[pickupField(e.statusCode ?? '')] ??= []).push(`DPD: ${e.statusDescription}`);
  const first = refusals[0]!;
  throw new CarrierRefusedError(`DPD refused the courier booking: ${first.statusDescription}${first.statusCode ? ` (${first.statusCode})` : ''}`, errors);
}
