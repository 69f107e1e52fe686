import { join } from 'node:path';
import { and, count, desc, eq, ne, type SQL } from 'drizzle-orm';
import { isoTime, isoTimeOrNull } from '../../domain/clock.js';
import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import { importedOrders, imports } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { owned } from '../ownership.js';

export type ImportRow = typeof imports.$inferSelect;
export type ImportStatus = ImportRow['status'];
export const IMPORT_STATUSES: readonly ImportStatus[] = ['processing', 'done', 'failed'];

/** The exactly-once scope of an import: its watched folder, or `cli:<account>` for files sent with `packdesk import`. */
export function importSource(row: Pick<ImportRow, 'watchedFolderId' | 'accountId'>): string {
  return row.watchedFolderId ?? `cli:${row.accountId}`;
}

/** Uploaded files (`POST /v1/imports`) are kept beside the store, in the data directory: one directory per import. */
export function uploadsRoot(ctx: ServiceContext): string {
  return join(ctx.dataDir, 'imports');
}

/**
 * Stores how many of the file's rows are finished, as the import goes, so a restart shows it. It never goes back: a
 * resumed import counts again from the start and passes the stored figure as it finds its orders done.
 */
export async function setImportProgress(ctx: ServiceContext, importId: string, rowsDone: number): Promise<void> {
  await ctx.store.run('UPDATE imports SET rows_processed = ?, updated_at = ? WHERE id = ? AND rows_processed < ?',
    rowsDone, ctx.clock.now(), importId, rowsDone);
}

/** Runs of an import that may begin without one ending (the daemon died each time) before it is failed for good. */
export const MAX_IMPORT_RUNS = 3;

/** Counts a run of the import as it begins, and answers how many have begun without ending in an orderly way. */
export async function beginImportRun(ctx: ServiceContext, importId: string): Promise<number> {
  const row = await ctx.store.get<{ attempts: number }>('UPDATE imports SET attempts = attempts + 1 WHERE id = ? RETURNING attempts', importId);
  return Number(row!.attempts);
}

/** A run that stopped in an orderly way (the daemon was stopped) does not count against the import. */
export async function endImportRun(ctx: ServiceContext, importId: string): Promise<void> {
  await ctx.store.run('UPDATE imports SET attempts = attempts - 1 WHERE id = ? AND attempts > 0', importId);
}

/** Orders of the import's file that an earlier import of the same file (same source) had created. */
export async function alreadyImportedOrders(ctx: ServiceContext, row: ImportRow): Promise<number> {
  return (await ctx.db.select({ n: count() }).from(importedOrders)
    .where(and(eq(importedOrders.source, importSource(row)), eq(importedOrders.sha256, row.sha256), ne(importedOrders.importId, row.id)))
    .get())!.n;
}

/** What became of an import's orders, as its result file's lines name them. */
export interface ImportOrderCounts {
  /** Shipments the carrier created (the lines `created`, or a status after it). */
  created: number;
  /** Shipments the carrier refused (`failed`): pending until corrected or retried. */
  refusedByCarrier: number;
  /** Shipments whose carrier step has not finished, or waits to be retried after an outage (`pending`). */
  awaitingCarrier: number;
  /** Orders the import put in the order queue for the packer. */
  queued: number;
}

const NO_ORDERS: ImportOrderCounts = { created: 0, refusedByCarrier: 0, awaitingCarrier: 0, queued: 0 };

/**
 * Counts the orders of the given imports in one statement, from their shipments' status as it is now (a refused
 * shipment corrected and created since counts as created), as result-files.ts tells them apart.
 */
export async function importOrderCounts(ctx: ServiceContext, importIds: readonly string[]): Promise<Map<string, ImportOrderCounts>> {
  const counts = new Map(importIds.map((id) => [id, { ...NO_ORDERS }]));
  if (importIds.length === 0) return counts;
  const ids = importIds.map(() => '?').join(', ');
  const refused = "s.status = 'pending' AND s.failure IS NOT NULL AND s.next_attempt_at IS NULL";
  const rows = await ctx.store.all<{ importId: string; created: number; refused: number; awaiting: number; queued: number }>(`
    SELECT io.import_id AS "importId", count(s.provider_shipment_id) AS created,
      sum(CASE WHEN ${refused} THEN 1 ELSE 0 END) AS refused,
      sum(CASE WHEN s.status = 'pending' AND NOT (${refused}) THEN 1 ELSE 0 END) AS awaiting, 0 AS queued
    FROM imported_orders io JOIN shipments s ON s.id = io.shipment_id WHERE io.import_id IN (${ids}) GROUP BY io.import_id
    UNION ALL
    SELECT import_id AS "importId", 0, 0, 0, count(*) FROM orders WHERE import_id IN (${ids}) GROUP BY import_id`, ...importIds, ...importIds);
  for (const r of rows) {
    const c = counts.get(r.importId)!;
    c.created += r.created;
    c.refusedByCarrier += r.refused;
    c.awaitingCarrier += r.awaiting;
    c.queued += r.queued;
  }
  return counts;
}

