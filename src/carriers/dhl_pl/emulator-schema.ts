/**
 * What the DHL Parcel Poland emulator checks before any business rule: the element names and simple types of the
 * WebAPI2 WSDL's types (webapi2.xsd as karrio vendors it) for the operations it serves. DHL24 runs on PHP's
 * SoapServer, which refuses a request that does not fit the WSDL with the Client fault "SOAP-ERROR: Encoding:
 * Violation of encoding rules"; the emulator answers that, naming the element, so a misspelt element never gets a label.
 */
import { EmulatedSoapFault } from '../emulator/soap.js';
import { xmlList, type XmlNode, type XmlObject } from '../soap.js';

type Child = { type: string } | 'string' | 'int' | 'float' | 'boolean';
const AUTH = { type: 'AuthData' };
const ADDRESS = {
  name: 'string', postalCode: 'string', city: 'string', street: 'string', houseNumber: 'string', apartmentNumber: 'string',
  contactPerson: 'string', contactPhone: 'string', contactEmail: 'string',
} as const;
const STRINGS = { type: 'ArrayOfString' };

const TYPES: Readonly<Record<string, Readonly<Record<string, Child>>>> = {
  AuthData: { username: 'string', password: 'string' },
  AddressData: ADDRESS,
  ReceiverAddressData: {
    country: 'string', isPackstation: 'boolean', isPostfiliale: 'boolean', postnummer: 'string', addressType: 'string', ...ADDRESS,
  },
  NeighbourAddress: {
    name: 'string', postalCode: 'string', city: 'string', street: 'string', houseNumber: 'string', apartmentNumber: 'string',
    contactPhone: 'string', contactEmail: 'string',
  },
  PieceDefinition: {
    type: 'string', width: 'int', height: 'int', length: 'int', weight: 'float', quantity: 'int', nonStandard: 'boolean',
    blpPieceId: 'string', euroReturn: 'boolean',
  },
  ArrayOfPiecedefinition: { item: { type: 'PieceDefinition' } },
  PaymentData: { paymentMethod: 'string', payerType: 'string', accountNumber: 'string', costsCenter: 'string' },
  ServiceDefinition: {
    product: 'string', deliveryEvening: 'boolean', deliveryOnSaturday: 'boolean', pickupOnSaturday: 'boolean', collectOnDelivery: 'boolean',
    collectOnDeliveryValue: 'float', collectOnDeliveryForm: 'string', collectOnDeliveryReference: 'string', insurance: 'boolean',
    insuranceValue: 'float', returnOnDelivery: 'boolean', returnOnDeliveryReference: 'string', proofOfDelivery: 'boolean',
    selfCollect: 'boolean', predeliveryInformation: 'boolean', deliveryToNeighbour: 'boolean', preaviso: 'boolean', additionalService: 'boolean',
  },
  ShipmentFullData: {
    shipper: { type: 'AddressData' }, receiver: { type: 'ReceiverAddressData' }, neighbour: { type: 'NeighbourAddress' },
    pieceList: { type: 'ArrayOfPiecedefinition' }, payment: { type: 'PaymentData' }, service: { type: 'ServiceDefinition' },
    shipmentDate: 'string', skipRestrictionCheck: 'boolean', comment: 'string', content: 'string', reference: 'string',
    shipmentId: 'int', created: 'string', orderStatus: 'string', customs: { type: 'CustomsData' }, wayBill: 'string',
  },
  CustomsData: {
    customsType: 'string', firstName: 'string', secondaryName: 'string', costsOfShipment: 'string', currency: 'string', nipNr: 'string',
    eoriNr: 'string', vatRegistrationNumber: 'string', categoryOfItem: 'string', invoiceNr: 'string', invoice: 'string', invoiceDate: 'string',
    countryOfOrigin: 'string', additionalInfo: 'string', grossWeight: 'string', customsItem: { type: 'ArrayOfCustomsitemdata' },
    customAgreements: { type: 'CustomsAgreementData' },
  },
  ArrayOfCustomsitemdata: { item: { type: 'CustomsItemData' } },
  CustomsItemData: { nameEn: 'string', namePl: 'string', quantity: 'string', weight: 'string', value: 'string', tariffCode: 'string' },
  CustomsAgreementData: { notExceedValue: 'boolean', notProhibitedGoods: 'boolean', notRestrictedGoods: 'boolean' },
  ArrayOfShipmentfulldata: { item: { type: 'ShipmentFullData' } },
  ArrayOfString: { item: 'string' },
  ItemToPrint: { labelType: 'string', shipmentId: 'string' },
  ArrayOfItemtoprint: { item: { type: 'ItemToPrint' } },
  PieceShipmentItem: { shipmentNumber: 'string', cedexNumber: 'string', packageNumber: 'string' },
  ArrayOfPieceshipmentitem: { item: { type: 'PieceShipmentItem' } },
  GetPieceIdRequest: { items: { type: 'ArrayOfPieceshipmentitem' } },
  ItemToLabelData: { shipmentId: 'string' },
  ArrayOfItemtolabeldata: { item: { type: 'ItemToLabelData' } },
  ShipmentOrderInfo: { shipper: { type: 'AddressData' }, numberOfExPieces: 'int', numberOfDrPieces: 'int', totalWeight: 'int', heaviestPieceWeight: 'int' },
  PnpRequest: { authData: AUTH, date: 'string', type: 'string' },
  Billing: { shippingPaymentType: 'string', billingAccountNumber: 'int', paymentType: 'string', costsCenter: 'string' },
  Service: { serviceType: 'string', serviceValue: 'float', textInstruction: 'string', collectOnDeliveryForm: 'string' },
  ArrayOfService: { item: { type: 'Service' } },
  ShipmentTime: { shipmentDate: 'string', shipmentStartHour: 'string', shipmentEndHour: 'string' },
  ShipmentInfo: {
    wayBill: 'string', dropOffType: 'string', serviceType: 'string', billing: { type: 'Billing' }, specialServices: { type: 'ArrayOfService' },
    shipmentTime: { type: 'ShipmentTime' }, labelType: 'string',
  },
  PreavisoContact: { personName: 'string', phoneNumber: 'string', emailAddress: 'string' },
  Address: { name: 'string', postalCode: 'string', city: 'string', street: 'string', houseNumber: 'string', apartmentNumber: 'string' },
  Addressat: { preaviso: { type: 'PreavisoContact' }, contact: { type: 'PreavisoContact' }, address: { type: 'Address' } },
  ReceiverAddress: {
    country: 'string', isPackstation: 'boolean', isPostfiliale: 'boolean', postnummer: 'string', addressType: 'string', name: 'string',
    postalCode: 'string', city: 'string', street: 'string', houseNumber: 'string', apartmentNumber: 'string',
  },
  ReceiverAddressat: { preaviso: { type: 'PreavisoContact' }, contact: { type: 'PreavisoContact' }, address: { type: 'ReceiverAddress' } },
  // servicePointAccountNumber: DHL's createShipment page (fixtures/schema/SOURCE.md), newer than the vendored WSDL
  Ship: { shipper: { type: 'Addressat' }, receiver: { type: 'ReceiverAddressat' }, neighbour: { type: 'NeighbourAddress' }, servicePointAccountNumber: 'string' },
  Package: {
    type: 'string', euroReturn: 'boolean', weight: 'int', width: 'int', height: 'int', length: 'int', quantity: 'int', nonStandard: 'boolean', blpPieceId: 'string',
  },
  ArrayOfPackage: { item: { type: 'Package' } },
  CreateShipmentRequest: {
    shipmentInfo: { type: 'ShipmentInfo' }, content: 'string', comment: 'string', reference: 'string', ship: { type: 'Ship' },
    pieceList: { type: 'ArrayOfPackage' }, customs: { type: 'CustomsData' },
  },
  ReturnService: { serviceType: 'string', serviceValue: 'float' },
  ArrayOfReturnservice: { item: { type: 'ReturnService' } },
  ReturnShipmentTime: { labelExpDate: 'string' },
  ReturnShipmentInfo: {
    wayBill: 'string', serviceType: 'string', bookCourier: 'boolean', billing: { type: 'Billing' }, specialServices: { type: 'ArrayOfReturnservice' },
    shipmentTime: { type: 'ReturnShipmentTime' }, labelType: 'string',
  },
  ShipperAddress: {
    country: 'string', name: 'string', postalCode: 'string', city: 'string', street: 'string', houseNumber: 'string', apartmentNumber: 'string',
  },
  ReturnAddressat: { preaviso: { type: 'PreavisoContact' }, contact: { type: 'PreavisoContact' }, address: { type: 'ShipperAddress' } },
  ReturnShip: { shipper: { type: 'ReturnAddressat' }, receiver: { type: 'ReturnAddressat' } },
  ReturnPackage: {
    type: 'string', weight: 'int', width: 'int', height: 'int', length: 'int', quantity: 'int', nonStandard: 'boolean', blpPieceId: 'string',
  },
  ArrayOfReturnpackage: { item: { type: 'ReturnPackage' } },
  CreateReturnShipmentRequest: {
    shipmentInfo: { type: 'ReturnShipmentInfo' }, content: 'string', comment: 'string', reference: 'string', primaryWaybillNumber: 'string',
    ship: { type: 'ReturnShip' }, pieceList: { type: 'ArrayOfReturnpackage' },
  },
  GetNearestServicepointsRequest: { country: 'string', postcode: 'string', city: 'string', radius: 'int' },
  createShipments: { authData: AUTH, shipments: { type: 'ArrayOfShipmentfulldata' } },
  createShipment: { authData: AUTH, shipment: { type: 'CreateShipmentRequest' } },
  createShipmentReturn: { authData: AUTH, shipment: { type: 'CreateReturnShipmentRequest' } },
  getNearestServicepoints: { authData: AUTH, structure: { type: 'GetNearestServicepointsRequest' } },
  getLabels: { authData: AUTH, itemsToPrint: { type: 'ArrayOfItemtoprint' } },
  getPieceId: { authData: AUTH, request: { type: 'GetPieceIdRequest' } },
  deleteShipments: { authData: AUTH, shipments: STRINGS },
  getTrackAndTraceInfo: { authData: AUTH, shipmentId: 'string' },
  getMyShipmentsCount: { authData: AUTH, createdFrom: 'string', createdTo: 'string' },
  getMyShipments: { authData: AUTH, createdFrom: 'string', createdTo: 'string', offset: 'int' },
  getLabelsData: { authData: AUTH, itemsToLabelData: { type: 'ArrayOfItemtolabeldata' } },
  bookCourier: {
    authData: AUTH, pickupDate: 'string', pickupTimeFrom: 'string', pickupTimeTo: 'string', additionalInfo: 'string', shipmentIdList: STRINGS,
    shipmentOrderInfo: { type: 'ShipmentOrderInfo' }, courierWithLabel: 'boolean',
  },
  getPnp: { pnpRequest: { type: 'PnpRequest' } },
  getPostalCodeServices: { authData: AUTH, postCode: 'string', pickupDate: 'string' },
  getVersion: {},
};

