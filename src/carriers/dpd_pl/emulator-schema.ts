/**
 * What the DPD Poland emulator checks before any business rule: the element names of DPD's schema (the `sequence`s
 * of DPDPackageXmlServices.xsd and of the Info Services types), refused as DPD's schema validation refuses them —
 * a SchemaValidationException fault with the validator's `cvc-…` message — so a misspelt element never gets a label.
 */
import { EmulatedSoapFault } from '../emulator/soap.js';
import { xmlList, type XmlNode, type XmlObject } from '../soap.js';
import { DPD_PL_CURRENCIES } from './codes.js';

/** Child elements of each type: the child's type, or a simple type (its allowed values, or `text`). */
type Child = { type: string } | { values: readonly string[] } | 'text' | 'int' | 'double' | 'boolean';
const FLAG = { type: 'flag' };
const ADDRESS = { type: 'packageAddressOpenUMLFeV1' };
const AUTH = { type: 'authDataV1' };

/** generateDomesticReturnLabelV1 and generateReturnLabelV1 take the same parts (the Axis classes generated from the live WSDL). */
const RETURN_LABEL: Readonly<Record<string, Child>> = {
  returnedWaybillsV1: { type: 'returnedWaybillsV1' }, receiver: { type: 'pudoReturnReceiver' }, outputDocFormatV1: { values: ['PDF', 'TIFF', 'PS', 'EPL', 'ZPL'] },
  outputDocPageFormatV1: { values: ['A4', 'LBL_PRINTER'] }, outputLabelType: 'text', labelVariant: 'text', authDataV1: AUTH,
};

const TYPES: Readonly<Record<string, Readonly<Record<string, Child>>>> = {
  flag: {},
  generatePackagesNumbersV4: {
    openUMLFeV3: { type: 'openUMLFeV3' }, pkgNumsGenerationPolicyV1: { values: ['STOP_ON_FIRST_ERROR', 'IGNORE_ERRORS', 'ALL_OR_NOTHING'] },
    langCode: 'text', authDataV1: AUTH,
  },
  openUMLFeV3: { packages: { type: 'packageOpenUMLFeV3' } },
  packageOpenUMLFeV3: {
    parcels: { type: 'parcelOpenUMLFeV1' }, payerType: { values: ['RECEIVER', 'SENDER', 'THIRD_PARTY'] }, receiver: ADDRESS,
    ref1: 'text', ref2: 'text', ref3: 'text', reference: 'text', sender: ADDRESS, services: { type: 'servicesOpenUMLFeV4' }, thirdPartyFID: 'int',
  },
  parcelOpenUMLFeV1: {
    content: 'text', customerData1: 'text', customerData2: 'text', customerData3: 'text', reference: 'text',
    sizeX: 'int', sizeY: 'int', sizeZ: 'int', weight: 'double',
  },
  packageAddressOpenUMLFeV1: {
    address: 'text', city: 'text', company: 'text', countryCode: 'text', email: 'text', fid: 'int', name: 'text', phone: 'text', postalCode: 'text',
  },
  servicesOpenUMLFeV4: {
    carryIn: FLAG, cod: { type: 'money' }, cud: FLAG, declaredValue: { type: 'money' }, dedicatedDelivery: FLAG, documentsInternational: FLAG,
    dox: FLAG, dpdExpress: FLAG, dpdPickup: { type: 'pudo' }, duty: { type: 'money' }, guarantee: { type: 'guarantee' }, inPers: FLAG,
    pallet: FLAG, privPers: FLAG, rod: FLAG, selfCol: { type: 'selfCol' }, tires: FLAG, tiresExport: FLAG,
  },
  money: { amount: 'text', currency: { values: [...DPD_PL_CURRENCIES, 'UNKNOWN'] } },
  pudo: { pudo: 'text' },
  guarantee: { type: { values: ['TIME0930', 'TIME1200', 'B2C', 'TIMEFIXED', 'SATURDAY', 'INTER'] }, value: 'text' },
  selfCol: { receiver: { values: ['PRIV', 'COMP'] } },
  authDataV1: { login: 'text', masterFid: 'int', password: 'text' },
  generateSpedLabelsV4: {
    dpdServicesParamsV1: { type: 'dpdServicesParamsV1' }, outputDocFormatV1: { values: ['PDF', 'TIFF', 'PS', 'EPL', 'ZPL'] },
    outputDocPageFormatV1: { values: ['A4', 'LBL_PRINTER'] }, outputLabelType: { values: ['BIC3', 'EXTENDED'] }, labelVariant: 'text', authDataV1: AUTH,
  },
  dpdServicesParamsV1: { documentId: 'text', pickupAddress: ADDRESS, policy: { values: ['STOP_ON_FIRST_ERROR', 'IGNORE_ERRORS'] }, session: { type: 'sessionDSPV1' } },
  sessionDSPV1: { packages: { type: 'packageDSPV1' }, sessionId: 'int', sessionType: { values: ['DOMESTIC', 'INTERNATIONAL'] } },
  packageDSPV1: { packageId: 'int', parcels: { type: 'parcelDSPV1' }, reference: 'text' },
  parcelDSPV1: { parcelId: 'int', reference: 'text', waybill: 'text' },
  generateDomesticReturnLabelV1: RETURN_LABEL,
  generateReturnLabelV1: RETURN_LABEL,
  returnedWaybillsV1: { waybill: 'text' },
  pudoReturnReceiver: { address: 'text', city: 'text', company: 'text', countryCode: 'text', email: 'text', name: 'text', phone: 'text', postalCode: 'text' },
  generateProtocolV2: {
    dpdServicesParamsV1: { type: 'dpdServicesParamsV1' }, outputDocFormatV1: { values: ['PDF', 'TIFF', 'PS', 'EPL', 'ZPL'] },
    outputDocPageFormatV1: { values: ['A4', 'LBL_PRINTER'] }, authDataV1: AUTH,
  },
  packagesPickupCallV4: { dpdPickupParamsV3: { type: 'dpdPickupCallParamsV3' }, authDataV1: AUTH },
  dpdPickupCallParamsV3: {
    checkSum: 'int', operationType: { values: ['INSERT', 'UPDATE', 'CANCEL'] }, orderNumber: 'text',
    orderType: { values: ['DOMESTIC', 'INTERNATIONAL', 'EXPRESS'] }, pickupCallSimplifiedDetails: { type: 'pickupCallSimplifiedDetailsDPPV1' },
    pickupDate: 'text', pickupTimeFrom: 'text', pickupTimeTo: 'text', updateMode: { values: ['DONT_CREATE_NEW_IF_CLOSED', 'CREATE_NEW_IF_CLOSED'] },
    waybillsReady: 'boolean',
  },
  pickupCallSimplifiedDetailsDPPV1: {
    packagesParams: { type: 'pickupPackagesParamsDPPV1' }, pickupCustomer: { type: 'pickupCustomerDPPV1' },
    pickupPayer: { type: 'pickupPayerDPPV1' }, pickupSender: { type: 'pickupSenderDPPV1' },
  },
  pickupPackagesParamsDPPV1: {
    dox: 'boolean', doxCount: 'int', pallet: 'boolean', palletMaxHeight: 'double', palletMaxWeight: 'double', palletsCount: 'int',
    palletsWeight: 'double', parcelMaxDepth: 'double', parcelMaxHeight: 'double', parcelMaxWeight: 'double', parcelMaxWidth: 'double',
    parcelsCount: 'int', parcelsWeight: 'double', standardParcel: 'boolean',
  },
  pickupCustomerDPPV1: { customerFullName: 'text', customerName: 'text', customerPhone: 'text' },
  pickupPayerDPPV1: { payerCostCenter: 'text', payerName: 'text', payerNumber: 'int' },
  pickupSenderDPPV1: { senderAddress: 'text', senderCity: 'text', senderFullName: 'text', senderName: 'text', senderPhone: 'text', senderPostalCode: 'text' },
  findPostalCodeV1: { postalCodeV1: { type: 'postalCodeV1' }, authDataV1: AUTH },
  getCourierOrderAvailabilityV1: { senderPlaceV1: { type: 'senderPlaceV1' }, authDataV1: AUTH },
  senderPlaceV1: { countryCode: 'text', zipCode: 'text' },
  postalCodeV1: { countryCode: 'text', zipCode: 'text' },
  getEventsForWaybillV1: { waybill: 'text', eventsSelectType: { values: ['ALL', 'ONLY_LAST'] }, language: 'text', authDataV1: { type: 'infoAuthDataV1' } },
  infoAuthDataV1: { channel: 'text', login: 'text', password: 'text' },
};

