import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isLabelFormat, LABEL_FORMATS } from '../domain/labels.js';
import { splitFullName } from '../domain/names.js';
import { usualCurrency } from '../domain/reference-data.js';
import { configPath } from '../paths.js';
import { CliError, EXIT } from './exit-codes.js';
import type { AddressView, ContactView } from './shipments.js';

/** The creation body of `POST /v1/shipments` while `packdesk ship` assembles it: loose JSON until the API judges it. */
export type Json = Record<string, unknown>;

/** The sender of every shipment from this desk: `sender_contact` and `origin_address`. */
export interface Sender {
  contact: ContactView;
  address: AddressView;
}

export interface ShipFlags {
  fromJson?: string;
  channel?: string;
  format?: string;
  reference?: string;
  recipientName?: string;
  recipientCompany?: string;
  recipientEmail?: string;
  recipientPhone?: string;
  street?: string;
  houseNumber?: string;
  city?: string;
  postalCode?: string;
  country?: string;
  /** Repeated `--parcel`; absent when none was given. */
  parcel?: string[];
  cod?: string;
  codCurrency?: string;
  senderJson?: string;
  out?: string;
  wait: string;
  allowDuplicateReference?: boolean;
  json?: boolean;
}

export const DEFAULT_COUNTRY = 'CZ';

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const objectAt = (body: Json, key: string): Json => (isObject(body[key]) ? { ...(body[key] as Json) } : {});
const filled = (v: unknown): boolean => typeof v === 'string' ? v.trim() !== '' : v !== undefined && v !== null;

/** A JSON object from a file, or from stdin for `-`. */
export function readJsonObject(file: string, flag: string): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file === '-' ? 0 : file, 'utf8'));
  } catch (err) {
    throw new CliError(`${flag} ${file}: ${(err as Error).message}`, EXIT.usage);
  }
  if (!isObject(parsed)) throw new CliError(`${flag} ${file} must hold a JSON object`, EXIT.usage);
  return parsed;
}

/** `WEIGHTxLxWxH` in kg and cm, e.g. `2.5x30x20x10` (also with `×` or `*`, and a decimal comma). */
export function parseParcel(text: string, label = '--parcel'): Json {
  const parts = text.trim().split(/\s*[x×X*]\s*/).map((p) => Number(p.replace(',', '.')));
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n) || n <= 0)) {
    throw new CliError(`${label} must be WEIGHTxLENGTHxWIDTHxHEIGHT in kg and cm, all above 0 (e.g. 2.5x30x20x10), not "${text}"`, EXIT.usage);
  }
  const [weight, length, width, height] = parts as [number, number, number, number];
  return { weight_amount: weight, weight_unit: 'KG', length_dimension: length, width_dimension: width, height_dimension: height, dimension_unit: 'CM' };
}

/** Digits in groups of three apart (`1 249`, also with a no-break or narrow space), or not apart; then 1-2 decimals after `,` or `.`. */
const AMOUNT = /^(?:\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+)(?:[.,]\d{1,2})?$/;

/** A money amount as people type it: `1249.90`, `1 249,90`, `450`; above 0, at most 2 decimals. */
export function parseCodAmount(text: string, label = '--cod'): number {
  const trimmed = text.trim();
  const n = Number(trimmed.replace(/[ \u00a0\u202f]/g, '').replace(',', '.'));
  if (!AMOUNT.test(trimmed) || !(n > 0)) {
    throw new CliError(`${label} must be an amount above 0 with at most 2 decimals, e.g. 1249.90 or 1 249,90, not "${text}"`, EXIT.usage);
  }
  return n;
}

