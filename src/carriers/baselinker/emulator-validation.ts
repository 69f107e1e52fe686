/**
 * How the Baselinker emulator reads a method's `parameters`: the names and types of the method pages at
 * https://api.baselinker.com (addOrder, deleteOrders, getOrders, createPackage, getLabel …) and of s0rus/baselinker-js.
 * Base.com publishes no rule for unknown or mistyped parameters; that it refuses them with ERROR_PARAMETERS is inferred.
 */
import { BASELINKER_ERRORS } from './codes.js';

export type ParamType = 'int' | 'number' | 'string' | 'flag' | 'bool' | 'array' | 'object';
export type ParamSpec = Readonly<Record<string, { type: ParamType; required?: boolean }>>;
export type Params = Record<string, unknown>;

/** A refused call: Base.com's error code and message. */
export class BaselinkerRefusal extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export function refuse(code: string, message: string): never {
  throw new BaselinkerRefusal(code, message);
}

const TYPE_CHECKS: Record<ParamType, (v: unknown) => boolean> = {
  int: (v) => Number.isInteger(typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  number: (v) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))),
  string: (v) => typeof v === 'string' || typeof v === 'number',
  flag: (v) => [0, 1, '0', '1', true, false].includes(v as never),
  bool: (v) => typeof v === 'boolean' || [0, 1, '0', '1'].includes(v as never),
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
};

/** Unknown names, missing required ones and wrong types are refused, naming the parameter. */
export function checkParams(method: string, params: unknown, spec: ParamSpec): Params {
  if (!TYPE_CHECKS.object(params)) refuse(BASELINKER_ERRORS.parameters, `Parameters of method ${method} must be a JSON object`);
  const given = params as Params;
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(spec, key)) refuse(BASELINKER_ERRORS.parameters, `Unknown parameter '${key}' in method ${method}`);
  }
  for (const [key, { type, required }] of Object.entries(spec)) {
    const value = given[key];
    if (value === undefined || value === null) {
      if (required) refuse(BASELINKER_ERRORS.parameters, `Missing parameter '${key}' in method ${method}`);
      continue;
    }
    if (!TYPE_CHECKS[type](value)) refuse(BASELINKER_ERRORS.parameters, `Parameter '${key}' of method ${method} must be of type ${type}`);
  }
  return given;
}

export const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value)).trim();
export const flag = (value: unknown): boolean => value === true || value === 1 || value === '1';

const TEXT = { type: 'string' } as const;
const REQUIRED_TEXT = { type: 'string', required: true } as const;

/** The buyer, delivery and invoice fields of `addOrder` (its method page). */
const ORDER_FIELDS: ParamSpec = {
  admin_comments: TEXT, user_comments: TEXT, payment_method: TEXT, payment_method_cod: { type: 'flag' }, email: TEXT, phone: TEXT,
  user_login: TEXT, delivery_method: TEXT, delivery_price: { type: 'number' }, delivery_fullname: TEXT, delivery_company: TEXT,
  delivery_address: TEXT, delivery_postcode: TEXT, delivery_city: TEXT, delivery_state: TEXT, delivery_country_code: TEXT,
  delivery_point_id: TEXT, delivery_point_name: TEXT, delivery_point_address: TEXT, delivery_point_postcode: TEXT, delivery_point_city: TEXT,
  invoice_fullname: TEXT, invoice_company: TEXT, invoice_nip: TEXT, invoice_address: TEXT, invoice_postcode: TEXT, invoice_city: TEXT,
  invoice_state: TEXT, invoice_country_code: TEXT, want_invoice: { type: 'flag' }, extra_field_1: TEXT, extra_field_2: TEXT,
  custom_extra_fields: { type: 'object' },
};

export const ADD_ORDER: ParamSpec = {
  ...ORDER_FIELDS,
  order_status_id: { type: 'int', required: true }, custom_source_id: { type: 'int' }, date_add: { type: 'int', required: true },
  currency: REQUIRED_TEXT, payment_method: REQUIRED_TEXT, payment_method_cod: { type: 'flag', required: true }, paid: { type: 'flag', required: true },
  email: REQUIRED_TEXT, phone: REQUIRED_TEXT, delivery_method: REQUIRED_TEXT, delivery_price: { type: 'number', required: true },
  delivery_fullname: REQUIRED_TEXT, delivery_address: REQUIRED_TEXT, delivery_postcode: REQUIRED_TEXT, delivery_city: REQUIRED_TEXT,
  delivery_country_code: REQUIRED_TEXT, products: { type: 'array', required: true },
};

export const ORDER_PRODUCT: ParamSpec = {
  storage: TEXT, storage_id: { type: 'int' }, product_id: TEXT, variant_id: { type: 'int' }, name: REQUIRED_TEXT, sku: TEXT, ean: TEXT,
  location: TEXT, warehouse_id: { type: 'int' }, attributes: TEXT, price_brutto: { type: 'number', required: true },
  tax_rate: { type: 'number', required: true }, quantity: { type: 'int', required: true }, weight: { type: 'number' },
};

/** At most 1000 orders at a time (deleteOrders). */
export const DELETE_ORDERS: ParamSpec = { order_ids: { type: 'array', required: true } };

export const GET_ORDERS: ParamSpec = {
  order_id: { type: 'int' }, date_confirmed_from: { type: 'int' }, date_from: { type: 'int' }, id_from: { type: 'int' },
  get_unconfirmed_orders: { type: 'bool' }, status_id: { type: 'int' }, filter_email: TEXT, filter_order_source: TEXT,
  filter_order_source_id: { type: 'int' }, filter_shop_order_id: { type: 'int' }, filter_external_order_id: TEXT,
  include_custom_extra_fields: { type: 'bool' }, include_commissions: { type: 'bool' }, include_connect_data: { type: 'bool' },
};

export const CREATE_PACKAGE: ParamSpec = {
  order_id: { type: 'int', required: true }, courier_code: REQUIRED_TEXT, account_id: { type: 'int' },
  fields: { type: 'array', required: true }, packages: { type: 'array', required: true },
};

export const COURIER_ONLY: ParamSpec = { courier_code: REQUIRED_TEXT };
export const NOTHING: ParamSpec = {};
export const ORDER_ONLY: ParamSpec = { order_id: { type: 'int', required: true } };
export const ONE_PACKAGE: ParamSpec = { courier_code: REQUIRED_TEXT, package_id: { type: 'int' }, package_number: TEXT };
export const DELETE_PACKAGE: ParamSpec = { ...ONE_PACKAGE, force_delete: { type: 'bool' } };
export const STATUS_HISTORY: ParamSpec = { package_ids: { type: 'array', required: true } };
export const PACKAGE_DETAILS: ParamSpec = { package_id: { type: 'int', required: true } };

/** runRequestParcelPickup and getProtocol: the packages by `package_ids` or `package_numbers`. */
const PACKAGES_AT: ParamSpec = { courier_code: REQUIRED_TEXT, package_ids: { type: 'array' }, package_numbers: { type: 'array' }, account_id: { type: 'int' } };
export const PICKUP: ParamSpec = { ...PACKAGES_AT, fields: { type: 'array' } };
export const PROTOCOL: ParamSpec = PACKAGES_AT;
