import type { Command } from 'commander';
import type { Channel, CreateDispatchBody, Dispatch, PickupWindows, WaitingForDispatch } from './api-types.js';
import { ApiClient, daemonStation, type Page } from './client.js';
import {
  channelPath, describeChannel, describeCod, describeDocument, describePickup, describeWeight, dispatchPath, finishDispatches,
  parseDispatchWait, parsePickup, saveDispatchDocument,
} from './dispatch-report.js';
import { CliError, EXIT } from './exit-codes.js';
import { describeSize } from './label-files.js';
import { printJson, printPageFooter, printRecord, printTable } from './output.js';
import { parseCopies } from './print-jobs.js';
import { action, listPath } from './run.js';
import { fetchStation } from './station-settings.js';

interface DispatchFlags {
  channel?: string;
  pickup?: string;
  /** A printer id, or true for the station's PDF printer. */
  print?: string | true;
  copies?: string;
  out?: string;
  outDir?: string;
  wait: string;
  json?: boolean;
}

/** The printer `--print` names, or with no id the PDF printer of the daemon's station. */
async function printerOf(client: ApiClient, flag: string | true | undefined): Promise<string | undefined> {
  if (flag === undefined || typeof flag === 'string') return flag;
  const station = await fetchStation(client, await daemonStation(client));
  const printer = station.effective.printers.pdf;
  if (!printer) throw new CliError(`station ${station.station} has no PDF printer: give --print prn_…, or set one with packdesk stations set --printer pdf=prn_…`, EXIT.usage);
  return printer;
}

/** The channels to dispatch: the one given, else every channel with shipments waiting. */
async function channelsToDispatch(client: ApiClient, channel: string | undefined): Promise<{ ids: string[]; nothing?: string }> {
  const waiting = (await client.get<{ data: WaitingForDispatch[] }>('/v1/dispatches/waiting')).body.data.filter((w) => w.shipments_count > 0);
  if (channel === undefined) return waiting.length ? { ids: waiting.map((w) => w.shipping_channel_id) } : { ids: [], nothing: 'nothing waits for a dispatch: no channel has created shipments not yet handed over' };
  if (waiting.some((w) => w.shipping_channel_id === channel)) return { ids: [channel] };
  const { body } = await client.get<{ data: Channel }>(channelPath(channel));
  return { ids: [], nothing: `nothing waits for a dispatch on ${body.data.name} (${channel}, ${body.data.provider})` };
}

function printDispatch(d: Dispatch, channel: string): void {
  printRecord({
    dispatch: d.id, status: d.status, channel, shipments: d.shipments_count, parcels: d.parcels_count, weight: describeWeight(d.weight_kg),
    'cash on delivery': describeCod(d), 'carrier ref': d.carrier_ref, pickup: describePickup(d), document: describeDocument(d),
    failure: d.failure ? `${d.failure.message} (attempt ${d.failure.attempts}, ${d.failure.at})` : null,
    created: d.created_at, dispatched: d.dispatched_at,
  });
  process.stdout.write('\n');
  printTable(['shipment', 'reference', 'tracking numbers', 'cash on delivery'], d.shipments.map((s) => [
    s.id, s.reference_number, s.tracking_numbers.join(' '), s.cash_on_delivery_amount === null ? '' : `${s.cash_on_delivery_amount.toFixed(2)} ${s.cash_on_delivery_currency ?? ''}`.trim(),
  ]));
}

