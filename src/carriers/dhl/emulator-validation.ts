/**
 * `POST /shipments` checks of the MyDHL API emulator: first the published request schema (422, with the JSON-schema
 * messages MyDHL answers, e.g. `#/content/packages/0/identifiers/0: extraneous key [dataIdentifier] is not
 * permitted`), then DHL's business rules (400, `<code>: <text naming #/the/field>`).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { DHL_COD_SERVICE, DHL_PAPERLESS_TRADE_SERVICE, DHL_PRODUCTS } from './codes.js';
import type { EmulatedDhlPoint } from './emulator-points.js';
import createRequestSchema from './fixtures/schema/create-request.schema.json' with { type: 'json' };
import { noSuchPlace } from '../emulator/no-such-place.js';
import { customsMessages } from './emulator-customs.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface SeenParty {
  postalAddress: { postalCode: string; cityName: string; countryCode: string; addressLine1: string; addressLine2?: string; addressLine3?: string };
  contactInformation: { phone: string; companyName: string; fullName: string; email?: string };
  registrationNumbers?: { typeCode: string; number: string; issuerCountryCode: string }[];
}

export interface SeenReference {
  value: string;
  typeCode?: string;
}

export interface SeenPackage {
  weight: number;
  referenceNumber?: number;
  dimensions?: { length: number; width: number; height: number };
  customerReferences?: SeenReference[];
}

/** One line of a declaration: `price` a unit's, `weight` the line's. */
export interface SeenLineItem {
  number: number;
  description: string;
  price: number;
  quantity: { value: number; unitOfMeasurement: string };
  commodityCodes?: { typeCode: string; value: string }[];
  manufacturerCountry: string;
  weight: { netValue?: number; grossValue?: number };
}

export interface SeenExportDeclaration {
  lineItems: SeenLineItem[];
  invoice?: { number?: string; date?: string };
  exportReason?: string;
  exportReasonType?: string;
}

/** The parts of a schema-valid create request the emulator reads. */
export interface SeenShipmentRequest {
  plannedShippingDateAndTime: string;
  productCode: string;
  accounts: { typeCode: string; number: string }[];
  valueAddedServices?: { serviceCode: string; value?: number; currency?: string }[];
  outputImageProperties?: { encodingFormat?: string; imageOptions?: { typeCode: string; isRequested?: boolean; templateName?: string; invoiceType?: string }[] };
  customerReferences?: SeenReference[];
  customerDetails: { shipperDetails: SeenParty; receiverDetails: SeenParty; buyerDetails?: SeenParty };
  onDemandDelivery?: { deliveryOption: string; servicePointId?: string };
  content: {
    packages: SeenPackage[]; description: string; incoterm: string;
    isCustomsDeclarable: boolean; declaredValue?: number; declaredValueCurrency?: string; exportDeclaration?: SeenExportDeclaration;
  };
  getAdditionalInformation?: { typeCode?: string; isRequested: boolean }[];
  getRateEstimates?: boolean;
  documentImages?: unknown[];
}

export type Verdict =
  | { ok: true; request: SeenShipmentRequest }
  | { ok: false; status: 400 | 422; messages: string[] };

const compiled = new Map<string, ValidateFunction>();

/**
 * The OpenAPI's schema of one request body (a name under `components.schemas`), compiled once and shared; the schema
 * is large (~0.5 s to compile), so the emulator compiles what it checks when it is made.
 */
function validatorOf(schemaName: string): ValidateFunction {
  let validate = compiled.get(schemaName);
  if (!validate) {
    const ajv = new Ajv({ strict: false, allErrors: true, verbose: true, multipleOfPrecision: 6 });
    addFormats(ajv);
    validate = ajv.compile({ ...createRequestSchema, $ref: `#/components/schemas/${schemaName}` });
    compiled.set(schemaName, validate);
  }
  return validate;
}

/** `POST /shipments`: supermodelIoLogisticsExpressCreateShipmentRequest. */
export const schemaValidator = () => validatorOf('supermodelIoLogisticsExpressCreateShipmentRequest');
/** `POST /rates`: supermodelIoLogisticsExpressRateRequest. */
export const rateSchemaValidator = () => validatorOf('supermodelIoLogisticsExpressRateRequest');
/** `POST /pickups`: supermodelIoLogisticsExpressPickupRequest. */
export const pickupSchemaValidator = () => validatorOf('supermodelIoLogisticsExpressPickupRequest');

const TYPE_NAMES: Record<string, string> = { string: 'String', number: 'Number', integer: 'Integer', boolean: 'Boolean', object: 'JSONObject', array: 'JSONArray' };

function typeName(value: unknown): string {
  if (value === null) return 'Null';
  if (Array.isArray(value)) return 'JSONArray';
  return TYPE_NAMES[typeof value] ?? typeof value;
}

