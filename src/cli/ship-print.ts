import type { Command } from 'commander';
import type { LabelFormat, PrintJob, Shipment, StationView } from './api-types.js';
import { ApiClient, type Page } from './client.js';
import { printJson } from './output.js';
import { describePrintJob, failIfAnyFailed, parseCopies, parsePrintWait, waitForPrintJobs } from './print-jobs.js';
import { action } from './run.js';
import { isObject, type Json } from './ship-body.js';

/** Printing flags of `packdesk ship` and `packdesk orders ship`. */
export interface ShipPrintFlags {
  printer?: string;
  copies?: string;
  /** true with `--print`, false with `--no-print`, else undefined: the station decides. */
  print?: boolean;
}

/** How long `ship` waits to tell whether the label printed (a printer that cannot print says so at its first attempt). */
export const SHIP_PRINT_WAIT_SECONDS = 15;

/**
 * The one printing rule of `ship` and `orders ship`: without printing flags the station decides — the daemon prints
 * when the station auto-prints, on the station's printer for the label format, and tells so in the record's
 * `print_plan`. `--printer` prints there; `--print` or `--copies` on the station's printer for the format even when it
 * does not auto-print; `--no-print` nowhere. Sets `print` in the body and answers why nothing prints, for a record
 * whose print_plan is null.
 */
export function attachPrintRequest(body: Json, flags: ShipPrintFlags, station: StationView): string {
  if (flags.print === false) {
    body.print = null;
    return '--no-print was given';
  }
  const copies = flags.copies !== undefined ? parseCopies(flags.copies) : undefined;
  const given = isObject(body.print) ? body.print : undefined;
  if (flags.printer !== undefined || flags.print === true || copies !== undefined) {
    const format = (body.label_format ?? station.effective.label_format) as LabelFormat;
    const printerId = flags.printer ?? (typeof given?.printer_id === 'string' ? given.printer_id : station.effective.printers[format]);
    if (!printerId) {
      body.print = null;
      return `no printer for ${format.toUpperCase()} at station ${station.station} `
        + `(give --printer, or set one: packdesk stations set --printer ${format}=prn_…)`;
    }
    body.print = { printer_id: printerId, copies: copies ?? (typeof given?.copies === 'number' ? given.copies : station.effective.copies) };
    return '';
  }
  if (body.print === null) return 'the body asks for no printing (print: null)';
  return `station ${station.station} does not print labels on creation `
    + '(auto-print is off: give --print, or turn it on with packdesk stations set --auto-print on)';
}

/** What printing a shipment came to, from its print_plan: the printer it goes to, or why nothing prints. */
export function printTarget(shipment: Pick<Shipment, 'print_plan'>, notPrinted: string): { printer: string; notPrinted?: undefined } | { printer?: undefined; notPrinted: string } {
  const plan = shipment.print_plan;
  if (plan === null) return { notPrinted };
  if (plan.printer_id === null) return { notPrinted: plan.reason ?? 'the daemon chose no printer' };
  return { printer: plan.printer_name ?? plan.printer_id };
}

/** The print job of a created shipment, once its first attempt settled (or after `seconds`). */
export async function shipmentPrintJob(client: ApiClient, shipmentId: string, seconds: number): Promise<PrintJob | null> {
  const { body } = await client.get<Page<PrintJob>>(`/v1/print-jobs?shipment_id=${encodeURIComponent(shipmentId)}&per_page=1`);
  const job = body.data[0];
  if (!job) return null;
  const [settled] = await waitForPrintJobs(client, [job], seconds);
  return settled ?? job;
}

/** `packdesk shipments print ID`: queues the merged label on a printer (default: the account's for its format). */
export function registerShipmentPrintCommand(shipments: Command): void {
  shipments.command('print')
    .description("print a shipment's merged label (on --printer, or the default printer for its format)")
    .argument('<id>', 'shipment id (sh_…)')
    .option('--printer <id>', 'printer id (prn_…)')
    .option('--copies <n>', 'copies, 1-20', '1')
    .option('--a4', 'pdf only: four 10×15 cm labels per A4 page, for office printers')
    .option('--wait <seconds>', 'wait up to this many seconds for it to print', '10')
    .option('--json', 'print the print job as JSON')
    .action(action(async (id: string, o: { printer?: string; copies: string; a4?: boolean; wait: string; json?: boolean }) => {
      const wait = parsePrintWait(o.wait);
      const client = ApiClient.fromConfig();
      const { body } = await client.post<{ data: PrintJob }>(`/v1/shipments/${encodeURIComponent(id)}/print`, {
        ...(o.printer ? { printer_id: o.printer } : {}), copies: parseCopies(o.copies), ...(o.a4 ? { layout: 'a4' } : {}),
      });
      const [job] = await waitForPrintJobs(client, [body.data], wait);
      if (o.json) printJson(job);
      else process.stdout.write(`${describePrintJob(job!)}\n`);
      failIfAnyFailed([job!]);
    }));
}