function violation(detail: string): never {
  throw new EmulatedSoapFault('Client', `SOAP-ERROR: Encoding: Violation of encoding rules (${detail})`);
}

const SIMPLE: Readonly<Record<Exclude<Child, { type: string }>, RegExp>> = {
  string: /[\s\S]*/,
  int: /^[+-]?\d+$/,
  float: /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/,
  boolean: /^(true|false|1|0)$/,
};

function checkNode(type: string, node: XmlNode, at: string): void {
  const children = TYPES[type]!;
  if (node === '') return;
  if (typeof node !== 'object' || Array.isArray(node)) violation(`${at} of type ${type} holds text`);
  for (const [name, value] of Object.entries(node as XmlObject)) {
    const child = Object.hasOwn(children, name) ? children[name]! : undefined;
    if (!child) violation(`unexpected element ${at}.${name} (${type})`);
    xmlList(value).forEach((item, i) => {
      const path = name === 'item' ? `${at}.item[${i}]` : `${at}.${name}`;
      if (typeof child === 'object') checkNode(child.type, item, path);
      else if (typeof item !== 'string') violation(`${path} must be ${child}`);
      else if (!SIMPLE[child].test(item)) violation(`${path} '${item}' is no ${child}`);
    });
  }
}

/** The operation's content against the WSDL's types; a misfit throws PHP SoapServer's Client fault. */
export function checkAgainstSchema(operation: string, body: XmlObject): void {
  if (Object.hasOwn(TYPES, operation)) checkNode(operation, body, operation);
}
