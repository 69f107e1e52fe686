import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { parsePrinterUri, PrinterUnavailableError, PrintJobFailedError, type PrintDocument, type PrinterStatus } from '../../../printers/index.js';
import { layoutA4 } from '../../labels/index.js';
import { labels, printJobs, shipments } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { claimsLeftBehind } from '../leases.js';
import { noticeDeskChange } from '../desk-changes.js';
import { PRINT_JOB_TTL_MS, type PrintJobRow } from './print-jobs.js';
import { driverOf, loadPrinterRow, recordPrinterStatus, refusedPrinterDirectory, withStatusQueryHint } from './printers.js';

/**
 * The durable print queue, kept on `print_jobs` itself. Each printer's jobs print one at a time in the order they
 * were queued: only a printer's oldest unfinished job (its head) is ever claimed, so a printer that is off or out of
 * paper is asked once per backoff step, not once per waiting job, and labels never overtake each other.
 *
 * Exactly once: claim (status `printing`, a lease) → send → record `printed`. A job claimed again while still
 * `printing` (its holder died, or an answer was lost) is "resumed": the IPP driver asks the printer for a job named
 * after ours before sending again; the file driver never rewrites a file. Raw sockets cannot be asked: a daemon
 * killed after the printer read the last byte (acknowledged by the `~HS` that follows the data) but before
 * `printed` was committed — a window of one local round trip and one SQLite write — sends the label again. A raw
 * printer set to `status_query: none` acknowledges nothing: its job counts printed once the data was written and the
 * socket closed without a reset, so the window is from the last byte written to that commit, and a printer that
 * dropped the connection unread is sent the whole job again.
 */

export interface PrintQueueOptions {
  /** Time limit of one exchange with a printer. */
  timeoutMs: number;
  /** How long an IPP job may take to finish before it is left to a later check. */
  completionWaitMs: number;
  /** Backoff jitter, injected so tests can pin it. */
  random: () => number;
}

export const DEFAULT_PRINT_QUEUE_OPTIONS: PrintQueueOptions = { timeoutMs: 5000, completionWaitMs: 30_000, random: Math.random };

/** Waits between attempts while a printer cannot print (then the last, 10 min, until the job's 24 h are up). */
const BACKOFF_MS = [5_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000];
const BACKOFF_CAP_MS = 600_000;
/** A job the printer itself refused or aborted is tried this often before it is failed. */
const MAX_JOB_ERRORS = 5;
/** An IPP job the printer accepted but has not finished is looked at again after this. */
const RECHECK_SUBMITTED_MS = 15_000;

/**
 * The wait after a failed attempt, from how long the job has been waiting (not from how often it was tried: a
 * printer asked sooner because new jobs arrived does not push its backoff up). ±20 % jitter, at most 10 min.
 */
export function printRetryDelay(waitingMs: number, random: () => number): number {
  let step = 0;
  for (let passed = BACKOFF_MS[0]!; step < BACKOFF_MS.length - 1 && passed <= waitingMs; passed += BACKOFF_MS[step]!) step += 1;
  return Math.min(BACKOFF_CAP_MS, Math.round(BACKOFF_MS[step]! * (0.8 + 0.4 * random())));
}

export interface ClaimedPrintJob {
  job: PrintJobRow;
  /** Claimed while already `printing`: an earlier attempt may have reached the printer. */
  resumed: boolean;
}

/**
 * Each printer's head: its oldest unfinished job (rowids follow insertion), found by two seeks in print_jobs_printer;
 * of the printers of this daemon's station (the parameter), so another station's jobs wait for their own daemon.
 */
const HEADS = `
  SELECT pj.id, pj.status, pj.next_attempt_at, pj.lease_until FROM printers p
  JOIN print_jobs pj ON pj.rowid = (SELECT min(r) FROM (
    SELECT min(rowid) AS r FROM print_jobs WHERE printer_id = p.id AND status = 'queued'
    UNION ALL SELECT min(rowid) FROM print_jobs WHERE printer_id = p.id AND status = 'printing') AS unfinished)
  WHERE (p.station IS NULL OR p.station = ?)`;

const HEADS_DUE = `${HEADS}
  AND ((pj.status = 'queued' AND pj.next_attempt_at <= ?) OR (pj.status = 'printing' AND pj.lease_until <= ?))
  ORDER BY coalesce(pj.next_attempt_at, pj.lease_until) LIMIT ?`;

