/**
 * Synchronous checks of `POST /shipment/batch` as PPL's CPL API makes them (https://ppl-cpl-api-en.apidog.io),
 * with errors keyed by PascalCase paths like `Shipments[0].Recipient.ZipCode`.
 */
import { PPL_PRODUCTS } from './codes.js';
import { noSuchPlace } from '../emulator/no-such-place.js';

export type PplLabelFormat = 'Pdf' | 'Zpl';
export type FieldErrors = Record<string, string[]>;

export interface PplAddress {
  name: string;
  name2?: string;
  street: string;
  city: string;
  zipCode: string;
  country: string;
  contact?: string;
  phone?: string;
  email?: string;
}

export interface PplCashOnDelivery {
  codPrice: number;
  codCurrency: string;
  codVarSym?: string;
  iban?: string;
  swift?: string;
  account?: string;
  accountPre?: string;
  bankCode?: string;
  specSymbol?: string;
}

export interface PplShipmentRequest {
  referenceId: string;
  productType: string;
  sender: PplAddress;
  recipient: PplAddress;
  /** Parcel weights in kg, one entry per parcel (undefined when not given). */
  parcelWeights: (number | undefined)[];
  cashOnDelivery: PplCashOnDelivery | null;
  externalNumbers: { code: string; externalNumber: string }[];
  note?: string;
  /** `specificDelivery.parcelShopCode`: the access point a Smart product delivers to. */
  parcelShopCode?: string;
}

export interface PplBatchRequest {
  labelFormat: PplLabelFormat;
  /** `labelSettings.completeLabelSettings.isCompleteLabelRequested`: the batch status then links one document of all labels. */
  completeLabelRequested: boolean;
  shipments: PplShipmentRequest[];
}

const MAX_SHIPMENTS_PER_BATCH = 1000;
const MAX_PARCELS_PER_SET = 20;
const LABEL_FORMATS: Record<string, PplLabelFormat> = { pdf: 'Pdf', zpl: 'Zpl' };
// Formats PPL documents besides Pdf/Zpl; the emulator prints only Pdf and Zpl.
const UNPRINTED_FORMATS = ['jpeg', 'png', 'svg'];
// Field limits as PPL's client libraries declare them (inferred, https://ppl-cpl-api-en.apidog.io).
const ADDRESS_LIMITS: Record<keyof PplAddress, number> = {
  name: 50, name2: 50, street: 60, city: 50, zipCode: 10, country: 50, contact: 50, phone: 30, email: 50,
};
const REQUIRED_ADDRESS_FIELDS: (keyof PplAddress)[] = ['name', 'street', 'city', 'zipCode', 'country'];

type Json = Record<string, unknown>;

export function validateBatchRequest(body: unknown): { ok: true; batch: PplBatchRequest } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const add = (key: string, message: string) => (errors[key] ??= []).push(message);
  if (!isObject(body)) {
    add('$', 'The request body must be a JSON object.');
    return { ok: false, errors };
  }
  const labelFormat = readLabelFormat(body.labelSettings, add);
  const shipments: PplShipmentRequest[] = [];
  if (!Array.isArray(body.shipments) || body.shipments.length === 0) add('Shipments', 'The Shipments field is required.');
  else if (body.shipments.length > MAX_SHIPMENTS_PER_BATCH) add('Shipments', `At most ${MAX_SHIPMENTS_PER_BATCH} shipments can be sent in one request.`);
  else body.shipments.forEach((raw, i) => {
    const shipment = readShipment(raw, `Shipments[${i}]`, add);
    if (shipment) shipments.push(shipment);
  });
  if (Object.keys(errors).length > 0 || !labelFormat) return { ok: false, errors };
  const completeLabelRequested = isObject(body.labelSettings) && isObject(body.labelSettings.completeLabelSettings)
    && body.labelSettings.completeLabelSettings.isCompleteLabelRequested === true;
  return { ok: true, batch: { labelFormat, completeLabelRequested, shipments } };
}

type AddError = (key: string, message: string) => void;

function readLabelFormat(settings: unknown, add: AddError): PplLabelFormat | undefined {
  if (!isObject(settings)) {
    add('LabelSettings', 'The LabelSettings field is required.');
    return undefined;
  }
  const format = typeof settings.format === 'string' ? settings.format.toLowerCase() : '';
  if (LABEL_FORMATS[format]) return LABEL_FORMATS[format];
  if (UNPRINTED_FORMATS.includes(format)) add('LabelSettings.Format', `Label format ${String(settings.format)} is not supported.`);
  else add('LabelSettings.Format', 'The Format field is required and must be one of Pdf, Zpl, Jpeg, Png, Svg.');
  return undefined;
}

