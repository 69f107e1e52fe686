import { Option, type Command } from 'commander';
import type { Shipment, ShipmentSummary } from './api-types.js';
import { ApiClient, type Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { describeSize, saveLabel } from './label-files.js';
import { formatMoney, printJson, printPageFooter, printRecord, printTable } from './output.js';
import { action, listPath } from './run.js';
import { registerShipmentPrintCommand } from './ship-print.js';
import { fixRefusedHint } from './ship-report.js';
import { registerShipmentUpdateCommand } from './shipment-update.js';
import { addressLine, contactName, describeShipmentProduct, fieldErrorLines, parseWait, pickupPointLine, shipmentPath } from './shipment-records.js';

/** `pending, needs attention`: a shipment the carrier refused, which nothing retries, is told apart from one in progress. */
const describeStatus = (s: Pick<Shipment, 'status' | 'needs_attention'>): string => (s.needs_attention ? `${s.status}, needs attention` : s.status);

function printShipment(s: Shipment, product: string | null): void {
  const cod = s.cash_on_delivery_amount != null ? formatMoney(s.cash_on_delivery_amount, s.cash_on_delivery_currency) : 'none';
  printRecord({
    id: s.id, reference: s.reference_number, status: describeStatus(s), channel: s.shipping_channel_id,
    'carrier id': s.provider_shipment_id, product, 'label format': s.label_format, 'has label': s.has_label ? 'yes' : 'no',
    'shipping date': s.shipping_date, international: s.is_international ? 'yes' : 'no', COD: cod,
    ...(s.total_price != null ? { price: formatMoney(s.total_price, s.currency) } : {}),
    sender: `${contactName(s.sender_contact)} — ${addressLine(s.origin_address)}`,
    recipient: `${contactName(s.recipient_contact)} — ${addressLine(s.destination_address)}`,
    ...(s.pickup_point ? { 'pickup point': pickupPointLine(s.pickup_point) } : {}),
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
    if (s.needs_attention) process.stdout.write(`\n${fixRefusedHint(s)}`);
  }
}

interface ListOptions {
  status?: string;
  needsAttention?: boolean;
  channel?: string;
  search?: string;
  page?: string;
  perPage?: string;
  json?: boolean;
}

/** `packdesk shipments …`: list, show, cancel, retry, label and delete shipments over the daemon's API. */
export function registerShipmentCommands(program: Command): void {
  const shipments = program.command('shipments').description('shipments: list, show, update, cancel, retry, return, label, print, delete');

  shipments.command('list')
    .description('list shipments, newest first')
    .option('--status <status>', 'only this status (pending, created, shipped, delivered, cancelled, returned)')
    .option('--needs-attention', 'only shipments the carrier refused, which wait to be corrected (`packdesk shipments update`)')
    .option('--channel <id>', 'only this shipping channel (ch_…)')
    .option('--search <text>', 'substring of the reference, the carrier id or a tracking number')
    .option('--page <n>', 'page number')
    .option('--per-page <n>', 'shipments per page (1-100)')
    .option('--json', 'print the whole API answer ({data, meta, links})')
    .action(action(async (o: ListOptions) => {
      const { body } = await ApiClient.fromConfig().get<Page<ShipmentSummary>>(listPath('/v1/shipments', { status: o.status, needs_attention: o.needsAttention ? 'true' : undefined, shipping_channel_id: o.channel, search: o.search }, o));
      if (o.json) {
        printJson(body);
        return;
      }
      printTable(
        ['id', 'reference', 'channel', 'carrier id', 'status', 'created'],
        body.data.map((s) => [s.id, s.reference_number, s.shipping_channel_id, s.provider_shipment_id, describeStatus(s), s.created_at]),
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
      const client = ApiClient.fromConfig();
      const { body } = await client.get<{ data: Shipment }>(`${shipmentPath(id)}${wait > 0 ? `?wait=${wait}` : ''}`);
      if (o.json) printJson(body.data);
      else printShipment(body.data, await describeShipmentProduct(client, body.data));
    }));

  registerShipmentUpdateCommand(shipments);

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

  shipments.command('return')
    .description("create a shipment's return label: the same carrier's return shipment, the customer sending it back")
    .argument('<id>', 'shipment id (sh_…)')
    .addOption(new Option('--format <format>', "label format (default the shipment's)").choices(['pdf', 'zpl', 'epl']))
    .option('--wait <seconds>', 'wait up to this many seconds (≤ 30) for the carrier', '20')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { format?: string; wait: string; json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().post<{ data: Shipment }>(
        `${shipmentPath(id)}/return?wait=${parseWait(o.wait)}`, o.format ? { label_format: o.format } : {},
      );
      if (o.json) printJson(body.data);
      else process.stdout.write(`return ${body.data.id} of ${id}: status ${body.data.status}; its label: packdesk shipments label ${body.data.id}\n`);
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
