import type { FieldErrors } from '../../domain/errors.js';
import { nameOfCode, statusOfCode } from '../codes.js';
import { localTime } from '../local-time.js';
import { readXml, xmlList, xmlObject, xmlString, type XmlNode, type XmlObject } from '../soap.js';
import type { TrackingEventFromCarrier, TrackResult } from '../types.js';
import { PACKETA_TRACKING } from './codes.js';

/**
 * Packeta's REST answers → our results. Pure. Every answer is `<response>` with `<status>` `ok` and the operation's
 * `<result>` (the WSDL's …Result part), or `fault` with the fault's name, `<string>` and `<detail>`; a
 * PacketAttributesFault's detail lists `<attributes><fault><name>…</name><fault>…</fault></fault>…` (the WSDL's
 * AttributeFault), as Packeta's REST clients read it (Mixit-cz/packeta `result.rb`, Salamek/zasilkovna `ApiRest.php`).
 */

const NAME = 'Packeta';

/** Packeta writes times without a zone: Czech wall-clock time (inferred: its servers and documents are Czech). */
export const pragueTime = localTime('Europe/Prague');

export type PacketaAnswer =
  | { ok: true; result: XmlNode | undefined }
  | { ok: false; fault: string; message: string; detail: XmlObject };

/** A REST answer read, or undefined when it is no Packeta `<response>`. */
export function readAnswer(xml: string): PacketaAnswer | undefined {
  const response = readXml(xml)?.response;
  if (response === undefined) return undefined;
  const r = xmlObject(response);
  const status = xmlString(r.status);
  if (status === 'ok') return { ok: true, result: r.result };
  if (status !== 'fault') return undefined;
  return { ok: false, fault: xmlString(r.fault) ?? '', message: xmlString(r.string) ?? '', detail: xmlObject(r.detail) };
}

/** The packet createPacket made (the WSDL's PacketIdDetail). */
export interface PacketaCreatedPacket {
  id: string;
  barcode: string;
  barcodeText: string;
}

export function parseCreated(result: XmlNode | undefined): PacketaCreatedPacket {
  const r = xmlObject(result);
  return { id: xmlString(r.id) ?? '', barcode: xmlString(r.barcode) ?? '', barcodeText: xmlString(r.barcodeText) ?? '' };
}

/** The packet id of a barcode (`Z1234567890` → `1234567890`): Packeta's barcode is `Z` and the id (its own plugin writes `Z%s` of the id: Zasilkovna/WooCommerce `Module/Labels/CarrierLabelService.php`). */
export function packetIdOf(trackingNumber: string): string {
  return trackingNumber.replace(/^Z/i, '');
}

/** Where a PacketAttributes member (an AttributeFault's `name`) lands among our fields. */
const PACKET_FIELDS: Readonly<Record<string, string>> = {
  name: 'recipient_contact.first_name', surname: 'recipient_contact.last_name', company: 'recipient_contact.company_name',
  email: 'recipient_contact.email_address', phone: 'recipient_contact.phone_number',
  street: 'destination_address.street_name', houseNumber: 'destination_address.house_number', city: 'destination_address.city_name',
  zip: 'destination_address.postal_code', addressId: 'pickup_point', carrierPickupPoint: 'pickup_point',
  cod: 'cash_on_delivery_amount', currency: 'cash_on_delivery_currency', value: 'cash_on_delivery_amount',
  weight: 'parcels', size: 'parcels', number: 'reference_number', note: 'label_comment', eshop: 'settings.eshop',
};

/**
 * Where a ClaimAttributes member lands: a return packet's e-mail and phone are the customer's, who sends it; its
 * currency follows the customer's country; its `number` is the packet it returns; a member ClaimAttributes lacks
 * (`cod`) is the cash on delivery a return cannot carry.
 */
export const CLAIM_FIELDS: Readonly<Record<string, string>> = {
  email: 'sender_contact.email_address', phone: 'sender_contact.phone_number', currency: 'origin_address.country_code',
  number: 'return_of', cod: 'cash_on_delivery_amount', value: 'settings.declaredValue', eshop: 'settings.eshop',
};

/** The AttributeFaults of a PacketAttributesFault's detail. */
function attributeFaults(detail: XmlObject): { name: string; fault: string }[] {
  return xmlList(xmlObject(detail.attributes).fault).map((f) => {
    const fault = xmlObject(f);
    return { name: xmlString(fault.name) ?? '', fault: xmlString(fault.fault) ?? '' };
  });
}

/**
 * A fault → a message and our field errors: each attribute of a PacketAttributesFault on its path (`fields`), a wrong API
 * password on the channel, a sender Packeta does not know on `settings.eshop`, anything else on the shipment.
 */
export function parseRefusal(
  fault: string, message: string, detail: XmlObject, fields: Readonly<Record<string, string>> = PACKET_FIELDS,
): { message: string; errors: FieldErrors } {
  const errors: FieldErrors = {};
  for (const a of attributeFaults(detail)) (errors[fields[a.name] ?? 'shipment'] ??= []).push(`${NAME}: ${a.fault || message}`);
  if (Object.keys(errors).length === 0) {
    const path = fault === 'IncorrectApiPasswordFault' ? 'shipping_channel_id' : fault === 'SenderNotExists' ? 'settings.eshop' : 'shipment';
    errors[path] = [`${NAME}: ${message || fault}`];
  }
  const first = attributeFaults(detail)[0];
  return { message: `${NAME} refused the request (${fault}): ${message}${first ? ` — ${first.name}: ${first.fault}` : ''}`, errors };
}

/** A packet's StatusRecord → our event; undefined when it has no code or time. */
function eventOf(record: XmlObject): TrackingEventFromCarrier | undefined {
  const code = xmlString(record.statusCode);
  const dateTime = xmlString(record.dateTime) ?? '';
  const occurredAt = /(Z|[+-]\d{2}:?\d{2})$/.test(dateTime) ? Date.parse(dateTime) : pragueTime.parse(dateTime);
  if (!code || occurredAt === undefined || Number.isNaN(occurredAt)) return undefined;
  return {
    code, text: xmlString(record.codeText) ?? nameOfCode(PACKETA_TRACKING, code), status: statusOfCode(PACKETA_TRACKING, code),
    location: null, description: xmlString(record.statusText) || null, occurredAt,
  };
}

/** packetTracking's result (StatusRecords: `record` oldest first) → the packet's events, in time order. */
function eventsOf(result: XmlNode | undefined): TrackingEventFromCarrier[] {
  return xmlList(xmlObject(result).record).flatMap((r) => eventOf(xmlObject(r)) ?? []).sort((a, b) => a.occurredAt - b.occurredAt);
}

/**
 * packetTracking answers by asked number (the REST `<response>` text, or undefined where Packeta knows no such
 * packet: PacketIdFault) → one result per asked number.
 */
export function parseTracking(answers: Readonly<Record<string, string | undefined>>, asked: readonly string[]): TrackResult[] {
  return asked.map((trackingNumber) => {
    const answer = answers[trackingNumber] === undefined ? undefined : readAnswer(answers[trackingNumber]!);
    if (!answer?.ok) return { trackingNumber, found: false };
    return { trackingNumber, found: true, events: eventsOf(answer.result) };
  });
}
