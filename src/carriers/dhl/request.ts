import type { CustomsContentsType } from '../../domain/customs.js';
import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import type {
  CarrierParty, CustomsForCarrier, DispatchForCarrier, LabelFormat, PickupRequest, ShipmentForCarrier,
} from '../types.js';
import { DHL_COD_SERVICE, DHL_PAPERLESS_TRADE_SERVICE } from './codes.js';
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
const MAX = {
  addressLine: 45, city: 45, companyName: 100, fullName: 255, referenceValue: 35, labelDescription: 80, description: 70, lineItemDescription: 512,
  invoiceNumber: 35, registrationNumber: 35,
};

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

/** A party's VAT, EORI … number (supermodelIoLogisticsExpressRegistrationNumbers). */
export interface DhlRegistrationNumber {
  typeCode: 'EOR' | 'VAT';
  number: string;
  issuerCountryCode: string;
}

export interface DhlParty {
  postalAddress: DhlPostalAddress;
  contactInformation: DhlContact;
  registrationNumbers?: DhlRegistrationNumber[];
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

/**
 * What the goods are → `exportReasonType` of the declaration and its line items (the OpenAPI's enum: permanent,
 * temporary, return, commercial_purpose_or_sale, sample, gift …), the `exportReason` text (1–30 characters) and
 * `shipmentType` ("sent for Personal (Gift) or Commercial (Sale) reasons"), given for sales and gifts only.
 */
const EXPORT_REASONS: Record<CustomsContentsType, { type: string; reason: string; shipmentType?: 'commercial' | 'personal' }> = {
  sale: { type: 'commercial_purpose_or_sale', reason: 'Sale of goods', shipmentType: 'commercial' },
  gift: { type: 'gift', reason: 'Gift', shipmentType: 'personal' },
  sample: { type: 'sample', reason: 'Commercial sample' },
  documents: { type: 'permanent', reason: 'Documents' },
  return: { type: 'return', reason: 'Returned goods' },
  other: { type: 'permanent', reason: 'Other' },
};

/** The commercial invoice DHL renders from the declaration: its default portrait template (COMMERCIAL_INVOICE_P_10). */
const INVOICE_IMAGE = { typeCode: 'invoice', templateName: 'COMMERCIAL_INVOICE_P_10', isRequested: true, invoiceType: 'commercial' };
/**
 * Returned goods get DHL's returns invoice: the OpenAPI's template RET_COM_INVOICE_A4_01 is "for exclusive use" where
 * "the goods are actual 'returns'" (the shipper earlier received them, the recipient gets them back), invoiceType `returns`.
 */
const RETURNS_INVOICE_IMAGE = { typeCode: 'invoice', templateName: 'RET_COM_INVOICE_A4_01', isRequested: true, invoiceType: 'returns' };

/** An EU EORI or VAT number begins with its issuing state's code (VAT writes Greece EL); one without is its holder's country's. */
function issuerOf(number: string, holdersCountry: string): string {
  const prefix = /^[A-Z]{2}/.exec(number.toUpperCase())?.[0];
  return prefix === 'EL' ? 'GR' : prefix ?? holdersCountry;
}

/** The declaration's exporter's EORI (EOR) and VAT number: the warehouse's, which its party carries. */
function exporterNumbers(customs: CustomsForCarrier, warehouseCountry: string): DhlRegistrationNumber[] {
  const numbers = [['EOR', customs.exporterEori], ['VAT', customs.exporterVatNumber]] as const;
  return numbers.flatMap(([typeCode, number]) =>
    number ? [{ typeCode, number: number.slice(0, MAX.registrationNumber), issuerCountryCode: issuerOf(number, warehouseCountry) }] : []);
}

/** The declaration's importer's tax id, the customer's: a VAT number of its country, as DHL's examples give an importer's. */
function importerNumbers(customs: CustomsForCarrier, customerCountry: string): DhlRegistrationNumber[] {
  const id = customs.importerTaxId;
  return id ? [{ typeCode: 'VAT', number: id.slice(0, MAX.registrationNumber), issuerCountryCode: customerCountry }] : [];
}

/** A party with its registration numbers, where it has any (no empty list). */
function registered(party: DhlParty, numbers: DhlRegistrationNumber[]): DhlParty {
  return numbers.length > 0 ? { ...party, registrationNumbers: numbers } : party;
}

/**
 * The customs declaration (`content.isCustomsDeclarable` true): the declared value is the items' quantity × unit
 * price, each line item's weight is its quantity × unit weight ("There is no auto calculation for number multiply
 * with weight"), the HS code goes as the `outbound` commodity code.
 */
function exportDeclaration(customs: CustomsForCarrier) {
  const reason = EXPORT_REASONS[customs.contentsType];
  const totalMinor = customs.items.reduce((sum, item) => sum + item.quantity * item.unitValueMinor, 0);
  return {
    declaredValue: Number(formatMinorUnits(totalMinor)),
    declaredValueCurrency: customs.currency,
    exportDeclaration: {
      lineItems: customs.items.map((item, i) => {
        const weight = thousandths(item.quantity * item.unitWeightKg);
        return {
          number: i + 1,
          description: item.description.slice(0, MAX.lineItemDescription),
          price: Number(formatMinorUnits(item.unitValueMinor)),
          quantity: { value: item.quantity, unitOfMeasurement: 'PCS' },
          ...(item.hsCode ? { commodityCodes: [{ typeCode: 'outbound', value: item.hsCode }] } : {}),
          exportReasonType: reason.type,
          manufacturerCountry: item.originCountry,
          weight: { netValue: weight, grossValue: weight },
        };
      }),
      invoice: { number: customs.invoiceNumber.slice(0, MAX.invoiceNumber), date: customs.invoiceDate },
      exportReason: reason.reason,
      exportReasonType: reason.type,
      ...(reason.shipmentType ? { shipmentType: reason.shipmentType } : {}),
    },
  };
}

/**
 * A return is an ordinary MyDHL shipment, the customer its shipper and the warehouse its receiver (as the OpenAPI's
 * returns invoice describes the parties), billed to the channel's account and naming the outbound waybill. MyDHL has
 * no return product nor flag. A return collects no money: cash on delivery on one is refused before DHL is asked.
 */
function returnParts(s: ShipmentForCarrier, accountNumber: string) {
  const { returnOf } = s;
  if (!returnOf) return { accounts: [{ typeCode: 'shipper', number: accountNumber }], references: [] };
  if (s.cashOnDelivery) {
    throw new CarrierRefusedError('A DHL Express return takes no cash on delivery', { cash_on_delivery_amount: ['a DHL Express return takes no cash on delivery'] });
  }
  return {
    // inferred: the warehouse pays as `payer` though it receives (MyDHL connectors bill a return to the shipper's account, help.merchantcentral.de/en/shipment-dhl-express/returns/)
    accounts: [{ typeCode: 'shipper', number: accountNumber }, { typeCode: 'payer', number: accountNumber }],
    // AAO, "shipment reference number of receiver": the warehouse's own number of what comes back, the outbound waybill
    references: [{ value: returnOf.providerShipmentId.slice(0, MAX.referenceValue), typeCode: 'AAO' }],
  };
}

/** Cash on delivery (KB, with its amount) and Paperless Trade, the value-added services a shipment asks for, created or rated. */
function valueAddedServices(s: ShipmentForCarrier, settings: DhlSettings) {
  const cod = s.cashOnDelivery;
  return [
    ...(cod ? [{ serviceCode: DHL_COD_SERVICE, value: Number(formatMinorUnits(cod.amountMinor)), currency: cod.currency }] : []),
    // Paperless Trade: DHL hands the invoice to customs electronically; only an account DHL enabled for it may ask.
    ...(s.customs && settings.paperlessTrade ? [{ serviceCode: DHL_PAPERLESS_TRADE_SERVICE }] : []),
  ];
}

/** MyDHL wants the origin's local time and offset; the offset is not known here, so noon UTC stands for the day. */
function plannedShipping(s: ShipmentForCarrier): string {
  return `${s.shippingDate}T12:00:00 GMT+00:00`;
}

/** A piece's weight and dimensions, as both the create and the rate requests take them. */
function pieceMeasures(p: ShipmentForCarrier['parcels'][number]) {
  return { weight: thousandths(p.weightKg), dimensions: { length: thousandths(p.lengthCm), width: thousandths(p.widthCm), height: thousandths(p.heightCm) } };
}

/**
 * Our shipment → MyDHL API `POST /rates` body (supermodelIoLogisticsExpressRateRequest): the channel's account and
 * product, every piece, the same value-added services as its creation (so the rate is what creation would charge), the
 * declared value where it crosses a customs border, and the estimated delivery date asked for (QDDC: as DHL commits to it).
 */
export function dhlRateRequest(s: ShipmentForCarrier, settings: DhlSettings) {
  const { customs } = s;
  const services = valueAddedServices(s, settings);
  const { postalAddress: shipper } = dhlParty(s.sender);
  const { postalAddress: receiver } = dhlParty(s.recipient);
  return {
    customerDetails: { shipperDetails: shipper, receiverDetails: receiver },
    accounts: [{ typeCode: 'shipper', number: settings.accountNumber }],
    productCode: settings.productCode,
    ...(services.length > 0 ? { valueAddedServices: services } : {}),
    plannedShippingDateAndTime: plannedShipping(s),
    unitOfMeasurement: 'metric',
    isCustomsDeclarable: Boolean(customs),
    ...(customs ? { monetaryAmount: [{ typeCode: 'declaredValue', value: exportDeclaration(customs).declaredValue, currency: customs.currency }] } : {}),
    estimatedDeliveryDate: { isRequested: true, typeCode: 'QDDC' },
    packages: s.parcels.map(pieceMeasures),
  };
}

export type DhlRateRequest = ReturnType<typeof dhlRateRequest>;

export function dhlShipmentRequest(s: ShipmentForCarrier, settings: DhlSettings) {
  const toPoint = servicePointDelivery(s);
  const output = LABEL_OUTPUT[s.labelFormat];
  const { customs } = s;
  const reference = s.reference ? s.reference.slice(0, MAX.referenceValue) : null;
  const back = returnParts(s, settings.accountNumber);
  // registration numbers stay with their party: on a return the warehouse, the declaration's exporter, is the receiver
  const [warehouse, customer] = s.returnOf ? [s.recipient, s.sender] : [s.sender, s.recipient];
  const warehouseNumbers = customs ? exporterNumbers(customs, warehouse.countryCode) : [];
  const customerNumbers = customs ? importerNumbers(customs, customer.countryCode) : [];
  const services = valueAddedServices(s, settings);
  return {
    plannedShippingDateAndTime: plannedShipping(s),
    pickup: { isRequested: false },
    productCode: settings.productCode,
    // DHL then answers the shipment's charges (shipmentCharges): the price packdesk keeps with it
    getRateEstimates: true,
    accounts: back.accounts,
    ...(services.length > 0 ? { valueAddedServices: services } : {}),
    outputImageProperties: {
      printerDPI: output.printerDPI,
      encodingFormat: output.encodingFormat,
      imageOptions: [
        { typeCode: 'label', templateName: output.templateName }, { typeCode: 'waybillDoc', isRequested: false },
        ...(customs ? [customs.contentsType === 'return' ? RETURNS_INVOICE_IMAGE : INVOICE_IMAGE] : []),
      ],
      splitTransportAndWaybillDocLabels: true,
    },
    // Our id as the consignor reference (CU): GET /tracking?shipmentReference=… finds the shipment by it.
    customerReferences: [{ value: s.id, typeCode: 'CU' }, ...back.references],
    customerDetails: {
      shipperDetails: registered(dhlParty(s.sender), s.returnOf ? customerNumbers : warehouseNumbers),
      receiverDetails: registered(dhlParty(s.recipient), s.returnOf ? warehouseNumbers : customerNumbers),
      ...('onDemandDelivery' in toPoint ? { buyerDetails: dhlParty(s.recipient) } : {}),
    },
    content: {
      packages: s.parcels.map((p, i) => ({
        referenceNumber: i + 1,
        ...pieceMeasures(p),
        ...(reference ? { customerReferences: [{ value: reference, typeCode: 'CU' }] } : {}),
        ...(s.labelComment ? { labelDescription: s.labelComment.slice(0, MAX.labelDescription) } : {}),
      })),
      isCustomsDeclarable: Boolean(customs),
      ...(customs ? exportDeclaration(customs) : {}),
      description: settings.contentDescription.slice(0, MAX.description),
      // the declaration's incoterm (who pays duties) wins over the channel's
      incoterm: customs?.incoterm ?? settings.incoterm,
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
