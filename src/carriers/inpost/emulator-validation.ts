/**
 * What the InPost emulator's ShipX checks of a shipment or a dispatch order before it keeps one, answering ShipX's
 * `validation_failed` with `details` nested as ShipX nests them: a form's fields in a one-item array
 * (`{"receiver":[{"address":[{"post_code":["invalid"]}]}]}`, `{"custom_attributes":[{"target_point":["does_not_exist"]}]}`),
 * parcels in an array aligned with the request's. The rules are ShipX's "Form validation" page (18153492) and the
 * services' needs (a locker shipment: receiver phone and e-mail and a `target_point`; a courier one: the receiver's
 * address; a return (`is_return`, 11731061): a courier service, its sender, and no receiver needed); the key names are
 * those ShipX answers (`required`, `invalid`, `too_big`, `does_not_exist`).
 */
import { INPOST_CURRENCY, INPOST_DOOR_SERVICES, INPOST_LOCKER_SERVICE, INPOST_RETURN_SERVICES, INPOST_SENDING_METHODS } from './codes.js';

type Details = Record<string, unknown>;

export interface InpostEmulatedShipmentRequest {
  service: string;
  /** Absent only on a return, which the organization receives. */
  receiver: Record<string, unknown> | null;
  sender: Record<string, unknown> | null;
  isReturn: boolean;
  parcels: { template: string | null; weightKg: number | null }[];
  targetPoint: string | null;
  sendingMethod: string;
  cod: number | null;
  insurance: number | null;
  reference: string;
  comments: string | null;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; details: Details };

const SERVICES: readonly string[] = [INPOST_LOCKER_SERVICE, ...INPOST_DOOR_SERVICES];
const TEMPLATES = ['small', 'medium', 'large'];
/** ShipX's Polish phone: nine digits, optionally after +48 (18153492 accepts the prefix; every example sends nine digits). */
const PHONE = /^(?:\+?48)?\d{9}$/;
const POST_CODE = /^\d{2}-\d{3}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The largest cash on delivery InPost collects (inferred from InPost's terms: 5 000 PLN). */
export const INPOST_MAX_COD = 5000;

const objectOf = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined);
const textOf = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

/** Adds `key` to the field at `path` of a one-item-array form (`receiver`, `address`). */
function add(details: Details, path: string[], key: string): void {
  let form = details;
  for (const name of path.slice(0, -1)) {
    const wrapped = (form[name] ??= [{}]) as Details[];
    form = wrapped[0]!;
  }
  ((form[path[path.length - 1]!] ??= []) as string[]).push(key);
}

function checkParty(party: unknown, role: string, needsAddress: boolean, needsEmail: boolean, details: Details): void {
  const p = objectOf(party);
  if (!p) return add(details, [role], 'required');
  const phone = textOf(p.phone);
  if (!phone) add(details, [role, 'phone'], 'required');
  else if (!PHONE.test(phone)) add(details, [role, 'phone'], 'invalid');
  const email = textOf(p.email);
  if (!email && needsEmail) add(details, [role, 'email'], 'required');
  else if (email && !EMAIL.test(email)) add(details, [role, 'email'], 'invalid');
  if (needsAddress && !textOf(p.company_name) && !(textOf(p.first_name) && textOf(p.last_name))) add(details, [role, 'company_name'], 'required');
  const address = objectOf(p.address);
  if (!address) {
    if (needsAddress) add(details, [role, 'address'], 'required');
    return;
  }
  for (const field of ['street', 'building_number', 'city', 'post_code', 'country_code']) if (!textOf(address[field])) add(details, [role, 'address', field], 'required');
  const postCode = textOf(address.post_code);
  if (postCode && !POST_CODE.test(postCode)) add(details, [role, 'address', 'post_code'], 'invalid');
  const country = textOf(address.country_code);
  if (country && country !== 'PL') add(details, [role, 'address', 'country_code'], 'invalid');
}

function money(value: unknown, name: string, details: Details): number | null {
  if (value === undefined || value === null) return null;
  const m = objectOf(value);
  const amount = positive(m?.amount);
  if (amount === undefined) add(details, [name, 'amount'], 'invalid');
  if (m?.currency !== undefined && m.currency !== INPOST_CURRENCY) add(details, [name, 'currency'], 'invalid');
  return amount ?? null;
}

