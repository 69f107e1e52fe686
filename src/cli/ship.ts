import type { Command } from 'commander';
import { ApiClient } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { collect, isInteractive, printJson, printRecord } from './output.js';
import { action } from './run.js';
import {
  applyDefaults, applySender, bodyFromFlags, hasSender, missingForShipment, saveSender, senderPath, storedSender,
  type Json, type ShipFlags,
} from './ship-body.js';
import { confirmShipment, promptSender, promptShipment } from './ship-prompts.js';
import { checkReference } from './ship-reference.js';
import { describePrintJob, type PrintJob } from './print-jobs.js';
import { attachPrintRequest, SHIP_PRINT_WAIT_SECONDS, shipmentPrintJob, type PrintPlan, type ShipPrintFlags } from './ship-print.js';
import {
  creationFailed, describeSize, parseWait, saveLabel, shipmentPath, type SavedLabel, type Shipment,
} from './shipments.js';

const DEFAULT_WAIT_SECONDS = 30;

function parcelsLine(body: Json): string {
  const parcels = Array.isArray(body.parcels) ? (body.parcels as Json[]) : [];
  return parcels.map((p) => `${String(p.weight_amount)} kg ${String(p.length_dimension)}×${String(p.width_dimension)}×${String(p.height_dimension)} cm`).join('; ');
}

/** The sender: `--sender-json` (already in the body), the body's own, the stored one, or asked for once on a terminal. */
async function ensureSender(body: Json, interactive: boolean): Promise<void> {
  if (hasSender(body)) return;
  const stored = storedSender();
  if (stored) {
    applySender(body, stored);
    return;
  }
  if (!interactive) {
    throw new CliError(
      `no sender: give --sender-json FILE ({"contact": {...}, "address": {...}}), or run \`packdesk ship\` once on a terminal to store one in ${senderPath()}`,
      EXIT.usage,
    );
  }
  const sender = await promptSender();
  const path = saveSender(sender);
  process.stdout.write(`sender saved in ${path}\n\n`);
  applySender(body, sender);
}

function printCreated(s: Shipment, label: SavedLabel): void {
  const pages = `${label.pages} page${label.pages === 1 ? '' : 's'}`;
  printRecord({
    shipment: s.id, ...(s.reference_number ? { reference: s.reference_number } : {}), status: s.status, product: s.product,
    ...Object.fromEntries(s.parcels.map((p, i) => [`parcel ${i + 1}`, p.tracking_number ?? '-'])),
    label: `${label.path}  (${label.format}, ${pages}, ${describeSize(label.size)})`,
  });
}

function printStillPending(s: Shipment, waited: number): void {
  const why = s.failure ? `the carrier could not take it yet (${s.failure.message}; attempt ${s.failure.attempts})` : `the carrier step did not finish within ${waited} s`;
  process.stdout.write(
    `shipment ${s.id} is still pending: ${why}.\n`
    + 'It is kept and its creation is retried automatically'
    + `${s.next_attempt_at ? ` (next attempt ${s.next_attempt_at})` : ''}. Next:\n`
    + `  packdesk shipments show ${s.id} --wait 30\n`
    + `  packdesk shipments label ${s.id}\n`,
  );
}

/** What `ship` says about printing: the job's outcome, or why nothing printed. */
function printOutcome(plan: PrintPlan, job: PrintJob | null): string {
  if (!plan.printer) return `not printed: ${plan.notPrinted}`;
  if (!job) return `not printed: the daemon made no print job for ${plan.printer.name}`;
  const said = describePrintJob(job, plan.printer.name);
  return job.status === 'queued' || job.status === 'printing' ? `not printed yet: ${said}` : said;
}

/** What `ship` and `orders ship` do with the shipment the API answered. */
export interface ShipmentOutcome {
  /** Seconds the API was asked to wait for the carrier step. */
  wait: number;
  out?: string;
  json?: boolean;
  print: PrintPlan;
  /** What people may do about a shipment the carrier refused: lines, each ending in a newline. */
  whenRefused: (s: Shipment) => string;
}

/** Created → save the label (and tell what printed); refused → exit 1 with the reasons; else still pending (exit 0). */
export async function reportShipment(client: ApiClient, shipment: Shipment, o: ShipmentOutcome): Promise<void> {
  const notPrinted = o.print.printer ? {} : { not_printed: o.print.notPrinted };

  // created at the carrier: `created`, or further on its way for an order shipped before
  if (shipment.status !== 'pending') {
    let label: SavedLabel;
    try {
      label = await saveLabel(client, shipment.id, { out: o.out });
    } catch (err) {
      const reason = err instanceof CliError ? err.message : String(err);
      throw new CliError(`shipment ${shipment.id} was created, but its label could not be saved: ${reason}; try \`packdesk shipments label ${shipment.id}\``, EXIT.failure);
    }
    const printJob = o.print.printer ? await shipmentPrintJob(client, shipment.id, SHIP_PRINT_WAIT_SECONDS) : null;
    if (o.json) {
      printJson({ ...shipment, label_file: label, print_job: printJob, ...notPrinted });
      return;
    }
    printCreated(shipment, label);
    process.stdout.write(`${printOutcome(o.print, printJob)}\n`);
    return;
  }

  if (creationFailed(shipment)) {
    if (o.json) printJson({ ...shipment, label_file: null, print_job: null, ...notPrinted });
    else process.stdout.write(`shipment ${shipment.id} was not created: the carrier refused it (below). ${o.whenRefused(shipment)}`);
    throw new CliError(`the carrier refused shipment ${shipment.id}: ${shipment.failure!.message}`, EXIT.failure, shipment.failure!.errors);
  }

  if (o.json) {
    printJson({ ...shipment, label_file: null, print_job: null, ...notPrinted });
    return;
  }
  printStillPending(shipment, o.wait);
  process.stdout.write(o.print.printer ? `Its label prints on ${o.print.printer.name} once the shipment is created.\n` : `Nothing will print: ${o.print.notPrinted}.\n`);
}

