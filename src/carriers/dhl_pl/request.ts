import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import { soapElement, type SoapPart, type XmlElement } from '../soap.js';
import type { CarrierParty, LabelFormat, PickupRequest, ShipmentForCarrier } from '../types.js';
import { DHL_PL_LABEL_TYPES } from './codes.js';
import { dhlPlService } from './service.js';
import type { DhlPlSettings } from './settings.js';

/**
 * Our shipment → the operations of DHL24 WebAPI2. Pure. Element names: the types of DHL's WSDL as karrio vendors
 * them (modules/connectors/dhl_poland/schemas/webapi2.xsd), written in the order the XSD lists them; lengths and
 * formats: DHL24's documentation pages (createShipments, addressData, definicjaPaczki, serviceDefinition).
 */

function authData(settings: DhlPlSettings): XmlElement {
  return { username: settings.username, password: settings.password };
}

/** DHL24 takes postal codes as digits without a dash ("00909": addressData.html, karrio create.py). */
export function dhlPostalCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/** DHL24 refuses a phone that is not a number ("Tel kontaktowy musi być liczbą"); a Polish one goes without +48 (inferred). */
export function dhlPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('48') ? digits.slice(2) : digits;
}

const cut = (text: string | null | undefined, max: number): string | undefined => (text ? text.slice(0, max) : undefined);

/** AddressData (shipper): contact person 60, phone 20, e-mail 60 characters (itemsToLabelDataResponse.html). */
function shipperAddress(p: CarrierParty): XmlElement {
  return {
    name: p.companyName ?? p.personName,
    postalCode: dhlPostalCode(p.postalCode),
    city: p.city,
    street: p.street,
    houseNumber: p.houseNumber,
    apartmentNumber: p.apartmentNumber,
    contactPerson: cut(p.personName ?? p.companyName, 60),
    contactPhone: dhlPhone(p.phone),
    contactEmail: cut(p.email, 60),
  };
}

/** ReceiverAddressData: the country and `addressType` B (business) or C (consumer) come first in the XSD. */
function receiverAddress(p: CarrierParty): XmlElement {
  return { country: p.countryCode, addressType: p.companyName ? 'B' : 'C', ...shipperAddress(p) };
}

/** PieceDefinition: whole centimetres and kilograms (definicjaPaczki.html), one item per parcel so each gets its own piece. */
function piece(p: ShipmentForCarrier['parcels'][number]): XmlElement {
  if (p.parcelType === 'envelope') return { type: 'ENVELOPE', quantity: 1, nonStandard: false };
  return {
    type: p.parcelType === 'pallet' ? 'PALLET' : 'PACKAGE',
    width: Math.ceil(p.widthCm),
    height: Math.ceil(p.heightCm),
    length: Math.ceil(p.lengthCm),
    weight: Math.ceil(p.weightKg),
    quantity: 1,
    nonStandard: false,
  };
}

/**
 * ServiceDefinition: the channel's product; cash on delivery is its `collectOnDelivery` switch, paid out by bank
 * transfer (the only collectOnDeliveryForm), in the currency of the country of delivery (serviceDefinition.html).
 * DHL insures a COD shipment for at least its amount (inferred from DHL24's service rules).
 */
function service(s: ShipmentForCarrier, settings: DhlPlSettings): XmlElement {
  const cod = s.cashOnDelivery;
  if (!cod) return { product: settings.product };
  if (s.recipient.countryCode === 'PL' && cod.currency !== 'PLN') {
    throw new CarrierRefusedError(`DHL Parcel Poland collects cash on delivery in Poland in PLN, not ${cod.currency}`, {
      cash_on_delivery_currency: ['DHL Parcel Poland collects cash on delivery in the currency of the country of delivery (PLN)'],
    });
  }
  const amount = formatMinorUnits(cod.amountMinor);
  return {
    product: settings.product,
    collectOnDelivery: true,
    collectOnDeliveryValue: amount,
    collectOnDeliveryForm: 'BANK_TRANSFER',
    insurance: true,
    insuranceValue: amount,
  };
}

/** What the waybill prints for the user (comment, 100 characters: "visible on the consignment note"). */
function comment(s: ShipmentForCarrier): string | undefined {
  return cut([s.reference, s.labelComment].filter(Boolean).join(' / '), 100);
}

/**
 * createShipments with one shipment: its pieces in our order, billed to the channel's SAP number by bank transfer.
 * Our shipment id is the `reference` (200 characters), which getLabelsData reads back, so a lost answer can be found.
 */
export function createShipmentsPart(s: ShipmentForCarrier, settings: DhlPlSettings): SoapPart {
  const shipment: XmlElement = {
    shipper: shipperAddress(s.sender),
    receiver: receiverAddress(s.recipient),
    pieceList: { item: s.parcels.map(piece) },
    payment: { paymentMethod: 'BANK_TRANSFER', payerType: 'SHIPPER', accountNumber: settings.sapNumber },
    service: service(s, settings),
    shipmentDate: s.shippingDate,
    skipRestrictionCheck: false,
    comment: comment(s),
    content: cut(settings.parcelContent, 30),
    reference: s.id,
  };
  return { name: 'createShipments', content: { authData: authData(settings), shipments: { item: [shipment] } } };
}

