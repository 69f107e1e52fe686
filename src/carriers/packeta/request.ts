import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import { xmlContent, type XmlElement } from '../soap.js';
import type { CarrierParcel, ShipmentForCarrier } from '../types.js';
import { PACKETA_CURRENCIES, PACKETA_HOME_DELIVERY } from './codes.js';
import type { PacketaSettings } from './settings.js';

/**
 * Our shipment → Packeta's `createPacket` requests, one per parcel: Packeta's packets are single-parcel. Pure. The
 * REST API takes the XML of the operation element with its parts (`apiPassword`, `packetAttributes`), element names
 * and lengths as the WSDL's PacketAttributes declares them (fixtures/schema/create-request.xsd).
 */

const NAME = 'Packeta';
/** PacketAttributes lengths (string24 number, string32 names and city, string64 street and eshop, string16 house number). */
const NUMBER = 24;
const NAME_PART = 32;
const STREET = 64;
const HOUSE = 16;

/** Where a packet goes: a point of the point feed, or a door through a home-delivery carrier. */
export type PacketaDestination = { kind: 'pickup-point'; addressId: string } | { kind: 'home-delivery'; addressId: string };

/** One packet's attributes in the WSDL's terms; absent members are not written. */
export interface PacketaPacketAttributes extends XmlElement {
  number: string;
  name: string;
  surname: string;
  company?: string;
  email: string;
  phone: string;
  addressId: string;
  cod?: string;
  currency: string;
  value: string;
  weight: string;
  eshop: string;
  note?: string;
  street?: string;
  houseNumber?: string;
  city?: string;
  zip?: string;
  /** Millimetres. */
  size: { length: number; width: number; height: number };
}

function personParts(personName: string | null, companyName: string | null): { name: string; surname: string } {
  const [first = '', ...rest] = (personName ?? companyName ?? '').trim().split(/\s+/);
  return rest.length > 0 ? { name: first.slice(0, NAME_PART), surname: rest.join(' ').slice(0, NAME_PART) } : { name: '', surname: first.slice(0, NAME_PART) };
}

/** The point, or the channel's home-delivery carrier (Packeta Home in CZ and SK where it names none). */
export function destinationOf(s: ShipmentForCarrier, settings: PacketaSettings): PacketaDestination {
  const point = s.pickupPoint;
  if (point) {
    if (point.type === 'post_office') {
      throw new CarrierRefusedError(`${NAME} delivers to its pickup points and Z-BOXes, not to post offices`, { pickup_point: [`${NAME} has no post office points`] });
    }
    if (!/^\d{1,9}$/.test(point.id.trim())) {
      throw new CarrierRefusedError(`${NAME} has no pickup point ${point.id}`, { pickup_point: [`a ${NAME} point id is a number (e.g. 79), as the point feed lists it`] });
    }
    return { kind: 'pickup-point', addressId: point.id.trim() };
  }
  const carrier = settings.homeDeliveryCarrierId || PACKETA_HOME_DELIVERY[s.recipient.countryCode];
  if (!carrier) {
    const why = `${NAME} home delivery to ${s.recipient.countryCode} needs the carrier's id of Packeta's carrier feed`;
    throw new CarrierRefusedError(why, { 'destination_address.country_code': [`${why}: set settings.homeDeliveryCarrierId, or send the shipment to a pickup point`] });
  }
  return { kind: 'home-delivery', addressId: carrier };
}

/** Packeta collects cash in the destination's currency (inferred from its COD rules: the currency of the country). */
function currencyOf(s: ShipmentForCarrier): string {
  const currency = PACKETA_CURRENCIES[s.recipient.countryCode];
  const cod = s.cashOnDelivery;
  if (cod && cod.currency !== currency) {
    const why = currency ? `in ${currency} for ${s.recipient.countryCode}` : 'in CZK, EUR, HUF and RON (CZ, SK, HU, RO) only';
    throw new CarrierRefusedError(`${NAME} collects cash on delivery ${why}, not in ${cod.currency}`, { cash_on_delivery_currency: [`${NAME} collects cash on delivery ${why}`] });
  }
  return currency ?? 'EUR';
}

const money = (amount: number) => amount.toFixed(2);
const mm = (cm: number) => Math.max(1, Math.round(cm * 10));
/** The declared `value` of a shipment's first packet: the channel's, else the cash to collect, else 1. */
const declaredValue = (settings: PacketaSettings, cod?: string) => (settings.declaredValue !== undefined ? money(settings.declaredValue) : cod ?? money(1));

