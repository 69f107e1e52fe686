import type { FieldErrors } from '../../domain/errors.js';
import { statusOfCode } from '../codes.js';
import { CarrierRefusedError } from '../errors.js';
import type { CarrierDocument, CarrierRate, TrackingEventFromCarrier, TrackResult } from '../types.js';
import { DHL_TRACKING } from './codes.js';

/** MyDHL API answers → our results. Pure. Shapes: the MyDHL OpenAPI 3.1.1 (vendored in fixtures/schema/). */

export interface DhlDocument {
  imageFormat?: string;
  content?: string;
  typeCode?: string;
  packageReferenceNumber?: number;
}

export interface DhlCreatedBody {
  // the schema says string; an answer that carries the number as JSON number is read as text too
  shipmentTrackingNumber?: string | number;
  packages?: { referenceNumber?: number; trackingNumber?: string | number }[];
  documents?: DhlDocument[];
  /** With `getRateEstimates`: the charges, in the billing currency (BILLC) and others (PULCL, BASEC). */
  shipmentCharges?: { currencyType?: string; priceCurrency?: string; price?: number }[];
  warnings?: string[];
}

export interface DhlCreated {
  /** The shipment's waybill number (AWB). */
  shipmentTrackingNumber: string;
  /** One per piece in our parcel order: the piece id and its label as DHL sent it (base64). */
  pieces: { trackingNumber: string; imageFormat: string; labelBase64: string }[];
  /** The customs documents DHL made (base64 PDF), where it made any. */
  documents?: { type: CarrierDocument['type']; contentBase64: string }[];
  /** What DHL charges the account, in its billing currency, where DHL answered it. */
  charge?: { amount: number; currency: string };
}

/** The charge in the account's billing currency (BILLC), else the first DHL gives. */
function billedCharge(charges: NonNullable<DhlCreatedBody['shipmentCharges']>): DhlCreated['charge'] {
  const charge = charges.find((c) => c.currencyType === 'BILLC') ?? charges[0];
  return typeof charge?.price === 'number' && charge.priceCurrency ? { amount: charge.price, currency: charge.priceCurrency } : undefined;
}

/** DHL's document `typeCode`s ("invoice, proforma, label or receipt") of the customs documents we ask for: the commercial invoice. */
const CUSTOMS_DOCUMENTS: Readonly<Record<string, CarrierDocument['type']>> = { invoice: 'commercial_invoice' };

function customsDocuments(documents: DhlDocument[]): NonNullable<DhlCreated['documents']> {
  return documents.flatMap((d) => {
    const type = CUSTOMS_DOCUMENTS[d.typeCode ?? ''];
    return type && d.content ? [{ type, contentBase64: d.content }] : [];
  });
}

/** A number DHL sends as a string or, in older answers, as a JSON number: always text in our results. */
function textOf(value: string | number | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : String(value);
}

const LABEL_FORMATS = new Set(['PDF', 'ZPL', 'EPL', 'EPL2']);

/**
 * The label documents: those typed `label`; in an older answer shape without `typeCode`, the PDF/ZPL/EPL documents,
 * taken only when there is exactly one per piece (anything else could be a waybill or an invoice).
 */
function labelDocuments(documents: DhlDocument[], pieces: number): DhlDocument[] {
  const typed = documents.filter((d) => d.typeCode === 'label' && d.content);
  if (typed.length > 0 || documents.some((d) => d.typeCode !== undefined)) return typed;
  const untyped = documents.filter((d) => d.content && LABEL_FORMATS.has((d.imageFormat ?? '').toUpperCase()));
  return untyped.length === pieces ? untyped : [];
}

/**
 * `POST /shipments` 201 → the AWB, per piece its id and label, and the commercial invoice of a declared shipment. We
 * number the pieces 1…n (`referenceNumber`) and ask for `linkLabelsByPieces`, so each label document names its piece
 * by `packageReferenceNumber`.
 */