/** The create request exactly as sent: the operation element's XML. */
export function dhlPlCreateRequest(s: ShipmentForCarrier, settings: DhlPlSettings): string {
  return soapElement(dhlPlService(settings.sandboxMode), createShipmentsPart(s, settings));
}

/** getPieceId: the piece numbers (JJD…) DHL gave each package of the shipment. */
export function getPieceIdPart(shipmentId: string, settings: DhlPlSettings): SoapPart {
  return { name: 'getPieceId', content: { authData: authData(settings), request: { items: { item: [{ shipmentNumber: shipmentId }] } } } };
}

/** getLabels for one shipment: BLP (PDF) or ZBLP (ZPL 203 dpi), one document with a label per piece. */
export function getLabelsPart(shipmentId: string, format: LabelFormat, settings: DhlPlSettings): SoapPart {
  const labelType = DHL_PL_LABEL_TYPES[format as keyof typeof DHL_PL_LABEL_TYPES];
  if (!labelType) {
    throw new CarrierRefusedError(`DHL Parcel Poland prints no ${format.toUpperCase()} labels`, {
      label_format: [`DHL Parcel Poland prints labels as ${Object.keys(DHL_PL_LABEL_TYPES).join(' or ')}`],
    });
  }
  return { name: 'getLabels', content: { authData: authData(settings), itemsToPrint: { item: [{ labelType, shipmentId }] } } };
}

export function deleteShipmentsPart(shipmentIds: readonly string[], settings: DhlPlSettings): SoapPart {
  return { name: 'deleteShipments', content: { authData: authData(settings), shipments: { item: [...shipmentIds] } } };
}

/** getTrackAndTraceInfo: `shipmentId` is the shipment's number ("Numer identyfikacyjny przesyłki", example 11122223333). */
export function trackAndTracePart(shipmentId: string, settings: DhlPlSettings): SoapPart {
  return { name: 'getTrackAndTraceInfo', content: { authData: authData(settings), shipmentId } };
}

/** getMyShipmentsCount: the cheapest authenticated call (getVersion asks for no login). Dates as YYYY-MM-DD. */
export function myShipmentsCountPart(from: string, to: string, settings: DhlPlSettings): SoapPart {
  return { name: 'getMyShipmentsCount', content: { authData: authData(settings), createdFrom: from, createdTo: to } };
}

/** getMyShipments: the account's shipments created between the dates, 100 a page from `offset`. */
export function myShipmentsPart(from: string, to: string, offset: number, settings: DhlPlSettings): SoapPart {
  return { name: 'getMyShipments', content: { authData: authData(settings), createdFrom: from, createdTo: to, offset } };
}

/** getLabelsData: what DHL holds of shipments, our `reference` among it. */
export function labelsDataPart(shipmentIds: readonly string[], settings: DhlPlSettings): SoapPart {
  return { name: 'getLabelsData', content: { authData: authData(settings), itemsToLabelData: { item: shipmentIds.map((shipmentId) => ({ shipmentId })) } } };
}

/**
 * bookCourier for shipments created before: a day (YYYY-MM-DD) and the hours (HH:MM) the courier may come in
 * (bookCourier.html). The WSDL's sequence holds every element, so each is written: no note for the courier, an empty
 * shipmentOrderInfo (ignored when shipmentIdList is given), and no label brought by the courier (ours are printed).
 */
export function bookCourierPart(shipmentIds: readonly string[], pickup: PickupRequest, settings: DhlPlSettings): SoapPart {
  return {
    name: 'bookCourier',
    content: {
      authData: authData(settings), pickupDate: pickup.date, pickupTimeFrom: pickup.from, pickupTimeTo: pickup.to, additionalInfo: '',
      shipmentIdList: { item: [...shipmentIds] }, shipmentOrderInfo: {}, courierWithLabel: false,
    },
  };
}

/**
 * getPostalCodeServices: what DHL offers at a post code on a day, its courier's hours among it (getPostalCodeServices.html:
 * `postCode` of 5 digits without a dash, `pickupDate` YYYY-MM-DD). The WSDL's sequence holds these three.
 */
export function postalCodeServicesPart(postalCode: string, date: string, settings: DhlPlSettings): SoapPart {
  return { name: 'getPostalCodeServices', content: { authData: authData(settings), postCode: dhlPostalCode(postalCode), pickupDate: date } };
}

/** getPnp: the PNP report (Potwierdzenie Nadania Przesyłek) of every kind of shipment (`ALL`) sent on a day (getPnp.html). */
export function pnpPart(day: string, settings: DhlPlSettings): SoapPart {
  return { name: 'getPnp', content: { pnpRequest: { authData: authData(settings), date: day, type: 'ALL' } } };
}
