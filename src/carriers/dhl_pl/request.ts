import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import { soapElement, type SoapPart, type XmlElement } from '../soap.js';
import type { CarrierParty, LabelFormat, PickupRequest, ShipmentForCarrier } from '../types.js';
import { DHL_PL_LABEL_TYPES, DHL_PL_RETURN_SERVICES } from './codes.js';
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

/** The place of a party: AddressData without its contact, createShipment's Address. */
function placeOf(p: CarrierParty): XmlElement {
  return { name: p.companyName ?? p.personName, postalCode: dhlPostalCode(p.postalCode), city: p.city, street: p.street, houseNumber: p.houseNumber, apartmentNumber: p.apartmentNumber };
}

/** AddressData (shipper): contact person 60, phone 20, e-mail 60 characters (itemsToLabelDataResponse.html). */
function shipperAddress(p: CarrierParty): XmlElement {
  return { ...placeOf(p), contactPerson: cut(p.personName ?? p.companyName, 60), contactPhone: dhlPhone(p.phone), contactEmail: cut(p.email, 60) };
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
 * The cash to collect, as DHL writes amounts, paid out by bank transfer in the currency of the country of delivery
 * (serviceDefinition.html); undefined without cash on delivery.
 */
function codAmount(s: ShipmentForCarrier): string | undefined {
  const cod = s.cashOnDelivery;
  if (!cod) return undefined;
  if (s.recipient.countryCode === 'PL' && cod.currency !== 'PLN') {
    throw new CarrierRefusedError(`DHL Parcel Poland collects cash on delivery in Poland in PLN, not ${cod.currency}`, {
      cash_on_delivery_currency: ['DHL Parcel Poland collects cash on delivery in the currency of the country of delivery (PLN)'],
    });
  }
  return formatMinorUnits(cod.amountMinor);
}

/**
 * ServiceDefinition: the channel's product; cash on delivery is its `collectOnDelivery` switch, paid out by bank
 * transfer (the only collectOnDeliveryForm). DHL insures a COD shipment for at least its amount (inferred from
 * DHL24's service rules).
 */
function service(s: ShipmentForCarrier, settings: DhlPlSettings): XmlElement {
  const amount = codAmount(s);
  if (amount === undefined) return { product: settings.product };
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
function createShipmentsPart(s: ShipmentForCarrier, settings: DhlPlSettings): SoapPart {
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

/** Product SP: a shipment delivered to a DHL point (createShipment.html `serviceType`). */
const POINT_PRODUCT = 'SP';

/** The product a shipment goes out with: a return's service, SP to a DHL point, else the channel's. */
export function productFor(s: ShipmentForCarrier, settings: DhlPlSettings): string {
  if (s.returnOf) return returnService(s);
  return s.pickupPoint ? POINT_PRODUCT : settings.product;
}

/** PreavisoContact: the person DHL notifies before delivery (`preaviso`) and calls (`contact`). */
function preavisoContact(p: CarrierParty): XmlElement {
  return { personName: cut(p.personName ?? p.companyName, 60), phoneNumber: dhlPhone(p.phone), emailAddress: cut(p.email, 60) };
}

/**
 * createShipment (the grouping method), the WebAPI2 operation that names the point: `serviceType` SP and the point's
 * SAP number (getNearestServicepoints' `sap`) as `servicePointAccountNumber` (createShipment.html); DHL records it
 * as the shipment's `servicepoint` (getLabelsData's ServicePoint type). The receiver is the person who collects the
 * parcel, at the address the shipment holds (the point's); DHL tells them by `preaviso` that the parcel waits.
 * REGULAR_PICKUP creates the shipment without booking a courier, as createShipments does. Cash on delivery is the
 * special service COD with the insurance UBEZP for its amount, as DHL's WebAPI FAQ writes it
 * (https://narzedzia.dhl.pl/pl/serwis/pytania-webapi-dhl24). `servicePointAccountNumber` sits in `ship` as a PHP
 * shop integration of WebAPI2 sends it and as DHL's ServicePoint API's ShipStructure has it (see
 * fixtures/schema/SOURCE.md).
 */
function createShipmentPart(s: ShipmentForCarrier, settings: DhlPlSettings): SoapPart {
  const amount = codAmount(s);
  const shipment: XmlElement = {
    shipmentInfo: {
      dropOffType: 'REGULAR_PICKUP',
      serviceType: POINT_PRODUCT,
      billing: { shippingPaymentType: 'SHIPPER', billingAccountNumber: settings.sapNumber, paymentType: 'BANK_TRANSFER' },
      specialServices: amount === undefined ? undefined : {
        item: [{ serviceType: 'COD', serviceValue: amount, collectOnDeliveryForm: 'BANK_TRANSFER' }, { serviceType: 'UBEZP', serviceValue: amount }],
      },
      shipmentTime: { shipmentDate: s.shippingDate },
      labelType: DHL_PL_LABEL_TYPES[s.labelFormat as keyof typeof DHL_PL_LABEL_TYPES],
    },
    content: cut(settings.parcelContent, 30),
    comment: comment(s),
    reference: s.id,
    ship: {
      shipper: { contact: preavisoContact(s.sender), address: placeOf(s.sender) },
      receiver: {
        preaviso: preavisoContact(s.recipient),
        contact: preavisoContact(s.recipient),
        address: { country: s.recipient.countryCode, addressType: s.recipient.companyName ? 'B' : 'C', ...placeOf(s.recipient) },
      },
      servicePointAccountNumber: s.pickupPoint!.id,
    },
    pieceList: { item: s.parcels.map(piece) },
  };
  return { name: 'createShipment', content: { authData: authData(settings), shipment } };
}

/** ZK when the customer sends from Poland, ZC from abroad. */
function returnService(s: ShipmentForCarrier): string {
  return s.sender.countryCode === 'PL' ? DHL_PL_RETURN_SERVICES.domestic : DHL_PL_RETURN_SERVICES.connect;
}

/** Days the customer may use a return label; DHL asks for `labelExpDate` and publishes no limit (30 is our own choice). */
const RETURN_LABEL_DAYS = 30;

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** ReturnPackage: the WSDL's PieceDefinition of a return, whole centimetres and kilograms, one item per parcel. */
function returnPiece(p: ShipmentForCarrier['parcels'][number]): XmlElement {
  if (p.parcelType === 'envelope') return { type: 'ENVELOPE', quantity: 1, nonStandard: false };
  return {
    type: p.parcelType === 'pallet' ? 'PALLET' : 'PACKAGE', weight: Math.ceil(p.weightKg), width: Math.ceil(p.widthCm),
    height: Math.ceil(p.heightCm), length: Math.ceil(p.lengthCm), quantity: 1, nonStandard: false,
  };
}

/** ReturnAddressat: the contact DHL notifies and calls, and the address (ShipperAddress, which names the country). */
function returnParty(p: CarrierParty): XmlElement {
  return { preaviso: preavisoContact(p), contact: preavisoContact(p), address: { country: p.countryCode, ...placeOf(p) } };
}

/**
 * createShipmentReturn (createShipmentReturn.html): a return shipment and its label in one call, from the customer
 * (`ship.shipper`) to the warehouse (`ship.receiver`), with the return service ZK (within Poland) or ZC (Connect,
 * from another EU country), paid by the receiver (RECEIVER, the only payer the page allows) on the channel's SAP
 * number by bank transfer, the label valid until `labelExpDate`. The outbound shipment's waybill is the
 * `primaryWaybillNumber` of the WSDL's CreateReturnShipmentRequest (its meaning inferred from the name: DHL's page
 * does not describe it); `shipmentInfo.wayBill` is left out, as it is the return's own number where the customer
 * numbers its waybills (createShipment.html). `bookCourier` false: the customer hands the parcel to DHL (inferred).
 * A return carries no cash on delivery and goes to the warehouse's door.
 */
function createShipmentReturnPart(s: ShipmentForCarrier, returnOf: NonNullable<ShipmentForCarrier['returnOf']>, settings: DhlPlSettings): SoapPart {
  if (s.recipient.countryCode !== 'PL') {
    throw new CarrierRefusedError(`DHL Parcel Poland returns parcels to Poland, not to ${s.recipient.countryCode}`, {
      destination_address: [`DHL Parcel Poland's returns (ZK, ZC) go to an address in Poland; the return's address is in ${s.recipient.countryCode}`],
    });
  }
  if (s.cashOnDelivery) {
    throw new CarrierRefusedError('DHL Parcel Poland collects no cash on delivery on a return', {
      cash_on_delivery_amount: ['DHL Parcel Poland returns (ZK, ZC) take no cash on delivery'],
    });
  }
  const shipment: XmlElement = {
    shipmentInfo: {
      serviceType: returnService(s),
      bookCourier: false,
      billing: { shippingPaymentType: 'RECEIVER', billingAccountNumber: settings.sapNumber, paymentType: 'BANK_TRANSFER' },
      shipmentTime: { labelExpDate: addDays(s.shippingDate, RETURN_LABEL_DAYS) },
      labelType: DHL_PL_LABEL_TYPES[s.labelFormat as keyof typeof DHL_PL_LABEL_TYPES],
    },
    content: cut(settings.parcelContent, 30),
    comment: comment(s),
    reference: s.id,
    primaryWaybillNumber: returnOf.providerShipmentId,
    ship: { shipper: returnParty(s.sender), receiver: returnParty(s.recipient) },
    pieceList: { item: s.parcels.map(returnPiece) },
  };
  return { name: 'createShipmentReturn', content: { authData: authData(settings), shipment } };
}

/** DHL's point ids are the points' SAP numbers (PointStructure `sap`, e.g. 1020348). */
const POINT_ID = /^\d{1,10}$/;

/**
 * The creating operation: createShipmentReturn for a return, createShipment to a DHL point, createShipments to a door. DHL POP points are Polish
 * (getNearestServicepoints searches `country` PL; abroad is inferred to take no SP shipment), and product SP on the
 * channel only goes with a point.
 */
export function createPart(s: ShipmentForCarrier, settings: DhlPlSettings): SoapPart {
  if (s.returnOf) return createShipmentReturnPart(s, s.returnOf, settings);
  const point = s.pickupPoint;
  if (!point) {
    if (settings.product !== POINT_PRODUCT) return createShipmentsPart(s, settings);
    throw new CarrierRefusedError('DHL Parcel Poland delivers product SP to a DHL point: the shipment names none', {
      pickup_point: ["is required with the channel's product SP (delivery to a DHL POP point); choose a point or another product"],
    });
  }
  if (point.type === 'post_office') {
    throw new CarrierRefusedError('DHL Parcel Poland delivers to DHL POP shops and DHL BOX lockers, not to post offices', {
      pickup_point: ['DHL Parcel Poland delivers to DHL POP shops and DHL BOX lockers, not to post offices: choose a DHL point'],
    });
  }
  if (!POINT_ID.test(point.id)) {
    throw new CarrierRefusedError(`DHL Parcel Poland has no point ${point.id}: its points are numbered with digits`, {
      pickup_point: [`DHL Parcel Poland names its points by their SAP number (digits, e.g. 1020348), not ${point.id}`],
    });
  }
  if (s.recipient.countryCode !== 'PL') {
    throw new CarrierRefusedError(`DHL Parcel Poland delivers to its points in Poland, not in ${s.recipient.countryCode}`, {
      pickup_point: [`DHL Parcel Poland's points (DHL POP) are in Poland; the point's address is in ${s.recipient.countryCode}`],
    });
  }
  return createShipmentPart(s, settings);
}

/** The create request exactly as sent: the operation element's XML. */
export function dhlPlCreateRequest(s: ShipmentForCarrier, settings: DhlPlSettings): string {
  return soapElement(dhlPlService(settings.sandboxMode), createPart(s, settings));
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

/**
 * getNearestServicepoints: DHL's points near a post code (5 digits, as every DHL24 post code) or in a city, within
 * `radius` km (GetNearestServicepointsRequest of the WSDL: country, postcode, city, radius).
 */
export function nearestServicepointsPart(query: { country: string; postcode?: string; city?: string; radius: number }, settings: DhlPlSettings): SoapPart {
  const structure = { country: query.country, postcode: query.postcode === undefined ? undefined : dhlPostalCode(query.postcode), city: query.city, radius: query.radius };
  return { name: 'getNearestServicepoints', content: { authData: authData(settings), structure } };
}
