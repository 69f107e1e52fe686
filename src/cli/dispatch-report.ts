import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Channel, Dispatch, Printer, PrintJob } from './api-types.js';
import type { ApiClient, Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { describeSize } from './label-files.js';
import { formatMoney, printJson, printRecord } from './output.js';
import { describePrintJob, waitForPrintJobs } from './print-jobs.js';
import { SHIP_PRINT_WAIT_SECONDS } from './ship-print.js';
import { fieldErrorLines } from './shipment-records.js';

/** The records of dispatches as the CLI shows them, and how `dispatch` and `dispatches retry` see one through. */

export const dispatchPath = (id: string) => `/v1/dispatches/${encodeURIComponent(id)}`;
export const channelPath = (id: string) => `/v1/shipping-channels/${encodeURIComponent(id)}`;

/** How often a pending dispatch is asked after: the desk's live events do not carry dispatches. */
const POLL_MS = 1000;

/** `--wait N` of dispatching: seconds, 0..3600. */
export function parseDispatchWait(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 3600) throw new CliError('--wait must be a whole number of seconds from 0 to 3600', EXIT.usage);
  return n;
}

/** `--pickup "2026-11-26 14:00-16:00"`: the courier's day and window, as the API takes them (it judges the values). */
export function parsePickup(value: string): { date: string; from: string; to: string } {
  const match = /^\s*(\d{4}-\d{2}-\d{2})\s+(\d{1,2}:\d{2})\s*[-–]\s*(\d{1,2}:\d{2})\s*$/.exec(value);
  if (!match) throw new CliError('--pickup must be a day and a time window, e.g. "2026-11-26 14:00-16:00"', EXIT.usage);
  const time = (t: string) => t.padStart(5, '0');
  return { date: match[1]!, from: time(match[2]!), to: time(match[3]!) };
}

export const describeWeight = (kg: number) => `${Number(kg.toFixed(3))} kg`;

export function describeCod(d: Pick<Dispatch, 'cash_on_delivery_totals'>): string {
  return d.cash_on_delivery_totals.map((t) => formatMoney(t.amount, t.currency)).join(', ') || 'none';
}

export function describePickup(d: Pick<Dispatch, 'pickup' | 'pickup_request'>): string | null {
  if (d.pickup?.confirmation === null) return `${d.pickup.date} ${d.pickup.from}–${d.pickup.to}, NOT confirmed: ${d.pickup.note ?? ''}`;
  if (d.pickup) return `${d.pickup.date} ${d.pickup.from}–${d.pickup.to}, confirmation ${d.pickup.confirmation}`;
  if (d.pickup_request) return `asked for ${d.pickup_request.date} ${d.pickup_request.from}–${d.pickup_request.to}, not confirmed yet`;
  return null;
}

export function describeDocument(d: Pick<Dispatch, 'has_document' | 'document_source'>): string {
  if (!d.has_document) return 'none yet';
  return d.document_source === 'carrier' ? "the carrier's protocol" : "packdesk's hand-over list";
}

/** The channel's name and provider, or its id alone when it was removed since. */
export async function describeChannel(client: ApiClient, id: string): Promise<string> {
  try {
    const { body } = await client.get<{ data: Channel }>(channelPath(id));
    return `${body.data.name} (${id}, ${body.data.provider})`;
  } catch (err) {
    if (err instanceof CliError && err.exitCode === EXIT.notFound) return id;
    throw err;
  }
}

/** Asks after each pending dispatch every second until none is pending or `seconds` passed; answers their last state. */
export async function waitForDispatches(client: ApiClient, dispatches: Dispatch[], seconds: number): Promise<Dispatch[]> {
  const deadline = Date.now() + seconds * 1000;
  let current = dispatches;
  while (current.some((d) => d.status === 'pending') && Date.now() < deadline) {
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
    current = await Promise.all(current.map(async (d) => (d.status !== 'pending' ? d : (await client.get<{ data: Dispatch }>(dispatchPath(d.id))).body.data)));
  }
  return current;
}

/** Writes a dispatch's document to `path`; answers where and how big. */
export async function saveDispatchDocument(client: ApiClient, id: string, path: string): Promise<{ path: string; size: number }> {
  const res = await client.requestRaw('GET', `${dispatchPath(id)}/document`);
  const written = resolve(path);
  try {
    writeFileSync(written, res.body);
  } catch (err) {
    throw new CliError(`cannot write the document of ${id} to ${written}: ${(err as Error).message}`, EXIT.failure);
  }
  return { path: written, size: res.body.length };
}

