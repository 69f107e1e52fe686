import { and, count, desc, eq, or, type SQL } from 'drizzle-orm';
import { parsePrinterUri, type PrintFormat } from '../../../printers/index.js';
import { isoTime, isoTimeOrNull } from '../../domain/clock.js';
import { FieldErrorCollector, ValidationError } from '../../domain/errors.js';
import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import { renderTestLabelOffThread } from '../../labels/index.js';
import { accounts, printJobs } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { noticeDeskChange } from '../desk-changes.js';
import { workQueued } from '../jobs.js';
import { owned } from '../ownership.js';
import type { ShipmentRow } from '../shipments/records.js';
import { getPrinterRow, holds, loadPrinterRow, PRINT_JOBS, printerFormats, wakePrinterQueue, type PrinterRow } from './printers.js';
import { announce } from '../notices.js';

export type PrintJobRow = typeof printJobs.$inferSelect;
export type PrintJobStatus = PrintJobRow['status'];
export const PRINT_JOB_STATUSES: readonly PrintJobStatus[] = ['queued', 'printing', 'printed', 'failed'];
export const MAX_COPIES = 20;
/** A job that cannot print is retried for this long after it was queued, then failed. */
export const PRINT_JOB_TTL_MS = 24 * 3600_000;

export function presentPrintJob(row: PrintJobRow) {
  // a `printing` job with an error waits to be looked at again; without one it is at the printer right now
  const waiting = row.status === 'queued' || (row.status === 'printing' && row.error !== null);
  return {
    id: row.id,
    kind: row.dispatchId ? 'dispatch_document' as const : row.shipmentIds ? 'shipment_labels' as const : row.content ? 'test_label' as const : 'shipment_label' as const,
    shipment_id: row.shipmentId,
    shipment_ids: row.shipmentIds ?? (row.shipmentId ? [row.shipmentId] : []),
    dispatch_id: row.dispatchId,
    printer_id: row.printerId,
    format: row.format,
    copies: row.copies,
    layout: row.layout,
    status: row.status,
    attempts: row.attempts,
    error: row.error,
    next_attempt_at: waiting ? isoTimeOrNull(row.status === 'queued' ? row.nextAttemptAt : row.leaseUntil) : null,
    expires_at: isoTime(row.expiresAt),
    created_at: isoTime(row.createdAt),
    printed_at: isoTimeOrNull(row.printedAt),
  };
}

export type PrintJobView = ReturnType<typeof presentPrintJob>;

export interface QueuePrintInput {
  accountId: string;
  printerId: string;
  format: PrintFormat;
  copies: number;
  shipmentId?: string | null;
  content?: Buffer | null;
  /** The shipments a merged job's content holds. */
  shipmentIds?: string[] | null;
  /** The dispatch whose hand-over document the content is. */
  dispatchId?: string | null;
  layout?: 'a4' | null;
  id?: string;
}

/**
 * Writes a print job as a queued row (call it inside the transaction of the change that needs it). A printer whose
 * queue waits out a backoff is asked again at once: someone wants it to print now.
 */
export async function queuePrintJob(ctx: ServiceContext, input: QueuePrintInput): Promise<PrintJobRow> {
  const now = ctx.clock.now();
  const row: PrintJobRow = {
    id: input.id ?? ctx.ids('printJob'), accountId: input.accountId, shipmentId: input.shipmentId ?? null, printerId: input.printerId,
    format: input.format, copies: input.copies, content: input.content ?? null, shipmentIds: input.shipmentIds ?? null, dispatchId: input.dispatchId ?? null, layout: input.layout ?? null, status: 'queued',
    attempts: 0, error: null, nextAttemptAt: now, expiresAt: now + PRINT_JOB_TTL_MS, leaseUntil: null, leaseOwner: null, createdAt: now, printedAt: null,
  };
  await ctx.db.insert(printJobs).values(row).run();
  await wakePrinterQueue(ctx, input.printerId, now);
  announce(ctx, workQueued(PRINT_JOBS));
  noticeDeskChange(ctx, { accountId: row.accountId, kind: 'print_job', id: row.id });
  return row;
}

/**
 * Checks a `{printer_id, copies}` print request for a label format: the printer must be this account's and take the
 * format; 1..20 copies. Problems go to `errors` under `<prefix>.printer_id` / `<prefix>.copies`.
 */
export async function checkPrintRequest(
  ctx: ServiceContext, accountId: string, request: { printer_id?: unknown; copies?: unknown }, format: PrintFormat, errors: FieldErrorCollector, prefix = 'print',
): Promise<PrinterRow | undefined> {
  const at = (field: string) => (prefix ? `${prefix}.${field}` : field);
  const copies = request.copies ?? 1;
  if (typeof copies !== 'number' || !Number.isInteger(copies) || copies < 1 || copies > MAX_COPIES) errors.add(at('copies'), `must be an integer from 1 to ${MAX_COPIES}`);
  if (typeof request.printer_id !== 'string') return undefined;
  const printer = await loadPrinterRow(ctx, request.printer_id);
  if (!printer || printer.accountId !== accountId) {
    errors.add(at('printer_id'), 'is not a printer of this account');
    return undefined;
  }
  if (!printerFormats(printer).includes(format)) {
    errors.add(at('printer_id'), `printer ${printer.name} takes ${printerFormats(printer).join(', ')} labels, not ${format}`);
    return undefined;
  }
  return printer;
}

