/**
 * How the One by Allegro emulator checks a `POST /package` body: the keys and lengths of nuty456/WeDoApi
 * `models/{Pkg,Receiver,Sender,AdditionalService}.java` and of bridge.intime.cz/doc/restapi-pup.html's field table;
 * and the hand-over's bodies (`Articles.java`, `orderPickup`'s `pickup_date`). A refusal is One's `{message, detail[]}`;
 * the wording of `detail` (`<field>: <problem>`) is inferred.
 */
import { ONEDELIVERY_DEFAULT_PRODUCT, ONEDELIVERY_POINT_PRODUCT, ONEDELIVERY_PRODUCTS } from './codes.js';
import { noSuchPlace } from '../emulator/no-such-place.js';

export interface OnedeliveryEmulatedAddress {
  name: string;
  street: string;
  city: string;
  postal_code: string;
  state: string;
  firstname: string | null;
  surname: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
  note: string | null;
}

export interface OnedeliveryEmulatedPackage {
  receiver: OnedeliveryEmulatedAddress;
  sender: OnedeliveryEmulatedAddress | null;
  reference_number: string | null;
  reference_number2: string | null;
  package_count: number;
  weight: number;
  value: number;
  comment: string | null;
  product: string;
  cash_on_delivery: number | null;
  /** The WEDO POINT pickup place of a PUP package. */
  pup_branch: string | null;
  pup_contact: string | null;
  /** A return shipment ("zpětná zásilka"): collected at the receiver and brought to the sender. */
  reverse_order: boolean;
}

export interface OnedeliveryRefusal {
  message: string;
  detail: string[];
}

export type OnedeliveryPackageCheck = { ok: true; pkg: OnedeliveryEmulatedPackage } | { ok: false; refusal: OnedeliveryRefusal };

const PACKAGE_KEYS = [
  'receiver', 'sender', 'additional_service', 'reference_number', 'reference_number2', 'package_count', 'package_number', 'weight',
  'volumetric_weight', 'value', 'comment', 'additive', 'product', 'pup_branch', 'pup_contact', 'box', 'box_contact',
];
/** Lengths of Receiver.java and Sender.java (`@Size(max = …)`); the first five are required (`@NotNull`). */
const ADDRESS_LENGTHS: Readonly<Record<string, number>> = {
  name: 100, street: 100, city: 50, postal_code: 5, state: 2,
  external_id: 255, firstname: 30, surname: 30, email: 50, phone: 15, mobile: 15, fax: 15, note: 75,
};
const REQUIRED_ADDRESS = ['name', 'street', 'city', 'postal_code', 'state'];
const SERVICE_KEYS = [
  'cash_on_delivery', 'reverse_order', 'direct_order', 'exchange_order', 'exchange_order_note', 'document_back', 'dokument_back_note',
  'insurance', 'phone_notification', 'phone_notification_number', 'phone_notification_number_direct', 'phone_notification_note',
  'sms_notification', 'sms_notification_number', 'sms_notification_number_direct', 'email_notification', 'email_notification_address',
  'email_notification_address_direct', 'carry', 'loss', 'pay_by_receiver', 'authentication', 'authentication_note', 'takeover', 'takeover_place',
];
const PACKAGE_LENGTHS: Readonly<Record<string, number>> = {
  reference_number: 20, reference_number2: 50, comment: 255, product: 255, pup_branch: 10, pup_contact: 15, box: 10, box_contact: 15,
};
/** One delivers in Czechia and Slovakia (www.wedo.cz, www.wedo.sk). */
const COUNTRIES = ['CZ', 'SK'];

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function unknownKeys(value: Record<string, unknown>, known: readonly string[], prefix: string): string[] {
  return Object.keys(value).filter((k) => !known.includes(k)).map((k) => `${prefix}${k}: unknown field`);
}