/** The body from `--from-json` (if any) with every given flag laid over it. */
export function bodyFromFlags(o: ShipFlags): Json {
  const body: Json = o.fromJson ? readJsonObject(o.fromJson, '--from-json') : {};
  if (o.channel !== undefined) body.shipping_channel_id = o.channel;
  if (o.format !== undefined) {
    const format = o.format.toLowerCase();
    if (!isLabelFormat(format)) throw new CliError(`--format must be one of ${LABEL_FORMATS.join(', ')}`, EXIT.usage);
    body.label_format = format;
  }
  if (o.reference !== undefined) body.reference_number = o.reference;

  const contact = objectAt(body, 'recipient_contact');
  if (o.recipientName !== undefined) {
    delete contact.first_name;
    delete contact.last_name;
    Object.assign(contact, splitFullName(o.recipientName));
  }
  if (o.recipientCompany !== undefined) contact.company_name = o.recipientCompany;
  if (o.recipientEmail !== undefined) contact.email_address = o.recipientEmail;
  if (o.recipientPhone !== undefined) contact.phone_number = o.recipientPhone;
  if (Object.keys(contact).length > 0) body.recipient_contact = contact;

  const address = objectAt(body, 'destination_address');
  if (o.street !== undefined) address.street_name = o.street;
  if (o.houseNumber !== undefined) address.house_number = o.houseNumber;
  if (o.city !== undefined) address.city_name = o.city;
  if (o.postalCode !== undefined) address.postal_code = o.postalCode;
  if (o.country !== undefined) address.country_code = o.country.toUpperCase();
  if (Object.keys(address).length > 0) body.destination_address = address;

  if (o.parcel?.length) body.parcels = o.parcel.map((p) => parseParcel(p));
  if (o.cod !== undefined) body.cash_on_delivery_amount = parseCodAmount(o.cod);
  if (o.codCurrency !== undefined) body.cash_on_delivery_currency = o.codCurrency.toUpperCase();
  if (o.senderJson !== undefined) applySender(body, readSender(o.senderJson, '--sender-json'));
  return body;
}

/** Fills what the unattended form leaves to defaults: label format pdf, country CZ, the COD currency of the country. */
export function applyDefaults(body: Json): void {
  body.label_format ??= 'pdf';
  const address = objectAt(body, 'destination_address');
  if (!filled(address.country_code)) {
    address.country_code = DEFAULT_COUNTRY;
    body.destination_address = address;
  }
  if (filled(body.cash_on_delivery_amount) && !filled(body.cash_on_delivery_currency)) {
    const currency = usualCurrency(address.country_code);
    if (currency) body.cash_on_delivery_currency = currency;
  }
}

export function hasSender(body: Json): boolean {
  return isObject(body.sender_contact) && isObject(body.origin_address);
}

export function applySender(body: Json, sender: Sender): void {
  body.sender_contact = sender.contact;
  body.origin_address = sender.address;
}

/** What the interactive form would have to ask for (the API judges the values themselves). */
export function missingForShipment(body: Json): string[] {
  const contact = objectAt(body, 'recipient_contact');
  const address = objectAt(body, 'destination_address');
  const missing: string[] = [];
  if (!filled(body.shipping_channel_id)) missing.push('channel');
  if (!filled(contact.company_name) && !filled(contact.last_name)) missing.push('recipient name');
  if (!filled(contact.email_address)) missing.push('recipient e-mail');
  if (!filled(contact.phone_number)) missing.push('recipient phone');
  for (const key of ['street_name', 'house_number', 'city_name', 'postal_code']) if (!filled(address[key])) missing.push(key);
  if (!Array.isArray(body.parcels) || body.parcels.length === 0) missing.push('parcels');
  return missing;
}

/** `$XDG_CONFIG_HOME/packdesk/sender.json` (default `~/.config/packdesk/sender.json`), beside the CLI config. */
export function senderPath(): string {
  return join(dirname(configPath()), 'sender.json');
}

export function readSender(file: string, flag: string): Sender {
  const parsed = readJsonObject(file, flag);
  if (!isObject(parsed.contact) || !isObject(parsed.address)) {
    throw new CliError(`${flag} ${file} must hold {"contact": {...}, "address": {...}} (sender_contact and origin_address)`, EXIT.usage);
  }
  return { contact: parsed.contact as unknown as ContactView, address: parsed.address as unknown as AddressView };
}

/** The sender stored by an earlier interactive run, if any. */
export function storedSender(): Sender | undefined {
  const path = senderPath();
  return existsSync(path) ? readSender(path, 'stored sender') : undefined;
}

export function saveSender(sender: Sender): string {
  const path = senderPath();
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify(sender, null, 2) + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}
