import type { Command } from 'commander';
import type { Order, Shipment } from './api-types.js';
import { ApiClient, type Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { collect, formatMoney, printJson, printPageFooter, printRecord, printTable } from './output.js';
import { action, listPath } from './run.js';
import { bodyFromFlags, type Json } from './ship-body.js';
import { attachPrintRequest, type ShipPrintFlags } from './ship-print.js';
import { fixRefusedHint, reportShipment } from './ship-report.js';
import { addressLine, contactName, parseWait, pickupPointLine } from './shipment-records.js';
import { shippingStation } from './station-settings.js';

export const orderPath = (id: string) => `/v1/orders/${encodeURIComponent(id)}`;

const DEFAULT_WAIT_SECONDS = 30;

/** The answer of `POST /v1/orders/{id}/ship` for an order shipped before (the first answer says "Order shipped"). */
const ALREADY_SHIPPED = 'Order already shipped';

/** `2026-11-20 10:15` in the desk's own time zone: short enough for the queue's table to fit 100 columns. */
function localMinute(iso: string): string {
  const t = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${t.getFullYear()}-${two(t.getMonth() + 1)}-${two(t.getDate())} ${two(t.getHours())}:${two(t.getMinutes())}`;
}

function printOrder(o: Order): void {
  const cod = o.cash_on_delivery_amount != null ? formatMoney(o.cash_on_delivery_amount, o.cash_on_delivery_currency) : 'none';
  printRecord({
    id: o.id, reference: o.reference_number, status: o.status,
    ...(o.shipment_id ? { shipment: o.shipment_id } : {}),
    ...(o.import_id ? { import: o.import_id } : {}),
    channel: o.shipping_channel_id ?? 'given when shipping', 'label format': o.label_format ?? 'pdf unless given when shipping', COD: cod,
    ...(o.shipping_date ? { 'shipping date': o.shipping_date } : {}),
    sender: o.sender_contact && o.origin_address ? `${contactName(o.sender_contact)} — ${addressLine(o.origin_address)}` : "the station's, when shipped",
    recipient: `${contactName(o.recipient_contact)} — ${addressLine(o.destination_address)}`,
    ...(o.pickup_point ? { 'pickup point': pickupPointLine(o.pickup_point) } : {}),
    'recipient contact': `${o.recipient_contact.email_address}, ${o.recipient_contact.phone_number}`,
    ...(o.label_comment ? { 'label comment': o.label_comment } : {}),
    created: o.created_at, updated: o.updated_at,
    ...(o.shipped_at ? { shipped: o.shipped_at } : {}),
    ...(o.cancelled_at ? { cancelled: o.cancelled_at } : {}),
  });
  if (o.parcels.length === 0) {
    process.stdout.write('\nparcels: none yet, given when shipping (--weight or --parcel)\n');
    return;
  }
  process.stdout.write('\nparcels\n');
  const channelDefault = "the channel's default";
  printTable(
    ['#', 'weight', 'dimensions'],
    o.parcels.map((p, i) => [
      i + 1, p.weight_amount !== undefined ? `${p.weight_amount} ${p.weight_unit}` : channelDefault,
      p.length_dimension !== undefined && p.width_dimension !== undefined && p.height_dimension !== undefined
        ? `${p.length_dimension}×${p.width_dimension}×${p.height_dimension} ${p.dimension_unit}` : channelDefault,
    ]),
  );
}

/** `--weight 2,4`: a parcel of that many kilograms, in the channel's default box. */
function parseWeight(text: string): Json {
  const kg = Number(text.trim().replace(',', '.'));
  if (text.trim() === '' || !Number.isFinite(kg) || kg <= 0) {
    throw new CliError(`--weight must be a weight in kg above 0 (e.g. 2.4 or 2,4), not "${text}"`, EXIT.usage);
  }
  return { weight_amount: kg, weight_unit: 'KG' };
}

interface ShipOrderFlags extends ShipPrintFlags {
  station?: string;
  channel?: string;
  weight?: string[];
  parcel?: string[];
  format?: string;
  out?: string;
  wait: string;
  json?: boolean;
}

/** The body of `POST /v1/orders/{id}/ship` from the flags: only what the packer gives; the order has the rest. */
function shipBodyFromFlags(o: ShipOrderFlags): Json {
  const body = bodyFromFlags({ channel: o.channel, format: o.format, parcel: o.parcel, wait: o.wait });
  const weighed = (o.weight ?? []).map(parseWeight);
  if (weighed.length > 0) body.parcels = [...((body.parcels as Json[] | undefined) ?? []), ...weighed];
  return body;
}

/**
 * Ships an order at this station and reports its shipment as `packdesk ship` does. Run again (after a lost answer, or
 * twice at once) it ships nothing new: the API answers a shipped order with its shipment, and nothing prints again. No
 * Idempotency-Key: its stored answer would outlive the shipment once deleted or cancelled, when the order awaits to be
 * shipped anew.
 */
async function shipOrder(client: ApiClient, id: string, o: ShipOrderFlags): Promise<void> {
  const wait = parseWait(o.wait);
  const body = shipBodyFromFlags(o);
  const order = (await client.get<{ data: Order }>(orderPath(id))).body.data;
  const station = await shippingStation(client, o.station, o.json);
  body.station = station.station;
  const headers: Record<string, string> = wait > 0 ? { prefer: `wait=${wait}` } : {};
  // the printer is that of the label format the shipment will have: --format, else the order's, else the station's
  if (body.label_format === undefined && order.label_format) body.label_format = order.label_format;
  const notPrinted = order.status === 'awaiting' ? attachPrintRequest(body, o, station) : `order ${order.id} was ${order.status}`;
  const { body: answer } = await client.post<{ data: Shipment; message: string }>(`${orderPath(order.id)}/ship`, body, headers);
  const shipment = answer.data;
  const shippedBefore = answer.message === ALREADY_SHIPPED;
  if (shippedBefore && !o.json) process.stdout.write(`order ${order.id} was shipped before, as ${shipment.id}: nothing new was created\n`);
  await reportShipment(client, shipment, {
    wait, out: o.out, json: o.json, notPrinted,
    ...(shippedBefore ? { printedBefore: `order ${order.id} was shipped before (print its label again with \`packdesk shipments print ${shipment.id}\`)` } : {}),
    whenRefused: (s) => `${fixRefusedHint(s)}Or delete it: the order awaits again, to be corrected (PATCH ${orderPath(order.id)}) and shipped anew:\n`
      + `  packdesk shipments delete ${s.id}\n`,
  });
}

