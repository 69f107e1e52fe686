import type { FieldErrorCollector } from './errors.js';
import { namesFromFullName } from './names.js';
import { parsePhone } from './phones.js';
import { checkPostalCode } from './postal-codes.js';
import { splitStreet } from './street.js';
import { isObject, isText, type JsonObject } from './values.js';

/**
 * The sender and the recipient of a shipment as people write them, made into what carriers take: a full name split
 * into first and last name, a phone number of the address's country in E.164, a street that carries its house number
 * split, a postal code checked and in the carriers' form. The API's creation rules run this first; imports, the CLI
 * and the desk send what people wrote and get the same answers. Problems go to `errors` at the field's path.
 */
export function normaliseParties<T extends object>(body: T, errors: FieldErrorCollector): T {
  const out = { ...body } as Record<string, unknown>;
  for (const [contactKey, addressKey] of [['sender_contact', 'origin_address'], ['recipient_contact', 'destination_address']] as const) {
    const address = out[addressKey];
    if (isObject(address)) out[addressKey] = normaliseAddress(address, addressKey, errors);
    const country = isObject(out[addressKey]) ? (out[addressKey] as Body).country_code : undefined;
    const contact = out[contactKey];
    if (isObject(contact)) out[contactKey] = normaliseContact(contact, typeof country === 'string' ? country : undefined, contactKey, errors);
  }
  return out as T;
}

type Body = JsonObject;

function normaliseContact(contact: Body, country: string | undefined, path: string, errors: FieldErrorCollector): Body {
  const { name, ...out } = contact;
  const split = namesFromFullName(out, name);
  if (split) Object.assign(out, split);
  if (typeof out.phone_number === 'string') {
    const phone = parsePhone(out.phone_number, country);
    if (phone.ok) out.phone_number = phone.e164;
    else errors.add(`${path}.phone_number`, phone.message);
  }
  return out;
}

function normaliseAddress(address: Body, path: string, errors: FieldErrorCollector): Body {
  const out: Body = { ...address };
  if (typeof out.country_code === 'string') out.country_code = out.country_code.trim().toUpperCase();
  const country = typeof out.country_code === 'string' ? out.country_code : '';
  if (!isText(out.house_number) && typeof out.street_name === 'string') {
    const parts = splitStreet(out.street_name, country);
    // a number alone (`č.p. 123`) is a house in a village without streets: the place names it
    Object.assign(out, parts, { street_name: parts.street_name || out.city_name });
    if (isText(address.apartment_number)) out.apartment_number = address.apartment_number;
  }
  if (!isText(out.house_number)) errors.add(`${path}.house_number`, 'is required: write it in house_number or after the street (Vinohradská 1234/56)');
  if (typeof out.postal_code === 'string' && country !== '') {
    const postal = checkPostalCode(out.postal_code, country);
    if (postal.ok) out.postal_code = postal.normalised;
    else errors.add(`${path}.postal_code`, postal.message);
  }
  return out;
}