function readShipment(raw: unknown, at: string, add: AddError): PplShipmentRequest | undefined {
  if (!isObject(raw)) {
    add(at, 'The shipment must be a JSON object.');
    return undefined;
  }
  const referenceId = requiredString(raw.referenceId, `${at}.ReferenceId`, 128, add);
  const productType = requiredString(raw.productType, `${at}.ProductType`, 4, add)?.toUpperCase();
  const product = productType ? PPL_PRODUCTS[productType] : undefined;
  if (productType && !product) add(`${at}.ProductType`, `Unknown product type ${productType}.`);
  const sender = readAddress(raw.sender, `${at}.Sender`, add);
  const recipient = readAddress(raw.recipient, `${at}.Recipient`, add);
  const parcelWeights = readShipmentSet(raw.shipmentSet, `${at}.ShipmentSet`, add);
  const cashOnDelivery = readCashOnDelivery(raw.cashOnDelivery, `${at}.CashOnDelivery`, add);
  const externalNumbers = readExternalNumbers(raw.externalNumbers, `${at}.ExternalNumbers`, add);
  const note = optionalString(raw.note, `${at}.Note`, 300, add);
  const parcelShopCode = readParcelShopCode(raw.specificDelivery, `${at}.SpecificDelivery`, add);

  if (product && raw.cashOnDelivery != null && !product.cod) {
    add(`${at}.CashOnDelivery`, 'Cash on delivery requires a COD product (e.g. PRID)');
  }
  if (product?.cod && raw.cashOnDelivery == null) {
    add(`${at}.CashOnDelivery`, `Product ${productType} is a cash on delivery product; the CashOnDelivery field is required.`);
  }
  // the Smart products deliver only to an access point, and only they do (PPL's shop modules; inferred for the API)
  const pointGiven = isObject(raw.specificDelivery) && raw.specificDelivery.parcelShopCode != null && raw.specificDelivery.parcelShopCode !== '';
  if (product?.toAccessPoint && !pointGiven) {
    add(`${at}.SpecificDelivery.ParcelShopCode`, `Product ${productType} delivers to an access point; the ParcelShopCode field is required.`);
  } else if (product && !product.toAccessPoint && pointGiven) {
    add(`${at}.SpecificDelivery.ParcelShopCode`, `Product ${productType} does not deliver to an access point; use SMAR or SMEU (or their COD variants).`);
  }
  // a product for one country (RETD, PPL Parcel Return CZ) takes both parties there (inferred from its name)
  for (const [party, address] of [['Sender', sender], ['Recipient', recipient]] as const) {
    if (product?.onlyWithin && address && address.country !== product.onlyWithin) {
      add(`${at}.${party}.Country`, `Product ${productType} is only available within ${product.onlyWithin}; country ${address.country} is not allowed.`);
    }
  }
  if (product?.notifiesRecipient && recipient && !recipient.phone) {
    add(`${at}.Recipient.Phone`, 'The Phone field is required for products with delivery notifications.');
  }
  parcelWeights?.forEach((weight, i) => {
    if (product && weight !== undefined && weight > product.maxWeightKg) {
      add(`${at}.ShipmentSet.ShipmentSetItems[${i}].WeighedShipmentInfo.Weight`, `Weight must be at most ${product.maxWeightKg} kg for product ${productType}.`);
    }
  });
  const international = sender && recipient && sender.country !== recipient.country;
  if (international && parcelWeights && parcelWeights.length > 1 && raw.cashOnDelivery != null) {
    add(`${at}.ShipmentSet`, 'Cash on delivery service is not allowed for export bundled shipments');
  }
  if (!referenceId || !productType || !product || !sender || !recipient || !parcelWeights || cashOnDelivery === undefined || !externalNumbers) {
    return undefined;
  }
  return { referenceId, productType, sender, recipient, parcelWeights, cashOnDelivery, externalNumbers, note, ...(parcelShopCode ? { parcelShopCode } : {}) };
}

/** `specificDelivery` (ShipmentBatch.SpecificDeliveryFeatureModel): its `parcelShopCode`, at most 50 characters. */
function readParcelShopCode(raw: unknown, at: string, add: AddError): string | undefined {
  if (raw == null) return undefined;
  if (!isObject(raw)) {
    add(at, 'The SpecificDelivery field must be an object.');
    return undefined;
  }
  return optionalString(raw.parcelShopCode, `${at}.ParcelShopCode`, 50, add);
}