function invalid(message: string): never {
  throw new EmulatedSoapFault('Server', message, { name: 'SchemaValidationException', content: { message } });
}

function checkText(name: string, child: Exclude<Child, { type: string }>, value: string): void {
  if (child === 'int' && !/^[+-]?\d+$/.test(value)) invalid(`cvc-datatype-valid.1.2.1: '${value}' is not a valid value for 'integer'. (${name})`);
  if (child === 'boolean' && !/^(true|false|1|0)$/.test(value)) invalid(`cvc-datatype-valid.1.2.1: '${value}' is not a valid value for 'boolean'. (${name})`);
  if (child === 'double' && !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value)) invalid(`cvc-datatype-valid.1.2.1: '${value}' is not a valid value for 'double'. (${name})`);
  if (typeof child === 'object' && !child.values.includes(value)) {
    invalid(`cvc-enumeration-valid: Value '${value}' is not facet-valid with respect to enumeration '[${child.values.join(', ')}]'. It must be a value from the enumeration. (${name})`);
  }
}

function checkNode(type: string, node: XmlNode): void {
  const children = TYPES[type]!;
  if (node === '') return;
  if (typeof node !== 'object' || Array.isArray(node)) invalid(`cvc-complex-type.2.3: Element of type '${type}' cannot have character [children].`);
  for (const [name, value] of Object.entries(node as XmlObject)) {
    const child = Object.hasOwn(children, name) ? children[name]! : undefined;
    if (!child) {
      invalid(`cvc-complex-type.2.4.a: Invalid content was found starting with element '${name}'. One of '{${Object.keys(children).join(', ')}}' is expected.`);
    }
    for (const item of xmlList(value)) {
      if (typeof child === 'object' && 'type' in child) checkNode(child.type, item);
      else if (typeof item !== 'string') invalid(`cvc-type.3.1.2: Element '${name}' is a simple type, so it must have no element information item [children].`);
      else checkText(name, child, item);
    }
  }
}

/** The operation's content against DPD's schema; a misfit throws the SchemaValidationException fault. */
export function checkAgainstSchema(operation: string, body: XmlObject): void {
  if (Object.hasOwn(TYPES, operation)) checkNode(operation, body);
}
