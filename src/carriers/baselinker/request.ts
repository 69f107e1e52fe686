import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import { warsawTime } from '../local-time.js';
import type { CarrierParcel, CarrierParty, ShipmentForCarrier } from '../types.js';
import type { BaselinkerSettings } from './settings.js';

/**
 * Our shipment → the parameters of Base.com's `addOrder` and of one `createPackage` per parcel. Pure. Field names:
 * https://api.baselinker.com/?method=addOrder and ?method=createPackage, and s0rus/baselinker-js
 * `src/internal/orders.ts` (addOrder) and `src/internal/courier-shipments.ts` (createPackage).
 */

/** Base.com writes its yes/no flags as "0"/"1" (the addOrder example). */
export type BaselinkerFlag = '0' | '1';

export interface BaselinkerOrderProduct {
  storage: 'db';
  storage_id: number;
  product_id: string;
  name: string;
  sku: string;
  price_brutto: number;
  tax_rate: number;
  quantity: number;
  weight: number;
}

/** The buyer and delivery part of an order. */
export interface BaselinkerOrderDelivery {
  email: string;
  phone: string;
  payment_method: string;
  payment_method_cod: BaselinkerFlag;
  delivery_method: string;
  delivery_price: number;
  delivery_fullname: string;
  delivery_company: string;
  delivery_address: string;
  delivery_postcode: string;
  delivery_city: string;
  delivery_country_code: string;
  extra_field_1: string;
  extra_field_2: string;
}

/**
 * Pick-up point delivery on the order (addOrder `delivery_point_id` varchar(40), `delivery_point_name`, `_address`,
 * `_postcode`, `_city` varchar(100)): Base.com's couriers read the point from the order, as Base.com's own shop module
 * (modules/baselinker/classes/BaseLinkerOrder.php) fills these from the shop's locker and parcelshop choice.
 */
export interface BaselinkerDeliveryPoint {
  delivery_point_id: string;
  delivery_point_name: string;
  delivery_point_address: string;
  delivery_point_postcode: string;
  delivery_point_city: string;
}

export interface BaselinkerAddOrder extends BaselinkerOrderDelivery, Partial<BaselinkerDeliveryPoint> {
  order_status_id: number;
  date_add: number;
  currency: string;
  paid: BaselinkerFlag;
  products: BaselinkerOrderProduct[];
}

export interface BaselinkerCourierField {
  id: string;
  value: string;
}

export interface BaselinkerPackageSize {
  weight: number;
  length: number;
  width: number;
  height: number;
}

/** One `createPackage` call without its `order_id`, which is the `addOrder` answer's. */
export interface BaselinkerPackageRequest {
  courier_code: string;
  account_id?: number;
  fields: BaselinkerCourierField[];
  packages: [BaselinkerPackageSize];
}

export interface BaselinkerCreateRequests {
  addOrder: BaselinkerAddOrder;
  createPackage: BaselinkerPackageRequest[];
}

/** Polish postal codes as Polish couriers write them, `00-111`; others as given. */
function postcodeOf(party: CarrierParty): string {
  const code = party.postalCode.trim();
  const digits = code.replace(/\D/g, '');
  return party.countryCode === 'PL' && digits.length === 5 ? `${digits.slice(0, 2)}-${digits.slice(2)}` : code;
}

/** `delivery_address` is "street and number" in one field: the flat follows the house ("Długa 5/55"). */
function streetAndNumber(party: CarrierParty): string {
  return `${party.street} ${party.apartmentNumber ? `${party.houseNumber}/${party.apartmentNumber}` : party.houseNumber}`;
}

function codAmount(s: ShipmentForCarrier): string | undefined {
  return s.cashOnDelivery ? formatMinorUnits(s.cashOnDelivery.amountMinor) : undefined;
}

/**
 * The recipient, our `sh_…` id in `extra_field_1` (getOrders reads it back, so a lost answer is found again) and the
 * user's reference in `extra_field_2`. The sender is the courier account's, as set up in Base.com.
 */
function orderDelivery(s: ShipmentForCarrier, settings: BaselinkerSettings): BaselinkerOrderDelivery {
  const r = s.recipient;
  return {
    email: r.email,
    phone: r.phone,
    payment_method: s.cashOnDelivery ? 'Cash on delivery' : 'Prepaid',
    payment_method_cod: s.cashOnDelivery ? '1' : '0',
    delivery_method: settings.courierCode,
    delivery_price: 0,
    delivery_fullname: r.personName ?? r.companyName ?? '',
    delivery_company: r.companyName ?? '',
    delivery_address: streetAndNumber(r),
    delivery_postcode: postcodeOf(r),
    delivery_city: r.city,
    delivery_country_code: r.countryCode,
    extra_field_1: s.id,
    extra_field_2: s.reference ?? '',
  };
}

