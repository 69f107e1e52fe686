import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Option, type Command } from 'commander';
import { PICKUP_POINT_TYPES } from '../carriers/types.js';
import { isLabelFormat, LABEL_FORMATS } from '../domain/labels.js';
import { splitFullName } from '../domain/names.js';
import { usualCurrency } from '../domain/reference-data.js';
import { configPath } from '../paths.js';
import type { Address, Contact } from './api-types.js';
import { CliError, EXIT } from './exit-codes.js';
import { collect } from './output.js';

/** The creation body of `POST /v1/shipments` while `packdesk ship` assembles it: loose JSON until the API judges it. */
export type Json = Record<string, unknown>;

/** The sender of every shipment from this desk: `sender_contact` and `origin_address`. */
export interface Sender {
  contact: Contact;
  address: Address;
}

/** The flags of a shipment's recipient, address, parcels and cash on delivery: `ship`'s, and `shipments update`'s. */
export interface RecipientFlags {
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
  /** The carrier's id of a pickup point or locker to deliver to. */
  point?: string;
  pointType?: string;
  /** A JSON file (or - for stdin) with the customs declaration. */
  customsJson?: string;
  return?: boolean;
}

export interface ShipFlags extends RecipientFlags {
  fromJson?: string;
  channel?: string;
  format?: string;
  reference?: string;
  senderJson?: string;
  station?: string;
  out?: string;
  wait: string;
  allowDuplicateReference?: boolean;
  json?: boolean;
}

/** Text flags that set one field of the recipient's contact or address: the flag, its option key, and the field. */
const TEXT_FIELD_FLAGS = [
  { flag: '--recipient-company', key: 'recipientCompany', field: 'recipient_contact.company_name' },
  { flag: '--recipient-email', key: 'recipientEmail', field: 'recipient_contact.email_address' },
  { flag: '--recipient-phone', key: 'recipientPhone', field: 'recipient_contact.phone_number' },
  { flag: '--street', key: 'street', field: 'destination_address.street_name' },
  { flag: '--house-number', key: 'houseNumber', field: 'destination_address.house_number' },
  { flag: '--city', key: 'city', field: 'destination_address.city_name' },
  { flag: '--postal-code', key: 'postalCode', field: 'destination_address.postal_code' },
] as const satisfies readonly { flag: string; key: keyof RecipientFlags; field: string }[];

/** The flag that sets a field the API or a carrier named (`destination_address.postal_code` → `--postal-code`). */
export function flagOfField(path: string): string | undefined {
  if (/^recipient_contact\.(first_name|last_name|name)$/.test(path)) return '--recipient-name';
  if (path === 'destination_address.country_code') return '--country';
  if (path.startsWith('parcels')) return '--parcel';
  if (path.startsWith('cash_on_delivery')) return path.endsWith('currency') ? '--cod-currency' : '--cod';
  if (path.startsWith('pickup_point')) return path.endsWith('.type') ? '--point-type' : '--point';
  if (path.startsWith('customs')) return '--customs-json';
  if (path === 'return') return '--return';
  return TEXT_FIELD_FLAGS.find((f) => f.field === path)?.flag;
}

/** Adds the recipient, address, point, parcel and COD flags to a command. */
export function addRecipientFlags(command: Command): Command {
  return command
    .option('--recipient-name <name>', 'recipient "First Last"')
    .option('--recipient-company <name>', 'recipient company')
    .option('--recipient-email <email>', 'recipient e-mail')
    .option('--recipient-phone <phone>', 'recipient phone: international (+420 602 333 444), or national for the destination country (602 333 444)')
    .option('--street <street>', 'destination street')
    .option('--house-number <number>', 'destination house number')
    .option('--city <city>', 'destination city')
    .option('--postal-code <code>', 'destination postal code')
    .option('--country <code>', 'destination country, ISO 3166-1 alpha-2 (default CZ)')
    .option('--point <id>', "deliver to this pickup point or locker of the channel's carrier (`packdesk points search`); the address flags may then be left out: the point's address is the destination")
    .addOption(new Option('--point-type <type>', "the point's type, checked against the point").choices(PICKUP_POINT_TYPES))
    .option('--parcel <KGxLxWxH>', 'a parcel: weight in kg x length x width x height in cm, e.g. 2.5x30x20x10 or 2,5x30x20x10; repeat for each', collect)
    .option('--cod <amount>', 'cash on delivery amount, e.g. 1249.90 or "1 249,90"')
    .option('--cod-currency <code>', 'cash on delivery currency (default: that of the destination country, e.g. CZK)')
    .option('--customs-json <file>', 'the customs declaration as JSON ({"contents_type", "items": [{"description", "hs_code", "quantity", "unit_value", "unit_weight", "origin_country"}] …}; - for stdin): required where the route crosses a customs border')
    .option('--return', "make the return label too, for the box: the carrier's return shipment, once this one is created");
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
  layRecipientFlags(body, o);
  if (o.senderJson !== undefined) applySender(body, readSender(o.senderJson, '--sender-json'));
  return body;
}

