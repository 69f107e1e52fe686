import { splitFullName } from '../domain/names.js';
import { parsePhone } from '../domain/phones.js';
import { usualCurrency } from '../domain/reference-data.js';
import { MAX_PARCELS } from '../domain/shipment-input.js';
import type { ApiClient, Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { formatMoney } from './output.js';
import type { Channel, Provider, StationView } from './api-types.js';
import { channelProduct, fetchProviders, productsOf } from './product-names.js';
import {
  DEFAULT_COUNTRY, isObject, parseCodAmount, parseParcel, toPoint, type Json, type Sender,
} from './ship-body.js';

/** The questions of `packdesk ship` on a terminal: only what the flags did not already give. */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Validate = (text: string) => true | string;

const required: Validate = (text) => (text.trim() === '' ? 'required' : true);
const email: Validate = (text) => (EMAIL.test(text.trim()) ? true : 'an e-mail address, e.g. name@example.cz');
const country: Validate = (text) => (/^[A-Za-z]{2}$/.test(text.trim()) ? true : 'a two-letter country code, e.g. CZ');
const usageMessage = (fn: () => unknown): true | string => {
  try {
    fn();
    return true;
  } catch (err) {
    return (err as Error).message;
  }
};

const asObject = (v: unknown): Json => (isObject(v) ? { ...v } : {});
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

async function prompts() {
  return import('@inquirer/prompts');
}

/** Asks for a contact and an address (the sender's or the recipient's), keeping what is already known. */
async function askContact(who: string, given: Json, companyFirst: boolean): Promise<Json> {
  const { input } = await prompts();
  const contact = { ...given };
  const hasName = text(contact.company_name) || text(contact.last_name);
  if (!hasName) {
    const askCompany = async (mandatory: boolean) => (await input({
      message: `${who} company${mandatory ? '' : ' (optional)'}`, validate: mandatory ? required : undefined,
    })).trim();
    const askPerson = async (mandatory: boolean) => (await input({
      message: `${who} name, First Last${mandatory ? '' : ' (optional)'}`, validate: mandatory ? required : undefined,
    })).trim();
    if (companyFirst) {
      const company = await askCompany(false);
      const person = await askPerson(company === '');
      if (company) contact.company_name = company;
      if (person) Object.assign(contact, splitFullName(person));
    } else {
      const person = await askPerson(false);
      const company = await askCompany(person === '');
      if (person) Object.assign(contact, splitFullName(person));
      if (company) contact.company_name = company;
    }
  }
  contact.email_address = text(contact.email_address) ?? (await input({ message: `${who} e-mail`, validate: email })).trim();
  contact.phone_number = text(contact.phone_number) ?? (await input({ message: `${who} phone (national for the address asked next, or international)`, validate: required })).trim();
  return contact;
}

async function askAddress(who: string, given: Json): Promise<Json> {
  const { input } = await prompts();
  const address = { ...given };
  address.street_name = text(address.street_name) ?? (await input({ message: `${who} street`, validate: required })).trim();
  address.house_number = text(address.house_number) ?? (await input({ message: `${who} house number`, validate: required })).trim();
  address.city_name = text(address.city_name) ?? (await input({ message: `${who} city`, validate: required })).trim();
  address.postal_code = text(address.postal_code) ?? (await input({ message: `${who} postal code`, validate: required })).trim();
  address.country_code = text(address.country_code)
    ?? (await input({ message: `${who} country`, default: DEFAULT_COUNTRY, validate: country })).trim().toUpperCase();
  return address;
}

/** The phone number is read for the address's country (see parsePhone); one that is no number there is asked again. */
async function completePhone(who: string, contact: Json, address: Json): Promise<void> {
  const given = text(contact.phone_number);
  if (!given) return;
  const country = text(address.country_code);
  const read = parsePhone(given, country);
  if (read.ok) {
    contact.phone_number = read.e164;
    return;
  }
  const { input } = await prompts();
  const again = await input({ message: `${who} phone (${read.message})`, validate: (t) => { const r = parsePhone(t, country); return r.ok || r.message; } });
  contact.phone_number = (parsePhone(again, country) as { e164: string }).e164;
}

/** The desk's sender, asked once; the caller stores it. */
export async function promptSender(): Promise<Sender> {
  process.stdout.write('No sender at this station yet: who sends these parcels? (asked once, then kept on the daemon for every station)\n');
  const contact = await askContact('Sender', {}, true);
  const address = await askAddress('Sender', {});
  await completePhone('Sender', contact, address);
  return { contact: contact as unknown as Sender['contact'], address: address as unknown as Sender['address'] };
}

/** `PPL (ppl, PRIV — PPL Parcel CZ Private)`: a channel as the packer picks it, with the product it ships. */
async function describeChannel(client: ApiClient, channel: Channel): Promise<string> {
  const product = channelProduct(channel.settings, await productsOf(client, channel.provider));
  return `${channel.name} (${channel.provider}${product ? `, ${product}` : ''})`;
}

/** The active channels to choose from, the station's first and chosen by default. */
async function pickChannel(client: ApiClient, stationChannel: string | null): Promise<Channel> {
  const { select } = await prompts();
  const { body } = await client.get<Page<Channel>>('/v1/shipping-channels?status=active&per_page=100');
  if (body.data.length === 0) throw new CliError('no active shipping channel: add one with `packdesk channels add`', EXIT.failure);
  const choices = await Promise.all(body.data.map(async (c) => ({ value: c.id, name: await describeChannel(client, c), description: c.id })));
  const id = await select({
    message: 'Shipping channel', choices, default: body.data.some((c) => c.id === stationChannel) ? stationChannel! : undefined,
  });
  return body.data.find((c) => c.id === id)!;
}

async function askParcels(): Promise<Json[]> {
  const { input } = await prompts();
  const count = Number(await input({
    message: 'How many parcels?', default: '1',
    validate: (t) => (/^\d+$/.test(t.trim()) && Number(t) >= 1 && Number(t) <= MAX_PARCELS ? true : `a whole number from 1 to ${MAX_PARCELS}`),
  }));
  const parcels: Json[] = [];
  let weight = '1';
  let dims = '30x20x10';
  for (let i = 1; i <= count; i++) {
    const label = count > 1 ? `Parcel ${i}: ` : '';
    weight = (await input({
      message: `${label}weight in kg`, default: weight,
      validate: (t) => usageMessage(() => parseParcel(`${t}x1x1x1`, 'the weight')),
    })).trim();
    dims = (await input({
      message: `${label}length × width × height in cm`, default: dims,
      validate: (t) => usageMessage(() => parseParcel(`1x${t}`, 'the dimensions')),
    })).trim();
    parcels.push(parseParcel(`${weight}x${dims}`));
  }
  return parcels;
}

/** Which flags of the form were given explicitly (so their question is skipped even when the value is empty). */
export interface GivenFlags {
  format: boolean;
  cod: boolean;
}

/** The first question of `packdesk ship` on a terminal: the reference the packer scans or types (optional). */
export async function promptReference(): Promise<string | undefined> {
  const { input } = await prompts();
  return (await input({ message: 'Reference, e.g. the order number: scan or type it (optional)' })).trim() || undefined;
}

/** A creation body completed on a terminal, and the channel it ships with as people read it. */
export interface PromptedShipment {
  body: Json;
  channel: string;
}

/**
 * Completes a creation body on a terminal: channel and label format (the station's by default), recipient, address
 * (none to a pickup point: the point's is the destination), parcels and COD.
 */
export async function promptShipment(client: ApiClient, start: Json, station: StationView, given: GivenFlags): Promise<PromptedShipment> {
  const { confirm, input, select } = await prompts();
  const body: Json = { ...start };
  const channelId = text(body.shipping_channel_id);
  const channel = channelId
    ? (await client.get<{ data: Channel }>(`/v1/shipping-channels/${encodeURIComponent(channelId)}`)).body.data
    : await pickChannel(client, station.effective.shipping_channel_id);
  body.shipping_channel_id = channel.id;
  const provider: Provider | undefined = (await fetchProviders(client)).find((p) => p.code === channel.provider);

  if (!given.format && body.label_format === undefined) {
    const formats = provider?.label_formats.length ? provider.label_formats : ['pdf'];
    const preferred = formats.includes(station.effective.label_format) ? station.effective.label_format : formats.includes('pdf') ? 'pdf' : formats[0];
    body.label_format = formats.length === 1 ? formats[0] : await select({
      message: 'Label format', choices: formats.map((f) => ({ value: f })), default: preferred,
    });
  }

  const recipient = await askContact('Recipient', asObject(body.recipient_contact), false);
  const destination = toPoint(body) ? asObject(body.destination_address) : await askAddress('Recipient', asObject(body.destination_address));
  await completePhone('Recipient', recipient, { country_code: DEFAULT_COUNTRY, ...destination });
  body.recipient_contact = recipient;
  if (Object.keys(destination).length > 0) body.destination_address = destination;
  if (!Array.isArray(body.parcels) || body.parcels.length === 0) body.parcels = await askParcels();

  if (!given.cod && body.cash_on_delivery_amount == null && provider?.cash_on_delivery !== false) {
    if (await confirm({ message: 'Cash on delivery?', default: false })) {
      body.cash_on_delivery_amount = parseCodAmount(await input({
        message: 'COD amount, e.g. 1 249,90', validate: (t) => usageMessage(() => parseCodAmount(t, 'the amount')),
      }));
      const fallback = usualCurrency(asObject(body.destination_address).country_code) ?? 'CZK';
      body.cash_on_delivery_currency = (await input({
        message: 'COD currency', default: text(body.cash_on_delivery_currency) ?? fallback,
        validate: (t) => (/^[A-Za-z]{3}$/.test(t.trim()) ? true : 'a three-letter currency code, e.g. CZK'),
      })).trim().toUpperCase();
    }
  }
  return { body, channel: await describeChannel(client, channel) };
}

/** A few lines that say what is about to be created, then a yes/no. */
export async function confirmShipment(body: Json, channel: string, parcelsLine: string): Promise<boolean> {
  const { confirm } = await prompts();
  const contact = asObject(body.recipient_contact);
  const address = asObject(body.destination_address);
  const who = [text(contact.company_name), [contact.first_name, contact.last_name].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const cod = typeof body.cash_on_delivery_amount === 'number'
    ? `, COD ${formatMoney(body.cash_on_delivery_amount, text(body.cash_on_delivery_currency))}` : '';
  const door = text(address.street_name) ? `${String(address.street_name)} ${String(address.house_number)}, ${String(address.postal_code)} ${String(address.city_name)}, ${String(address.country_code)}` : '';
  const where = toPoint(body) ? [`pickup point ${String(asObject(body.pickup_point).provider_point_id)}`, door].filter(Boolean).join(', recipient at ') : door;
  process.stdout.write(
    `\nTo:      ${who}${text(contact.phone_number) ? ` (${String(contact.phone_number)})` : ''}, ${where}\n`
    + `Parcels: ${parcelsLine}${cod}\nChannel: ${channel}\n`
    + `Label:   ${String(body.label_format)}${body.reference_number ? `, reference ${String(body.reference_number)}` : ''}\n\n`,
  );
  return confirm({ message: 'Create the shipment?', default: true });
}