/** An ajv error in the wording of the JSON-schema validator behind MyDHL (the OpenAPI's 422 examples). */
export function schemaMessage(e: ErrorObject): string {
  const at = `#${e.instancePath}`;
  const data = e.data as unknown;
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': return `${at}: required key [${String(params.missingProperty)}] not found`;
    case 'additionalProperties': return `${at}: extraneous key [${String(params.additionalProperty)}] is not permitted`;
    case 'maxLength': return `${at}: expected maxLength: ${String(params.limit)}, actual: ${String(data).length}`;
    case 'minLength': return `${at}: expected minLength: ${String(params.limit)}, actual: ${String(data).length}`;
    case 'maxItems': return `${at}: expected maximum item count: ${String(params.limit)}, found: ${(data as unknown[]).length}`;
    case 'minItems': return `${at}: expected minimum item count: ${String(params.limit)}, found: ${(data as unknown[]).length}`;
    case 'enum': return `${at}: ${JSON.stringify(data)} is not a valid enum value`;
    case 'type': return `${at}: expected type: ${TYPE_NAMES[String(params.type)] ?? String(params.type)}, found: ${typeName(data)}`;
    case 'minimum': return `${at}: ${String(data)} is not greater or equal to ${String(params.limit)}`;
    case 'maximum': return `${at}: ${String(data)} is not less or equal to ${String(params.limit)}`;
    case 'pattern': return `${at}: string [${String(data)}] does not match pattern ${String(params.pattern)}`;
    default: return `${at}: ${e.message ?? e.keyword}`;
  }
}

/** DHL's refusal of an account it does not know: the MyDHL OpenAPI's 400 example of /rates, /products and /landed-cost. */
export const UNKNOWN_ACCOUNT = 'The account number is not found or invalid. Please check the account number and retry.';

/**
 * The accounts the emulated DHL knows: every number in DHL's format (9 to 12 digits) but zeros only, which stand for
 * an account DHL does not know (as a postal code of zeros stands for a place DHL does not serve).
 */
export function isKnownAccount(number: string): boolean {
  return /^\d{9,12}$/.test(number) && !/^0+$/.test(number);
}

// Value-added services the emulator offers on every lane: insurance and cash on delivery, which carry an amount, and Paperless Trade.
const VALUED_SERVICES = new Set(['II', DHL_COD_SERVICE]);
const OFFERED_SERVICES = new Set([...VALUED_SERVICES, DHL_PAPERLESS_TRADE_SERVICE]);
const SHIP_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2} ?GMT[+-]\d{2}:\d{2}$/;

/**
 * DHL's business checks. The 998 and 7008 wordings are the OpenAPI's examples; the others follow their pattern
 * (DHL's numbers for them are not published, so they carry none).
 */
/** The emulator's Service Points by id, for On Demand Delivery to a point. */
export type DhlPointLookup = (id: string) => EmulatedDhlPoint | undefined;

/**
 * On Demand Delivery `servicepoint`: the OpenAPI wants buyerDetails with it and a servicePointId naming the point; the
 * point must exist, be open (svpStatus A) and, for cash on delivery, take payment. DHL publishes no wording for these.
 */
function servicePointMessages(r: SeenShipmentRequest, points: DhlPointLookup): string[] {
  const odd = r.onDemandDelivery;
  if (!odd) return [];
  const messages = r.customerDetails.buyerDetails ? [] : ['#/customerDetails: required key [buyerDetails] not found when #/onDemandDelivery is used.'];
  if (odd.deliveryOption !== 'servicepoint') return messages;
  const id = odd.servicePointId;
  if (!id) return [...messages, "#/onDemandDelivery: required key [servicePointId] not found for deliveryOption 'servicepoint'."];
  const found = points(id);
  const cod = r.valueAddedServices?.some((v) => v.serviceCode === DHL_COD_SERVICE) ?? false;
  if (!found) messages.push(`The Service Point #/onDemandDelivery/servicePointId '${id}' is not found. Please check the Service Point ID via the /servicepoints service.`);
  else if (!found.point.open) messages.push(`The Service Point #/onDemandDelivery/servicePointId '${id}' is closed and takes no shipments.`);
  else if (cod && !found.point.cashOnDelivery) messages.push(`The Service Point #/onDemandDelivery/servicePointId '${id}' takes no payment on delivery: send the shipment without service ${DHL_COD_SERVICE} or to another Service Point.`);
  return messages;
}

