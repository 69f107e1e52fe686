/**
 * The one courier the Baselinker emulator has connected (code `dhl`), its accounts, its form and the order statuses of
 * the emulated Base.com account. The form follows the getCourierFields example of https://api.baselinker.com (cod,
 * insurance, package_description, pickup_date …); `service` and `label_format` are this courier's own select fields,
 * as the createPackage example sends `service`. What the courier refuses, and in which words, is inferred.
 */
import { COUNTRY_CODES } from '../../domain/reference-data.js';
import type { LabelFormat } from '../../domain/labels.js';
import { BASELINKER_EMULATED_SERVICES, BASELINKER_ERRORS } from './codes.js';
import { BaselinkerCourierPoints } from './emulator-points.js';
import { refuse, text, type Params } from './emulator-validation.js';

export const EMULATED_COURIER = { code: 'dhl', name: 'DHL' };
/** The courier's DHL POP shops and DHL BOX lockers, which orders name in `delivery_point_id`. */
export const EMULATED_POINTS = new BaselinkerCourierPoints();
export const EMULATED_ACCOUNTS = [{ id: 1021, name: 'Magazyn główny' }, { id: 1022, name: 'Sklep Kraków' }];
export const EMULATED_ORDER_STATUSES = [
  { id: 8201, name: 'Nowe zamówienia', name_for_customer: 'Zamówienie przyjęte', color: '#3b8ede' },
  { id: 8202, name: 'Do wysłania', name_for_customer: 'W realizacji', color: '#f0ad4e' },
  { id: 8203, name: 'Wysłane', name_for_customer: 'Wysłane', color: '#5cb85c' },
];

const LABEL_FORMATS: Record<LabelFormat, string> = { pdf: 'PDF A6', zpl: 'ZPL (Zebra)', epl: 'EPL2 (Eltron)' };

export const COURIER_FORM = {
  multi_packages: 0,
  fields: [
    {
      id: 'service', name: 'Service', type: 'select', desc: '',
      options: Object.fromEntries(Object.entries(BASELINKER_EMULATED_SERVICES).map(([id, s]) => [id, s.name])), value: 'standard',
    },
    { id: 'label_format', name: 'Label format', type: 'select', desc: '', options: LABEL_FORMATS, value: 'pdf' },
    { id: 'pickup_date', name: 'Dispatch date', type: 'date', desc: 'Order pickup for specific day' },
    { id: 'cod', name: 'Cash on delivery', type: 'text' },
    { id: 'insurance', name: 'Insurance', type: 'text' },
    { id: 'package_description', name: 'Content description', type: 'text' },
  ],
  package_fields: [
    { id: 'weight', name: 'Weight', type: 'text' },
    { id: 'length', name: 'Length', type: 'text' },
    { id: 'width', name: 'Width', type: 'text' },
    { id: 'height', name: 'Height', type: 'text' },
    { id: 'size_custom', name: 'Custom', type: 'checkbox', options: { 1: 'Unusual shape' } },
  ],
};

/**
 * The courier's pickup form (getRequestParcelPickupFields): `pickup_date` and `shipments_weight` as the
 * runRequestParcelPickup page's example sends them; the window's ids are this courier's own (inferred).
 */
export const PICKUP_FORM = {
  fields: [
    { id: 'pickup_date', name: 'Pickup date', type: 'date', desc: 'Day and earliest time the courier comes' },
    { id: 'pickup_time_from', name: 'Ready from (HH:MM)', type: 'text', desc: '' },
    { id: 'pickup_time_to', name: 'Ready until (HH:MM)', type: 'text', desc: '' },
    { id: 'shipments_weight', name: 'Total weight (kg)', type: 'text', desc: '' },
  ],
};

/** What a created package holds, read from the form. */
export interface CourierPackage {
  accountId: number;
  service: string;
  labelFormat: LabelFormat;
  cod: number | null;
  /** The order's `delivery_point_id` the courier delivers to, with a point service. */
  pointId: string | null;
  description: string;
  size: { weight: number; length: number | null; width: number | null; height: number | null };
}

/** The order fields the courier reads its recipient from. */
export type OrderDelivery = Record<string, unknown>;

function courierRefuses(reason: string): never {
  refuse(BASELINKER_ERRORS.courier, `Courier API error: ${reason}`);
}

function formValues(fields: unknown[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const field of fields) {
    const f = field as { id?: unknown; value?: unknown } | null;
    if (typeof f?.id !== 'string' || (typeof f.value !== 'string' && typeof f.value !== 'number')) {
      refuse(BASELINKER_ERRORS.parameters, 'Each of fields must be an object with an id and a value');
    }
    const known = COURIER_FORM.fields.find((k) => k.id === f.id) ?? refuse(BASELINKER_ERRORS.parameters, `Unknown field '${f.id}' of courier ${EMULATED_COURIER.code}`);
    if (known.options && !Object.hasOwn(known.options, String(f.value))) {
      refuse(BASELINKER_ERRORS.parameters, `Invalid value '${f.value}' of field '${f.id}' (options: ${Object.keys(known.options).join(', ')})`);
    }
    values.set(f.id, String(f.value));
  }
  return values;
}

