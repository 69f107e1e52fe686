import type { Command } from 'commander';
import type { Shipment, StationView } from './api-types.js';
import { ApiClient } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { isInteractive } from './output.js';
import { action } from './run.js';
import {
  addRecipientFlags, applyDefaults, applySender, bodyFromFlags, hasSender, missingForShipment, type Json, type ShipFlags,
} from './ship-body.js';
import { attachPrintRequest, type ShipPrintFlags } from './ship-print.js';
import { confirmShipment, promptReference, promptSender, promptShipment } from './ship-prompts.js';
import { checkReference } from './ship-reference.js';
import { fixRefusedHint, reportShipment } from './ship-report.js';
import { parseWait } from './shipment-records.js';
import { shippingStation, storeAccountSender } from './station-settings.js';

const DEFAULT_WAIT_SECONDS = 30;

function parcelsLine(body: Json): string {
  const parcels = Array.isArray(body.parcels) ? (body.parcels as Json[]) : [];
  return parcels.map((p) => `${String(p.weight_amount)} kg ${String(p.length_dimension)}×${String(p.width_dimension)}×${String(p.height_dimension)} cm`).join('; ');
}

/**
 * The sender: `--sender-json` or the body's own, else the station's (the daemon fills it in), else asked for once on a
 * terminal and kept as the account's station sender.
 */
async function ensureSender(client: ApiClient, body: Json, station: StationView, interactive: boolean): Promise<void> {
  if (hasSender(body) || (station.effective.sender_contact && station.effective.origin_address)) return;
  if (!interactive) {
    throw new CliError(
      `no sender: station ${station.station} has none. Store one for every station with \`packdesk stations set --account --sender-json FILE\` `
      + '(or for this station alone with `packdesk stations set --sender-json FILE`), or give --sender-json FILE; '
      + 'FILE holds {"contact": {...}, "address": {...}}',
      EXIT.usage,
    );
  }
  const sender = await promptSender();
  await storeAccountSender(client, sender);
  process.stdout.write('sender saved as the account\'s station sender, for every station (see `packdesk stations show`)\n\n');
  applySender(body, sender);
}

/** POST with `station` and `Prefer: wait=N`, then reports the shipment as `reportShipment` does. */
async function createAndReport(client: ApiClient, body: Json, o: { wait: number; out?: string; json?: boolean; notPrinted: string }): Promise<void> {
  const headers: Record<string, string> = o.wait > 0 ? { prefer: `wait=${o.wait}` } : {};
  const { body: answer } = await client.post<{ data: Shipment }>('/v1/shipments', body, headers);
  await reportShipment(client, answer.data, { ...o, whenRefused: fixRefusedHint });
}

/** The options of `packdesk ship`. */
function shipFlags(command: Command): Command {
  return addRecipientFlags(command
    .option('--from-json <file>', 'a creation body as JSON (- for stdin); the flags below override its fields')
    .option('--reference <text>', 'reference number, e.g. the order number: asked first on a terminal (one shipped before is asked about, or refused when unattended)')
    .option('--channel <id>', "shipping channel (ch_…; default: the station's)")
    .option('--format <format>', "label format: pdf, zpl or epl (default: the station's, else pdf)"))
    .option('--sender-json <file>', 'sender as {"contact": {...}, "address": {...}} (default: the station\'s, see `packdesk stations show`)')
    .option('--station <name>', "the station shipping it, whose settings fill in sender, channel, format and printing (default: the daemon's)")
    .option('--out <file>', 'where to save the label (default: <reference or id>.<ext> in the current directory)')
    .option('--wait <seconds>', 'how long to wait for the carrier (0-30)', String(DEFAULT_WAIT_SECONDS))
    .option('--print', "print the label on the station's printer for its format, even where the station does not auto-print")
    .option('--no-print', 'only save the label, print nothing (even where the station auto-prints)')
    .option('--printer <id>', 'print the label on this printer (prn_…)')
    .option('--copies <n>', "label copies to print, 1-20 (default: the station's)")
    .option('--allow-duplicate-reference', 'ship even when a shipment with this reference exists (not cancelled); unattended runs refuse that otherwise')
    .option('--json', 'print the shipment as JSON, with label_file {path, format, pages, size}, print_job, and not_printed (why) when nothing prints');
}

/** `packdesk ship`: one shipment at the packing desk, from flags or a JSON body, or asked for on a terminal. */
export function registerShipCommand(program: Command): void {
  shipFlags(program.command('ship')
    .description('create a shipment at this station and save its label (interactive on a terminal when something is missing)'))
    .action(action(async (o: ShipFlags & ShipPrintFlags) => {
      const wait = parseWait(o.wait);
      const client = ApiClient.fromConfig();
      let body = bodyFromFlags(o);
      const interactive = isInteractive(o.json) && !o.fromJson;
      const station = await shippingStation(client, o.station, o.json);
      body.station = station.station;
      const prompted = interactive && missingForShipment(body, station.effective.shipping_channel_id).length > 0;
      // the scanned reference comes first: a repeated one is settled before anything else is typed
      if (prompted && o.reference === undefined && body.reference_number == null) {
        const reference = await promptReference();
        if (reference) body.reference_number = reference;
      }
      await checkReference(client, body.reference_number, { interactive, allowDuplicate: o.allowDuplicateReference === true });
      await ensureSender(client, body, station, interactive);
      const asked = prompted ? await promptShipment(client, body, station, { format: o.format !== undefined, cod: o.cod !== undefined }) : undefined;
      if (asked) body = asked.body;
      applyDefaults(body);
      if (asked && !(await confirmShipment(body, asked.channel, parcelsLine(body)))) {
        throw new CliError('nothing created', EXIT.failure);
      }
      const notPrinted = attachPrintRequest(body, o, station);
      await createAndReport(client, body, { wait, out: o.out, json: o.json, notPrinted });
    }));
}
