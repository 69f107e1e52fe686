import type { Shipment } from '../api';
import type { WordKey } from '../i18n';
import { Field } from './parts';

/** A contact and an address as their inputs hold them (text), read from and sent as the API's records. */

export interface Party { company_name: string; first_name: string; last_name: string; email_address: string; phone_number: string }
export interface Address { street_name: string; house_number: string; apartment_number: string; city_name: string; postal_code: string; country_code: string }
type Contact = Shipment['recipient_contact'];
type AddressRecord = Shipment['destination_address'];

export const emptyParty = (): Party => ({ company_name: '', first_name: '', last_name: '', email_address: '', phone_number: '' });
export const emptyAddress = (country = 'CZ'): Address => ({ street_name: '', house_number: '', apartment_number: '', city_name: '', postal_code: '', country_code: country });

export const partyOf = (c: Partial<Contact> | null | undefined): Party => ({
  company_name: c?.company_name ?? '', first_name: c?.first_name ?? '', last_name: c?.last_name ?? '', email_address: c?.email_address ?? '', phone_number: c?.phone_number ?? '',
});
export const addressOf = (a: Partial<AddressRecord> | null | undefined, country = 'CZ'): Address => ({
  street_name: a?.street_name ?? '', house_number: a?.house_number ?? '', apartment_number: a?.apartment_number ?? '',
  city_name: a?.city_name ?? '', postal_code: a?.postal_code ?? '', country_code: a?.country_code ?? country,
});

/** The filled fields, trimmed: what the API reads (an empty house number is read from the street). */
function filled<T extends object>(value: T): Record<string, string> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v === 'string' && v.trim() !== '').map(([k, v]) => [k, (v as string).trim()]));
}
export const contactBody = (p: Party) => filled(p) as unknown as Contact;
export const addressBody = (a: Address) => filled(a) as unknown as AddressRecord;
/** null when nothing is filled in (a setting left to inherit). */
export const isBlank = (value: Party | Address) => Object.entries(value).every(([k, v]) => k === 'country_code' || v.trim() === '');

export const nameOf = (p: Party) => p.company_name.trim() || `${p.first_name} ${p.last_name}`.trim();

interface FieldsProps<T> {
  /** The field path's start: `recipient_contact`, `sender_contact`, `destination_address`. */
  prefix: string;
  value: T;
  onChange: (next: T) => void;
  errors: Record<string, string[]>;
  disabled?: boolean;
}

function inputs<T extends object>({ prefix, value, onChange, errors, disabled }: FieldsProps<T>) {
  return (key: keyof T & string, label: WordKey, attributes: Record<string, unknown> = {}, short = false) => (
    <Field label={label} path={`${prefix}.${key}`} errors={errors} short={short}>
      <input
        name={`${prefix}.${key}`} value={value[key] as string} disabled={disabled} {...attributes}
        onInput={(e) => onChange({ ...value, [key]: key === 'country_code' ? e.currentTarget.value.toUpperCase() : e.currentTarget.value })}
      />
    </Field>
  );
}

export function PartyFields(props: FieldsProps<Party>) {
  const input = inputs(props);
  return (
    <>
      <div class="row">{input('first_name', 'ship.firstName')}{input('last_name', 'ship.lastName')}{input('company_name', 'ship.company')}</div>
      <div class="row">{input('email_address', 'ship.email', { type: 'email' })}{input('phone_number', 'ship.phone', { type: 'tel' })}</div>
    </>
  );
}

export function AddressFields(props: FieldsProps<Address>) {
  const input = inputs(props);
  return (
    <>
      <div class="row">{input('street_name', 'ship.street')}{input('house_number', 'ship.house', {}, true)}{input('apartment_number', 'ship.apartment', {}, true)}</div>
      <div class="row">{input('city_name', 'ship.city')}{input('postal_code', 'ship.postal', {}, true)}{input('country_code', 'ship.country', { maxLength: 2 }, true)}</div>
    </>
  );
}