/** The job printing a dispatch's document, among the newest of its printer, once its first attempt settled. */
async function dispatchPrintJob(client: ApiClient, dispatchId: string, printerId: string): Promise<PrintJob | null> {
  const { body } = await client.get<Page<PrintJob>>(`/v1/print-jobs?printer_id=${encodeURIComponent(printerId)}&per_page=100`);
  const job = body.data.find((j) => j.dispatch_id === dispatchId);
  return job ? (await waitForPrintJobs(client, [job], SHIP_PRINT_WAIT_SECONDS))[0]! : null;
}

async function printerName(client: ApiClient, id: string): Promise<string> {
  try {
    return (await client.get<{ data: Printer }>(`/v1/printers/${encodeURIComponent(id)}`)).body.data.name;
  } catch {
    return id; // removed since: its id still says which
  }
}

/** Where and what a finished dispatch came to. */
export interface DispatchOutcome {
  dispatch: Dispatch;
  document_file: { path: string; size: number } | null;
  print_job: PrintJob | null;
}

export interface FinishOptions {
  /** Seconds to wait for the hand-over. */
  wait: number;
  /** The document's file, for one dispatch; else `<dp id>.pdf` in `outDir`. */
  out?: string;
  outDir?: string;
  /** The printer asked to print the documents. */
  printerId?: string;
  json?: boolean;
}

function printOutcome(o: DispatchOutcome, channel: string, printedOn: string | null): void {
  const d = o.dispatch;
  printRecord({
    dispatch: d.id, status: d.status, channel, shipments: d.shipments_count, parcels: d.parcels_count, weight: describeWeight(d.weight_kg),
    'cash on delivery': describeCod(d), ...(d.carrier_ref ? { 'carrier ref': d.carrier_ref } : {}),
    ...(describePickup(d) ? { pickup: describePickup(d) } : {}),
    ...(o.document_file ? { document: `${o.document_file.path}  (${describeDocument(d)}, ${describeSize(o.document_file.size)})` } : {}),
    ...(printedOn ? { print: printedOn } : {}),
  });
  if (d.status === 'failed') {
    process.stdout.write(`failed: ${d.failure?.message ?? 'the carrier gave no reason'}\n`);
    for (const line of fieldErrorLines(d.failure?.errors ?? {})) process.stdout.write(`${line}\n`);
    process.stdout.write(`Fix the cause and hand it over again: packdesk dispatches retry ${d.id}\n`);
  } else if (d.status === 'pending') {
    const why = d.failure ? `the carrier could not take it yet (${d.failure.message}; attempt ${d.failure.attempts})` : 'the hand-over did not finish in time';
    process.stdout.write(`still pending: ${why}. It is retried automatically; see packdesk dispatches show ${d.id}\n`);
  }
}

/**
 * Waits for the dispatches' hand-over, saves each document, tells what printed, and reports each (JSON: one array);
 * exit 1 when any failed or its document did not print.
 */
export async function finishDispatches(client: ApiClient, dispatches: Dispatch[], o: FinishOptions): Promise<void> {
  const settled = await waitForDispatches(client, dispatches, o.wait);
  const outcomes: DispatchOutcome[] = [];
  for (const dispatch of settled) {
    const path = o.out ?? join(o.outDir ?? '.', `${dispatch.id}.pdf`);
    const document_file = dispatch.has_document ? await saveDispatchDocument(client, dispatch.id, path) : null;
    const print_job = dispatch.status === 'dispatched' && o.printerId ? await dispatchPrintJob(client, dispatch.id, o.printerId) : null;
    outcomes.push({ dispatch, document_file, print_job });
  }
  if (o.json) printJson(outcomes);
  else {
    for (const [i, outcome] of outcomes.entries()) {
      if (i > 0) process.stdout.write('\n');
      const job = outcome.print_job;
      printOutcome(outcome, await describeChannel(client, outcome.dispatch.shipping_channel_id), job ? describePrintJob(job, await printerName(client, job.printer_id)) : null);
    }
  }
  const failed = outcomes.filter((x) => x.dispatch.status === 'failed');
  const unprinted = outcomes.filter((x) => x.print_job?.status === 'failed');
  if (failed.length) {
    const reasons = failed.map((x) => `${x.dispatch.id}: ${x.dispatch.failure?.message ?? 'no reason given'}`).join('; ');
    throw new CliError(`${failed.length} dispatch${failed.length === 1 ? '' : 'es'} failed (${reasons})`, EXIT.failure, failed.length === 1 ? failed[0]!.dispatch.failure?.errors : undefined);
  }
  if (unprinted.length) throw new CliError(`the document of ${unprinted.map((x) => x.dispatch.id).join(', ')} did not print`, EXIT.failure);
}
