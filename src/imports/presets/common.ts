import { COUNTRY_CODES, usualCurrency } from '../../domain/reference-data.js';
import type { DerivedValue, FileRow, XmlNode } from './types.js';

/** What the derivations of the presets give: import field → value with its column. */
export type DerivedFields = Partial<Record<string, DerivedValue>>;

/** Payment names that mean cash on delivery, as shops in packdesk's countries call it (cs, sk, pl, de, hu, en). */
const CASH_ON_DELIVERY = /dob[ií]rk|dobierk|pobrani|przy odbiorze|nachnahme|utánvét|cash on delivery|^cod$/i;

export function namesCashOnDelivery(payment: string): boolean {
  return CASH_ON_DELIVERY.test(payment.trim());
}

const plain = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/** Long forms shops write that the short common names of `Intl.DisplayNames` leave out. */
const LONG_NAMES: Readonly<Record<string, string>> = {
  'ceska republika': 'CZ', 'czech republic': 'CZ', 'slovenska republika': 'SK', 'slovak republic': 'SK',
  'rzeczpospolita polska': 'PL', 'bundesrepublik deutschland': 'DE', 'republik osterreich': 'AT',
};
/** Languages whose country names exports of packdesk's shops are written in. */
const NAME_LANGUAGES = ['cs', 'sk', 'pl', 'de', 'hu', 'en'];
let countriesByName: Map<string, string> | undefined;

/** A country as an export writes it: an ISO code (`CZ`), or its name in one of the shops' languages (`Česká republika`, `Slovensko`). */
export function countryCodeOf(written: string): string {
  const text = written.trim();
  if (COUNTRY_CODES.has(text.toUpperCase())) return text.toUpperCase();
  if (!countriesByName) {
    countriesByName = new Map(Object.entries(LONG_NAMES));
    for (const language of NAME_LANGUAGES) {
      const names = new Intl.DisplayNames([language], { type: 'region' });
      for (const code of COUNTRY_CODES) countriesByName.set(plain(names.of(code) ?? code), code);
    }
  }
  // a name no language knows goes on as written: the API's rules refuse it at its field
  return countriesByName.get(plain(text)) ?? text;
}

/** The value of the first of `columns` that the row fills. */
export function firstFilled(row: FileRow, columns: readonly (string | undefined)[]): DerivedValue | undefined {
  for (const column of columns) {
    if (column === undefined) continue;
    const text = row.value(column);
    if (text !== '') return { text, column };
  }
  return undefined;
}

/** The columns of one address block of an export (delivery or billing); each names the column holding that part. */
export interface AddressColumns {
  name?: string;
  firstName?: string;
  lastName?: string;
  company?: string;
  street: string;
  houseNumber?: string;
  city: string;
  postalCode: string;
  country?: string;
  phone?: string;
  email?: string;
}

const RECIPIENT: readonly [keyof AddressColumns, string][] = [
  ['name', 'recipient_contact_name'], ['firstName', 'recipient_contact_first_name'], ['lastName', 'recipient_contact_last_name'],
  ['company', 'recipient_contact_company_name'], ['street', 'destination_address_street_name'],
  ['houseNumber', 'destination_address_house_number'], ['city', 'destination_address_city_name'],
  ['postalCode', 'destination_address_postal_code'],
];

/** The import fields `recipientFrom` fills. */
export const RECIPIENT_FIELDS = [
  ...RECIPIENT.map(([, field]) => field), 'destination_address_country_code', 'recipient_contact_phone_number', 'recipient_contact_email_address',
] as const;

/**
 * The recipient of an order from the first of `blocks` (the delivery address before the billing one) that holds an
 * address: its name, company and address, never mixed with another block's. Phone and e-mail are the first a block has.
 */
export function recipientFrom(row: FileRow, blocks: readonly AddressColumns[]): DerivedFields {
  const block = blocks.find((b) => firstFilled(row, [b.street, b.city, b.postalCode])) ?? blocks[0]!;
  const fields: DerivedFields = {};
  for (const [part, field] of RECIPIENT) {
    const value = firstFilled(row, [block[part]]);
    if (value) fields[field] = value;
  }
  const country = firstFilled(row, [block.country]);
  if (country) fields.destination_address_country_code = { text: countryCodeOf(country.text), column: country.column };
  fields.recipient_contact_phone_number = firstFilled(row, blocks.map((b) => b.phone));
  fields.recipient_contact_email_address = firstFilled(row, blocks.map((b) => b.email));
  return fields;
}

/** The import fields `cashOnDelivery` fills. */
export const COD_FIELDS = ['cash_on_delivery_amount', 'cash_on_delivery_currency'] as const;

/**
 * Cash on delivery of an order that is paid so: `amount`, in `currency` when the export says it, else in the usual
 * currency of the destination country. Nothing for an order paid otherwise.
 */
export function cashOnDelivery(paidOnDelivery: boolean, amount: DerivedValue | undefined, currency: DerivedValue | undefined, country: DerivedValue | undefined): DerivedFields {
  if (!paidOnDelivery || !amount) return {};
  const usual = country && usualCurrency(country.text);
  return { cash_on_delivery_amount: amount, cash_on_delivery_currency: currency ?? (usual ? { text: usual, column: country.column } : undefined) };
}

/** A computed amount as text, without the float noise of sums (`0.1 + 0.2` → `0.3`). */
export function amountText(amount: number): string {
  return String(Number(amount.toFixed(6)));
}

/** An XML element's child by local name: the first when repeated, undefined when absent. */
export function child(node: XmlNode | XmlNode[] | undefined, name: string): XmlNode | undefined {
  const one = Array.isArray(node) ? node[0] : node;
  if (one === undefined || typeof one === 'string') return undefined;
  const found = one[name];
  return Array.isArray(found) ? found[0] : found;
}

/** Every child of that local name, in document order. */
export function children(node: XmlNode | undefined, name: string): XmlNode[] {
  if (node === undefined || typeof node === 'string') return [];
  const found = node[name];
  return found === undefined ? [] : Array.isArray(found) ? found : [found];
}

/** The local names of an element path as the schemas write it (`ord:orderHeader/ord:numberOrder` → orderHeader, numberOrder). */
export function localNames(path: string): string[] {
  return path.split('/').map((name) => name.slice(name.indexOf(':') + 1));
}

/** The text of the element at `path` (local names) under `node`, trimmed; '' when absent or not a text element. */
export function textAt(node: XmlNode | undefined, path: readonly string[]): string {
  let at: XmlNode | undefined = node;
  for (const name of path) at = child(at, name);
  return typeof at === 'string' ? at.trim() : '';
}