export function parseCreatedShipment(body: DhlCreatedBody, parcelCount: number): DhlCreated {
  const awb = textOf(body.shipmentTrackingNumber);
  const packages = body.packages ?? [];
  const labels = labelDocuments(body.documents ?? [], packages.length);
  const documents = customsDocuments(body.documents ?? []);
  if (!awb || packages.length !== parcelCount) {
    throw new CarrierRefusedError(`DHL Express returned ${packages.length} piece numbers for ${parcelCount} parcels`);
  }
  const numbered = packages.map((p, i) => ({ referenceNumber: p.referenceNumber ?? i + 1, trackingNumber: textOf(p.trackingNumber) }));
  // Without linkLabelsByPieces the label documents come in piece order, possibly followed by further pages.
  const unlinked = labels.length >= packages.length && labels.every((d) => d.packageReferenceNumber === undefined);
  const pieces = numbered.sort((a, b) => a.referenceNumber - b.referenceNumber).map(({ referenceNumber, trackingNumber }, i) => {
    const label = unlinked ? labels[i] : labels.find((d) => d.packageReferenceNumber === referenceNumber);
    if (!trackingNumber || !label) throw new CarrierRefusedError(`DHL Express returned no label for piece ${referenceNumber} of ${awb}`);
    return { trackingNumber, imageFormat: label.imageFormat ?? '', labelBase64: label.content! };
  });
  const charge = billedCharge(body.shipmentCharges ?? []);
  return { shipmentTrackingNumber: awb, pieces, ...(documents.length > 0 ? { documents } : {}), ...(charge ? { charge } : {}) };
}

/** `POST /rates` 200 (supermodelIoLogisticsExpressRates): per product its prices and, asked for, its delivery estimate. */
export interface DhlRatesBody {
  products?: {
    productCode?: string;
    productName?: string;
    totalPrice?: { currencyType?: string; priceCurrency?: string; price?: number }[];
    // the schema says number; created answers carry it as text, so both are read
    deliveryCapabilities?: { estimatedDeliveryDateAndTime?: string; totalTransitDays?: number | string };
  }[];
  warnings?: string[];
}

/**
 * The rate of the product asked for (else the first product DHL priced): its total in the account's billing currency
 * (BILLC, as creation's charge), its transit days and estimated delivery. A product without a price is a refusal with
 * DHL's warnings ("Price can't be calculated").
 */
export function parseRates(body: DhlRatesBody, productCode: string): CarrierRate {
  const products = body.products ?? [];
  const priced = (p: (typeof products)[number]) => billedCharge((p.totalPrice ?? []).filter((c) => typeof c.price === 'number' && c.priceCurrency));
  const product = products.find((p) => p.productCode === productCode) ?? products.find((p) => priced(p));
  const charge = product && priced(product);
  if (!product || !charge) {
    const why = body.warnings?.length ? body.warnings.join('; ') : `no price for product ${productCode}`;
    throw new CarrierRefusedError(`DHL Express answered no price: ${why}`);
  }
  const days = product.deliveryCapabilities?.totalTransitDays;
  return {
    amountMinor: Math.round(charge.amount * 100), currency: charge.currency,
    transitDays: days === undefined || days === '' || !Number.isFinite(Number(days)) ? null : Number(days),
    estimatedDelivery: product.deliveryCapabilities?.estimatedDeliveryDateAndTime ?? null,
    product: product.productCode ?? productCode,
  };
}

/** The error answer of every MyDHL operation (supermodelIoLogisticsExpressErrorResponse). */
export interface DhlProblem {
  instance?: string;
  detail?: string;
  title?: string;
  message?: string;
  status?: string;
  additionalDetails?: string[];
}

/** Where a party's fields land in our API, by the party's key in `customerDetails`. */
const PARTIES: Record<string, { address: string; contact: string }> = {
  receiverDetails: { address: 'destination_address', contact: 'recipient_contact' },
  // a point shipment's buyer is its recipient
  buyerDetails: { address: 'destination_address', contact: 'recipient_contact' },
  shipperDetails: { address: 'origin_address', contact: 'sender_contact' },
};
const ADDRESS_FIELDS: Record<string, string> = {
  postalCode: 'postal_code', cityName: 'city_name', countryCode: 'country_code',
  addressLine1: 'street_name', addressLine2: 'house_number', addressLine3: 'street_name',
};
const CONTACT_FIELDS: Record<string, string> = {
  phone: 'phone_number', mobilePhone: 'phone_number', email: 'email_address', companyName: 'company_name', fullName: 'last_name',
};
const PACKAGE_FIELDS: Record<string, string> = {
  weight: 'weight_amount', length: 'length_dimension', width: 'width_dimension', height: 'height_dimension',
};
/** A line item's fields (content/exportDeclaration/lineItems/N/…) → the customs item's. */
const LINE_ITEM_FIELDS: Record<string, string> = {
  description: 'description', price: 'unit_value', quantity: 'quantity', commodityCodes: 'hs_code', manufacturerCountry: 'origin_country', weight: 'unit_weight',
};
const INVOICE_FIELDS: Record<string, string> = { number: 'invoice_number', date: 'invoice_date' };
/**
 * The declaration's fields beside it in `content`: whether there is one, its value and currency, and the incoterm (the
 * channel's, from a list of DHL's own, unless a declaration gives its own).
 */
