/**
 * How the GLS emulator checks a MyGLS call: the login in the body, the data members of the ParcelService WSDL
 * (RustamKuramshin/mygls-java-clients, `…/APIDTOs_*`), refused with the codes of the MyGLS API's Appendix A. Which
 * members are required and the wording of the descriptions ("DeliveryAddress.ZipCode: …") are inferred.
 */
import { createHash } from 'node:crypto';
import { isBadCredential } from '../emulator/auth.js';
import { localTime } from '../local-time.js';
import type { PickupPointType } from '../types.js';
import { GLS_COUNTRY_RULES, GLS_POINT_SERVICE, GLS_PRINTER_TYPES, GLS_RETURN_SERVICE } from './codes.js';
import { glsZone, parseWcfDate } from './dates.js';
import { noSuchPlace } from '../emulator/no-such-place.js';
import type { EmulatedGlsPoint } from './emulator-points.js';

export interface GlsErrorView {
  ErrorCode: number;
  ErrorDescription: string;
  ClientReferenceList: string[];
  ParcelIdList: number[];
}

export function errorInfo(code: number, description: string, refs: string[] = [], ids: number[] = []): GlsErrorView {
  return { ErrorCode: code, ErrorDescription: description, ClientReferenceList: refs, ParcelIdList: ids };
}

export interface GlsEmulatedAddress {
  Name: string;
  Street: string;
  HouseNumber: string | null;
  HouseNumberInfo: string | null;
  City: string;
  ZipCode: string;
  CountryIsoCode: string;
  ContactName: string | null;
  ContactPhone: string | null;
  ContactEmail: string | null;
}

export interface GlsEmulatedParcel {
  ClientNumber: number;
  ClientReference: string | null;
  Count: number;
  CODAmount: number;
  CODCurrency: string | null;
  CODReference: string | null;
  Content: string | null;
  PickupAddress: GlsEmulatedAddress;
  DeliveryAddress: GlsEmulatedAddress;
  PickupDate: number;
  /** The ParcelShop or ParcelLocker of the parcel's PSD service; null: delivered to the door. */
  Point: { id: string; type: PickupPointType } | null;
  /** The parcel books the Pick&ReturnService (PRS): GLS collects it at the PickupAddress, the customer's. */
  PickAndReturn: boolean;
}

/** The emulator's points by GLS's id, for the PSD service's checks. */
export type GlsPointLookup = (id: string) => EmulatedGlsPoint | undefined;

/** `APIRequestBase` members every call may carry, plus the integrator tag GLS asks webshop plugins to send. */
const LOGIN_KEYS = ['Username', 'Password', 'ClientNumberList', 'WebshopEngine'];
const PARCEL_KEYS = ['ClientNumber', 'ClientReference', 'CODAmount', 'CODCurrency', 'CODReference', 'Content', 'Count', 'DeliveryAddress', 'PickupAddress', 'PickupDate', 'ServiceList'];
/** The data members of the WSDL's `Service` and of the PSD service's `ServiceParameterStringInteger`. */
const SERVICE_KEYS = [
  'ADRParameter', 'AOSParameter', 'CS1Parameter', 'Code', 'DDSParameter', 'DPVParameter', 'FDSParameter', 'FSSParameter', 'INSParameter',
  'MMPParameter', 'PSDParameter', 'SDSParameter', 'SM1Parameter', 'SM2Parameter', 'SZLParameter', 'Value',
];
const STRING_INTEGER_KEYS = ['IntegerValue', 'StringValue'];
const ADDRESS_KEYS = ['City', 'ContactEmail', 'ContactName', 'ContactPhone', 'CountryIsoCode', 'HouseNumber', 'HouseNumberInfo', 'Name', 'Street', 'ZipCode'];
/** Our cap on `Count` (MyGLS publishes none). */
const MAX_COUNT = 99;

/**
 * MyGLS receives only the SHA-512 digest of a password, so the emulator cannot see a `bad…` prefix: it refuses the
 * digests of the `bad…` passwords packdesk's tests and demo use, and any user name starting with `bad`.
 */
const BAD_PASSWORD_DIGESTS = new Set(['bad', 'bad-secret', 'bad-password', 'badpassword', 'bad-pass'].map((p) => createHash('sha512').update(p).digest('hex')));

