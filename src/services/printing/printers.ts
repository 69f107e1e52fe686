import { and, count, desc, eq, gt, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import {
  formatsForScheme, NO_STATUS_ANSWER, parsePrinterUri, printerDriver, PRINT_FORMATS, STATUS_QUERIES, statusQueriesForScheme, unreachableStatus,
  type DriverOptions, type PrinterDriver, type PrinterStatus, type PrintFormat, type StatusQuery,
} from '../../../printers/index.js';
import { isoTime, isoTimeOrNull } from '../../domain/clock.js';
import { DEFAULT_LABEL_DPI, type LabelDpi } from '../../domain/labels.js';
import { FieldErrorCollector } from '../../domain/errors.js';
import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import { printers, printJobs } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { movesHere } from '../daemons.js';
import { noticeDeskChange } from '../desk-changes.js';
import { checkDirectoryPlace, filePrinterDirectory, prepareDirectory } from '../file-places.js';
import { bindIdempotentResource } from '../idempotency.js';
import { workQueued } from '../jobs.js';
import { announce } from '../notices.js';
import { owned } from '../ownership.js';

/** The print queue's kind of work (`workQueued`). */
export const PRINT_JOBS = 'print';

export type PrinterRow = typeof printers.$inferSelect;
export type PrinterState = PrinterRow['status'];
export const PRINTER_STATES: readonly PrinterState[] = ['ready', 'offline', 'unknown'];

/** Time limit of a status check asked for by a person (GET one, create). */
export const STATUS_CHECK_TIMEOUT_MS = 3000;
/** A status that did not change is written again only this often (keeps the print queue from rewriting the row per job). */
const STATUS_REWRITE_MS = 10_000;

/** A JSON array column (a printer's formats or default_for, a merged print job's shipment_ids) holds `value`. */
export function holds(ctx: ServiceContext, column: AnyColumn, value: string): SQL {
  return sql`exists (select 1 from ${ctx.store.sql.jsonValues(sql`${column}`)} where value = ${value})`;
}

const formatsOf = (value: unknown): PrintFormat[] => (Array.isArray(value) ? (value as PrintFormat[]) : []);

export function presentPrinter(row: PrinterRow) {
  const status = row.statusDetail as PrinterStatus | null;
  return {
    id: row.id,
    station: row.station,
    name: row.name,
    uri: row.uri,
    formats: formatsOf(row.formats),
    default_for: formatsOf(row.defaultFor),
    dpi: row.dpi,
    status: row.status,
    status_query: row.statusQuery,
    status_detail: status ? { reachable: status.reachable, problems: status.problems, message: status.message, ...status.detail } : null,
    last_seen_at: isoTimeOrNull(row.lastSeenAt),
    created_at: isoTime(row.createdAt),
    updated_at: isoTime(row.updatedAt),
  };
}

export type PrinterView = ReturnType<typeof presentPrinter>;

export function loadPrinterRow(ctx: ServiceContext, id: string): Promise<PrinterRow | undefined> {
  return ctx.db.select().from(printers).where(eq(printers.id, id)).get();
}

export async function getPrinterRow(ctx: ServiceContext, accountId: string, id: string): Promise<PrinterRow> {
  return owned(await loadPrinterRow(ctx, id), accountId, 'Printer', id);
}

export function printerFormats(row: PrinterRow): PrintFormat[] {
  return formatsOf(row.formats);
}

/** The driver of a printer whose URI parsed, asking it as its `status_query` says. */
export function driverOf(row: PrinterRow, uri: URL, timing: Pick<DriverOptions, 'timeoutMs' | 'completionWaitMs'>): Promise<PrinterDriver> {
  return printerDriver(uri, { formats: printerFormats(row), statusQuery: row.statusQuery, ...timing });
}

/** A raw printer that took the connection but did not answer `~HS`: its status tells how to stop asking it. */
export function withStatusQueryHint(printerId: string, status: PrinterStatus): PrinterStatus {
  if (!status.problems.includes(NO_STATUS_ANSWER)) return status;
  return { ...status, message: `${status.message}; if it is not a Zebra, set status_query none (packdesk printers update ${printerId} --status-query none)` };
}

/** The printer's queued jobs that wait out a backoff are due now: someone wants it to print (a new job, a retry, a fix). */
export async function wakePrinterQueue(ctx: ServiceContext, printerId: string, now: number): Promise<void> {
  await ctx.db.update(printJobs).set({ nextAttemptAt: now })
    .where(and(eq(printJobs.printerId, printerId), eq(printJobs.status, 'queued'), gt(printJobs.nextAttemptAt, now))).run();
}

/** The account's default printer for a label format. */
export function defaultPrinterFor(ctx: ServiceContext, accountId: string, format: PrintFormat): Promise<PrinterRow | undefined> {
  return ctx.db.select().from(printers)
    .where(and(eq(printers.accountId, accountId), holds(ctx, printers.defaultFor, format)))
    .get();
}

/** Writes what a printer said: its state, the detail, and when it was last reachable. */
export async function recordPrinterStatus(ctx: ServiceContext, printerId: string, said: PrinterStatus): Promise<void> {
  const now = ctx.clock.now();
  const status = withStatusQueryHint(printerId, said);
  const row = await ctx.db.select({ accountId: printers.accountId, status: printers.status, detail: printers.statusDetail, seen: printers.lastSeenAt })
    .from(printers).where(eq(printers.id, printerId)).get();
  if (!row) return;
  const unchanged = row.status === status.state && JSON.stringify(row.detail) === JSON.stringify(status);
  if (unchanged && (!status.reachable || (row.seen !== null && now - row.seen < STATUS_REWRITE_MS))) return;
  await ctx.db.update(printers).set({
    status: status.state, statusDetail: status, ...(status.reachable ? { lastSeenAt: now } : {}),
  }).where(eq(printers.id, printerId)).run();
  if (!unchanged) noticeDeskChange(ctx, { accountId: row.accountId, kind: 'printer', id: printerId });
}

/**
 * Why the daemon may not write to a `file:` printer's directory now (the files policy, asked each time: a row of an
 * older version, a symbolic link changed since), as the status a person reads; the directory is created when it may.
 * Undefined for a usable directory and for other schemes.
 */
export async function refusedPrinterDirectory(ctx: ServiceContext, row: Pick<PrinterRow, 'accountId' | 'uri'>): Promise<PrinterStatus | undefined> {
  const dir = filePrinterDirectory(row.uri);
  if (dir === undefined) return undefined;
  const problems = await prepareDirectory(ctx, row.accountId, dir);
  if (problems.length === 0) return undefined;
  return unreachableStatus(`the printer directory ${dir} ${problems.join('; ')}`, { protocol: 'file', directory: dir });
}

/** Asks the printer now (bounded by `timeoutMs`) and records the answer. */
export async function refreshPrinterStatus(ctx: ServiceContext, row: PrinterRow, timeoutMs = STATUS_CHECK_TIMEOUT_MS): Promise<PrinterRow> {
  const parsed = parsePrinterUri(row.uri);
  const status = 'error' in parsed
    ? unreachableStatus(`the printer URI cannot be used: ${parsed.error}`)
    : (await refusedPrinterDirectory(ctx, row)) ?? await (await driverOf(row, parsed.uri, { timeoutMs })).status();
  await recordPrinterStatus(ctx, row.id, status);
  return (await loadPrinterRow(ctx, row.id)) ?? row;
}

export async function getPrinter(ctx: ServiceContext, accountId: string, id: string, refresh: boolean): Promise<PrinterView> {
  const row = await getPrinterRow(ctx, accountId, id);
  return presentPrinter(refresh ? await refreshPrinterStatus(ctx, row) : row);
}

export interface PrinterFilters {
  format?: string;
  default_for?: string;
  status?: string;
}

export async function listPrinters(ctx: ServiceContext, accountId: string, filters: PrinterFilters, page: PageRequest) {
  const where: SQL[] = [eq(printers.accountId, accountId)];
  if (filters.format) where.push(holds(ctx, printers.formats, filters.format));
  if (filters.default_for) where.push(holds(ctx, printers.defaultFor, filters.default_for));
  if (filters.status) where.push(eq(printers.status, filters.status as PrinterState));
  const condition = and(...where);
  const total = (await ctx.db.select({ n: count() }).from(printers).where(condition).get())!.n;
  const rows = await ctx.db.select().from(printers).where(condition)
    .orderBy(desc(printers.createdAt), desc(printers.id)).limit(page.perPage).offset(offsetOf(page)).all();
  return { items: rows.map(presentPrinter), total };
}

export interface PrinterInput {
  name?: string;
  uri?: string;
  formats?: string[];
  default_for?: string[];
  dpi?: LabelDpi;
  status_query?: StatusQuery;
  /** Moves the printer to this daemon's station (only that one). */
  station?: string;
}

async function nameTaken(ctx: ServiceContext, accountId: string, name: string, exceptId?: string): Promise<boolean> {
  const row = await ctx.db.select({ id: printers.id }).from(printers).where(and(eq(printers.accountId, accountId), eq(printers.name, name))).get();
  return row !== undefined && row.id !== exceptId;
}

/**
 * Checks name, URI, formats and defaults together (missing ones are reported as the schema reports them); a `file:`
 * directory must be one the files policy lets the account use (checked when `placeChanged`).
 */
async function checkPrinterInput(ctx: ServiceContext, accountId: string, input: PrinterInput, errors: FieldErrorCollector, placeChanged: boolean, exceptId?: string) {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (input.name === undefined) errors.add('name', 'is required');
  else if (typeof input.name === 'string' && !name) errors.add('name', 'must not be empty');
  if (name && await nameTaken(ctx, accountId, name, exceptId)) errors.add('name', 'is already used by another printer');
  if (input.uri === undefined) errors.add('uri', 'is required');
  const parsed = typeof input.uri === 'string' ? parsePrinterUri(input.uri.trim()) : undefined;
  if (parsed && 'error' in parsed) errors.add('uri', parsed.error);
  if (input.formats === undefined) errors.add('formats', 'is required');
  const formats = [...new Set(Array.isArray(input.formats) ? input.formats : [])] as PrintFormat[];
  if (Array.isArray(input.formats) && formats.length === 0) errors.add('formats', 'must not be empty');
  if (parsed && 'uri' in parsed) {
    const takes = formatsForScheme(parsed.uri);
    // unknown format names are the schema's to report
    const refused = formats.filter((f) => PRINT_FORMATS.includes(f) && !takes.includes(f));
    if (refused.length) errors.add('formats', `a ${parsed.uri.protocol.replace(/:$/, '')} printer takes ${takes.join(', ')}, not ${refused.join(', ')}`);
  }
  const defaultFor = [...new Set(Array.isArray(input.default_for) ? input.default_for : [])] as PrintFormat[];
  const notTaken = defaultFor.filter((f) => !formats.includes(f));
  if (notTaken.length && Array.isArray(input.formats)) errors.add('default_for', `${notTaken.join(', ')} ${notTaken.length === 1 ? 'is' : 'are'} not among the printer's formats`);
  const statusQueries = parsed && 'uri' in parsed ? statusQueriesForScheme(parsed.uri) : STATUS_QUERIES;
  // an unknown status_query is the schema's to report
  if (parsed && 'uri' in parsed && input.status_query && STATUS_QUERIES.includes(input.status_query) && !statusQueries.includes(input.status_query)) {
    errors.add('status_query', `${input.status_query} is for raw socket printers (tcp://…) that do not answer ~HS; ${parsed.uri.protocol.replace(/:$/, '')} printers take ${statusQueries.join(', ')}`);
  }
  const dir = parsed && 'uri' in parsed && placeChanged && !errors.errors.uri ? filePrinterDirectory(parsed.uri.href) : undefined;
  if (dir !== undefined) for (const problem of (await checkDirectoryPlace(ctx, accountId, dir)).problems) errors.add('uri', problem);
  errors.throwIfAny();
  return { name, uri: parsed && 'uri' in parsed ? parsed.uri.href : '', formats, defaultFor, statusQueries };
}

/** One default printer per format and account: taking a format as default takes it from the others. */
async function takeDefaults(ctx: ServiceContext, accountId: string, printerId: string, formats: PrintFormat[]): Promise<void> {
  for (const format of formats) {
    await ctx.db.update(printers)
      .set({ defaultFor: sql`(select coalesce(${ctx.store.sql.jsonArrayOf}, '[]') from ${ctx.store.sql.jsonValues(sql`${printers.defaultFor}`)} where value != ${format})` })
      .where(and(eq(printers.accountId, accountId), sql`${printers.id} != ${printerId}`, holds(ctx, printers.defaultFor, format)))
      .run();
  }
}

export async function createPrinter(ctx: ServiceContext, accountId: string, input: PrinterInput, errors = new FieldErrorCollector()): Promise<PrinterView> {
  const checked = await checkPrinterInput(ctx, accountId, input, errors, true);
  const now = ctx.clock.now();
  const row: PrinterRow = {
    id: ctx.ids('printer'), accountId, station: ctx.station, name: checked.name, uri: checked.uri, formats: checked.formats, defaultFor: checked.defaultFor,
    dpi: input.dpi ?? DEFAULT_LABEL_DPI, status: 'unknown', statusQuery: input.status_query ?? 'auto', statusDetail: null, lastSeenAt: null, createdAt: now, updatedAt: now,
  };
  await ctx.store.transaction(async () => {
    await ctx.db.insert(printers).values(row).run();
    await takeDefaults(ctx, accountId, row.id, checked.defaultFor);
    await bindIdempotentResource(ctx, `/v1/printers/${row.id}`);
  });
  return presentPrinter(await refreshPrinterStatus(ctx, row));
}

export async function updatePrinter(ctx: ServiceContext, accountId: string, id: string, patch: PrinterInput, errors = new FieldErrorCollector()): Promise<PrinterView> {
  const row = await getPrinterRow(ctx, accountId, id);
  const formats = patch.formats ?? printerFormats(row);
  // defaults the printer no longer takes are dropped unless the patch names its defaults itself (a formats value of the
  // wrong type is the schema's to report)
  const defaultFor = patch.default_for ?? formatsOf(row.defaultFor).filter((f) => Array.isArray(formats) && formats.includes(f));
  const uri = patch.uri ?? row.uri;
  const input = { name: patch.name ?? row.name, uri, formats, default_for: defaultFor, status_query: patch.status_query };
  const moving = movesHere(ctx, row, patch.station, errors);
  // a printer moved to this station is reached from this machine: its place is checked here
  const checked = await checkPrinterInput(ctx, accountId, input, errors, uri !== row.uri || moving, id);
  const now = ctx.clock.now();
  // a printer moved to a scheme that cannot take its status query is asked as the new scheme allows
  const statusQuery = patch.status_query ?? (checked.statusQueries.includes(row.statusQuery) ? row.statusQuery : 'auto');
  const reachedAnew = moving || checked.uri !== row.uri || statusQuery !== row.statusQuery;
  await ctx.store.transaction(async () => {
    await ctx.db.update(printers).set({
      name: checked.name, uri: checked.uri, formats: checked.formats, defaultFor: checked.defaultFor, statusQuery, updatedAt: now,
      ...(patch.dpi !== undefined ? { dpi: patch.dpi } : {}),
      ...(moving ? { station: ctx.station } : {}),
      ...(reachedAnew ? { status: 'unknown' as const, statusDetail: null, lastSeenAt: null } : {}),
    }).where(eq(printers.id, id)).run();
    await takeDefaults(ctx, accountId, id, checked.defaultFor);
    // reached another way now: the jobs waiting out a backoff (e.g. for ~HS) are tried again at once
    if (reachedAnew) await wakePrinterQueue(ctx, id, now);
  });
  if (reachedAnew) announce(ctx, workQueued(PRINT_JOBS));
  const fresh = (await loadPrinterRow(ctx, id))!;
  return presentPrinter(reachedAnew ? await refreshPrinterStatus(ctx, fresh) : fresh);
}

/** Deletes the printer; its print jobs go with it (queued ones are never printed). */
export async function deletePrinter(ctx: ServiceContext, accountId: string, id: string): Promise<void> {
  await getPrinterRow(ctx, accountId, id);
  await ctx.db.delete(printers).where(eq(printers.id, id)).run();
}