/** The `print` of a shipment's creation, once its label exists (called in the transaction that stores the label). */
export async function queuePrintOnCreate(ctx: ServiceContext, shipment: ShipmentRow): Promise<void> {
  const request = shipment.printRequest as { printer_id?: string; copies?: number } | null;
  if (!request?.printer_id) return;
  const errors = new FieldErrorCollector();
  const printer = await checkPrintRequest(ctx, shipment.accountId, request, shipment.labelFormat, errors);
  if (!printer) {
    // the printer went away (or changed formats) after the shipment was accepted; the label stays available
    ctx.log.warn({ shipment_id: shipment.id, printer_id: request.printer_id, errors: errors.errors }, 'print on create skipped');
    return;
  }
  await queuePrintJob(ctx, { accountId: shipment.accountId, printerId: printer.id, shipmentId: shipment.id, format: shipment.labelFormat, copies: request.copies ?? 1 });
}

/** `POST /v1/printers/{id}/test`: one test label per format the printer takes (or those asked for). */
export async function printTestLabels(ctx: ServiceContext, accountId: string, printerId: string, formats?: PrintFormat[]): Promise<PrintJobView[]> {
  const printer = await getPrinterRow(ctx, accountId, printerId);
  const parsed = parsePrinterUri(printer.uri);
  // a URI stored by an older version may be one no driver can use: say so now, not as a failed job later
  if ('error' in parsed) throw new ValidationError({ uri: [`${parsed.error}; change the printer's URI before printing to it`] });
  const takes = printerFormats(printer);
  const asked = formats && formats.length > 0 ? [...new Set(formats)] : takes;
  const refused = asked.filter((f) => !takes.includes(f));
  if (refused.length) throw new ValidationError({ formats: [`printer ${printer.name} takes ${takes.join(', ')}, not ${refused.join(', ')}`] });
  const station = (await ctx.db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId)).get())?.name ?? 'packdesk';
  const at = isoTime(ctx.clock.now());
  const jobs = await Promise.all(asked.map(async (format) => {
    const id = ctx.ids('printJob');
    const content = await renderTestLabelOffThread(format, { stationName: station, printerName: printer.name, barcode: id, at });
    return { id, format, content };
  }));
  return ctx.store.transaction(async () => {
    const queued: PrintJobView[] = [];
    for (const j of jobs) queued.push(presentPrintJob(await queuePrintJob(ctx, { ...j, accountId, printerId, copies: 1 })));
    return queued;
  });
}

export interface PrintJobFilters {
  status?: string;
  printer_id?: string;
  shipment_id?: string;
}

export async function listPrintJobs(ctx: ServiceContext, accountId: string, filters: PrintJobFilters, page: PageRequest) {
  const where: SQL[] = [eq(printJobs.accountId, accountId)];
  if (filters.status) where.push(eq(printJobs.status, filters.status as PrintJobStatus));
  if (filters.printer_id) where.push(eq(printJobs.printerId, filters.printer_id));
  if (filters.shipment_id) {
    // its own jobs, and the merged jobs that hold its label
    where.push(or(eq(printJobs.shipmentId, filters.shipment_id), holds(ctx, printJobs.shipmentIds, filters.shipment_id))!);
  }
  const condition = and(...where);
  const total = (await ctx.db.select({ n: count() }).from(printJobs).where(condition).get())!.n;
  const rows = await ctx.db.select().from(printJobs).where(condition)
    .orderBy(desc(printJobs.createdAt), desc(printJobs.id)).limit(page.perPage).offset(offsetOf(page)).all();
  return { items: rows.map(presentPrintJob), total };
}

export function loadPrintJobRow(ctx: ServiceContext, id: string): Promise<PrintJobRow | undefined> {
  return ctx.db.select().from(printJobs).where(eq(printJobs.id, id)).get();
}

export async function getPrintJob(ctx: ServiceContext, accountId: string, id: string): Promise<PrintJobView> {
  return presentPrintJob(owned(await loadPrintJobRow(ctx, id), accountId, 'Print job', id));
}

/** Queues a failed job again, with a new 24 h window. */
export async function retryPrintJob(ctx: ServiceContext, accountId: string, id: string): Promise<PrintJobView> {
  // checked and queued again in one transaction, so two retries cannot both pass the check
  const retried = await ctx.store.transaction(async () => {
    const row = owned(await loadPrintJobRow(ctx, id), accountId, 'Print job', id);
    if (row.status !== 'failed') throw new ValidationError({ status: [`only a failed print job can be retried (this one is ${row.status})`] });
    const now = ctx.clock.now();
    await ctx.db.update(printJobs).set({ status: 'queued', attempts: 0, error: null, nextAttemptAt: now, expiresAt: now + PRINT_JOB_TTL_MS, leaseUntil: null })
      .where(eq(printJobs.id, id)).run();
    await wakePrinterQueue(ctx, row.printerId, now);
    return (await loadPrintJobRow(ctx, id))!;
  });
  announce(ctx, workQueued(PRINT_JOBS));
  noticeDeskChange(ctx, { accountId, kind: 'print_job', id });
  return presentPrintJob(retried);
}