/** Claims up to `limit` due printer heads for `leaseMs`, at most one job per printer. */
export async function claimPrintJobs(ctx: ServiceContext, limit: number, leaseMs: number): Promise<ClaimedPrintJob[]> {
  if (limit <= 0) return [];
  const now = ctx.clock.now();
  return ctx.store.transaction(async () => {
    const heads = await ctx.store.all<{ id: string; status: string }>(HEADS_DUE, ctx.station, now, now, limit);
    if (heads.length === 0) return [];
    const resumed = new Set(heads.filter((h) => h.status === 'printing').map((h) => h.id));
    const rows = await ctx.db.update(printJobs)
      .set({ status: 'printing', attempts: sql`${printJobs.attempts} + 1`, leaseUntil: now + leaseMs, leaseOwner: ctx.daemonId })
      .where(inArray(printJobs.id, heads.map((h) => h.id))).returning().all();
    for (const job of rows) noticeDeskChange(ctx, { accountId: job.accountId, kind: 'print_job', id: job.id });
    return rows.map((job) => ({ job, resumed: resumed.has(job.id) }));
  });
}

/** Moves the leases of jobs a daemon is still printing on to `until`. */
export async function renewPrintLeases(ctx: ServiceContext, ids: readonly string[], until: number): Promise<void> {
  await ctx.db.update(printJobs).set({ leaseUntil: until }).where(and(eq(printJobs.status, 'printing'), inArray(printJobs.id, [...ids]))).run();
}

/** At start-up the `printing` jobs a gone daemon left (see claimsLeftBehind) are resumed at once. */
export async function releaseInterruptedPrintJobs(ctx: ServiceContext): Promise<number> {
  const left = claimsLeftBehind(ctx);
  if (!left) return 0;
  const now = ctx.clock.now();
  return ctx.store.run(`UPDATE print_jobs SET lease_until = ? WHERE status = 'printing' AND lease_until > ?${left.where}`, now, now, ...left.params);
}

/** When the next printer head becomes due (for the worker to sleep until then); jobs behind a head wait for it. */
export async function nextPrintDueAt(ctx: ServiceContext): Promise<number | undefined> {
  const row = await ctx.store.get<{ at: number | null }>(`SELECT min(CASE status WHEN 'queued' THEN next_attempt_at ELSE lease_until END) AS at FROM (${HEADS}) AS heads`, ctx.station);
  return row?.at ?? undefined;
}

class NothingToPrintError extends Error {}

async function documentOf(ctx: ServiceContext, job: PrintJobRow, resumed: boolean): Promise<PrintDocument> {
  let content = job.content;
  if (!content && job.shipmentId) {
    content = (await ctx.db.select({ content: labels.content }).from(labels).where(eq(labels.shipmentId, job.shipmentId)).get())?.content ?? null;
    if (content && job.layout === 'a4') content = await layoutA4(content);
  }
  if (!content) throw new NothingToPrintError('nothing to print: the shipment or its label no longer exists');
  return { jobId: job.id, format: job.format, content, copies: job.copies, media: job.layout === 'a4' ? 'iso_a4' : 'label_100x150mm', resumed };
}

/** Sets the claimed job's outcome, unless someone changed it meanwhile (deleted printer, …); answers whether it did. */
async function finish(ctx: ServiceContext, job: PrintJobRow, values: Partial<PrintJobRow>): Promise<boolean> {
  const changed = await ctx.db.update(printJobs).set(values).where(and(eq(printJobs.id, job.id), eq(printJobs.status, 'printing')))
    .returning({ id: printJobs.id });
  if (changed.length > 0) noticeDeskChange(ctx, { accountId: job.accountId, kind: 'print_job', id: job.id });
  return changed.length > 0;
}

/** Records the job `printed` and, in the same transaction, the first print of every shipment whose label it holds. */
async function recordPrinted(ctx: ServiceContext, job: PrintJobRow): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.transaction(async () => {
    if (!await finish(ctx, job, { status: 'printed', printedAt: now, error: null, leaseUntil: null, nextAttemptAt: null })) return;
    const held = [...new Set([job.shipmentId, ...(job.shipmentIds ?? [])].filter((id): id is string => id !== null))];
    if (held.length === 0) return;
    const firstPrinted = await ctx.db.update(shipments).set({ printedAt: now })
      .where(and(inArray(shipments.id, held), eq(shipments.accountId, job.accountId), isNull(shipments.printedAt)))
      .returning({ id: shipments.id });
    for (const { id } of firstPrinted) noticeDeskChange(ctx, { accountId: job.accountId, kind: 'shipment', id });
  });
}

