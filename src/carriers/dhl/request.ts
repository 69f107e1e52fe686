import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import type { CarrierParty, DispatchForCarrier, LabelFormat, PickupRequest, ShipmentForCarrier } from '../types.js';
import { DHL_COD_SERVICE } from './codes.js';
import { SERVICE_POINT_ID } from './points.js';
import type { DhlSettings } from './settings.js';

/**
 * Our shipment → MyDHL API `POST /shipments` body (schema supermodelIoLogisticsExpressCreateShipmentRequest of the
 * MyDHL OpenAPI 3.1.1, vendored in fixtures/schema/). Pure.
 */

// Thermal labels on the default 8×4 in template at 200 dpi; PDF on the A6 template, the size of our 10×15 cm pages.
const LABEL_OUTPUT: Record<LabelFormat, { encodingFormat: string; printerDPI: number; templateName: string }> = {
  pdf: { encodingFormat: 'pdf', printerDPI: 300, templateName: 'ECOM26_A6_002' },
  zpl: { encodingFormat: 'zpl', printerDPI: 200, templateName: 'ECOM26_84_001' },
  epl: { encodingFormat: 'epl', printerDPI: 200, templateName: 'ECOM26_84_001' },
};

/** Address lines, city and names have the schema's maximum lengths. */
const MAX = { addressLine: 45, city: 45, companyName: 100, fullName: 255, referenceValue: 35, labelDescription: 80, description: 70 };

export interface DhlPostalAddress {
  postalCode: string;
  cityName: string;
  countryCode: string;
  addressLine1: string;
  addressLine2?: string;
}

export interface DhlContact {
  phone?: string;
  companyName: string;
  fullName: string;
  email?: string;
}

export interface DhlParty {
  postalAddress: DhlPostalAddress;
  contactInformation: DhlContact;
  typeCode: 'business' | 'private';
}

/** Street and house number on line 1; when they do not fit in 45 characters the house number moves to line 2. */
function postalAddress(party: CarrierParty): DhlPostalAddress {
  const house = party.apartmentNumber ? `${party.houseNumber}/${party.apartmentNumber}` : party.houseNumber;
  const line = `${party.street} ${house}`.trim();
  const lines = line.length <= MAX.addressLine
    ? { addressLine1: line }
    : { addressLine1: party.street.slice(0, MAX.addressLine), addressLine2: house.slice(0, MAX.addressLine) };
  return { postalCode: party.postalCode.trim(), cityName: party.city.slice(0, MAX.city), countryCode: party.countryCode, ...lines };
}

/** The schema requires both names: a company without a person repeats the company, a person without a company the person. */
export function dhlParty(party: CarrierParty): DhlParty {
  const company = party.companyName ?? party.personName ?? '';
  const person = party.personName ?? party.companyName ?? '';
  return {
    postalAddress: postalAddress(party),
    contactInformation: {
      ...(party.phone ? { phone: party.phone } : {}),
      companyName: company.slice(0, MAX.companyName),
      fullName: person.slice(0, MAX.fullName),
      ...(party.email ? { email: party.email } : {}),
    },
    typeCode: party.companyName ? 'business' : 'private',
  };
}