function sizeOf(packages: unknown[]): CourierPackage['size'] {
  if (packages.length === 0) refuse(BASELINKER_ERRORS.parameters, 'packages must hold at least one package');
  if (packages.length > 1) courierRefuses(`courier ${EMULATED_COURIER.code} takes one package per shipment (multi_packages 0)`);
  const pkg = packages[0] as Params | null;
  if (typeof pkg !== 'object' || pkg === null || Array.isArray(pkg)) refuse(BASELINKER_ERRORS.parameters, 'Each package must be an object');
  for (const key of Object.keys(pkg)) {
    if (!COURIER_FORM.package_fields.some((f) => f.id === key)) refuse(BASELINKER_ERRORS.parameters, `Unknown package field '${key}' of courier ${EMULATED_COURIER.code}`);
  }
  const dimension = (key: string) => (pkg[key] === undefined || pkg[key] === null || pkg[key] === '' ? null : Number(pkg[key]));
  const weight = dimension('weight');
  if (weight === null || !(weight > 0)) refuse(BASELINKER_ERRORS.parameters, 'The weight of at least one package is required');
  for (const key of ['length', 'width', 'height']) {
    const value = dimension(key);
    if (value !== null && !(value > 0)) refuse(BASELINKER_ERRORS.parameters, `Package ${key} must be a number of centimetres`);
  }
  return { weight, length: dimension('length'), width: dimension('width'), height: dimension('height') };
}

/** The recipient as the courier checks it: a postal code that exists, a phone, a street and a city. */
function checkRecipient(order: OrderDelivery): void {
  const postcode = text(order.delivery_postcode);
  const country = text(order.delivery_country_code).toUpperCase();
  if (!COUNTRY_CODES.has(country)) courierRefuses(`the recipient's country ${country || '(none)'} is not served`);
  if (!postcode) courierRefuses('the recipient\'s postal code is required');
  if (/^[0\s-]+$/.test(postcode)) courierRefuses(`the recipient's postal code ${postcode} does not exist in ${country}`);
  if (country === 'PL' && !/^\d{2}-?\d{3}$/.test(postcode)) courierRefuses(`the recipient's postal code ${postcode} is not a Polish postal code (00-000)`);
  const phone = text(order.phone);
  if (!phone) courierRefuses('the recipient\'s phone number is required');
  if (!/^\+?[\d\s()-]{6,20}$/.test(phone)) courierRefuses(`the recipient's phone number ${phone} is invalid`);
  if (!text(order.delivery_address)) courierRefuses('the recipient\'s street address is required');
  if (!text(order.delivery_city)) courierRefuses('the recipient\'s city is required');
}

/** A point service needs the order's point and a door service none; the point must take the parcel. */
function checkPoint(service: string, pointId: string, cashOnDelivery: boolean): string | null {
  const toPoint = BASELINKER_EMULATED_SERVICES[service]!.toPoint === true;
  if (toPoint && !pointId) courierRefuses(`service ${service} delivers to a pickup point: the order has no delivery_point_id`);
  if (!toPoint && pointId) {
    const pointServices = Object.keys(BASELINKER_EMULATED_SERVICES).filter((id) => BASELINKER_EMULATED_SERVICES[id]!.toPoint);
    courierRefuses(`the order's pickup point ${pointId} needs service ${pointServices.join(' or ')}; service ${service} delivers to the door`);
  }
  if (!toPoint) return null;
  const refusal = EMULATED_POINTS.refusal(pointId, cashOnDelivery);
  if (refusal) courierRefuses(refusal);
  return pointId;
}

/** A createPackage form and package for the order, or the courier's refusal. */
export function checkCourierPackage(params: Params, order: OrderDelivery): CourierPackage {
  const accountId = params.account_id === undefined || params.account_id === null ? EMULATED_ACCOUNTS[0]!.id : Number(params.account_id);
  if (!EMULATED_ACCOUNTS.some((a) => a.id === accountId)) refuse(BASELINKER_ERRORS.courierAccountNotFound, `Courier account ${accountId} of courier ${EMULATED_COURIER.code} does not exist`);
  const values = formValues(params.fields as unknown[]);
  const size = sizeOf(params.packages as unknown[]);
  checkRecipient(order);
  const service = values.get('service') ?? 'standard';
  const limit = BASELINKER_EMULATED_SERVICES[service]!.maxWeightKg;
  if (size.weight > limit) courierRefuses(`package weight ${size.weight} kg is over the ${limit} kg limit of service ${service}`);
  const codText = values.get('cod');
  const cod = codText === undefined || codText === '' ? null : Number(codText.replace(',', '.'));
  if (cod !== null && !(cod > 0)) courierRefuses(`cash on delivery ${codText} is not an amount`);
  const pointId = checkPoint(service, text(order.delivery_point_id), cod !== null);
  return { accountId, service, labelFormat: (values.get('label_format') ?? 'pdf') as LabelFormat, cod, pointId, description: values.get('package_description') ?? '', size };
}
