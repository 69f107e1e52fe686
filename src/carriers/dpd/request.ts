import { formatMinorUnits } from '../../domain/money.js';
import { productForShipment } from '../codes.js';
import { CarrierRefusedError } from '../errors.js';
import type { CarrierParty, DispatchForCarrier, LabelFormat, PickupRequest, ShipmentForCarrier } from '../types.js';
import { DPD_BUS_WITHOUT_RETURN, DPD_PRODUCTS, DPD_RETURN_PRODUCT } from './codes.js';
import { dpdInternational, warehouseLegalEntity, type DpdInternational, type DpdLegalEntity } from './request-customs.js';
import type { DpdSettings } from './settings.js';
import { wholeUp } from './units.js';

/**
 * Our shipment → META-API `POST /shipping/v1/shipment`: the body, an array of one `Shipment` (DPD Group META-API
 * OpenAPI, vendored in fixtures/schema/), and the query. Pure.
 */

/** `LabelPrintFormat` values of the formats packdesk prints; DPD offers more (TIFF, PNG, …) that it does not. */
const PRINT_FORMATS: Record<LabelFormat, string> = { pdf: 'PDF', zpl: 'ZPL', epl: 'EPL' };

/** The schema's maximum lengths (Address, ContactDetails, Cod). */
const MAX = { name: 35, street: 35, houseNumber: 8, zipCode: 9, city: 35, phone: 30, email: 100, purpose: 14 };

export interface DpdAddress {
  companyName?: string;
  name1: string;
  street: string;
  houseNumber?: string;
  country: string;
  zipCode: string;
  city: string;
}

export interface DpdContact {
  contactPerson?: string;
  phone1?: string;
  email?: string;
}

export interface DpdParcel {
  parcelInfos: { weight: string; dimensions: { length: number; width: number; height: number } };
  senderParcelRefs?: string[];
  cod?: { amount: { amount: number; currency: string }; collectType: string; purpose?: string };
}

export interface DpdShipment {
  customerReferenceNumbers: string[];
  shipmentInfos: { productCode: string };
  numberOfParcels: string;
  mpsCompleteDelivery?: string;
  sender: { address: DpdAddress; contact: DpdContact; legalEntity?: DpdLegalEntity };
  receiver: { pudoId?: string; address: DpdAddress; contact: DpdContact; legalEntity?: DpdLegalEntity };
  international?: DpdInternational;
  parcel: DpdParcel[];
}

export type DpdShipmentRequest = DpdShipment[];

function cut(value: string, max: number): string {
  return value.trim().slice(0, max);
}

/** name1 is the addressee (the person, else the company); a company goes to companyName as well. */
function dpdAddress(party: CarrierParty): DpdAddress {
  const house = party.apartmentNumber ? `${party.houseNumber}/${party.apartmentNumber}` : party.houseNumber;
  const name1 = party.personName ?? party.companyName ?? '';
  return {
    ...(party.companyName ? { companyName: cut(party.companyName, MAX.name) } : {}),
    name1: cut(name1, MAX.name),
    street: cut(party.street, MAX.street),
    ...(house ? { houseNumber: cut(house, MAX.houseNumber) } : {}),
    country: party.countryCode,
    zipCode: cut(party.postalCode, MAX.zipCode),
    city: cut(party.city, MAX.city),
  };
}

function dpdContact(party: CarrierParty): DpdContact {
  return {
    ...(party.personName ? { contactPerson: cut(party.personName, MAX.name) } : {}),
    ...(party.phone ? { phone1: cut(party.phone, MAX.phone) } : {}),
    ...(party.email ? { email: cut(party.email, MAX.email) } : {}),
  };
}

/** The schema's `PudoId`: "CC12345", the country code then the point's number, at most 20 letters and digits. */
const PUDO_ID = /^[A-Za-z0-9]{1,20}$/;