/** addOrder's `delivery_point_id` is varchar(40). */
const POINT_ID_LENGTH = 40;

/**
 * The shipment's point on the order. The recipient's address is the point's (the shipment holds it); the point's name
 * is its id, as Base.com's shop module writes it for lockers and DPD points, since packdesk's shipment keeps no name.
 */
function deliveryPointOf(s: ShipmentForCarrier): BaselinkerDeliveryPoint | undefined {
  if (!s.pickupPoint) return undefined;
  const id = s.pickupPoint.id.trim();
  if (id.length === 0 || id.length > POINT_ID_LENGTH) {
    throw new CarrierRefusedError(`Baselinker takes no pickup point ${s.pickupPoint.id}`, {
      pickup_point: [`a pickup point id on a Base.com order has 1 to ${POINT_ID_LENGTH} characters (the courier's own point id, e.g. a locker code)`],
    });
  }
  const r = s.recipient;
  return { delivery_point_id: id, delivery_point_name: id, delivery_point_address: streetAndNumber(r), delivery_point_postcode: postcodeOf(r), delivery_point_city: r.city };
}

/** The courier form's service: the channel's point service for a shipment to a point, where it has one. */
export function serviceOf(s: ShipmentForCarrier, settings: BaselinkerSettings): string | undefined {
  return (s.pickupPoint ? settings.pointService : undefined) ?? settings.service;
}

/** The order's date is the shipping day (unix seconds), so a search for a lost order knows where to start. */
export function orderDate(s: ShipmentForCarrier): number {
  return Math.floor((warsawTime.parse(`${s.shippingDate} 00:00:00`) ?? 0) / 1000);
}

/** One order line for the whole shipment: a COD order's total is its cash on delivery. */
function addOrderOf(s: ShipmentForCarrier, settings: BaselinkerSettings): BaselinkerAddOrder {
  const weight = s.parcels.reduce((sum, p) => sum + p.weightKg, 0);
  return {
    order_status_id: settings.orderStatusId,
    date_add: orderDate(s),
    currency: s.cashOnDelivery?.currency ?? 'PLN',
    paid: s.cashOnDelivery ? '0' : '1',
    ...orderDelivery(s, settings),
    ...deliveryPointOf(s),
    products: [{
      storage: 'db', storage_id: 0, product_id: '', name: settings.packageDescription, sku: '',
      price_brutto: Number(codAmount(s) ?? 0), tax_rate: 0, quantity: 1, weight: Math.round(weight * 1000) / 1000,
    }],
  };
}

function sizeOf(p: CarrierParcel): BaselinkerPackageSize {
  return { weight: Math.round(p.weightKg * 1000) / 1000, length: Math.ceil(p.lengthCm), width: Math.ceil(p.widthCm), height: Math.ceil(p.heightCm) };
}

/**
 * One package per parcel: `createPackage` answers one `package_id` and one `package_number` whatever `packages` holds,
 * and getLabel and getCourierPackagesStatusHistory work per package (api.baselinker.com createPackage, getLabel), so
 * only one call per parcel gives each parcel its own number and label. Cash on delivery goes on the first package only,
 * so the recipient pays it once. `label_format` is the emulated courier's form field; a courier without it labels in
 * its account's format, which the adapter checks against the one asked for. A shipment to a point goes with the
 * channel's point service; the point itself is on the order. COD to a point is the same `cod` field.
 */
function packageRequestOf(s: ShipmentForCarrier, settings: BaselinkerSettings, parcel: CarrierParcel, index: number): BaselinkerPackageRequest {
  const cod = index === 0 ? codAmount(s) : undefined;
  const service = serviceOf(s, settings);
  return {
    courier_code: settings.courierCode,
    ...(settings.accountId !== undefined ? { account_id: settings.accountId } : {}),
    fields: [
      ...(service ? [{ id: 'service', value: service }] : []),
      { id: 'label_format', value: s.labelFormat },
      { id: 'package_description', value: settings.packageDescription },
      ...(cod !== undefined ? [{ id: 'cod', value: cod }] : []),
    ],
    packages: [sizeOf(parcel)],
  };
}

export function baselinkerCreateRequests(s: ShipmentForCarrier, settings: BaselinkerSettings): BaselinkerCreateRequests {
  return {
    addOrder: addOrderOf(s, settings),
    createPackage: s.parcels.map((parcel, i) => packageRequestOf(s, settings, parcel, i)),
  };
}
