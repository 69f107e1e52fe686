import type { Command } from 'commander';
import { ApiClient, type Page } from './client.js';
import { printJson } from './output.js';
import { describePrintJob, failIfAnyFailed, parseCopies, parsePrintWait, waitForPrintJobs, type PrintJob } from './print-jobs.js';
import { printerPath, type Printer } from './printers.js';
import { action } from './run.js';

/** Printing flags of `packdesk ship`. */
export interface ShipPrintFlags {
  printer?: string;
  copies?: string;
  /** false with `--no-print`. */
  print?: boolean;
}

/** How long `ship` waits to tell whether the label printed (a printer that cannot print says so at its first attempt). */
export const SHIP_PRINT_WAIT_SECONDS = 15;

/** Where the label of a new shipment prints, or why nothing prints (`--no-print`, no default printer for the format). */
export type PrintPlan = { printer: Printer; notPrinted?: undefined } | { printer?: undefined; notPrinted: string };

/**
 * Puts `print` into a creation body: `--printer`, or the account's default printer for the label format (none: no
 * printing, and the plan says why). `--no-print` removes any.
 */
export async function attachPrintRequest(client: ApiClient, body: Record<string, unknown>, flags: ShipPrintFlags): Promise<PrintPlan> {
  if (flags.print === false) {
    delete body.print;
    return { notPrinted: '--no-print was given' };
  }
  const copies = flags.copies !== undefined ? parseCopies(flags.copies) : undefined;
  const given = body.print as { printer_id?: string; copies?: number } | null | undefined;
  const format = typeof body.label_format === 'string' ? body.label_format : 'pdf';
  let printer: Printer | undefined;
  if (flags.printer) {
    printer = (await client.get<{ data: Printer }>(`${printerPath(flags.printer)}?refresh=false`)).body.data;
  } else if (given?.printer_id) {
    printer = (await client.get<{ data: Printer }>(`${printerPath(given.printer_id)}?refresh=false`)).body.data;
  } else {
    printer = (await client.get<Page<Printer>>(`/v1/printers?default_for=${encodeURIComponent(format)}&per_page=1`)).body.data[0];
  }
  if (!printer) {
    return {
      notPrinted: `no printer is the default for ${format} labels `
        + `(give --printer, or make one the default: packdesk printers default prn_… --format ${format})`,
    };
  }
  body.print = { printer_id: printer.id, copies: copies ?? given?.copies ?? 1 };
  return { printer };
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