/** The caller of a call (its user name), or the ErrorInfo MyGLS answers a refused login with. */
export function callerOf(body: Record<string, unknown>): { user: string } | { error: GlsErrorView } {
  const user = typeof body.Username === 'string' ? body.Username.trim() : '';
  const password = body.Password;
  const digest = Array.isArray(password) && password.length === 64 && password.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)
    ? Buffer.from(password as number[]).toString('hex') : undefined;
  if (!user || isBadCredential(user)) return { error: errorInfo(14, 'User not exists') };
  if (!digest || BAD_PASSWORD_DIGESTS.has(digest)) return { error: errorInfo(-1, 'Unauthorized.') };
  return { user };
}

/** A refusal in the making: every problem found is answered together. */
class Problems {
  readonly list: string[] = [];
  constructor(private readonly issue = 'Parcel validation issue') {}
  add(text: string): void {
    this.list.push(`${this.issue}: ${text}`);
  }
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A member the data contract does not have: WCF would drop it, and the member meant stays empty; it is named instead. */
function unknownMembers(value: Record<string, unknown>, known: readonly string[], contract: string): string[] {
  return Object.keys(value).filter((k) => !known.includes(k)).map((k) => `Parcel validation issue: '${k}' is not a member of ${contract}.`);
}

export function requestKeysProblems(body: Record<string, unknown>, methodKeys: readonly string[], contract: string): string[] {
  return unknownMembers(body, [...LOGIN_KEYS, ...methodKeys], contract);
}

/**
 * `Address` is the pickup request's one address. Inferred: the courier who delivers or collects calls the address's
 * ContactPhone, so it is required except at a PickupAddress where the shop hands its own parcels over.
 */
function checkAddress(
  value: unknown, role: 'PickupAddress' | 'DeliveryAddress' | 'Address', problems: Problems, phoneRequired = role !== 'PickupAddress',
): GlsEmulatedAddress | undefined {
  const address = objectOf(value);
  if (!address) {
    problems.add(`${role} is required.`);
    return undefined;
  }
  const contract = role === 'Address' ? 'Address' : `Address (${role})`;
  for (const key of Object.keys(address)) if (!ADDRESS_KEYS.includes(key)) problems.add(`'${key}' is not a member of ${contract}.`);
  for (const key of ['Name', 'Street', 'City', 'ZipCode', 'CountryIsoCode']) if (!text(address[key])) problems.add(`${role}.${key} is required.`);
  const country = text(address.CountryIsoCode) ?? '';
  const rule = GLS_COUNTRY_RULES[country];
  if (country && !/^[A-Z]{2}$/.test(country)) problems.add(`${role}.CountryIsoCode ${country} is not an ISO country code.`);
  const zip = text(address.ZipCode);
  if (zip && (noSuchPlace(zip) || (rule && !new RegExp(`^\\d{${rule.zipDigits}}$`).test(zip)))) problems.add(`${role}.ZipCode: zip code ${zip} does not exist in ${country}.`);
  const phone = text(address.ContactPhone);
  if (phoneRequired && !phone) problems.add(`${role}.ContactPhone is required.`);
  if (phone && !/^\+?[\d\s()/-]{6,20}$/.test(phone)) problems.add(`${role}.ContactPhone ${phone} is not a phone number.`);
  const email = text(address.ContactEmail);
  if (email && !/^[^@\s]+@[^@\s]+$/.test(email)) problems.add(`${role}.ContactEmail ${email} is not an e-mail address.`);
  return {
    Name: text(address.Name) ?? '', Street: text(address.Street) ?? '', HouseNumber: text(address.HouseNumber), HouseNumberInfo: text(address.HouseNumberInfo),
    City: text(address.City) ?? '', ZipCode: zip ?? '', CountryIsoCode: country, ContactName: text(address.ContactName), ContactPhone: phone, ContactEmail: email,
  };
}

/**
 * The parcel's services: members of `Service` only, and a PSD service naming a point that exists, takes parcels now
 * and, for a parcel with cash on delivery, takes payments. Whether and how GLS refuses these is inferred.
 */
function checkPointService(value: unknown, codAmount: number, points: GlsPointLookup, problems: Problems): GlsEmulatedParcel['Point'] {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    problems.add('ServiceList must be a list.');
    return null;
  }
  const services = value.map((v) => objectOf(v) ?? {});
  for (const service of services) for (const key of Object.keys(service)) if (!SERVICE_KEYS.includes(key)) problems.add(`'${key}' is not a member of Service.`);
  const psd = services.filter((s) => s.Code === GLS_POINT_SERVICE);
  if (psd.length === 0) return null;
  if (psd.length > 1) problems.add('ServiceList holds the PSD service more than once.');
  const parameter = objectOf(psd[0]!.PSDParameter);
  for (const key of Object.keys(parameter ?? {})) if (!STRING_INTEGER_KEYS.includes(key)) problems.add(`'${key}' is not a member of PSDParameter.`);
  const id = text(parameter?.StringValue);
  if (!id) {
    problems.add('PSDParameter.StringValue is required: the id of the ParcelShop or ParcelLocker the PSD service delivers to.');
    return null;
  }
  const found = points(id);
  if (!found) problems.add(`PSDParameter.StringValue: there is no ParcelShop or ParcelLocker ${id}.`);
  else if (!found.point.open) problems.add(`PSDParameter.StringValue: ParcelShop or ParcelLocker ${id} takes no parcels now.`);
  else if (codAmount > 0 && !found.point.cashOnDelivery) problems.add(`PSD point ${id} takes no cash on delivery: send the parcel without CODAmount or to another point.`);
  return found ? { id, type: found.point.type } : null;
}