function businessMessages(r: SeenShipmentRequest, points: DhlPointLookup): string[] {
  const messages: string[] = servicePointMessages(r, points);
  if (!SHIP_TIMESTAMP.test(r.plannedShippingDateAndTime)) {
    messages.push("998: ShipTimeStamp is not well formatted.(Expected Sample Format : '2010-02-11T17:10:09 GMT+01:00')");
  }
  const product = DHL_PRODUCTS[r.productCode];
  if (!product) messages.push(`The requested product #/productCode '${r.productCode}' is not available for this account, origin and destination. Please check the products available via the /products service.`);
  if (!r.accounts.some((a) => a.typeCode === 'shipper')) messages.push('An account #/accounts with typeCode shipper is required.');
  r.accounts.forEach((a, i) => {
    if (!isKnownAccount(a.number)) messages.push(`The account number #/accounts/${i}/number '${a.number}' is not found or invalid. Please check the account number and retry.`);
  });
  for (const [key, party] of [['shipperDetails', r.customerDetails.shipperDetails], ['receiverDetails', r.customerDetails.receiverDetails]] as const) {
    const { postalCode, countryCode } = party.postalAddress;
    if (noSuchPlace(postalCode)) {
      messages.push(`The postal code #/customerDetails/${key}/postalAddress/postalCode '${postalCode}' is not valid for countryCode ${countryCode}.`);
    }
  }
  r.valueAddedServices?.forEach((s, i) => {
    if (!OFFERED_SERVICES.has(s.serviceCode)) {
      messages.push(`7008: The requested Special Service Code  #/valueAddedServices/${i}/serviceCode '${s.serviceCode}' is not available between this origin and destination. Please validate the products and services combination (via the /rates or /products service) or contact our customer service.`);
    } else if (VALUED_SERVICES.has(s.serviceCode) && (s.value === undefined || !s.currency)) {
      messages.push(`The Special Service Code #/valueAddedServices/${i}/serviceCode '${s.serviceCode}' needs a value and a currency.`);
    }
  });
  const { packages } = r.content;
  const numbered = packages.filter((p) => p.referenceNumber !== undefined).length;
  if (numbered > 0 && numbered < packages.length) messages.push('If #/content/packages/referenceNumber is provided for one package it must be provided for all packages.');
  packages.forEach((p, i) => {
    if (product && p.weight > product.maxPieceWeightKg) {
      messages.push(`The weight #/content/packages/${i}/weight of ${p.weight} kg exceeds the maximum piece weight of ${product.maxPieceWeightKg} kg for product ${r.productCode}.`);
    }
  });
  return [...messages, ...customsMessages(r)];
}

export function validateShipmentRequest(body: unknown, points: DhlPointLookup): Verdict {
  const validate = schemaValidator();
  if (!validate(body)) return { ok: false, status: 422, messages: [...new Set((validate.errors ?? []).map(schemaMessage))] };
  const request = body as SeenShipmentRequest;
  const messages = businessMessages(request, points);
  return messages.length > 0 ? { ok: false, status: 400, messages } : { ok: true, request };
}

/** The parts of a schema-valid rate request the emulator reads. */
export interface SeenRateRequest {
  plannedShippingDateAndTime: string;
  productCode?: string;
  accounts?: { typeCode: string; number: string }[];
  valueAddedServices?: { serviceCode: string; value?: number; currency?: string }[];
  customerDetails: { shipperDetails: { postalCode: string; countryCode: string }; receiverDetails: { postalCode: string; countryCode: string } };
  unitOfMeasurement: string;
  packages: { weight: number }[];
}

/**
 * `POST /rates`: the schema (422), then the account (the OpenAPI's 400 example of /rates), the product, the places, the
 * services and the pieces' weights, worded as the create request's checks.
 */
export function validateRateRequest(body: unknown): { ok: true; request: SeenRateRequest } | { ok: false; status: 400 | 422; messages: string[] } {
  const validate = rateSchemaValidator();
  if (!validate(body)) return { ok: false, status: 422, messages: [...new Set((validate.errors ?? []).map(schemaMessage))] };
  const r = body as SeenRateRequest;
  const shipper = r.accounts?.find((a) => a.typeCode === 'shipper');
  if (shipper && !isKnownAccount(shipper.number)) return { ok: false, status: 400, messages: [UNKNOWN_ACCOUNT] };
  const messages: string[] = [];
  if (!shipper) messages.push('An account #/accounts with typeCode shipper is required.');
  if (!SHIP_TIMESTAMP.test(r.plannedShippingDateAndTime)) messages.push("998: ShipTimeStamp is not well formatted.(Expected Sample Format : '2010-02-11T17:10:09 GMT+01:00')");
  const product = r.productCode === undefined ? undefined : DHL_PRODUCTS[r.productCode];
  if (r.productCode !== undefined && !product) {
    messages.push(`The requested product #/productCode '${r.productCode}' is not available for this account, origin and destination. Please check the products available via the /products service.`);
  }
  for (const [key, place] of [['shipperDetails', r.customerDetails.shipperDetails], ['receiverDetails', r.customerDetails.receiverDetails]] as const) {
    if (noSuchPlace(place.postalCode)) messages.push(`The postal code #/customerDetails/${key}/postalCode '${place.postalCode}' is not valid for countryCode ${place.countryCode}.`);
  }
  r.valueAddedServices?.forEach((v, i) => {
    if (!OFFERED_SERVICES.has(v.serviceCode)) messages.push(`7008: The requested Special Service Code  #/valueAddedServices/${i}/serviceCode '${v.serviceCode}' is not available between this origin and destination. Please validate the products and services combination (via the /rates or /products service) or contact our customer service.`);
  });
  r.packages.forEach((p, i) => {
    if (product && p.weight > product.maxPieceWeightKg) messages.push(`The weight #/packages/${i}/weight of ${p.weight} kg exceeds the maximum piece weight of ${product.maxPieceWeightKg} kg for product ${r.productCode}.`);
  });
  return messages.length > 0 ? { ok: false, status: 400, messages } : { ok: true, request: r };
}