/**
 * Lays the recipient, address, parcel and COD flags over `body` (its recipient_contact and destination_address
 * keep what the flags leave alone) and answers the top-level keys they set.
 */
export function layRecipientFlags(body: Json, o: RecipientFlags): string[] {
  const set = new Set<string>();
  const groups: Record<string, Json> = { recipient_contact: objectAt(body, 'recipient_contact'), destination_address: objectAt(body, 'destination_address') };
  const assign = (path: string, value: unknown) => {
    const [group, field] = path.split('.') as [string, string];
    groups[group]![field] = value;
    set.add(group);
  };
  if (o.recipientName !== undefined) {
    delete groups.recipient_contact!.first_name;
    delete groups.recipient_contact!.last_name;
    for (const [field, value] of Object.entries(splitFullName(o.recipientName))) assign(`recipient_contact.${field}`, value);
  }
  for (const { key, field } of TEXT_FIELD_FLAGS) if (o[key] !== undefined) assign(field, o[key]);
  if (o.country !== undefined) assign('destination_address.country_code', o.country.toUpperCase());
  for (const group of set) body[group] = groups[group];

  const put = (key: string, value: unknown) => {
    body[key] = value;
    set.add(key);
  };
  if (o.parcel?.length) put('parcels', o.parcel.map((p) => parseParcel(p)));
  if (o.cod !== undefined) put('cash_on_delivery_amount', parseCodAmount(o.cod));
  if (o.codCurrency !== undefined) put('cash_on_delivery_currency', o.codCurrency.toUpperCase());
  if (o.pointType !== undefined && o.point === undefined) throw new CliError('--point-type goes with --point ID', EXIT.usage);
  if (o.point !== undefined) put('pickup_point', { provider_point_id: o.point, ...(o.pointType !== undefined ? { type: o.pointType } : {}) });
  if (o.customsJson !== undefined) put('customs', readJsonObject(o.customsJson, '--customs-json'));
  if (o.return) put('return', true);
  return [...set];
}

/** Whether the body goes to a pickup point, whose address the destination may then be. */
export const toPoint = (body: Json): boolean => isObject(body.pickup_point);

/** Whether an address has anything but its country. */
const hasPlace = (address: Json): boolean => Object.entries(address).some(([key, value]) => key !== 'country_code' && filled(value));

/**
 * Fills what the unattended form leaves to defaults: country CZ, the COD currency of the country (the station gives
 * the label format). To a point with no address given, the destination is the point's: the country only picks the currency.
 */
export function applyDefaults(body: Json): void {
  const address = objectAt(body, 'destination_address');
  const country = filled(address.country_code) ? address.country_code : DEFAULT_COUNTRY;
  if (!toPoint(body) || hasPlace(address)) body.destination_address = { ...address, country_code: country };
  else delete body.destination_address;
  if (filled(body.cash_on_delivery_amount) && !filled(body.cash_on_delivery_currency)) {
    const currency = usualCurrency(country);
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

/**
 * What the interactive form would have to ask for (the API judges the values themselves); the station may give the
 * channel, a pickup point the address.
 */
export function missingForShipment(body: Json, stationChannel: string | null): string[] {
  const contact = objectAt(body, 'recipient_contact');
  const address = objectAt(body, 'destination_address');
  const missing: string[] = [];
  if (!filled(body.shipping_channel_id) && !stationChannel) missing.push('channel');
  if (!filled(contact.company_name) && !filled(contact.last_name)) missing.push('recipient name');
  if (!filled(contact.email_address)) missing.push('recipient e-mail');
  if (!filled(contact.phone_number)) missing.push('recipient phone');
  if (!toPoint(body)) for (const key of ['street_name', 'house_number', 'city_name', 'postal_code']) if (!filled(address[key])) missing.push(key);
  if (!Array.isArray(body.parcels) || body.parcels.length === 0) missing.push('parcels');
  return missing;
}

/**
 * `$XDG_CONFIG_HOME/packdesk/sender.json` (default `~/.config/packdesk/sender.json`), beside the CLI config: where
 * `packdesk ship` kept its sender before stations had settings, now read once to move it to the daemon.
 */
export function senderPath(): string {
  return join(dirname(configPath()), 'sender.json');
}

export function readSender(file: string, flag: string): Sender {
  const parsed = readJsonObject(file, flag);
  if (!isObject(parsed.contact) || !isObject(parsed.address)) {
    throw new CliError(`${flag} ${file} must hold {"contact": {...}, "address": {...}} (sender_contact and origin_address)`, EXIT.usage);
  }
  return { contact: parsed.contact as unknown as Contact, address: parsed.address as unknown as Address };
}

