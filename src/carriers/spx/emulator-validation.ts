/**
 * How the SP Express emulator checks a courier order: the objects and keys of sp-express/php-sdk
 * `src/Objects/Input/*.php`, refused with the codes of `src/Enums/ErrorCodes.php`. The SDK publishes no rules
 * beyond the codes; which fields are required and the wording of `details` (Yii model errors) are inferred.
 */
import { COUNTRY_CODES } from '../../domain/reference-data.js';
import { SPX_PRODUCTS, type SpxProductCode } from './codes.js';

export interface SpxEmulatedAddress {
  name: string | null;
  company: string | null;
  address_line_1: string;
  address_line_2: string | null;
  city: string;
  zip_code: string;
  country: string;
  tel: string;
  email: string | null;
}

export interface SpxEmulatedOrder {
  package: { weight: number; size_l: number; size_w: number; size_d: number; content: string | null; ref: string | null; note1: string | null; note2: string | null };
  sender: SpxEmulatedAddress;
  receiver: SpxEmulatedAddress;
  number: number;
  cod: { amount: number; currency: string } | null;
  operator: string | null;
}

export interface SpxRefusal {
  error_code: number;
  desc: string;
  details: Record<string, string[]>;
}

export type SpxOrderCheck = { ok: true; order: SpxEmulatedOrder } | { ok: false; error: SpxRefusal };

const PACKAGE_KEYS = ['weight', 'size_l', 'size_w', 'size_d', 'value', 'value_currency', 'content', 'ref', 'note1', 'note2', 'is_documents'];
const ADDRESS_KEYS = ['name', 'company', 'address_line_1', 'address_line_2', 'city', 'zip_code', 'country', 'tel', 'email'];
const OPTION_KEYS: Record<SpxProductCode, string[]> = {
  'pre-routing': ['number', 'cod'],
  'non-routing': ['number', 'cod', 'cod_bank_account', 'cod_currency', 'with_return_order', 'additions', 'operator', 'delivery_point'],
};
const OPTIONS2_KEYS = ['print_server', 'problem_label', 'label_type', 'print_app_id'];
const CURRENCIES = ['PLN', 'EUR', 'GBP'];
const MAX_PACKAGES = 50;

/** A refusal in the making: the first group with errors answers. */
class Refused extends Error {
  constructor(readonly error: SpxRefusal) {
    super(error.desc);
  }
}