/**
 * The packets of a shipment, in parcel order: each its parcel's weight and size; the first carries the cash to
 * collect and the declared value, the others none (Packeta pays out a packet's COD on its own).
 */
export function packetaPackets(s: ShipmentForCarrier, settings: PacketaSettings): { destination: PacketaDestination; packets: PacketaPacketAttributes[] } {
  const destination = destinationOf(s, settings);
  const currency = currencyOf(s);
  const cod = s.cashOnDelivery ? formatMinorUnits(s.cashOnDelivery.amountMinor) : undefined;
  const value = declaredValue(settings, cod);
  const { recipient } = s;
  const house = recipient.apartmentNumber ? `${recipient.houseNumber}/${recipient.apartmentNumber}` : recipient.houseNumber;
  const door = destination.kind === 'home-delivery'
    ? { street: recipient.street.slice(0, STREET), houseNumber: house.slice(0, HOUSE), city: recipient.city.slice(0, NAME_PART), zip: recipient.postalCode.replace(/\s+/g, '') }
    : {};
  const packet = (parcel: CarrierParcel, i: number): PacketaPacketAttributes => ({
    number: s.id.slice(0, NUMBER),
    ...personParts(recipient.personName, recipient.companyName),
    ...(recipient.companyName && recipient.personName ? { company: recipient.companyName.slice(0, NAME_PART) } : {}),
    email: recipient.email,
    phone: recipient.phone,
    addressId: destination.addressId,
    ...(i === 0 && cod !== undefined ? { cod } : {}),
    currency,
    value: i === 0 ? value : money(0),
    weight: parcel.weightKg.toFixed(3),
    eshop: settings.eshop,
    ...(s.labelComment ? { note: s.labelComment } : {}),
    ...door,
    size: { length: mm(parcel.lengthCm), width: mm(parcel.widthCm), height: mm(parcel.heightCm) },
  });
  return { destination, packets: s.parcels.map(packet) };
}

/** One return packet's ClaimAttributes in the WSDL's terms; absent members are not written. */
export interface PacketaClaimAttributes extends XmlElement {
  number: string;
  email?: string;
  phone?: string;
  value: string;
  currency: string;
  eshop: string;
}

/**
 * The return packets of a return shipment, one per parcel (Packeta's packets are single-parcel), for
 * `createPacketClaim`: Packeta's Claim Assistant packet, which the customer hands over at a Packeta point and Packeta
 * brings to the sender `eshop`'s return address (ClaimAttributes has no address: the warehouse is the sender's).
 * `number` names the packet it returns (its barcode), the only reference ClaimAttributes has; the customer's e-mail
 * and phone; the declared value on the first, in the currency of the customer's country, as the outbound packet had it.
 */
export function packetaClaims(s: ShipmentForCarrier, returnOf: NonNullable<ShipmentForCarrier['returnOf']>, settings: PacketaSettings): PacketaClaimAttributes[] {
  if (s.cashOnDelivery) {
    throw new CarrierRefusedError(`${NAME}'s return packets carry no cash on delivery`, { cash_on_delivery_amount: [`${NAME}'s return packets (Claim Assistant) carry no cash on delivery`] });
  }
  const { sender } = s;
  const number = (returnOf.trackingNumbers[0] ?? returnOf.providerShipmentId).slice(0, NUMBER);
  return s.parcels.map((_, i) => ({
    number,
    ...(sender.email ? { email: sender.email } : {}),
    ...(sender.phone ? { phone: sender.phone } : {}),
    value: i === 0 ? declaredValue(settings) : money(0),
    currency: PACKETA_CURRENCIES[sender.countryCode] ?? 'EUR',
    eshop: settings.eshop,
  }));
}

/** A REST call's body: the operation element with `apiPassword` first and the operation's parts (the WSDL's message). */
export function restRequest(operation: string, apiPassword: string, parts: XmlElement): string {
  return xmlContent({ [operation]: { apiPassword, ...parts } });
}

/** `createPacketClaim` of one return packet (the WSDL's part `claimAttributes`, so named in REST too). */
export function createPacketClaimRequest(apiPassword: string, attributes: PacketaClaimAttributes): string {
  return restRequest('createPacketClaim', apiPassword, { claimAttributes: attributes });
}

/** `createPacket` of one packet. */
export function createPacketRequest(apiPassword: string, attributes: PacketaPacketAttributes): string {
  return restRequest('createPacket', apiPassword, { packetAttributes: attributes });
}