interface ListOptions {
  status?: string;
  all?: boolean;
  search?: string;
  page?: string;
  perPage?: string;
  json?: boolean;
}

/** `packdesk orders …`: the order queue over the daemon's API — list, show, ship and cancel orders. */
export function registerOrderCommands(program: Command): void {
  const orders = program.command('orders').description('the order queue: list, show, ship, cancel');

  orders.command('list')
    .description('list the orders awaiting shipping, oldest first (the queue as it came in)')
    .option('--status <status>', 'only this status: awaiting (the default), shipped or cancelled')
    .option('--all', 'orders of every status')
    .option('--search <text>', "part of the reference, the recipient's name or the postal code")
    .option('--page <n>', 'page number')
    .option('--per-page <n>', 'orders per page (1-100)')
    .option('--json', 'print the whole API answer ({data, meta, links})')
    .action(action(async (o: ListOptions) => {
      if (o.all && o.status !== undefined) throw new CliError('give --status or --all, not both', EXIT.usage);
      const status = o.all ? undefined : o.status ?? 'awaiting';
      const { body } = await ApiClient.fromConfig().get<Page<Order>>(listPath('/v1/orders', { status, search: o.search }, o));
      if (o.json) {
        printJson(body);
        return;
      }
      printTable(
        ['id', 'reference', 'recipient', 'destination', 'status', 'created'],
        body.data.map((r) => [
          r.id, r.reference_number, contactName(r.recipient_contact), `${r.destination_address.postal_code} ${r.destination_address.city_name}`,
          r.shipment_id ? `${r.status} ${r.shipment_id}` : r.status, localMinute(r.created_at),
        ]),
      );
      printPageFooter(body.meta);
    }));

  orders.command('show')
    .description('show one order with its parties and parcels')
    .argument('<id>', 'order id (or_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().get<{ data: Order }>(orderPath(id));
      if (o.json) printJson(body.data);
      else printOrder(body.data);
    }));

  orders.command('ship')
    .description('ship an order: create its shipment with the weighed parcels, save (and print) the label')
    .argument('<id>', 'order id (or_…)')
    .option('--station <name>', "the station shipping it, whose settings fill in what the order leaves out and say what prints (default: the daemon's)")
    .option('--channel <id>', "shipping channel (ch_…; default: the order's, else the station's)")
    .option('--weight <kg>', "a parcel of this weight in kg, e.g. 2.4 or 2,4, in the channel's default box (parcel_defaults); repeat for each (none: the order's parcels)", collect)
    .option('--parcel <KGxLxWxH>', 'a parcel: weight in kg x length x width x height in cm, e.g. 2,4x40x30x20; repeat for each', collect)
    .option('--format <format>', "label format: pdf, zpl or epl (default: the order's, else the station's)")
    .option('--out <file>', 'where to save the label (default: <reference or id>.<ext> in the current directory)')
    .option('--wait <seconds>', 'how long to wait for the carrier (0-30)', String(DEFAULT_WAIT_SECONDS))
    .option('--print', "print the label on the station's printer for its format, even where the station does not auto-print")
    .option('--no-print', 'only save the label, print nothing (even where the station auto-prints)')
    .option('--printer <id>', 'print the label on this printer (prn_…)')
    .option('--copies <n>', "label copies to print, 1-20 (default: the station's)")
    .option('--json', 'print the shipment as JSON, with label_file {path, format, pages, size}, print_job, and not_printed (why) when nothing prints')
    .action(action(async (id: string, o: ShipOrderFlags) => {
      await shipOrder(ApiClient.fromConfig(), id, o);
    }));

  orders.command('cancel')
    .description('cancel an awaiting order: it leaves the queue (a shipped one is cancelled through its shipment)')
    .argument('<id>', 'order id (or_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().delete<{ data: Order }>(orderPath(id));
      if (o.json) printJson(body.data);
      else process.stdout.write(`cancelled ${body.data.id} (status ${body.data.status})\n`);
    }));
}