/** POST with `Prefer: wait=N`, then reports the shipment as `reportShipment` does. */
async function createAndSave(client: ApiClient, body: Json, o: Omit<ShipmentOutcome, 'whenRefused'>): Promise<void> {
  const headers: Record<string, string> = o.wait > 0 ? { prefer: `wait=${o.wait}` } : {};
  const { body: answer } = await client.post<{ data: Shipment }>('/v1/shipments', body, headers);
  await reportShipment(client, answer.data, {
    ...o,
    whenRefused: (s) => 'Either delete it and ship again with corrected data:\n'
      + `  packdesk shipments delete ${s.id}\n`
      + `or correct it through the API (PATCH ${shipmentPath(s.id)}); creation is then queued again.\n`,
  });
}

/** `packdesk ship`: one shipment at the packing desk, from flags or a JSON body, or asked for on a terminal. */
export function registerShipCommand(program: Command): void {
  program.command('ship')
    .description('create a shipment and save its label (interactive on a terminal when something is missing)')
    .option('--from-json <file>', 'a creation body as JSON (- for stdin); the flags below override its fields')
    .option('--channel <id>', 'shipping channel (ch_…)')
    .option('--format <format>', 'label format: pdf, zpl or epl (default pdf)')
    .option('--reference <text>', 'reference number, e.g. the order number (one shipped before is asked about, or refused when unattended)')
    .option('--recipient-name <name>', 'recipient "First Last"')
    .option('--recipient-company <name>', 'recipient company')
    .option('--recipient-email <email>', 'recipient e-mail')
    .option('--recipient-phone <phone>', 'recipient phone: international (+420 602 333 444), or national for the destination country (602 333 444)')
    .option('--street <street>', 'destination street')
    .option('--house-number <number>', 'destination house number')
    .option('--city <city>', 'destination city')
    .option('--postal-code <code>', 'destination postal code')
    .option('--country <code>', 'destination country, ISO 3166-1 alpha-2 (default CZ)')
    .option('--parcel <KGxLxWxH>', 'a parcel: weight in kg x length x width x height in cm, e.g. 2.5x30x20x10 or 2,5x30x20x10; repeat for each', collect)
    .option('--cod <amount>', 'cash on delivery amount, e.g. 1249.90 or "1 249,90"')
    .option('--cod-currency <code>', 'cash on delivery currency (default: that of the destination country, e.g. CZK)')
    .option('--sender-json <file>', 'sender as {"contact": {...}, "address": {...}} (default: the one stored by an interactive run)')
    .option('--out <file>', 'where to save the label (default: <reference or id>.<ext> in the current directory)')
    .option('--wait <seconds>', 'how long to wait for the carrier (0-30)', String(DEFAULT_WAIT_SECONDS))
    .option('--printer <id>', 'print the label on this printer (default: the default printer for the label format)')
    .option('--copies <n>', 'label copies to print, 1-20 (default 1)')
    .option('--no-print', 'only save the label, print nothing')
    .option('--allow-duplicate-reference', 'ship even when a shipment with this reference exists (not cancelled); unattended runs refuse that otherwise')
    .option('--json', 'print the shipment as JSON, with label_file {path, format, pages, size}, print_job, and not_printed (why) when nothing prints')
    .action(action(async (o: ShipFlags & ShipPrintFlags) => {
      const wait = parseWait(o.wait);
      const client = ApiClient.fromConfig();
      let body = bodyFromFlags(o);
      const interactive = isInteractive(o.json) && !o.fromJson;
      await ensureSender(body, interactive);
      const prompted = interactive && missingForShipment(body).length > 0;
      if (prompted) {
        body = await promptShipment(client, body, { format: o.format !== undefined, cod: o.cod !== undefined, reference: o.reference !== undefined });
      }
      applyDefaults(body);
      await checkReference(client, body.reference_number, { interactive, allowDuplicate: o.allowDuplicateReference === true });
      if (prompted && !(await confirmShipment(body, parcelsLine(body)))) {
        throw new CliError('nothing created', EXIT.failure);
      }
      const print = await attachPrintRequest(client, body, o);
      await createAndSave(client, body, { wait, out: o.out, json: o.json, print });
    }));
}