function refuse(error_code: number, desc: string, details: Record<string, string[]>): never {
  throw new Refused({ error_code, desc, details });
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function refuseUnknownKeys(value: Record<string, unknown>, known: readonly string[], code: number, desc: string): void {
  const unknown = Object.keys(value).filter((k) => !known.includes(k));
  if (unknown.length > 0) refuse(code, desc, Object.fromEntries(unknown.map((k) => [k, ['Unknown parameter.']])));
}

/** Yii's attribute label: `zip_code` → `Zip Code`. */
function labelOf(key: string): string {
  return key.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function positive(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

function checkPackage(body: Record<string, unknown>, product: SpxProductCode): SpxEmulatedOrder['package'] {
  const pkg = objectOf(body.package) ?? refuse(1100, 'Package invalid data', { package: ['Package cannot be blank.'] });
  refuseUnknownKeys(pkg, PACKAGE_KEYS, 1101, 'Package unknown parameter');
  const details: Record<string, string[]> = {};
  for (const key of ['weight', 'size_l', 'size_w', 'size_d']) if (positive(pkg[key]) === null) details[key] = [`${labelOf(key)} must be a number greater than 0.`];
  if (pkg.value !== undefined && pkg.value !== null && !(typeof pkg.value === 'number' && pkg.value >= 0)) details.value = ['Value must be a number.'];
  if (pkg.value_currency !== undefined && pkg.value_currency !== null && !CURRENCIES.includes(String(pkg.value_currency))) details.value_currency = ['Value Currency is invalid.'];
  if (Object.keys(details).length > 0) refuse(1100, 'Package invalid data', details);
  const limit = SPX_PRODUCTS[product].maxWeightKg;
  if ((pkg.weight as number) > limit) refuse(1110, 'Package too heavy', { weight: [`Weight must be no greater than ${limit} kg for ${product}.`] });
  return {
    weight: pkg.weight as number, size_l: pkg.size_l as number, size_w: pkg.size_w as number, size_d: pkg.size_d as number,
    content: text(pkg.content), ref: text(pkg.ref), note1: text(pkg.note1), note2: text(pkg.note2),
  };
}

/** Polish codes are `00-111`; a code of zeros exists nowhere. */
function zipProblem(zip: string, country: string): string | undefined {
  if (/^[0\s-]+$/.test(zip)) return `Zip Code ${zip} does not exist in ${country}.`;
  if (country === 'PL' && !/^\d{2}-?\d{3}$/.test(zip)) return `Zip Code ${zip} is not a Polish postal code (00-000).`;
  return undefined;
}

/** SDK names: 1200 sender / 1300 receiver invalid data, 1301 sender / 1201 receiver unknown parameter, 1302 / 1202 unknown country. */
function checkAddress(value: unknown, role: 'sender' | 'receiver'): SpxEmulatedAddress {
  const [invalid, unknownKey, unknownCountry] = role === 'sender' ? [1200, 1301, 1302] : [1300, 1201, 1202];
  const label = role === 'sender' ? 'Sender' : 'Receiver';
  const address = objectOf(value) ?? refuse(invalid, `${label} invalid data`, { [role]: [`${label} cannot be blank.`] });
  refuseUnknownKeys(address, ADDRESS_KEYS, unknownKey, `${label} unknown parameter`);
  const details: Record<string, string[]> = {};
  for (const key of ADDRESS_KEYS) {
    if (address[key] !== undefined && address[key] !== null && typeof address[key] !== 'string') details[key] = [`${labelOf(key)} must be a string.`];
  }
  const field = (key: string) => (typeof address[key] === 'string' ? text(address[key]) : null);
  if (!field('name') && !field('company')) details.name = ['Name or Company must be given.'];
  for (const key of ['address_line_1', 'city', 'zip_code', 'country', 'tel']) if (!field(key)) details[key] ??= [`${labelOf(key)} cannot be blank.`];
  const country = field('country') ?? '';
  if (country && !COUNTRY_CODES.has(country)) refuse(unknownCountry, `${label} unknown country`, { country: [`Unknown country ${country}.`] });
  const zip = field('zip_code');
  const zipError = zip && country ? zipProblem(zip, country) : undefined;
  if (zipError) details.zip_code = [zipError];
  const tel = field('tel');
  if (tel && !/^\+?[\d\s()-]{6,20}$/.test(tel)) details.tel = ['Tel is invalid.'];
  const email = field('email');
  if (email && !/^[^@\s]+@[^@\s]+$/.test(email)) details.email = ['Email is not a valid email address.'];
  if (Object.keys(details).length > 0) refuse(invalid, `${label} invalid data`, details);
  return {
    name: field('name'), company: field('company'), address_line_1: field('address_line_1')!, address_line_2: field('address_line_2'),
    city: field('city')!, zip_code: zip!, country, tel: tel!, email,
  };
}

function checkOptions(body: Record<string, unknown>, product: SpxProductCode, route: { from: string; to: string }): Pick<SpxEmulatedOrder, 'number' | 'cod' | 'operator'> {
  const options = body.options === undefined || body.options === null ? {} : objectOf(body.options) ?? refuse(1400, 'Options invalid data', { options: ['Options must be an object.'] });
  refuseUnknownKeys(options, OPTION_KEYS[product], 1401, 'Options unknown parameter');
  const number = options.number ?? 1;
  if (!Number.isInteger(number) || (number as number) < 1) refuse(1400, 'Options invalid data', { number: ['Number must be an integer of at least 1.'] });
  if ((number as number) > MAX_PACKAGES) refuse(1460, 'Too many packages', { number: [`At most ${MAX_PACKAGES} packages in one order.`] });
  const operator = text(options.operator);
  if (product === 'non-routing' && !operator) refuse(1450, 'Invalid operator', { operator: ['Operator cannot be blank.'] });
  if (options.additions !== undefined && options.additions !== null && !Array.isArray(options.additions)) refuse(1411, 'Additions invalid format', { additions: ['Additions must be an array.'] });
  if (options.cod === undefined || options.cod === null) return { number: number as number, cod: null, operator };
  const amount = positive(options.cod) ?? refuse(1420, 'COD invalid format', { cod: ['Cod must be a number greater than 0.'] });
  if (route.from !== 'PL' || route.to !== 'PL') refuse(1422, 'COD is available only on PL-PL route', {});
  const currency = options.cod_currency ?? 'PLN';
  if (currency !== 'PLN') refuse(1427, 'COD incorrect currency', { cod_currency: ['Cod Currency must be PLN on a PL-PL route.'] });
  if (options.cod_bank_account !== undefined && options.cod_bank_account !== null) {
    if (typeof options.cod_bank_account !== 'string') refuse(1423, 'COD bank account must be a string', { cod_bank_account: ['Cod Bank Account must be a string.'] });
    if (!/^(PL)?\d{26}$/.test(options.cod_bank_account.replace(/\s/g, ''))) refuse(1425, 'COD invalid bank account', { cod_bank_account: ['Cod Bank Account is not a Polish account number.'] });
  }
  return { number: number as number, cod: { amount, currency: 'PLN' }, operator };
}

/** The emulator renders PDF labels only; SP Express's PNG default is not emulated. */
function checkOptions2(body: Record<string, unknown>): void {
  const options2 = objectOf(body.options2) ?? {};
  refuseUnknownKeys(options2, OPTIONS2_KEYS, 1401, 'Options unknown parameter');
  if (options2.label_type !== 'PDF') refuse(1416, 'Invalid label type', { label_type: [`Label type ${String(options2.label_type ?? '(none)')} is not available; use PDF.`] });
}

/** A `create-pre-routing` / `create-non-routing` body → the order, or the refusal SP Express answers with. */
export function checkOrder(body: unknown, product: SpxProductCode): SpxOrderCheck {
  try {
    const root = objectOf(body) ?? refuse(1100, 'Package invalid data', { package: ['Package cannot be blank.'] });
    const pkg = checkPackage(root, product);
    const sender = checkAddress(root.sender, 'sender');
    const receiver = checkAddress(root.receiver, 'receiver');
    const options = checkOptions(root, product, { from: sender.country, to: receiver.country });
    checkOptions2(root);
    return { ok: true, order: { package: pkg, sender, receiver, ...options } };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, error: err.error };
    throw err;
  }
}