function readAddress(raw: unknown, at: string, add: AddError): PplAddress | undefined {
  const field = at.slice(at.lastIndexOf('.') + 1);
  if (!isObject(raw)) {
    add(at, `The ${field} field is required.`);
    return undefined;
  }
  const address: Partial<PplAddress> = {};
  let valid = true;
  for (const key of Object.keys(ADDRESS_LIMITS) as (keyof PplAddress)[]) {
    const path = `${at}.${pascal(key)}`;
    const value = REQUIRED_ADDRESS_FIELDS.includes(key)
      ? requiredString(raw[key], path, ADDRESS_LIMITS[key], add)
      : optionalString(raw[key], path, ADDRESS_LIMITS[key], add);
    if (value === undefined && (REQUIRED_ADDRESS_FIELDS.includes(key) || raw[key] != null)) valid = false;
    if (value !== undefined) address[key] = value;
  }
  if (address.country !== undefined) {
    if (!/^[A-Za-z]{2}$/.test(address.country)) {
      add(`${at}.Country`, `Country ${address.country} is not an ISO 3166-1 alpha-2 code.`);
      valid = false;
    }
    address.country = address.country.toUpperCase();
  }
  if (address.zipCode !== undefined && address.country !== undefined && !zipCodeAccepted(address.zipCode, address.country, `${at}.ZipCode`, add)) {
    valid = false;
  }
  return valid ? (address as PplAddress) : undefined;
}

/** Czech and Slovak postal codes are five digits, spaces ignored, and must be in PPL's codebook (inferred, https://ppl-cpl-api-en.apidog.io). */
function zipCodeAccepted(zipCode: string, country: string, path: string, add: AddError): boolean {
  if (country !== 'CZ' && country !== 'SK') return true;
  const digits = zipCode.replace(/\s+/g, '');
  if (!/^\d{5}$/.test(digits)) {
    add(path, `Zip code ${zipCode} is not valid for ${country}: it must have 5 digits.`);
    return false;
  }
  if (noSuchPlace(digits)) {
    add(path, `Unknown postal code ${zipCode} for ${country}.`);
    return false;
  }
  return true;
}

/** Per-parcel weights; no set means one parcel. */
function readShipmentSet(raw: unknown, at: string, add: AddError): (number | undefined)[] | undefined {
  if (raw == null) return [undefined];
  if (!isObject(raw)) {
    add(at, 'The ShipmentSet field must be an object.');
    return undefined;
  }
  const count = raw.numberOfShipments;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
    add(`${at}.NumberOfShipments`, 'The NumberOfShipments field must be a whole number of at least 1.');
    return undefined;
  }
  if (count > MAX_PARCELS_PER_SET) {
    add(`${at}.NumberOfShipments`, `A shipment set can have at most ${MAX_PARCELS_PER_SET} parcels.`);
    return undefined;
  }
  const items = raw.shipmentSetItems ?? [];
  if (!Array.isArray(items) || items.length > count) {
    add(`${at}.ShipmentSetItems`, 'ShipmentSetItems must be an array with at most NumberOfShipments items.');
    return undefined;
  }
  const weights: (number | undefined)[] = Array.from({ length: count }, () => undefined);
  let valid = true;
  items.forEach((item: unknown, i) => {
    const weight = isObject(item) && isObject(item.weighedShipmentInfo) ? item.weighedShipmentInfo.weight : undefined;
    if (weight === undefined) return;
    if (typeof weight !== 'number' || !(weight > 0)) {
      add(`${at}.ShipmentSetItems[${i}].WeighedShipmentInfo.Weight`, 'The weight must be a positive number of kilograms.');
      valid = false;
    } else weights[i] = weight;
  });
  return valid ? weights : undefined;
}

/** null = no COD; undefined = invalid. */
function readCashOnDelivery(raw: unknown, at: string, add: AddError): PplCashOnDelivery | null | undefined {
  if (raw == null) return null;
  if (!isObject(raw)) {
    add(at, 'The CashOnDelivery field must be an object.');
    return undefined;
  }
  let valid = true;
  const fail = (key: string, message: string) => {
    add(`${at}.${key}`, message);
    valid = false;
  };
  if (typeof raw.codPrice !== 'number' || !(raw.codPrice > 0)) fail('CodPrice', 'The CodPrice field must be a positive amount.');
  if (typeof raw.codCurrency !== 'string' || !/^[A-Za-z]{3}$/.test(raw.codCurrency)) fail('CodCurrency', 'The CodCurrency field must be an ISO 4217 currency code.');
  // A Czech variable symbol has at most ten digits (inferred, https://ppl-cpl-api-en.apidog.io).
  if (raw.codVarSym != null && (typeof raw.codVarSym !== 'string' || !/^\d{1,10}$/.test(raw.codVarSym))) {
    fail('CodVarSym', 'The CodVarSym field must have 1 to 10 digits.');
  }
  const bank: Partial<PplCashOnDelivery> = {};
  for (const key of ['iban', 'swift', 'account', 'accountPre', 'bankCode', 'specSymbol'] as const) {
    const value = optionalString(raw[key], `${at}.${pascal(key)}`, 34, add);
    if (value === undefined && raw[key] != null) valid = false;
    if (value !== undefined) bank[key] = value;
  }
  if (!valid) return undefined;
  return {
    codPrice: raw.codPrice as number, codCurrency: (raw.codCurrency as string).toUpperCase(),
    ...(typeof raw.codVarSym === 'string' ? { codVarSym: raw.codVarSym } : {}), ...bank,
  };
}