/** The schema's numbers are multiples of 0.001. */
function thousandths(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * A point shipment: MyDHL's On Demand Delivery with `deliveryOption` `servicepoint` and the point's 6-character
 * `servicePointId`, which the OpenAPI says needs `buyerDetails` beside it: the recipient, who collects the parcel. The
 * product and COD stay as they are. DHL Express has Service Points (shops, its counters, 24/7 lockers), no post offices.
 */
function servicePointDelivery(s: ShipmentForCarrier) {
  const point = s.pickupPoint;
  if (!point) return {};
  const refuse = (why: string) => new CarrierRefusedError(`DHL Express cannot deliver to point ${point.id}: ${why}`, { pickup_point: [why] });
  if (point.type === 'post_office') throw refuse('DHL Express delivers to its Service Points and 24/7 lockers, not to post offices: choose a DHL Express Service Point');
  const id = point.id.trim().toUpperCase();
  if (!SERVICE_POINT_ID.test(id)) throw refuse(`a DHL Express Service Point ID has 6 letters or digits (service area and facility, e.g. PRG041), not "${point.id}"`);
  return { onDemandDelivery: { deliveryOption: 'servicepoint', servicePointId: id } };
}

export function dhlShipmentRequest(s: ShipmentForCarrier, settings: DhlSettings) {
  const toPoint = servicePointDelivery(s);
  const output = LABEL_OUTPUT[s.labelFormat];
  const cod = s.cashOnDelivery;
  const reference = s.reference ? s.reference.slice(0, MAX.referenceValue) : null;
  return {
    // MyDHL wants the origin's local time and offset; the offset is not known here, so noon UTC stands for the day.
    plannedShippingDateAndTime: `${s.shippingDate}T12:00:00 GMT+00:00`,
    pickup: { isRequested: false },
    productCode: settings.productCode,
    accounts: [{ typeCode: 'shipper', number: settings.accountNumber }],
    ...(cod ? { valueAddedServices: [{ serviceCode: DHL_COD_SERVICE, value: Number(formatMinorUnits(cod.amountMinor)), currency: cod.currency }] } : {}),
    outputImageProperties: {
      printerDPI: output.printerDPI,
      encodingFormat: output.encodingFormat,
      imageOptions: [{ typeCode: 'label', templateName: output.templateName }, { typeCode: 'waybillDoc', isRequested: false }],
      splitTransportAndWaybillDocLabels: true,
    },
    // Our id as the consignor reference (CU): GET /tracking?shipmentReference=… finds the shipment by it.
    customerReferences: [{ value: s.id, typeCode: 'CU' }],
    customerDetails: {
      shipperDetails: dhlParty(s.sender), receiverDetails: dhlParty(s.recipient),
      ...('onDemandDelivery' in toPoint ? { buyerDetails: dhlParty(s.recipient) } : {}),
    },
    content: {
      packages: s.parcels.map((p, i) => ({
        referenceNumber: i + 1,
        weight: thousandths(p.weightKg),
        dimensions: { length: thousandths(p.lengthCm), width: thousandths(p.widthCm), height: thousandths(p.heightCm) },
        ...(reference ? { customerReferences: [{ value: reference, typeCode: 'CU' }] } : {}),
        ...(s.labelComment ? { labelDescription: s.labelComment.slice(0, MAX.labelDescription) } : {}),
      })),
      isCustomsDeclarable: false,
      description: settings.contentDescription.slice(0, MAX.description),
      incoterm: settings.incoterm,
      unitOfMeasurement: 'metric',
    },
    ...toPoint,
    // One label document per piece, tagged with the piece's referenceNumber.
    getAdditionalInformation: [{ typeCode: 'linkLabelsByPieces', isRequested: true }],
  };
}

export type DhlShipmentRequest = ReturnType<typeof dhlShipmentRequest>;

/** A wall-clock time's offset in the station's time zone (the daemon's), as MyDHL writes it: `GMT+01:00`. */
function stationOffset(date: string, time: string): string {
  const minutesAhead = -new Date(`${date}T${time}:00`).getTimezoneOffset();
  const abs = Math.abs(minutesAhead);
  return `GMT${minutesAhead < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * The dispatch's shipments and courier window → MyDHL API `POST /pickups` body (schema
 * supermodelIoLogisticsExpressPickupRequest of the MyDHL OpenAPI 3.1.1). Pure but for the station's time zone.
 * `plannedPickupDateAndTime` is when the parcels are ready, in the shipper's local time with its offset;
 * `closeTime` "the latest time the location premises is available to dispatch the DHL Express shipment".
 */
export function dhlPickupRequest(dispatch: DispatchForCarrier, pickup: PickupRequest, settings: DhlSettings) {
  const { postalAddress, contactInformation } = dhlParty(dispatch.sender);
  return {
    plannedPickupDateAndTime: `${pickup.date}T${pickup.from}:00 ${stationOffset(pickup.date, pickup.from)}`,
    closeTime: pickup.to,
    locationType: dispatch.sender.companyName ? 'business' : 'residence',
    accounts: [{ typeCode: 'shipper', number: settings.accountNumber }],
    customerDetails: { shipperDetails: { postalAddress, contactInformation } },
    shipmentDetails: dispatch.shipments.map((s) => ({
      // the channel's product, which its shipments were created with
      productCode: settings.productCode,
      isCustomsDeclarable: false,
      unitOfMeasurement: 'metric',
      shipmentTrackingNumber: s.providerShipmentId,
      packages: s.parcels.map((p) => ({ weight: thousandths(p.weightKg) })),
    })),
  };
}

export type DhlPickupRequest = ReturnType<typeof dhlPickupRequest>;