/** The import as the API shows it; `counts` as `importOrderCounts` gives them (read for this import when not given). */
export async function presentImport(ctx: ServiceContext, row: ImportRow, counts?: ImportOrderCounts) {
  const finished = row.status !== 'processing';
  const orders = counts ?? (await importOrderCounts(ctx, [row.id])).get(row.id)!;
  return {
    id: row.id,
    watched_folder_id: row.watchedFolderId,
    file_name: row.fileName,
    sha256: row.sha256,
    rows: row.rows,
    rows_processed: finished ? row.rows : Math.min(row.rows, row.rowsProcessed),
    created: orders.created,
    refused_by_carrier: orders.refusedByCarrier,
    awaiting_carrier: orders.awaitingCarrier,
    invalid: row.invalidOrders,
    queued: orders.queued,
    shipments_created: row.shipmentsCreated,
    orders_already_imported: finished ? await alreadyImportedOrders(ctx, row) : 0,
    failed_rows: row.failedRows,
    status: row.status,
    // the files are written when the import finishes
    result_path: finished ? row.resultPath : null,
    errors_path: finished ? row.errorsPath : null,
    created_at: isoTime(row.createdAt),
    updated_at: isoTime(row.updatedAt),
    finished_at: isoTimeOrNull(row.finishedAt),
  };
}

export type ImportView = Awaited<ReturnType<typeof presentImport>>;

export function loadImportRow(ctx: ServiceContext, id: string): Promise<ImportRow | undefined> {
  return ctx.db.select().from(imports).where(eq(imports.id, id)).get();
}

/** The watched folder an import read its file from; null for an upload or no import. */
export async function importFolderOf(ctx: ServiceContext, importId: string | null): Promise<string | null> {
  return importId === null ? null : (await loadImportRow(ctx, importId))?.watchedFolderId ?? null;
}

export async function getImportRow(ctx: ServiceContext, accountId: string, id: string): Promise<ImportRow> {
  return owned(await loadImportRow(ctx, id), accountId, 'Import', id);
}

export interface ImportFilters {
  status?: string;
  watched_folder_id?: string;
}

export async function listImports(ctx: ServiceContext, accountId: string, filters: ImportFilters, page: PageRequest) {
  const where: SQL[] = [eq(imports.accountId, accountId)];
  if (filters.status) where.push(eq(imports.status, filters.status as ImportStatus));
  if (filters.watched_folder_id) where.push(eq(imports.watchedFolderId, filters.watched_folder_id));
  const condition = and(...where);
  const total = (await ctx.db.select({ n: count() }).from(imports).where(condition).get())!.n;
  const rows = await ctx.db.select().from(imports).where(condition)
    .orderBy(desc(imports.createdAt), desc(imports.id)).limit(page.perPage).offset(offsetOf(page)).all();
  const counts = await importOrderCounts(ctx, rows.map((r) => r.id));
  return { items: await Promise.all(rows.map((r) => presentImport(ctx, r, counts.get(r.id)))), total };
}

/** Writes the import's row: the file is taken in, nothing of it done yet. */
export async function startImportRow(ctx: ServiceContext, input: { accountId: string; watchedFolderId: string | null; fileName: string; sha256: string; id?: string }): Promise<ImportRow> {
  const now = ctx.clock.now();
  const row: ImportRow = {
    id: input.id ?? ctx.ids('import'), accountId: input.accountId, watchedFolderId: input.watchedFolderId, fileName: input.fileName,
    sha256: input.sha256, rows: 0, shipmentsCreated: 0, failedRows: 0, invalidOrders: 0, rowsProcessed: 0, attempts: 0, status: 'processing', resultPath: null, errorsPath: null,
    createdAt: now, updatedAt: now, finishedAt: null,
  };
  await ctx.db.insert(imports).values(row).run();
  return row;
}

/** Imports of a folder that were taken in and not finished (a crash, or a stop, came in between). */
export async function unfinishedImports(ctx: ServiceContext, watchedFolderId: string | null): Promise<ImportRow[]> {
  return (await ctx.db.select().from(imports)
    .where(and(eq(imports.status, 'processing'), watchedFolderId === null ? undefined : eq(imports.watchedFolderId, watchedFolderId)))
    .orderBy(imports.createdAt).all())
    .filter((r) => watchedFolderId !== null || r.watchedFolderId === null);
}

/** The latest import of this file content in a folder (to resume it, or to finish moving it). */
export async function updateImportRow(ctx: ServiceContext, id: string, set: Partial<Omit<ImportRow, 'id' | 'accountId' | 'createdAt'>>): Promise<void> {
  await ctx.db.update(imports).set({ ...set, updatedAt: ctx.clock.now() }).where(eq(imports.id, id)).run();
}
