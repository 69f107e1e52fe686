import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { expect } from 'vitest';
import type { TestAccount } from './harness.js';

/** Order files as ERP systems write them, with the default column names (API field paths flattened with `_`). */

export const SENDER_COLUMNS: Record<string, string> = {
  sender_contact_company_name: 'Sklad Praha s.r.o.', sender_contact_email_address: 'sklad@example.cz', sender_contact_phone_number: '+420601111222',
  origin_address_street_name: 'Skladová', origin_address_house_number: '12', origin_address_city_name: 'Praha',
  origin_address_postal_code: '11000', origin_address_country_code: 'CZ',
};

export const ORDER_COLUMNS = [
  'reference_number', 'recipient_contact_first_name', 'recipient_contact_last_name', 'recipient_contact_email_address',
  'recipient_contact_phone_number', 'destination_address_street_name', 'destination_address_house_number',
  'destination_address_city_name', 'destination_address_postal_code', 'destination_address_country_code',
  'parcel_weight_amount', 'parcel_length_dimension', 'parcel_width_dimension', 'parcel_height_dimension',
  'cash_on_delivery_amount', 'cash_on_delivery_currency', ...Object.keys(SENDER_COLUMNS),
];

export type OrderRow = Record<string, string | number>;

/** A valid one-parcel order to Brno; override what a story needs. */
export function orderRow(reference: string, overrides: OrderRow = {}): OrderRow {
  return {
    reference_number: reference, recipient_contact_first_name: 'Jana', recipient_contact_last_name: 'Nováková',
    recipient_contact_email_address: 'jana@example.cz', recipient_contact_phone_number: '+420602333444',
    destination_address_street_name: 'Údolní', destination_address_house_number: '5', destination_address_city_name: 'Brno',
    destination_address_postal_code: '60200', destination_address_country_code: 'CZ',
    parcel_weight_amount: 1.5, parcel_length_dimension: 30, parcel_width_dimension: 20, parcel_height_dimension: 10,
    cash_on_delivery_amount: '', cash_on_delivery_currency: '',
    ...SENDER_COLUMNS, ...overrides,
  };
}

function cell(value: string | number, delimiter: string, decimalComma: boolean): string {
  let text = String(value);
  if (decimalComma && typeof value === 'number') text = text.replace('.', ',');
  return text.includes(delimiter) || text.includes('"') || /[\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvText(rows: OrderRow[], options: { delimiter?: string; decimalComma?: boolean; columns?: string[]; eol?: string } = {}): string {
  const delimiter = options.delimiter ?? ',';
  const columns = options.columns ?? ORDER_COLUMNS;
  const eol = options.eol ?? '\r\n';
  const lines = [columns.join(delimiter), ...rows.map((r) => columns.map((c) => cell(r[c] ?? '', delimiter, options.decimalComma ?? false)).join(delimiter))];
  return lines.join(eol) + eol;
}

/** Parses a result or errors file in the encoding it was written in. */
export function readCsvFile(path: string, encoding = 'utf-8'): Record<string, string>[] {
  const text = iconv.decode(readFileSync(path), encoding).replace(/^\uFEFF/, '');
  const delimiter = text.split(/\r?\n/)[0]!.includes(';') ? ';' : ',';
  return parse(text, { columns: true, delimiter }) as Record<string, string>[];
}

export function filesIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => !n.startsWith('.')).sort() : [];
}

export interface ImportRecord {
  id: string;
  watched_folder_id: string | null;
  file_name: string;
  sha256: string;
  rows: number;
  rows_processed: number;
  shipments_created: number;
  orders_already_imported: number;
  failed_rows: number;
  status: string;
  result_path: string | null;
  errors_path: string | null;
  finished_at: string | null;
}

/** Waits until the account has `count` finished imports of a folder (newest first; one test clock: pick them by name or id). */
export async function finishedImports(account: TestAccount, folderId: string, count: number, timeoutMs = 25_000): Promise<ImportRecord[]> {
  const deadline = Date.now() + timeoutMs;
  let last: ImportRecord[] = [];
  while (Date.now() < deadline) {
    const res = await account.request('GET', `/v1/imports?watched_folder_id=${folderId}&per_page=100`);
    last = res.json().data as ImportRecord[];
    if (last.length >= count && last.every((i) => i.status !== 'processing')) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect.fail(`expected ${count} finished imports of ${folderId}, have ${JSON.stringify(last, null, 1)}`);
}
