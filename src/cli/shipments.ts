import { writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { ApiClient, type Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { formatMoney, printJson, printPageFooter, printRecord, printTable } from './output.js';
import { action, listPath } from './run.js';
import { registerShipmentPrintCommand } from './ship-print.js';

export type LabelFormat = 'pdf' | 'zpl' | 'epl';

export interface ContactView {
  company_name?: string;
  first_name?: string;
  last_name?: string;
  email_address: string;
  phone_number: string;
}

export interface AddressView {
  street_name: string;
  house_number: string;
  apartment_number?: string;
  city_name: string;
  postal_code: string;
  country_code: string;
}

export interface ShipmentSummary {
  id: string;
  reference_number: string | null;
  shipping_channel_id: string;
  provider_shipment_id: string | null;
  status: string;
  total_price: number | null;
  currency: string | null;
  created_at: string;
  updated_at: string;
}

export interface ParcelView {
  id: string;
  parcel_type: string;
  weight_amount: number;
  weight_unit: string;
  length_dimension: number;
  width_dimension: number;
  height_dimension: number;
  dimension_unit: string;
  tracking_number: string | null;
  tracking_status: string | null;
  tracking_url: string | null;
}

export interface ShipmentFailureView {
  message: string;
  errors: Record<string, string[]>;
  attempts: number;
  at: string;
}

/** The shipment record as `GET /v1/shipments/{id}` answers it. */
export interface Shipment extends ShipmentSummary {
  label_format: LabelFormat;
  shipping_date: string;
  is_international: boolean;
  cash_on_delivery_amount: number | null;
  cash_on_delivery_currency: string | null;
  product: string | null;
  sender_contact: ContactView;
  recipient_contact: ContactView;
  origin_address: AddressView;
  destination_address: AddressView;
  metadata: Record<string, unknown> | null;
  label_comment: string | null;
  enable_tracking: boolean;
  has_label: boolean;
  parcels: ParcelView[];
  total_parcels_count: number;
  failure: ShipmentFailureView | null;
  next_attempt_at: string | null;
  cancelled_at: string | null;
}

/** What `saveLabel` wrote. */
export interface SavedLabel {
  path: string;
  format: LabelFormat;
  pages: number;
  size: number;
}

export const shipmentPath = (id: string) => `/v1/shipments/${encodeURIComponent(id)}`;

/** `--wait N`: seconds, 0..30 (the API's cap). */
export function parseWait(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 30) throw new CliError('--wait must be a whole number of seconds from 0 to 30', EXIT.usage);
  return n;
}

export function contactName(c: ContactView): string {
  const person = [c.first_name, c.last_name].filter(Boolean).join(' ');
  return [c.company_name, person].filter(Boolean).join(', ');
}

export function addressLine(a: AddressView): string {
  const house = a.apartment_number ? `${a.house_number}/${a.apartment_number}` : a.house_number;
  return `${a.street_name} ${house}, ${a.postal_code} ${a.city_name}, ${a.country_code}`;
}

/** One line per field error, indented like the CLI's error output. */
export function fieldErrorLines(errors: Record<string, string[]>): string[] {
  return Object.entries(errors).map(([field, messages]) => `  ${field}: ${messages.join('; ')}`);
}

/** A creation that the carrier refused for good (not one that is still being retried). */
export function creationFailed(s: Shipment): boolean {
  return s.status === 'pending' && s.failure !== null && s.next_attempt_at === null;
}

function printShipment(s: Shipment): void {
  const cod = s.cash_on_delivery_amount != null ? formatMoney(s.cash_on_delivery_amount, s.cash_on_delivery_currency) : 'none';
  printRecord({
    id: s.id, reference: s.reference_number, status: s.status, channel: s.shipping_channel_id,
    'carrier id': s.provider_shipment_id, product: s.product, 'label format': s.label_format, 'has label': s.has_label ? 'yes' : 'no',
    'shipping date': s.shipping_date, international: s.is_international ? 'yes' : 'no', COD: cod,
    ...(s.total_price != null ? { price: formatMoney(s.total_price, s.currency) } : {}),
    sender: `${contactName(s.sender_contact)} — ${addressLine(s.origin_address)}`,
    recipient: `${contactName(s.recipient_contact)} — ${addressLine(s.destination_address)}`,
    'recipient contact': `${s.recipient_contact.email_address}, ${s.recipient_contact.phone_number}`,
    tracking: s.enable_tracking ? 'on' : 'off',
    ...(s.label_comment ? { 'label comment': s.label_comment } : {}),
    ...(s.next_attempt_at ? { 'next attempt': s.next_attempt_at } : {}),
    ...(s.cancelled_at ? { cancelled: s.cancelled_at } : {}),
    created: s.created_at, updated: s.updated_at,
  });
  process.stdout.write('\nparcels\n');
  printTable(
    ['#', 'tracking number', 'tracking status', 'weight', 'dimensions'],
    s.parcels.map((p, i) => [
      i + 1, p.tracking_number ?? '-', p.tracking_status ?? '-', `${p.weight_amount} ${p.weight_unit}`,
      `${p.length_dimension}×${p.width_dimension}×${p.height_dimension} ${p.dimension_unit}`,
    ]),
  );
  if (s.failure) {
    const retrying = s.next_attempt_at ? ` (attempt ${s.failure.attempts}; retried at ${s.next_attempt_at})` : ` (attempt ${s.failure.attempts})`;
    process.stdout.write(`\nfailure: ${s.failure.message}${retrying}\n`);
    for (const line of fieldErrorLines(s.failure.errors)) process.stdout.write(`${line}\n`);
  }
}

const FORMAT_OF_MIME: Record<string, LabelFormat> = { 'application/pdf': 'pdf', 'application/zpl': 'zpl', 'application/epl': 'epl' };

/** The file name of a `Content-Disposition: attachment; filename="…"` header, without any directory part. */
function dispositionFileName(header: string | null): string | undefined {
  const match = /filename\*=UTF-8''([^";]+)/i.exec(header ?? '') ?? /filename="?([^";]+)"?/i.exec(header ?? '');
  if (!match) return undefined;
  const name = basename(decodeURIComponent(match[1]!.trim()));
  return name && name !== '.' && name !== '..' ? name : undefined;
}

/** Pages in a label file, counted the way the daemon counts them when it merges labels. */
async function countPages(format: LabelFormat, content: Buffer): Promise<number> {
  const { mergeLabels } = await import('../labels/index.js');
  try {
    return (await mergeLabels(format, [content])).pages;
  } catch {
    return 0;
  }
}

/**
 * Downloads the raw merged label of a shipment into `out` (default: the daemon's file name, `<reference or id>.<ext>`,
 * in the current directory).
 */
export async function saveLabel(client: ApiClient, id: string, options: { out?: string; a4?: boolean } = {}): Promise<SavedLabel> {
  const query = new URLSearchParams({ download: '1', ...(options.a4 ? { layout: 'a4' } : {}) });
  const res = await client.requestRaw('GET', `${shipmentPath(id)}/label?${query}`);
  const fileName = dispositionFileName(res.headers.get('content-disposition'));
  const mime = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const format = FORMAT_OF_MIME[mime] ?? (fileName?.split('.').pop()?.toLowerCase() as LabelFormat | undefined);
  if (format !== 'pdf' && format !== 'zpl' && format !== 'epl') {
    throw new CliError(`the daemon answered a label of an unknown type (${mime || 'no content type'})`, EXIT.failure);
  }
  const path = resolve(options.out ?? fileName ?? `${id}.${format}`);
  try {
    writeFileSync(path, res.body);
  } catch (err) {
    throw new CliError(`cannot write the label to ${path}: ${(err as Error).message}`, EXIT.failure);
  }
  return { path, format, pages: await countPages(format, res.body), size: res.body.length };
}

export function describeSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

interface ListOptions {
  status?: string;
  channel?: string;
  search?: string;
  page?: string;
  perPage?: string;
  json?: boolean;
}

/** `packdesk shipments …`: list, show, cancel, retry, label and delete shipments over the daemon's API. */
export function registerShipmentCommands(program: Command): void {
  const shipments = program.command('shipments').description('shipments: list, show, cancel, retry, label, print, delete');

  shipments.command('list')
    .description('list shipments, newest first')
    .option('--status <status>', 'only this status (pending, created, shipped, delivered, cancelled, returned)')
    .option('--channel <id>', 'only this shipping channel (ch_…)')
    .option('--search <text>', 'substring of the reference, the carrier id or a tracking number')
    .option('--page <n>', 'page number')
    .option('--per-page <n>', 'shipments per page (1-100)')
    .option('--json', 'print the whole API answer ({data, meta, links})')
    .action(action(async (o: ListOptions) => {
      const { body } = await ApiClient.fromConfig().get<Page<ShipmentSummary>>(listPath('/v1/shipments', { status: o.status, shipping_channel_id: o.channel, search: o.search }, o));
      if (o.json) {
        printJson(body);
        return;
      }
      printTable(
        ['id', 'reference', 'channel', 'carrier id', 'status', 'created'],
        body.data.map((s) => [s.id, s.reference_number, s.shipping_channel_id, s.provider_shipment_id, s.status, s.created_at]),
      );
      printPageFooter(body.meta);
    }));

  shipments.command('show')
    .description('show one shipment with its parcels and tracking numbers')
    .argument('<id>', 'shipment id (sh_…)')
    .option('--wait <seconds>', 'while the carrier step runs, wait up to this many seconds (≤ 30) for it')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { wait?: string; json?: boolean }) => {
      const wait = o.wait !== undefined ? parseWait(o.wait) : 0;
      const { body } = await ApiClient.fromConfig().get<{ data: Shipment }>(`${shipmentPath(id)}${wait > 0 ? `?wait=${wait}` : ''}`);
      if (o.json) printJson(body.data);
      else printShipment(body.data);
    }));

  shipments.command('cancel')
    .description('cancel a pending or created shipment (at the carrier too)')
    .argument('<id>', 'shipment id (sh_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().post<{ data: Shipment }>(`${shipmentPath(id)}/cancel`);
      if (o.json) printJson(body.data);
      else process.stdout.write(`cancelled ${body.data.id} (status ${body.data.status})\n`);
    }));

  shipments.command('retry')
    .description('queue creation at the carrier again for a pending shipment whose creation failed')
    .argument('<id>', 'shipment id (sh_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().post<{ data: Shipment }>(`${shipmentPath(id)}/retry`);
      if (o.json) printJson(body.data);
      else process.stdout.write(`creation of ${body.data.id} queued again; see \`packdesk shipments show ${body.data.id} --wait 30\`\n`);
    }));

  shipments.command('label')
    .description('save the merged label of all parcels to a file, or --preview it as pictures')
    .argument('<id>', 'shipment id (sh_…)')
    .option('--out <file>', 'where to write it (default: <reference or id>.<ext> in the current directory; with --preview a directory)')
    .option('--a4', 'pdf only: four 10×15 cm labels per A4 page, for office printers')
    .option('--preview', 'show each parcel label in the terminal (kitty, iTerm2, sixel), else write PNG pictures and say where')
    .option('--parcel <n>', 'with --preview: only this parcel (1-based)')
    .option('--json', 'print {path, format, pages, size}; with --preview, the PNG paths')
    .action(action(async (id: string, o: { out?: string; a4?: boolean; preview?: boolean; parcel?: string; json?: boolean }) => {
      if (o.preview) {
        const parcel = o.parcel === undefined ? undefined : Number(o.parcel);
        if (parcel !== undefined && !(Number.isInteger(parcel) && parcel >= 1)) throw new CliError('--parcel must be a whole number from 1', EXIT.usage);
        const { previewShipmentLabel } = await import('./label-preview.js');
        const shown = await previewShipmentLabel(ApiClient.fromConfig(), id, { parcel, dir: o.out, files: o.json });
        if (o.json) printJson(shown.images);
        else if (shown.shown === 'files') {
          process.stdout.write('this terminal does not show pictures; wrote them as PNG files:\n');
          for (const image of shown.images) process.stdout.write(`  parcel ${image.parcel}: ${image.path}\n`);
        }
        return;
      }
      if (o.parcel !== undefined) throw new CliError('--parcel is for --preview', EXIT.usage);
      const saved = await saveLabel(ApiClient.fromConfig(), id, { out: o.out, a4: o.a4 });
      if (o.json) printJson(saved);
      else process.stdout.write(`${saved.path}\n  ${saved.format}, ${saved.pages} page${saved.pages === 1 ? '' : 's'}, ${describeSize(saved.size)}\n`);
    }));

  shipments.command('delete')
    .description('delete a shipment that was not created at the carrier (a created one must be cancelled)')
    .argument('<id>', 'shipment id (sh_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      await ApiClient.fromConfig().delete(shipmentPath(id));
      if (o.json) printJson({ id, deleted: true });
      else process.stdout.write(`deleted ${id}\n`);
    }));

  registerShipmentPrintCommand(shipments);
}