const pointRefusal = (message: string, hint: string) => new CarrierRefusedError(message, { pickup_point: [`${message}: ${hint}`] });

/**
 * The product the shipment goes out with: to a door the channel's, or its COD product (CarrierRefusedError when it has
 * none); to a Pickup point the channel's Parcel to Shop product (337, 338 for small parcels), which has no COD product.
 */
export function dpdProduct(s: ShipmentForCarrier, settings: DpdSettings): string {
  if (s.returnOf) return returnProduct(s, settings);
  const code = settings.productCode;
  const chosen = DPD_PRODUCTS[code];
  if (!s.pickupPoint) {
    if (chosen?.toPoint) throw pointRefusal(`DPD product ${code} delivers to a DPD Pickup point`, 'give the shipment a pickup point, or choose a door product on the channel');
    return productForShipment('DPD', DPD_PRODUCTS, code, s.cashOnDelivery !== null);
  }
  const product = chosen?.toPoint ? code : chosen?.pointTwin;
  if (!product) throw pointRefusal(`DPD product ${code} delivers to a door only`, 'choose 101, 327, 136 or 328 on the channel to ship to a DPD Pickup point');
  if (s.cashOnDelivery) {
    throw pointRefusal(
      'DPD has no cash-on-delivery product to a Pickup point', 'its Parcel to Shop products 337 and 338 have no COD variant; ship it without cash on delivery, or to the door',
    );
  }
  return product;
}

/**
 * A return goes out as 2C Return (332) whatever the channel's product, from business units whose column of the
 * product tables has it; it carries no cash on delivery (332 has no COD product).
 */
function returnProduct(s: ShipmentForCarrier, settings: DpdSettings): string {
  if (DPD_BUS_WITHOUT_RETURN.includes(settings.buCode)) {
    throw new CarrierRefusedError(`DPD business unit ${settings.buCode} offers no 2C Return (${DPD_RETURN_PRODUCT})`, {
      shipping_channel_id: [`DPD's product tables give 2C Return (${DPD_RETURN_PRODUCT}) to no account of business unit ${settings.buCode}: return with a channel of a business unit that has it`],
    });
  }
  return productForShipment('DPD', DPD_PRODUCTS, DPD_RETURN_PRODUCT, s.cashOnDelivery !== null);
}

/**
 * The customer references DPD prints on the label: our id, the user's reference, and on a return the DPD shipment it
 * returns (the META-API has no field naming an earlier shipment, inferred).
 */
function customerReferences(s: ShipmentForCarrier, reference: string | null): string[] {
  return [s.id, ...(reference ? [cut(reference, 35)] : []), ...(s.returnOf ? [cut(s.returnOf.providerShipmentId, 35)] : [])];
}

/** The point's id as DPD's `receiver.pudoId`, refused before DPD when it cannot be one. */
function pudoId(s: ShipmentForCarrier): string | undefined {
  if (!s.pickupPoint) return undefined;
  const id = s.pickupPoint.id.trim();
  if (!PUDO_ID.test(id)) throw new CarrierRefusedError(`DPD has no Pickup point ${s.pickupPoint.id}`, {
    pickup_point: ['a DPD Pickup point id has 1 to 20 letters and digits, its country code first (e.g. CZ10234)'],
  });
  return id;
}