/** Whether the parcel books the service of `code` (the list's shape is checked with the PSD service). */
function books(services: unknown, code: string): boolean {
  return Array.isArray(services) && services.some((s) => objectOf(s)?.Code === code);
}

function checkParcel(value: unknown, problems: Problems, now: number, points: GlsPointLookup): GlsEmulatedParcel | undefined {
  const parcel = objectOf(value);
  if (!parcel) {
    problems.add('ParcelList holds an empty Parcel.');
    return undefined;
  }
  for (const key of Object.keys(parcel)) if (!PARCEL_KEYS.includes(key)) problems.add(`'${key}' is not a member of Parcel.`);
  if (!Number.isInteger(parcel.ClientNumber) || (parcel.ClientNumber as number) <= 0) problems.add('ClientNumber is required.');
  const count = parcel.Count ?? 1;
  if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_COUNT) problems.add(`Count must be between 1 and ${MAX_COUNT}.`);
  const pickupDate = parcel.PickupDate === undefined || parcel.PickupDate === null ? now : parseWcfDate(parcel.PickupDate);
  if (pickupDate === undefined) problems.add(`PickupDate ${String(parcel.PickupDate)} is not a date.`);
  const pickAndReturn = books(parcel.ServiceList, GLS_RETURN_SERVICE);
  // a Pick&Return courier collects at the PickupAddress and calls there
  const pickup = checkAddress(parcel.PickupAddress, 'PickupAddress', problems, pickAndReturn);
  const delivery = checkAddress(parcel.DeliveryAddress, 'DeliveryAddress', problems);
  const codAmount = parcel.CODAmount ?? 0;
  if (typeof codAmount !== 'number' || codAmount < 0) problems.add('CODAmount must be a number of at least 0.');
  // inferred: a return collected from the customer has nobody to pay its cash to
  else if (pickAndReturn && codAmount > 0) problems.add('CODAmount must be 0 with the PRS service (Pick&ReturnService): a returned parcel carries no cash on delivery.');
  const codCurrency = text(parcel.CODCurrency);
  const expected = delivery ? GLS_COUNTRY_RULES[delivery.CountryIsoCode]?.codCurrency : undefined;
  if ((codAmount as number) > 0 && codCurrency && expected && codCurrency !== expected) {
    problems.add(`CODCurrency must be ${expected} for deliveries to ${delivery!.CountryIsoCode}.`);
  }
  const point = checkPointService(parcel.ServiceList, typeof codAmount === 'number' ? codAmount : 0, points, problems);
  if (!pickup || !delivery || pickupDate === undefined) return undefined;
  return {
    ClientNumber: parcel.ClientNumber as number, ClientReference: text(parcel.ClientReference), Count: count as number,
    CODAmount: codAmount as number, CODCurrency: codCurrency ?? expected ?? null, CODReference: text(parcel.CODReference),
    Content: text(parcel.Content), PickupAddress: pickup, DeliveryAddress: delivery, PickupDate: pickupDate, Point: point, PickAndReturn: pickAndReturn,
  };
}