function checkParcels(value: unknown, locker: boolean, details: Details): InpostEmulatedShipmentRequest['parcels'] {
  if (!Array.isArray(value) || value.length === 0) {
    details.parcels = ['required'];
    return [];
  }
  if (locker && value.length > 1) {
    details.parcels = ['too_long'];
    return [];
  }
  let failed = false;
  const problems = value.map((raw) => {
    const parcel = objectOf(raw) ?? {};
    const own: Details = {};
    const template = textOf(parcel.template) ?? null;
    if (template !== null && !TEMPLATES.includes(template)) own.template = ['invalid'];
    if (template === null) {
      const dimensions = objectOf(parcel.dimensions);
      const weight = objectOf(parcel.weight);
      if (!dimensions || ['length', 'width', 'height'].some((k) => positive(dimensions[k]) === undefined) || (dimensions.unit ?? 'mm') !== 'mm') own.dimensions = ['invalid'];
      if (!weight || positive(weight.amount) === undefined || (weight.unit ?? 'kg') !== 'kg') own.weight = [{ amount: ['invalid'] }];
    }
    if (locker && template === null) own.template = ['required'];
    if (Object.keys(own).length > 0) failed = true;
    return own;
  });
  if (failed) details.parcels = problems;
  return value.map((raw) => {
    const parcel = objectOf(raw) ?? {};
    return { template: textOf(parcel.template) ?? null, weightKg: positive(objectOf(parcel.weight)?.amount) ?? null };
  });
}

/** A shipment request as ShipX reads it, or its `details`. Whether the target point exists is the emulator's own check. */
export function checkShipment(body: unknown): Checked<InpostEmulatedShipmentRequest> {
  const details: Details = {};
  const s = objectOf(body);
  if (!s) return { ok: false, details: { shipment: ['required'] } };
  const service = textOf(s.service) ?? '';
  if (!SERVICES.includes(service)) details.service = [service ? 'invalid' : 'required'];
  const locker = service === INPOST_LOCKER_SERVICE;
  const isReturn = s.is_return === true;
  if (s.is_return !== undefined && s.is_return !== null && typeof s.is_return !== 'boolean') details.is_return = ['invalid'];
  // inferred: ShipX marks returns of the courier services its return labels serve (18153511), not a Paczkomat's or C2C
  else if (isReturn && service && !INPOST_RETURN_SERVICES.includes(service)) details.is_return = ['invalid'];
  // 11731061: "jeśli zostanie przekazany atrybut is_return == true, atrybut receiver nie będzie wymagany"
  if (!(isReturn && (s.receiver === undefined || s.receiver === null))) checkParty(s.receiver, 'receiver', !locker, locker, details);
  // inferred: a return's sender is the customer it comes from, so it is the one party a return cannot leave out
  if (isReturn) checkParty(s.sender, 'sender', true, false, details);
  else if (s.sender !== undefined && s.sender !== null) checkParty(s.sender, 'sender', false, false, details);
  const parcels = checkParcels(s.parcels, locker, details);
  const attributes = objectOf(s.custom_attributes) ?? {};
  const targetPoint = textOf(attributes.target_point) ?? null;
  if (locker && !targetPoint) add(details, ['custom_attributes', 'target_point'], 'required');
  const sendingMethod = textOf(attributes.sending_method) ?? 'dispatch_order';
  if (!(INPOST_SENDING_METHODS as readonly string[]).includes(sendingMethod)) add(details, ['custom_attributes', 'sending_method'], 'invalid');
  const cod = money(s.cod, 'cod', details);
  const insurance = money(s.insurance, 'insurance', details);
  if (cod !== null && cod > INPOST_MAX_COD) add(details, ['cod', 'amount'], 'too_big');
  // inferred: a return is paid by the organization and collects nothing from it
  if (cod !== null && isReturn) add(details, ['cod', 'amount'], 'invalid');
  // 18153492: courier services need insurance with COD
  if (cod !== null && !locker && insurance === null) add(details, ['insurance', 'amount'], 'required');
  const reference = textOf(s.reference) ?? '';
  if (reference.length < 3 || reference.length > 100) details.reference = [reference ? 'invalid' : 'required'];
  if (Object.keys(details).length > 0) return { ok: false, details };
  return {
    ok: true,
    value: {
      service, receiver: objectOf(s.receiver) ?? null, sender: objectOf(s.sender) ?? null, isReturn, parcels, targetPoint, sendingMethod, cod, insurance,
      reference, comments: textOf(s.comments) ?? null,
    },
  };
}

/** A dispatch order's form (shipx-php-sdk `DispatchOrderForm`): shipment ids and the address the courier comes to. */
export function checkDispatchOrder(body: unknown): Checked<{ shipments: number[]; comment: string | null; address: Record<string, unknown> }> {
  const details: Details = {};
  const d = objectOf(body);
  const shipments = Array.isArray(d?.shipments) ? d.shipments : [];
  if (shipments.length === 0 || !shipments.every((id) => Number.isInteger(id))) details.shipments = ['invalid'];
  const address = objectOf(d?.address);
  if (!address) details.address = ['required'];
  else for (const field of ['street', 'building_number', 'city', 'post_code', 'country_code']) if (!textOf(address[field])) add(details, ['address', field], 'required');
  for (const field of ['name', 'phone', 'email']) if (!textOf(d?.[field])) details[field] = ['required'];
  if (Object.keys(details).length > 0) return { ok: false, details };
  return { ok: true, value: { shipments: shipments as number[], comment: textOf(d!.comment) ?? null, address: address! } };
}