function checkLengths(value: Record<string, unknown>, lengths: Readonly<Record<string, number>>, prefix: string, problems: string[]): void {
  for (const [key, max] of Object.entries(lengths)) {
    const v = value[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') problems.push(`${prefix}${key}: must be a string`);
    else if (v.length > max) problems.push(`${prefix}${key}: at most ${max} characters`);
  }
}

function checkAddress(value: unknown, role: 'receiver' | 'sender', problems: string[]): OnedeliveryEmulatedAddress | null {
  const address = objectOf(value);
  if (!address) {
    problems.push(`${role}: required`);
    return null;
  }
  const prefix = `${role}.`;
  for (const key of REQUIRED_ADDRESS) if (text(address[key]) === null) problems.push(`${prefix}${key}: required`);
  checkLengths(address, ADDRESS_LENGTHS, prefix, problems);
  const postal = text(address.postal_code);
  if (postal !== null && !/^\d{5}$/.test(postal)) problems.push(`${prefix}postal_code: five digits expected, not ${postal}`);
  else if (postal !== null && noSuchPlace(postal)) problems.push(`${prefix}postal_code: postal code ${postal} does not exist`);
  const state = text(address.state);
  if (state !== null && !COUNTRIES.includes(state)) problems.push(`${prefix}state: One does not deliver to ${state}`);
  // inferred: the courier calls or texts the recipient, so a receiver needs a phone or a mobile
  if (role === 'receiver' && text(address.phone) === null && text(address.mobile) === null) problems.push(`${prefix}phone: required`);
  return {
    name: text(address.name) ?? '', street: text(address.street) ?? '', city: text(address.city) ?? '', postal_code: postal ?? '', state: state ?? '',
    firstname: text(address.firstname), surname: text(address.surname), email: text(address.email), phone: text(address.phone),
    mobile: text(address.mobile), note: text(address.note),
  };
}

function positive(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * A return shipment (inferred rules): the courier collects the package from the receiver, so it collects no cash
 * there, goes to no pickup place, and is not at once a direct or an exchange order.
 */
function checkReturn(service: Record<string, unknown>, product: string, problems: string[]): void {
  const cod = service.cash_on_delivery;
  if (cod !== undefined && cod !== null) problems.push('additional_service.cash_on_delivery: not with a return shipment (reverse_order)');
  if (product === ONEDELIVERY_POINT_PRODUCT) problems.push(`product: a return shipment (reverse_order) is collected at the receiver's address, not with ${ONEDELIVERY_POINT_PRODUCT}`);
  for (const other of ['direct_order', 'exchange_order']) {
    if (service[other] === true) problems.push(`additional_service.${other}: not with a return shipment (reverse_order)`);
  }
}

export function checkPackage(body: unknown): OnedeliveryPackageCheck {
  const refuse = (detail: string[]): OnedeliveryPackageCheck => ({ ok: false, refusal: { message: 'Invalid package data', detail } });
  const pkg = objectOf(body);
  if (!pkg) return refuse(['body: a package object expected']);
  const service = objectOf(pkg.additional_service) ?? {};
  const unknown = [
    ...unknownKeys(pkg, PACKAGE_KEYS, ''),
    ...['receiver', 'sender'].flatMap((role) => { const a = objectOf(pkg[role]); return a ? unknownKeys(a, Object.keys(ADDRESS_LENGTHS), `${role}.`) : []; }),
    ...unknownKeys(service, SERVICE_KEYS, 'additional_service.'),
  ];
  if (unknown.length > 0) return refuse(unknown);

  const problems: string[] = [];
  const receiver = checkAddress(pkg.receiver, 'receiver', problems);
  const sender = pkg.sender === undefined || pkg.sender === null ? null : checkAddress(pkg.sender, 'sender', problems);
  checkLengths(pkg, PACKAGE_LENGTHS, '', problems);
  const count = pkg.package_count;
  if (!(typeof count === 'number' && Number.isInteger(count) && count >= 1)) problems.push('package_count: a whole number of parcels, at least 1, required');
  const numbers = pkg.package_number;
  if (numbers !== undefined && numbers !== null && !(Array.isArray(numbers) && numbers.length === count)) problems.push('package_number: one number per parcel');
  const weight = positive(pkg.weight);
  if (weight === null) problems.push('weight: a weight in kg greater than 0 required');
  if (!(typeof pkg.value === 'number' && pkg.value >= 0)) problems.push('value: a declared value in CZK required');
  const cod = service.cash_on_delivery;
  if (cod !== undefined && cod !== null && positive(cod) === null) problems.push('additional_service.cash_on_delivery: an amount greater than 0 expected');
  const product = text(pkg.product) ?? ONEDELIVERY_DEFAULT_PRODUCT;
  const limit = ONEDELIVERY_PRODUCTS[product]?.maxWeightKg;
  if (limit === undefined) problems.push(`product: ${product} is not a product of this account (${Object.keys(ONEDELIVERY_PRODUCTS).join(', ')})`);
  // One sees only the shipment's total: its parcels average over the product's limit
  else if (weight !== null && typeof count === 'number' && count >= 1 && weight / count > limit) problems.push(`weight: ${product} carries parcels up to ${limit} kg`);
  // restapi-pup.html: `pup_branch` and `pup_contact` are required with a pickup place product (refused otherwise: inferred)
  const pupBranch = text(pkg.pup_branch);
  const pupContact = text(pkg.pup_contact);
  if (product === ONEDELIVERY_POINT_PRODUCT) {
    if (pupBranch === null) problems.push(`pup_branch: required for product ${ONEDELIVERY_POINT_PRODUCT}`);
    if (pupContact === null) problems.push(`pup_contact: required for product ${ONEDELIVERY_POINT_PRODUCT}`);
  } else if (pupBranch !== null) problems.push(`pup_branch: only for product ${ONEDELIVERY_POINT_PRODUCT}, not ${product}`);
  const reverse = service.reverse_order;
  if (reverse !== undefined && reverse !== null && typeof reverse !== 'boolean') problems.push('additional_service.reverse_order: true or false expected');
  if (reverse === true) checkReturn(service, product, problems);
  if (problems.length > 0 || !receiver) return refuse(problems);

  return {
    ok: true,
    pkg: {
      receiver, sender, reference_number: text(pkg.reference_number), reference_number2: text(pkg.reference_number2),
      package_count: count as number, weight: weight!, value: pkg.value as number, comment: text(pkg.comment), product,
      cash_on_delivery: positive(cod), pup_branch: pupBranch, pup_contact: pupContact, reverse_order: reverse === true,
    },
  };
}

/** `POST /batch` (WeDoApi `Articles`): `articles`, the order numbers, each once. */
export function checkBatch(body: unknown): { ok: true; articles: string[] } | { ok: false; refusal: OnedeliveryRefusal } {
  const refuse = (detail: string[]) => ({ ok: false as const, refusal: { message: 'Invalid batch', detail } });
  const batch = objectOf(body);
  if (!batch) return refuse(['body: an object with articles expected']);
  const unknown = unknownKeys(batch, ['articles'], '');
  if (unknown.length > 0) return refuse(unknown);
  const { articles } = batch;
  if (!Array.isArray(articles) || articles.length === 0 || !articles.every((a) => typeof a === 'string' && a !== '')) {
    return refuse(['articles: a list of order numbers required']);
  }
  const twice = articles.filter((a, i) => articles.indexOf(a) !== i);
  if (twice.length > 0) return refuse(twice.map((a) => `articles: package ${a} listed twice`));
  return { ok: true, articles: articles as string[] };
}

/** `POST /pickup` (WeDoApi `orderPickup`): `pickup_date`, a `yyyy-MM-dd` day. */
export function checkPickup(body: unknown): { ok: true; date: string } | { ok: false; refusal: OnedeliveryRefusal } {
  const refuse = (detail: string[]) => ({ ok: false as const, refusal: { message: 'Invalid pickup', detail } });
  const pickup = objectOf(body);
  if (!pickup) return refuse(['body: an object with pickup_date expected']);
  const unknown = unknownKeys(pickup, ['pickup_date'], '');
  const date = pickup.pickup_date;
  const day = typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T00:00:00Z`) : Number.NaN;
  // a day that does not exist (02-30) reads as another one
  const valid = !Number.isNaN(day) && new Date(day).toISOString().startsWith(date as string);
  if (unknown.length > 0 || !valid) return refuse([...unknown, ...(valid ? [] : ['pickup_date: a day yyyy-MM-dd required'])]);
  return { ok: true, date: date as string };
}
