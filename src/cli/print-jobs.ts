import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import type { PrintJob } from './api-types.js';
import { ApiClient, type Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { printJson, printPageFooter, printRecord, printTable } from './output.js';
import { action, listPath } from './run.js';

export const printJobPath = (id: string) => `/v1/print-jobs/${encodeURIComponent(id)}`;

/** `--wait N` for printing: seconds, 0..300. */
export function parsePrintWait(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 300) throw new CliError('--wait must be a whole number of seconds from 0 to 300', EXIT.usage);
  return n;
}

export function parseCopies(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 20) throw new CliError('--copies must be a whole number from 1 to 20', EXIT.usage);
  return n;
}

/** Printed, failed, or back in the queue after an attempt the printer could not take (the job says why). */
const settled = (job: PrintJob) => job.status === 'printed' || job.status === 'failed' || (job.status === 'queued' && job.attempts > 0);

/** Polls print jobs until each has settled, or `seconds` passed; answers their last state. */
export async function waitForPrintJobs(client: ApiClient, jobs: PrintJob[], seconds: number): Promise<PrintJob[]> {
  const deadline = Date.now() + seconds * 1000;
  let current = jobs;
  while (!current.every(settled) && Date.now() < deadline) {
    await sleep(250);
    current = await Promise.all(current.map(async (job) => (settled(job) ? job : (await client.get<{ data: PrintJob }>(printJobPath(job.id))).body.data)));
  }
  return current;
}

const JOB_KIND_NAMES: Record<PrintJob['kind'], string> = {
  shipment_label: 'label', shipment_labels: 'labels', test_label: 'test label', dispatch_document: 'hand-over document',
};

/** One line per job: printed, failed (why), or still waiting (why, and when it is tried again). */
export function describePrintJob(job: PrintJob, printerName?: string): string {
  const on = printerName ? ` on ${printerName}` : ` on ${job.printer_id}`;
  const what = `${JOB_KIND_NAMES[job.kind]} (${job.format}${job.copies > 1 ? `, ${job.copies} copies` : ''}, ${job.id})`;
  if (job.status === 'printed') return `printed ${what}${on}`;
  if (job.status === 'failed') return `failed to print ${what}${on}: ${job.error ?? 'unknown error'} — retry with \`packdesk jobs retry ${job.id}\``;
  const why = job.error ? `: ${job.error}` : '';
  const next = job.error && job.next_attempt_at ? `; next attempt ${job.next_attempt_at}` : '';
  return `${what} is ${job.status}${on}${why}${next} — it prints once the printer can (kept for 24 h)`;
}

function printJobRecord(job: PrintJob): void {
  printRecord({
    id: job.id, kind: job.kind, status: job.status, printer: job.printer_id, shipment: job.shipment_id, format: job.format,
    copies: job.copies, ...(job.layout ? { layout: job.layout } : {}), attempts: job.attempts, error: job.error,
    ...(job.next_attempt_at ? { 'next attempt': job.next_attempt_at } : {}), created: job.created_at,
    printed: job.printed_at, 'kept until': job.status === 'queued' || job.status === 'printing' ? job.expires_at : null,
  });
}

/** Exit 1 when a job failed; the caller has printed what happened. */
export function failIfAnyFailed(jobs: PrintJob[]): void {
  const failed = jobs.filter((j) => j.status === 'failed');
  if (failed.length) throw new CliError(`${failed.length} print job${failed.length === 1 ? '' : 's'} failed`, EXIT.failure);
}

interface ListOptions {
  status?: string;
  printer?: string;
  shipment?: string;
  page?: string;
  perPage?: string;
  json?: boolean;
}

/** `packdesk jobs …`: the print queue. */
export function registerPrintJobCommands(program: Command): void {
  const jobs = program.command('jobs').description('print jobs: the durable print queue');

  jobs.command('list')
    .description('list print jobs, newest first')
    .option('--status <status>', 'only this status (queued, printing, printed, failed)')
    .option('--printer <id>', 'only this printer (prn_…)')
    .option('--shipment <id>', 'only this shipment (sh_…)')
    .option('--page <n>', 'page number')
    .option('--per-page <n>', 'jobs per page (1-100)')
    .option('--json', 'print the whole API answer ({data, meta, links})')
    .action(action(async (o: ListOptions) => {
      const { body } = await ApiClient.fromConfig().get<Page<PrintJob>>(listPath('/v1/print-jobs', { status: o.status, printer_id: o.printer, shipment_id: o.shipment }, o));
      if (o.json) {
        printJson(body);
        return;
      }
      printTable(
        ['id', 'status', 'printer', 'shipment', 'format', 'copies', 'attempts', 'error', 'created'],
        body.data.map((j) => [j.id, j.status, j.printer_id, j.shipment_id ?? (j.kind === 'test_label' ? '(test)' : ''), j.format, j.copies, j.attempts, j.error, j.created_at]),
      );
      printPageFooter(body.meta);
    }));

  jobs.command('show')
    .description('show one print job')
    .argument('<id>', 'print job id (pj_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().get<{ data: PrintJob }>(printJobPath(id));
      if (o.json) printJson(body.data);
      else printJobRecord(body.data);
    }));

  jobs.command('retry')
    .description('queue a failed print job again (for another 24 h)')
    .argument('<id>', 'print job id (pj_…)')
    .option('--wait <seconds>', 'wait up to this many seconds for it to print', '0')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { wait: string; json?: boolean }) => {
      const wait = parsePrintWait(o.wait);
      const client = ApiClient.fromConfig();
      const { body } = await client.post<{ data: PrintJob }>(`${printJobPath(id)}/retry`);
      const [job] = await waitForPrintJobs(client, [body.data], wait);
      if (o.json) printJson(job);
      else process.stdout.write(`${wait > 0 ? describePrintJob(job!) : `queued ${job!.id} again`}\n`);
      failIfAnyFailed([job!]);
    }));
}