async function scheduleRetry(ctx: ServiceContext, job: PrintJobRow, error: string, delayMs: number, resume: boolean): Promise<void> {
  const at = ctx.clock.now() + delayMs;
  if (at > job.expiresAt) {
    await finish(ctx, job, { status: 'failed', error: `gave up after 24 h: ${error}`, leaseUntil: null, nextAttemptAt: null });
    return;
  }
  // a job that may have reached the printer stays `printing`, so the next attempt looks for it before sending
  await finish(ctx, job, resume ? { error, leaseUntil: at, nextAttemptAt: at } : { status: 'queued', error, leaseUntil: null, nextAttemptAt: at });
}

/** How long the job has been waiting: since it was queued, or queued again by a retry (24 h before it expires). */
function waitingFor(ctx: ServiceContext, job: PrintJobRow): number {
  return ctx.clock.now() - (job.expiresAt - PRINT_JOB_TTL_MS);
}

/** Prints one claimed job and records what happened; never throws. */
export async function runPrintJob(ctx: ServiceContext, claimed: ClaimedPrintJob, options: PrintQueueOptions): Promise<void> {
  const { job, resumed } = claimed;
  const printer = await loadPrinterRow(ctx, job.printerId);
  const parsed = printer ? parsePrinterUri(printer.uri) : undefined;
  if (!printer || !parsed || 'error' in parsed) {
    await finish(ctx, job, { status: 'failed', error: printer ? `the printer URI is not usable: ${printer.uri}` : 'the printer was deleted', leaseUntil: null });
    return;
  }
  const noteStatus = async (status: PrinterStatus | undefined) => {
    if (status) await recordPrinterStatus(ctx, printer.id, status);
  };
  const refused = await refusedPrinterDirectory(ctx, printer);
  if (refused) {
    await noteStatus(refused);
    await finish(ctx, job, { status: 'failed', error: refused.message, leaseUntil: null, nextAttemptAt: null });
    return;
  }
  try {
    const document = await documentOf(ctx, job, resumed);
    const driver = await driverOf(printer, parsed.uri, { timeoutMs: options.timeoutMs, completionWaitMs: options.completionWaitMs });
    const outcome = await driver.print(document);
    if (outcome.state === 'printed') {
      await recordPrinted(ctx, job);
      ctx.log.debug({ print_job_id: job.id, printer_id: printer.id, resumed }, 'printed');
    } else if (ctx.clock.now() > job.expiresAt) {
      await finish(ctx, job, { status: 'failed', error: `the printer did not finish the job within 24 h: ${outcome.message}`, leaseUntil: null, nextAttemptAt: null });
    } else {
      await finish(ctx, job, { error: outcome.message, leaseUntil: ctx.clock.now() + RECHECK_SUBMITTED_MS });
    }
    await noteStatus(outcome.status);
  } catch (err) {
    if (err instanceof PrinterUnavailableError) {
      const hinted = withStatusQueryHint(printer.id, err.status);
      // a printer that never answers ~HS says so, with the fix, from the first attempt on
      const reason = hinted === err.status ? err.message : hinted.message;
      ctx.log.warn({ print_job_id: job.id, printer_id: printer.id, attempt: job.attempts, reason }, 'printer cannot print now; job kept queued');
      await noteStatus(err.status);
      await scheduleRetry(ctx, job, reason, err.retryAfterMs ?? printRetryDelay(waitingFor(ctx, job), options.random), err.maybeDelivered);
    } else if (err instanceof PrintJobFailedError && !err.permanent && job.attempts < MAX_JOB_ERRORS) {
      await noteStatus(err.status);
      await scheduleRetry(ctx, job, err.message, printRetryDelay(waitingFor(ctx, job), options.random), false);
    } else {
      if (err instanceof PrintJobFailedError) await noteStatus(err.status);
      else if (!(err instanceof NothingToPrintError)) ctx.log.error({ err, print_job_id: job.id }, 'print job failed unexpectedly');
      await finish(ctx, job, { status: 'failed', error: (err as Error).message, leaseUntil: null, nextAttemptAt: null });
    }
  }
}