export type PrintLabelsCheck =
  | { ok: true; parcels: GlsEmulatedParcel[]; typeOfPrinter: string }
  | { ok: false; errors: GlsErrorView[] };

/** A PrintLabels body → its parcels and printer type, or the PrintLabelsErrorList MyGLS answers. */
export function checkPrintLabels(body: Record<string, unknown>, now: number, points: GlsPointLookup): PrintLabelsCheck {
  const keyProblems = requestKeysProblems(body, ['ParcelList', 'PrintPosition', 'ShowPrintDialog', 'TypeOfPrinter'], 'PrintLabelsRequest');
  if (keyProblems.length > 0) return { ok: false, errors: keyProblems.map((d) => errorInfo(13, d)) };
  const typeOfPrinter = body.TypeOfPrinter ?? 'A4_2x2';
  if (typeof typeOfPrinter !== 'string' || !(GLS_PRINTER_TYPES as readonly string[]).includes(typeOfPrinter)) {
    return { ok: false, errors: [errorInfo(34, 'Value of TypeOfPrinter is invalid.')] };
  }
  const list = body.ParcelList;
  if (!Array.isArray(list) || list.length === 0) return { ok: false, errors: [errorInfo(13, 'Parcel validation issue: ParcelList is empty.')] };
  const parcels: GlsEmulatedParcel[] = [];
  const errors: GlsErrorView[] = [];
  for (const item of list) {
    const problems = new Problems();
    const parcel = checkParcel(item, problems, now, points);
    const ref = text(objectOf(item)?.ClientReference);
    for (const p of problems.list) errors.push(errorInfo(13, p, ref ? [ref] : []));
    if (parcel && problems.list.length === 0) parcels.push(parcel);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, parcels, typeOfPrinter };
}

export interface GlsEmulatedPickup {
  ClientNumber: number;
  Count: number;
  PickupTimeFrom: number;
  PickupTimeTo: number;
  Address: GlsEmulatedAddress;
}

const PICKUP_KEYS = ['ClientNumber', 'Count', 'PickupTimeFrom', 'PickupTimeTo', 'Address'];

export type PickupRequestCheck = { ok: true; pickup: GlsEmulatedPickup } | { ok: false; errors: GlsErrorView[] };

/**
 * A CreatePickupRequest body (the members GLS's WooCommerce plugin sends) → the pickup, or the PickupRequestErrors
 * MyGLS answers: a count of at least one package, a window that has not ended and ends after it starts, the address.
 */
export function checkPickupRequest(body: Record<string, unknown>, now: number): PickupRequestCheck {
  const problems = new Problems('Pickup request validation issue');
  for (const key of Object.keys(body)) if (![...LOGIN_KEYS, ...PICKUP_KEYS].includes(key)) problems.add(`'${key}' is not a member of PickupRequest.`);
  if (!Number.isInteger(body.ClientNumber) || (body.ClientNumber as number) <= 0) problems.add('ClientNumber is required.');
  if (!Number.isInteger(body.Count) || (body.Count as number) < 1) problems.add('Count must be a whole number of at least 1.');
  const address = checkAddress(body.Address, 'Address', problems);
  // the window is shown on the clock of the address's country
  const clock = localTime(glsZone(address?.CountryIsoCode ?? '') ?? 'UTC');
  const shown = (ms: number) => clock.format(ms, ' ').slice(0, 16);
  const time = (member: 'PickupTimeFrom' | 'PickupTimeTo') => {
    const value = body[member];
    const ms = parseWcfDate(value);
    if (value === undefined || value === null) problems.add(`${member} is required.`);
    else if (ms === undefined) problems.add(`${member} ${String(value)} is not a date.`);
    return ms;
  };
  const from = time('PickupTimeFrom');
  const to = time('PickupTimeTo');
  if (from !== undefined && to !== undefined && from >= to) problems.add(`PickupTimeFrom ${shown(from)} must be before PickupTimeTo ${shown(to)}.`);
  else if (to !== undefined && to <= now) problems.add(`the pickup window ending ${shown(to)} is in the past.`);
  if (problems.list.length > 0 || !address || from === undefined || to === undefined) return { ok: false, errors: problems.list.map((d) => errorInfo(13, d)) };
  return { ok: true, pickup: { ClientNumber: body.ClientNumber as number, Count: body.Count as number, PickupTimeFrom: from, PickupTimeTo: to, Address: address } };
}