const CONTENT_CUSTOMS_FIELDS: Record<string, string> = {
  isCustomsDeclarable: 'customs', declaredValue: 'customs', declaredValueCurrency: 'customs.currency', incoterm: 'customs.incoterm',
};

/** A pointer into `content/exportDeclaration` → the customs field: a line item's, the invoice's, else the declaration. */
function declarationPath([part, index, field]: string[]): string {
  if (part === 'lineItems') {
    if (index === undefined || !/^\d+$/.test(index)) return 'customs.items';
    const name = LINE_ITEM_FIELDS[field ?? ''];
    return name ? `customs.items.${index}.${name}` : `customs.items.${index}`;
  }
  if (part === 'invoice') return `customs.${INVOICE_FIELDS[index ?? ''] ?? 'invoice_number'}`;
  return 'customs';
}

/** A JSON pointer of the create request (`customerDetails/receiverDetails/postalAddress/postalCode`) → our field path. */
export function dhlFieldPath(pointer: string): string {
  const [head, ...rest] = pointer.split('/').filter(Boolean);
  if (head === 'customerDetails') {
    const party = PARTIES[rest[0] ?? ''];
    if (!party) return 'shipment';
    if (rest[1] === 'postalAddress') return `${party.address}.${ADDRESS_FIELDS[rest[2] ?? ''] ?? 'street_name'}`;
    if (rest[1] === 'contactInformation') return `${party.contact}.${CONTACT_FIELDS[rest[2] ?? ''] ?? 'company_name'}`;
    // the exporter's EORI and VAT number on the shipper, the importer's tax id on the receiver
    if (rest[1] === 'registrationNumbers') return rest[0] === 'receiverDetails' ? 'customs.importer_tax_id' : 'customs';
    return party.address;
  }
  if (head === 'content' && rest[0] === 'exportDeclaration') return declarationPath(rest.slice(1));
  if (head === 'content' && CONTENT_CUSTOMS_FIELDS[rest[0] ?? '']) return CONTENT_CUSTOMS_FIELDS[rest[0]!]!;
  if (head === 'content' && rest[0] === 'packages') {
    if (rest[1] === undefined || !/^\d+$/.test(rest[1])) return 'parcels';
    if (rest[2] === 'customerReferences') return 'reference_number';
    if (rest[2] === 'labelDescription') return 'label_comment';
    const field = PACKAGE_FIELDS[rest[2] === 'dimensions' ? rest[3] ?? '' : rest[2] ?? ''];
    return field ? `parcels.${rest[1]}.${field}` : `parcels.${rest[1]}`;
  }
  if (head === 'valueAddedServices') return rest[1] === 'currency' ? 'cash_on_delivery_currency' : 'cash_on_delivery_amount';
  if (head === 'onDemandDelivery') return 'pickup_point';
  if (head === 'plannedShippingDateAndTime') return 'shipping_date';
  if (head === 'outputImageProperties') return 'label_format';
  if (head === 'customerReferences') return 'reference_number';
  if (head === 'productCode' || head === 'accounts' || head === 'content') return 'shipping_channel_id';
  return 'shipment';
}

/**
 * A pointer of a return's create request: the warehouse receives, so its EORI and VAT number are on the receiver and
 * the customer's tax id on the shipper; the reference after our id (AAO) is the outbound waybill.
 */
export function dhlReturnFieldPath(pointer: string): string {
  const [head, party, field] = pointer.split('/').filter(Boolean);
  if (head === 'customerDetails' && field === 'registrationNumbers') return party === 'shipperDetails' ? 'customs.importer_tax_id' : 'customs';
  if (head === 'customerReferences' && party === '1') return 'return_of';
  return dhlFieldPath(pointer);
}

/** A JSON pointer of the `POST /pickups` request → our dispatch's field path; the shipper is the shipments' sender. */
export function dhlPickupFieldPath(pointer: string): string {
  const [head] = pointer.split('/').filter(Boolean);
  if (head === 'plannedPickupDateAndTime') return 'pickup.date';
  if (head === 'closeTime') return 'pickup.to';
  if (head === 'shipmentDetails' || head === 'customerDetails') return 'shipment_ids';
  if (head === 'accounts') return 'shipping_channel_id';
  return 'dispatch';
}

