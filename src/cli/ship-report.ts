import type { PrintJob, Shipment } from './api-types.js';
import type { ApiClient } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { describeSize, saveLabel, type SavedLabel } from './label-files.js';
import { printJson, printRecord } from './output.js';
import { describePrintJob } from './print-jobs.js';
import { flagOfField } from './ship-body.js';
import { printTarget, SHIP_PRINT_WAIT_SECONDS, shipmentPrintJob } from './ship-print.js';
import { describeShipmentProduct, pickupPointLine } from './shipment-records.js';

/** What `ship`, `orders ship` and `shipments update` do with the shipment the API answered. */
export interface ShipmentOutcome {
  /** Seconds the API was asked to wait for the carrier step. */
  wait: number;
  out?: string;
  json?: boolean;
  /** Why nothing prints when the record asks for no printing (its print_plan is null). */
  notPrinted: string;
  /** Nothing prints now, whatever the record's print_plan says, for this reason (an order shipped before). */
  printedBefore?: string;
  /** What people may do about a shipment the carrier refused: lines, each ending in a newline. */
  whenRefused: (s: Shipment) => string;
}

function printCreated(s: Shipment, product: string | null, label: SavedLabel): void {
  const pages = `${label.pages} page${label.pages === 1 ? '' : 's'}`;
  printRecord({
    shipment: s.id, ...(s.reference_number ? { reference: s.reference_number } : {}), status: s.status, product,
    ...(s.pickup_point ? { 'pickup point': pickupPointLine(s.pickup_point) } : {}),
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

/** What printing came to: the job's outcome on the printer, or why nothing printed. */
function printOutcome(target: ReturnType<typeof printTarget>, job: PrintJob | null): string {
  if (!target.printer) return `not printed: ${target.notPrinted}`;
  if (!job) return `not printed: the daemon made no print job for ${target.printer}`;
  const said = describePrintJob(job, target.printer);
  return job.status === 'queued' || job.status === 'printing' ? `not printed yet: ${said}` : said;
}

/** Created → save the label (and tell what printed); refused → exit 1 with the reasons; else still pending (exit 0). */
export async function reportShipment(client: ApiClient, shipment: Shipment, o: ShipmentOutcome): Promise<void> {
  const target = o.printedBefore !== undefined ? { notPrinted: o.printedBefore } : printTarget(shipment, o.notPrinted);
  const notPrinted = target.printer ? {} : { not_printed: target.notPrinted };

  // created at the carrier: `created`, or further on its way for an order shipped before
  if (shipment.status !== 'pending') {
    let label: SavedLabel;
    try {
      label = await saveLabel(client, shipment.id, { out: o.out });
    } catch (err) {
      const reason = err instanceof CliError ? err.message : String(err);
      throw new CliError(`shipment ${shipment.id} was created, but its label could not be saved: ${reason}; try \`packdesk shipments label ${shipment.id}\``, EXIT.failure);
    }
    const printJob = target.printer ? await shipmentPrintJob(client, shipment.id, SHIP_PRINT_WAIT_SECONDS) : null;
    if (o.json) {
      printJson({ ...shipment, label_file: label, print_job: printJob, ...notPrinted });
      return;
    }
    printCreated(shipment, await describeShipmentProduct(client, shipment), label);
    process.stdout.write(`${printOutcome(target, printJob)}\n`);
    return;
  }

  if (shipment.needs_attention) {
    if (o.json) printJson({ ...shipment, label_file: null, print_job: null, ...notPrinted });
    else process.stdout.write(`shipment ${shipment.id} was not created: the carrier refused it (below). ${o.whenRefused(shipment)}`);
    throw new CliError(`the carrier refused shipment ${shipment.id}: ${shipment.failure?.message ?? 'no reason given'}`, EXIT.failure, shipment.failure?.errors);
  }

  if (o.json) {
    printJson({ ...shipment, label_file: null, print_job: null, ...notPrinted });
    return;
  }
  printStillPending(shipment, o.wait);
  process.stdout.write(target.printer ? `Its label prints on ${target.printer} once the shipment is created.\n` : `Nothing will print: ${target.notPrinted}.\n`);
}

/** How a refused shipment is fixed from the command line: corrected in place, created again as the same shipment. */
export function fixRefusedHint(s: Shipment): string {
  const fields = Object.keys(s.failure?.errors ?? {});
  const flags = [...new Set(fields.map(flagOfField).filter((flag) => flag !== undefined))];
  return `Correct ${fields.length ? fields.join(', ') : 'it'} and it is created again, as the same shipment:\n`
    + `  packdesk shipments update ${s.id} ${flags.length ? flags.map((flag) => `${flag} …`).join(' ') : '--postal-code … (any flag of `packdesk ship`)'}\n`;
}