/** `packdesk dispatch` and `packdesk dispatches …`: the end of the day, handing the parcels over to the carriers. */
export function registerDispatchCommands(program: Command): void {
  program.command('dispatch')
    .description('end of the day: hand the created shipments over to their carriers, one dispatch per channel, and save each hand-over document')
    .option('--channel <id>', 'only this shipping channel (ch_…); else every channel with shipments waiting')
    .option('--pickup <window>', 'book the carrier\'s courier, e.g. "2026-11-26 14:00-16:00" (where the carrier offers it)')
    .option('--print [id]', "print each document on this printer (prn_…); without an id, on the station's PDF printer")
    .option('--copies <n>', 'copies to print (1-20)')
    .option('--out <file>', 'where to write the document, for one dispatch (default: <dispatch id>.pdf)')
    .option('--out-dir <dir>', 'where to write the documents as <dispatch id>.pdf (default: the current directory)')
    .option('--wait <seconds>', 'wait up to this many seconds for each hand-over', '60')
    .option('--json', 'print one array of {dispatch, document_file, print_job}')
    .action(action(async (o: DispatchFlags) => {
      const wait = parseDispatchWait(o.wait);
      const pickup = o.pickup !== undefined ? parsePickup(o.pickup) : undefined;
      const copies = o.copies !== undefined ? parseCopies(o.copies) : undefined;
      if (o.out !== undefined && o.outDir !== undefined) throw new CliError('give --out or --out-dir, not both', EXIT.usage);
      const client = ApiClient.fromConfig();
      const printerId = await printerOf(client, o.print);
      const { ids, nothing } = await channelsToDispatch(client, o.channel);
      if (nothing) {
        if (o.json) printJson([]);
        else process.stdout.write(`${nothing}\n`);
        return;
      }
      if (o.out !== undefined && ids.length > 1) throw new CliError(`--out names one file, but ${ids.length} channels have shipments waiting: give --channel, or --out-dir`, EXIT.usage);
      const made: Dispatch[] = [];
      for (const id of ids) {
        const body: CreateDispatchBody = { shipping_channel_id: id, ...(pickup ? { pickup } : {}), ...(printerId ? { print: { printer_id: printerId, ...(copies ? { copies } : {}) } } : {}) };
        made.push((await client.post<{ data: Dispatch }>('/v1/dispatches', body)).body.data);
      }
      await finishDispatches(client, made, { wait, out: o.out, outDir: o.outDir, printerId, json: o.json });
    }));

  const dispatches = program.command('dispatches').description('dispatches: the hand-overs to the carriers (list, show, document, windows, retry)');

  dispatches.command('list')
    .description('list dispatches, newest first')
    .option('--channel <id>', 'only this shipping channel (ch_…)')
    .option('--status <status>', 'only this status (pending, dispatched, failed)')
    .option('--page <n>', 'page number')
    .option('--per-page <n>', 'dispatches per page (1-100)')
    .option('--json', 'print the whole API answer ({data, meta, links})')
    .action(action(async (o: { channel?: string; status?: string; page?: string; perPage?: string; json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().get<Page<Dispatch>>(listPath('/v1/dispatches', { shipping_channel_id: o.channel, status: o.status }, o));
      if (o.json) {
        printJson(body);
        return;
      }
      printTable(
        ['id', 'status', 'channel', 'shipments', 'parcels', 'weight', 'cash on delivery', 'document', 'created'],
        body.data.map((d) => [d.id, d.status, d.shipping_channel_id, d.shipments_count, d.parcels_count, describeWeight(d.weight_kg), describeCod(d), d.has_document ? d.document_source : '', d.created_at]),
      );
      printPageFooter(body.meta);
    }));

  dispatches.command('show')
    .description('show one dispatch: its shipments, totals, pickup and what the carrier answered')
    .argument('<id>', 'dispatch id (dp_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const client = ApiClient.fromConfig();
      const { body } = await client.get<{ data: Dispatch }>(dispatchPath(id));
      if (o.json) printJson(body.data);
      else printDispatch(body.data, await describeChannel(client, body.data.shipping_channel_id));
    }));

  dispatches.command('document')
    .description("save a dispatch's hand-over document (PDF): the carrier's protocol, or packdesk's hand-over list")
    .argument('<id>', 'dispatch id (dp_…)')
    .option('--out <file>', 'where to write it (default: <dispatch id>.pdf in the current directory)')
    .option('--json', 'print {path, size}')
    .action(action(async (id: string, o: { out?: string; json?: boolean }) => {
      const saved = await saveDispatchDocument(ApiClient.fromConfig(), id, o.out ?? `${id}.pdf`);
      if (o.json) printJson(saved);
      else process.stdout.write(`saved ${saved.path} (${describeSize(saved.size)})\n`);
    }));

  dispatches.command('windows')
    .description("the courier windows the channel's carrier offers on a day, for packdesk dispatch --pickup")
    .requiredOption('--channel <id>', 'shipping channel (ch_…)')
    .option('--date <YYYY-MM-DD>', 'the pickup day (default: today)')
    .option('--json', 'print JSON')
    .action(action(async (o: { channel: string; date?: string; json?: boolean }) => {
      const date = o.date ?? new Date().toLocaleDateString('sv');
      const { body } = await ApiClient.fromConfig().get<{ data: PickupWindows }>(
        `/v1/dispatches/pickup-windows?${new URLSearchParams({ shipping_channel_id: o.channel, date })}`,
      );
      if (o.json) printJson(body.data);
      else if (!body.data.offered) process.stdout.write(`the carrier publishes no courier windows: ask for any with packdesk dispatch --channel ${o.channel} --pickup "${date} HH:MM-HH:MM"\n`);
      else if (body.data.windows.length === 0) process.stdout.write(`the carrier offers no courier on ${date}\n`);
      else printTable(['date', 'from', 'to', '--pickup'], body.data.windows.map((w) => [w.date, w.from, w.to, `"${w.date} ${w.from}-${w.to}"`]));
    }));

  dispatches.command('retry')
    .description('hand a failed dispatch over again, once its cause is fixed, and save its document')
    .argument('<id>', 'dispatch id (dp_…)')
    .option('--out <file>', 'where to write the document (default: <dispatch id>.pdf in the current directory)')
    .option('--wait <seconds>', 'wait up to this many seconds for the hand-over', '60')
    .option('--json', 'print one array of {dispatch, document_file, print_job}')
    .action(action(async (id: string, o: { out?: string; wait: string; json?: boolean }) => {
      const wait = parseDispatchWait(o.wait);
      const client = ApiClient.fromConfig();
      const { body } = await client.post<{ data: Dispatch }>(`${dispatchPath(id)}/retry`);
      await finishDispatches(client, [body.data], { wait, out: o.out, json: o.json });
    }));
}