/**
 * The field a message is about. Schema errors name the object and the key in brackets
 * (`#/customerDetails/receiverDetails/contactInformation: required key [phone] not found`); business errors name
 * the field (`7008: … #/valueAddedServices/0/serviceCode 'xx' is not available …`; `998: ShipTimeStamp …`).
 */
function pathOfMessage(message: string, fieldPath: (pointer: string) => string): string {
  const pointer = /#(\/[\w/]*)/.exec(message)?.[1];
  if (pointer !== undefined) {
    const key = /(?:required|extraneous) key \[(\w+)\]/.exec(message)?.[1];
    return fieldPath(key ? `${pointer}/${key}` : pointer);
  }
  return fieldPath(/ShipTimeStamp/i.test(message) ? '/plannedShippingDateAndTime' : '');
}

/**
 * A MyDHL problem answer → a message and our field errors (one per DHL message); `fieldPath` reads the request's
 * pointers (the shipment's unless told) and `subject` names the request for people.
 */
export function parseDhlProblem(
  problem: DhlProblem, status: number, fieldPath: (pointer: string) => string = dhlFieldPath, subject = 'the request',
): { message: string; errors: FieldErrors } {
  // With several problems `detail` only says "Multiple problems found, see Additional Details".
  const messages = (problem.additionalDetails?.length ? problem.additionalDetails : [problem.detail ?? problem.message ?? problem.title ?? ''])
    .filter((m) => m !== '');
  const errors: FieldErrors = {};
  for (const m of messages) (errors[pathOfMessage(m, fieldPath)] ??= []).push(`DHL Express: ${m}`);
  return { message: `DHL Express refused ${subject} (HTTP ${status})${messages[0] ? `: ${messages[0]}` : ''}`, errors };
}

/** `POST /pickups` 201 (supermodelIoLogisticsExpressPickupResponse): the pickup's confirmation numbers. */
export interface DhlPickupCreated {
  dispatchConfirmationNumbers?: string[];
  readyByTime?: string;
  nextPickupDate?: string;
  warnings?: string[];
}

export interface DhlTrackingEvent {
  date?: string;
  time?: string;
  GMTOffset?: string;
  typeCode?: string;
  description?: string;
  serviceArea?: { code?: string; description?: string }[];
}

export interface DhlTrackedShipment {
  shipmentTrackingNumber?: string | number;
  events?: DhlTrackingEvent[];
  pieces?: { trackingNumber?: string | number; events?: DhlTrackingEvent[] }[];
}

/**
 * `GET /tracking` → one result per asked number: a piece id is read from its piece's events, a waybill number from
 * the shipment's. A number DHL does not return is not found.
 */
export function parseTrackedShipments(body: { shipments?: DhlTrackedShipment[] }, asked: readonly string[]): TrackResult[] {
  const events = new Map<string, DhlTrackingEvent[]>();
  for (const shipment of body.shipments ?? []) {
    const awb = textOf(shipment.shipmentTrackingNumber);
    if (awb) events.set(awb, shipment.events ?? []);
    for (const piece of shipment.pieces ?? []) {
      const id = textOf(piece.trackingNumber);
      if (id) events.set(id, piece.events ?? []);
    }
  }
  return asked.map((trackingNumber) => {
    const found = events.get(trackingNumber);
    return found ? { trackingNumber, found: true, events: trackingEvents(found) } : { trackingNumber, found: false };
  });
}

/** Events oldest first; times without a GMT offset (GET /tracking gives none) are read as UTC. */
function trackingEvents(events: readonly DhlTrackingEvent[]): TrackingEventFromCarrier[] {
  const out: TrackingEventFromCarrier[] = [];
  for (const e of events) {
    const occurredAt = Date.parse(`${e.date}T${e.time ?? '00:00:00'}${e.GMTOffset ?? 'Z'}`);
    if (!e.typeCode || Number.isNaN(occurredAt)) continue;
    const location = e.serviceArea?.[0]?.description ?? null;
    out.push({ code: e.typeCode, text: e.description ?? null, status: statusOfCode(DHL_TRACKING, e.typeCode), location, description: e.description ?? null, occurredAt });
  }
  return out.sort((a, b) => a.occurredAt - b.occurredAt);
}