export function dpdShipmentRequest(s: ShipmentForCarrier, settings: DpdSettings): DpdShipmentRequest {
  const cod = s.cashOnDelivery;
  const reference = s.reference?.trim() || null;
  const point = pudoId(s);
  const sender = { address: dpdAddress(s.sender), contact: dpdContact(s.sender) };
  const receiver = { address: dpdAddress(s.recipient), contact: dpdContact(s.recipient) };
  // the warehouse's legal entity: the sender's, or on a return the receiver's
  const legal = s.customs ? warehouseLegalEntity(s.customs) : undefined;
  const isReturn = s.returnOf !== null;
  return [{
    customerReferenceNumbers: customerReferences(s, reference),
    shipmentInfos: { productCode: dpdProduct(s, settings) },
    numberOfParcels: String(s.parcels.length),
    // "Complete delivery (MPS complete). It is mandatory for COD": the parcels are handed over, and paid for, together.
    ...(cod ? { mpsCompleteDelivery: 's2' } : {}),
    sender: { ...sender, ...(legal && !isReturn ? { legalEntity: legal } : {}) },
    // The point's id; the address stays the recipient's as the shipment holds it (the point's, where it gave none).
    receiver: { ...(point ? { pudoId: point } : {}), ...receiver, ...(legal && isReturn ? { legalEntity: legal } : {}) },
    ...(s.customs ? { international: dpdInternational(s.customs, { sender, receiver }, isReturn) } : {}),
    parcel: s.parcels.map((p, i): DpdParcel => ({
      // Weight in grams without decimals, dimensions in whole centimetres.
      parcelInfos: {
        weight: String(wholeUp(p.weightKg * 1000)),
        dimensions: { length: wholeUp(p.lengthCm), width: wholeUp(p.widthCm), height: wholeUp(p.heightCm) },
      },
      ...(reference ? { senderParcelRefs: [cut(reference, 35)] } : {}),
      // The whole amount rides on the first parcel of the complete-delivery shipment, collected once, in cash (s0).
      ...(cod && i === 0 ? {
        cod: {
          amount: { amount: Number(formatMinorUnits(cod.amountMinor)), currency: cod.currency }, collectType: 's0',
          ...(reference ? { purpose: cut(reference, MAX.purpose) } : {}),
        },
      } : {}),
    })),
  }];
}

/** The query of the create call: the label's format, and its paper for PDF. */
export function dpdLabelQuery(format: LabelFormat, settings: DpdSettings): URLSearchParams {
  const query = new URLSearchParams({ LabelPrintFormat: PRINT_FORMATS[format] });
  if (format === 'pdf') query.set('LabelPaperFormat', settings.labelPaperFormat);
  return query;
}

/** `pickupscheduling.PickupSchedule` of the META-API (meta-api-docs.json, vendored in fixtures/schema/). */
export interface DpdPickupSchedule {
  shipmentNumbers: string[];
  parcelNumbers: string[];
  pickup: { date: string; fromTime: string; toTime: string };
  numberOfParcels: number;
  pickupAddress: DpdAddress;
  pickupContact: DpdContact;
  pickupWeight: string;
  parcelMaxWeight: string;
  references: string[];
}

/** `14:00` → `1400`: the schema gives no format; karrio's DPD connector (pickup/create.py) sends HHMM. */
const hhmm = (time: string) => time.replace(':', '');

/** A hand-over's courier → `POST /shipping/v1/pickupscheduling`: its shipments and parcels, at the sender's address. Pure. */
export function dpdPickupRequest(dispatch: DispatchForCarrier, pickup: PickupRequest): DpdPickupSchedule {
  const parcels = dispatch.shipments.flatMap((s) => s.parcels);
  const grams = parcels.map((p) => wholeUp(p.weightKg * 1000));
  return {
    shipmentNumbers: dispatch.shipments.map((s) => s.providerShipmentId),
    parcelNumbers: parcels.map((p) => p.trackingNumber),
    pickup: { date: pickup.date, fromTime: hhmm(pickup.from), toTime: hhmm(pickup.to) },
    numberOfParcels: parcels.length,
    pickupAddress: dpdAddress(dispatch.sender),
    pickupContact: dpdContact(dispatch.sender),
    // Weights in grams without decimals, as the schema says.
    pickupWeight: String(grams.reduce((a, b) => a + b, 0)),
    parcelMaxWeight: String(Math.max(0, ...grams)),
    // Our dispatch id: the customer's reference of the pickup request, for DPD's support.
    references: [dispatch.id],
  };
}
