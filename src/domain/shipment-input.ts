import { isCalendarDate } from './calendar-date.js';
import { FieldErrorCollector } from './errors.js';
import { isObject, isText, type JsonObject } from './values.js';
import { toMinorUnits } from './money.js';
import { COUNTRY_CODES, CURRENCY_CODES } from './reference-data.js';
import { DIMENSION_UNITS, WEIGHT_UNITS, type DimensionUnit, type WeightUnit } from './units.js';

/** The shipment creation rules of the API, as pure checks on the request body. */

export interface Contact {
  company_name?: string;
  first_name?: string;
  last_name?: string;
  email_address: string;
  phone_number: string;
}

export interface Address {
  street_name: string;
  house_number: string;
  apartment_number?: string;
  city_name: string;
  postal_code: string;
  country_code: string;
}

export interface ParcelInput {
  parcel_type: string;
  weight_amount: number;
  weight_unit: WeightUnit;
  length_dimension: number;
  width_dimension: number;
  height_dimension: number;
  dimension_unit: DimensionUnit;
}

/** What the carrier step may be asked to do; declared by the provider's adapter. */
export interface CreationCapabilities {
  provider: string;
  cashOnDelivery: boolean;
  maxParcels: number;
}

export const MAX_PARCELS = 50;
export const MAX_METADATA_BYTES = 16 * 1024;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Body = JsonObject;

export function checkContact(errors: FieldErrorCollector, path: string, value: unknown): void {
  if (!isObject(value)) return; // the schema already reported it
  const named = isText(value.company_name) || (isText(value.first_name) && isText(value.last_name));
  if (!named) errors.add(`${path}.company_name`, 'company_name, or first_name and last_name, is required');
  if (typeof value.email_address === 'string' && !EMAIL.test(value.email_address)) errors.add(`${path}.email_address`, 'must be a valid e-mail address');
}

export function checkAddress(errors: FieldErrorCollector, path: string, value: unknown): void {
  if (!isObject(value)) return;
  if (typeof value.country_code === 'string' && !COUNTRY_CODES.has(value.country_code)) {
    errors.add(`${path}.country_code`, 'must be an ISO 3166-1 alpha-2 country code (e.g. CZ)');
  }
}

function checkParcels(errors: FieldErrorCollector, value: unknown, caps: CreationCapabilities | undefined): void {
  if (!Array.isArray(value)) return;
  const max = Math.min(MAX_PARCELS, caps?.maxParcels ?? MAX_PARCELS);
  if (value.length > max) errors.add('parcels', `at most ${max} parcels${caps && caps.maxParcels < MAX_PARCELS ? ` for provider ${caps.provider}` : ''}`);
  value.forEach((p, i) => {
    if (!isObject(p)) return;
    if (typeof p.weight_unit === 'string' && !(p.weight_unit in WEIGHT_UNITS)) errors.add(`parcels.${i}.weight_unit`, 'must be one of KG, G, LB');
    if (typeof p.dimension_unit === 'string' && !(p.dimension_unit in DIMENSION_UNITS)) errors.add(`parcels.${i}.dimension_unit`, 'must be one of CM, MM, M, IN');
  });
}

/**
 * Checks what the JSON schema cannot: names, e-mail and phone formats, country and currency codes, money precision,
 * dates, metadata size, and what the channel's provider can do. `partial` checks only the fields present (PATCH).
 */
export function checkShipmentInput(
  body: Body,
  caps: CreationCapabilities | undefined,
  today: string,
  errors: FieldErrorCollector,
): void {
  checkContact(errors, 'sender_contact', body.sender_contact);
  checkContact(errors, 'recipient_contact', body.recipient_contact);
  checkAddress(errors, 'origin_address', body.origin_address);
  checkAddress(errors, 'destination_address', body.destination_address);
  checkParcels(errors, body.parcels, caps);
  const cod = body.cash_on_delivery_amount;
  if (typeof cod === 'number') {
    if (toMinorUnits(cod) === undefined) errors.add('cash_on_delivery_amount', 'must have at most 2 decimals');
    if (body.cash_on_delivery_currency === undefined || body.cash_on_delivery_currency === null) {
      errors.add('cash_on_delivery_currency', 'is required with cash_on_delivery_amount');
    }
    if (caps && !caps.cashOnDelivery) errors.add('cash_on_delivery_amount', `provider ${caps.provider} does not support cash on delivery`);
  }
  const currency = body.cash_on_delivery_currency;
  if (typeof currency === 'string' && !CURRENCY_CODES.has(currency)) errors.add('cash_on_delivery_currency', 'must be an ISO 4217 currency code in upper case (e.g. CZK)');
  if (typeof currency === 'string' && cod == null) errors.add('cash_on_delivery_amount', 'is required with cash_on_delivery_currency');
  const date = body.shipping_date;
  if (typeof date === 'string') {
    if (!isCalendarDate(date)) {
      errors.add('shipping_date', 'must be a date YYYY-MM-DD');
    } else if (date < today) errors.add('shipping_date', 'must be today or later');
  }
  if (isObject(body.metadata) && Buffer.byteLength(JSON.stringify(body.metadata)) > MAX_METADATA_BYTES) {
    errors.add('metadata', 'must be at most 16 KiB as JSON');
  }
}