function readExternalNumbers(raw: unknown, at: string, add: AddError): { code: string; externalNumber: string }[] | undefined {
  if (raw == null) return [];
  if (!Array.isArray(raw)) {
    add(at, 'The ExternalNumbers field must be an array.');
    return undefined;
  }
  const numbers: { code: string; externalNumber: string }[] = [];
  raw.forEach((item: unknown, i) => {
    const entry = isObject(item) ? item : {};
    const code = requiredString(entry.code, `${at}[${i}].Code`, 4, add);
    const externalNumber = requiredString(entry.externalNumber, `${at}[${i}].ExternalNumber`, 50, add);
    if (code && externalNumber) numbers.push({ code: code.toUpperCase(), externalNumber });
  });
  return numbers.length === raw.length ? numbers : undefined;
}

function requiredString(value: unknown, path: string, maxLength: number, add: AddError): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') {
    add(path, `The ${lastSegment(path)} field is required.`);
    return undefined;
  }
  return withinLength(value.trim(), path, maxLength, add);
}

function optionalString(value: unknown, path: string, maxLength: number, add: AddError): string | undefined {
  if (value == null || value === '') return undefined;
  if (typeof value !== 'string') {
    add(path, `The ${lastSegment(path)} field must be a string.`);
    return undefined;
  }
  return withinLength(value.trim(), path, maxLength, add);
}

function withinLength(value: string, path: string, maxLength: number, add: AddError): string | undefined {
  if (value.length <= maxLength) return value;
  add(path, `The field ${lastSegment(path)} must be a string with a maximum length of ${maxLength}.`);
  return undefined;
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

function pascal(key: string): string {
  return key[0]!.toUpperCase() + key.slice(1);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One order of `POST /order/batch` (create-an-order-13601481e0). */
export interface PplOrder {
  orderType: 'CollectionOrder' | 'TransportOrder';
  referenceId: string;
  shipmentCount: number;
  sendDate: string;
  sendTimeFrom?: string;
  sendTimeTo?: string;
}

const ORDER_KEYS = ['orderType', 'referenceId', 'shipmentCount', 'sendDate', 'sendTimeFrom', 'sendTimeTo', 'email', 'note', 'customerReference', 'productType', 'sender', 'recipient'];

/** Checks an order batch as PPL does: known keys, a known order type, a parcel count, a send date not in the past. */
export function validateOrderBatch(body: unknown, today: string): { ok: true; orders: PplOrder[] } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const add = (key: string, message: string) => (errors[key] ??= []).push(message);
  const list = isObject(body) ? body.orders : undefined;
  if (!Array.isArray(list) || list.length === 0) return { ok: false, errors: { Orders: ['The Orders field is required.'] } };
  list.forEach((o: unknown, i) => {
    const at = `Orders[${i}]`;
    if (!isObject(o)) return add(at, 'An order must be an object.');
    for (const key of Object.keys(o)) if (!ORDER_KEYS.includes(key)) add(`${at}.${key}`, `Could not find member '${key}' on object of type 'OrderModel'.`);
    if (o.orderType !== 'CollectionOrder' && o.orderType !== 'TransportOrder') add(`${at}.OrderType`, `Unknown order type ${String(o.orderType)}.`);
    if (typeof o.referenceId !== 'string' || o.referenceId === '') add(`${at}.ReferenceId`, 'The ReferenceId field is required.');
    if (!Number.isInteger(o.shipmentCount) || (o.shipmentCount as number) < 1) add(`${at}.ShipmentCount`, 'The ShipmentCount must be at least 1.');
    if (typeof o.sendDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(o.sendDate)) add(`${at}.SendDate`, 'The SendDate field is required.');
    else if (o.sendDate < today) add(`${at}.SendDate`, `The send date ${o.sendDate} is in the past.`);
  });
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, orders: list as PplOrder[] };
}
