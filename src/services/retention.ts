import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { releaseFreePages } from '../store/db.js';
import { SqliteStore } from '../store/store.js';
import type { ServiceContext } from './context.js';
import { loadImportRow, uploadsRoot } from './imports/records.js';

/**
 * Retention: the store keeps the present in full (shipments, parcels, labels, tracking, subscriptions, imports, any
 * queued work) and the past for `retentionDays`. Older than that go: outbox events every subscription has received or
 * given up on, webhook delivery log entries, jobs that failed for good, and the files of uploaded imports. Idempotency
 * keys go after their own 24 h window. Rows go in small batches, each its own short transaction, with the event loop
 * served between batches, so requests and workers carry on during a large prune.
 */
export const DEFAULT_RETENTION_DAYS = 30;
export const DAY_MS = 24 * 60 * 60 * 1000;
/** An idempotency key replays its first response for 24 hours (SPEC §1); after that it is only weight. */
export const IDEMPOTENCY_KEY_TTL_MS = DAY_MS;
/** Rows looked at (and at most deleted) per statement. */
export const PRUNE_BATCH_ROWS = 500;
/** Free pages handed back to the file system per step (4 KiB each): a few milliseconds of work. */
const VACUUM_STEP_PAGES = 256;

/** Times (Unix ms) before which each kind of record goes. */
export interface RetentionCutoffs {
  eventsDispatchedBefore: number;
  webhookLogsBefore: number;
  failedJobsBefore: number;
  idempotencyKeysBefore: number;
  importUploadsFinishedBefore: number;
}

export function retentionCutoffs(retentionDays: number, now: number): RetentionCutoffs {
  const before = now - retentionDays * DAY_MS;
  return {
    eventsDispatchedBefore: before, webhookLogsBefore: before, failedJobsBefore: before,
    idempotencyKeysBefore: now - IDEMPOTENCY_KEY_TTL_MS, importUploadsFinishedBefore: before,
  };
}

/** What one prune run removed. */
export interface PruneReport {
  events: number;
  webhookLogs: number;
  jobs: number;
  idempotencyKeys: number;
  /** Desk sessions and login links past their end. */
  deskSessions: number;
  /** Directories of uploaded import files (the upload, its settings and its result files). */
  importUploads: number;
  /** Pages handed back to the file system after the deletes. */
  freedPages: number;
  ms: number;
}

export interface PruneOptions {
  /** Stops between batches (the daemon is stopping); what was pruned so far stays pruned. */
  signal?: AbortSignal;
  batchRows?: number;
}

/** Where a walk through an index stands, the last key seen: (dispatched_at, created_at, rowid) of events. */
type EventKey = [number, number, number];
/** (created_at, rowid) of one subscription's delivery log entries. */
type LogKey = [number, number];

/**
 * Outbox events dispatched before the cutoff whose deliveries are all finished: delivered (their queue rows are gone
 * already) or given up (`failed` queue rows, removed with the event). An event with a delivery still to do stays.
 */
function pruneEventBatch(ctx: ServiceContext, cutoff: number, after: EventKey, limit: number) {
  return ctx.store.transaction(async () => {
    const page = await ctx.store.all<{ r: number; d: number; c: number }>(`SELECT rowid AS r, dispatched_at AS d, created_at AS c FROM events
      WHERE dispatched_at < ? AND (dispatched_at, created_at, rowid) > (?, ?, ?) ORDER BY dispatched_at, created_at, rowid LIMIT ?`,
    cutoff, ...after, limit);
    if (page.length === 0) return { looked: 0, deleted: 0, last: after };
    const rowids = ctx.store.sql.inList(page.map((row) => row.r));
    // through the event index: SQLite's planner would take the status index and walk every given-up delivery of a dead subscription
    const byEvent = ctx.store.dialect === 'sqlite' ? 'INDEXED BY webhook_queue_event ' : '';
    await ctx.store.run(`DELETE FROM webhook_queue ${byEvent}WHERE status = 'failed' AND event_id IN (
      SELECT e.id FROM events e WHERE e.rowid ${rowids.sql} AND NOT EXISTS (
        SELECT 1 FROM webhook_queue q WHERE q.event_id = e.id AND q.status IN ('pending', 'delivering')))`, rowids.param);
    const deleted = await ctx.store.run(`DELETE FROM events WHERE rowid ${rowids.sql}
      AND NOT EXISTS (SELECT 1 FROM webhook_queue q WHERE q.event_id = events.id)`, rowids.param);
    const last = page[page.length - 1]!;
    return { looked: page.length, deleted, last: [last.d, last.c, last.r] as EventKey };
  });
}

/** Delivery log entries of one subscription from before the cutoff, except a running attempt and those of a delivery still to do. */
function pruneWebhookLogBatch(ctx: ServiceContext, subscriptionId: string, cutoff: number, after: LogKey, limit: number) {
  return ctx.store.transaction(async () => {
    const page = await ctx.store.all<{ r: number; c: number }>(`SELECT rowid AS r, created_at AS c FROM webhook_deliveries
      WHERE subscription_id = ? AND created_at < ? AND (created_at, rowid) > (?, ?) ORDER BY created_at, rowid LIMIT ?`,
    subscriptionId, cutoff, ...after, limit);
    if (page.length === 0) return { looked: 0, deleted: 0, last: after };
    const rowids = ctx.store.sql.inList(page.map((row) => row.r));
    const deleted = await ctx.store.run(`DELETE FROM webhook_deliveries WHERE rowid ${rowids.sql} AND status <> 'pending'
      AND NOT EXISTS (SELECT 1 FROM webhook_queue q WHERE q.subscription_id = webhook_deliveries.subscription_id
        AND q.event_id = webhook_deliveries.event_id AND q.status IN ('pending', 'delivering'))`, rowids.param);
    const last = page[page.length - 1]!;
    return { looked: page.length, deleted, last: [last.c, last.r] as LogKey };
  });
}

/** Deletes by a statement that removes at most `limit` rows per run, until a run removes fewer. */
async function deleteInBatches(ctx: ServiceContext, sql: string, args: unknown[], limit: number, signal?: AbortSignal): Promise<number> {
  let total = 0;
  for (;;) {
    if (signal?.aborted) return total;
    const deleted = await ctx.store.run(sql, ...args, limit);
    total += deleted;
    if (deleted < limit) return total;
    await yieldToEventLoop();
  }
}

async function pruneEvents(ctx: ServiceContext, cutoff: number, limit: number, signal?: AbortSignal): Promise<number> {
  let total = 0;
  let after: EventKey = [-1, -1, -1];
  for (;;) {
    if (signal?.aborted) return total;
    const batch = await pruneEventBatch(ctx, cutoff, after, limit);
    total += batch.deleted;
    if (batch.looked < limit) return total;
    after = batch.last;
    await yieldToEventLoop();
  }
}

async function pruneWebhookLogs(ctx: ServiceContext, cutoff: number, limit: number, signal?: AbortSignal): Promise<number> {
  let total = 0;
  const subscriptions = await ctx.store.all<{ id: string }>('SELECT id FROM webhook_subscriptions');
  for (const { id } of subscriptions) {
    // each subscription is walked through its own (subscription, created_at) index
    let after: LogKey = [-1, -1];
    for (;;) {
      if (signal?.aborted) return total;
      const batch = await pruneWebhookLogBatch(ctx, id, cutoff, after, limit);
      total += batch.deleted;
      after = batch.last;
      if (batch.looked < limit) break;
      await yieldToEventLoop();
    }
  }
  return total;
}

/**
 * Directories of uploaded files (`<data dir>/imports/<import id>/`) of imports finished before the cutoff. The import
 * row stays: it is the record of the import, and its orders' keys keep a later upload of the same file from creating
 * shipments twice. A directory without a row (a crash cut its upload short) goes once it is as old by its own time.
 */
async function pruneImportUploads(ctx: ServiceContext, cutoff: number, retentionMs: number, signal?: AbortSignal): Promise<number> {
  const root = uploadsRoot(ctx);
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let removed = 0;
  for (const entry of entries) {
    if (signal?.aborted) break;
    if (!entry.isDirectory()) continue;
    const dir = join(root, entry.name);
    const row = await loadImportRow(ctx, entry.name);
    const old = row
      ? row.status !== 'processing' && (row.finishedAt ?? row.updatedAt) < cutoff
      // the directory's time is the file system's, so it is compared with the real time
      : (await stat(dir)).mtimeMs < Date.now() - retentionMs;
    if (!old) continue;
    await rm(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** Hands the pages freed by the deletes back to the file system, a step at a time (PostgreSQL's autovacuum does its own). */
async function releaseFreedSpace(ctx: ServiceContext, signal?: AbortSignal): Promise<number> {
  if (!(ctx.store instanceof SqliteStore)) return 0;
  let freed = 0;
  while (!signal?.aborted) {
    const step = releaseFreePages(ctx.store.client, VACUUM_STEP_PAGES);
    freed += step;
    if (step < VACUUM_STEP_PAGES) break;
    await yieldToEventLoop();
  }
  return freed;
}

/** One prune run with the context's policy (`options.retentionDays`) as of `now`. */
export async function pruneOnce(ctx: ServiceContext, now: number = ctx.clock.now(), options: PruneOptions = {}): Promise<PruneReport> {
  const started = performance.now();
  const { signal } = options;
  const limit = options.batchRows ?? PRUNE_BATCH_ROWS;
  const retentionDays = ctx.options.retentionDays;
  const cutoffs = retentionCutoffs(retentionDays, now);
  const webhookLogs = await pruneWebhookLogs(ctx, cutoffs.webhookLogsBefore, limit, signal);
  const events = await pruneEvents(ctx, cutoffs.eventsDispatchedBefore, limit, signal);
  const jobs = await deleteInBatches(ctx, `DELETE FROM jobs WHERE rowid IN (
    SELECT rowid FROM jobs WHERE state = 'failed' AND updated_at < ? LIMIT ?)`, [cutoffs.failedJobsBefore], limit, signal);
  const idempotencyKeys = await deleteInBatches(ctx, `DELETE FROM idempotency_keys WHERE rowid IN (
    SELECT rowid FROM idempotency_keys WHERE created_at < ? LIMIT ?)`, [cutoffs.idempotencyKeysBefore], limit, signal);
  const deskSessions = await deleteInBatches(ctx, `DELETE FROM desk_sessions WHERE rowid IN (
    SELECT rowid FROM desk_sessions WHERE expires_at < ? LIMIT ?)`, [now], limit, signal);
  const importUploads = await pruneImportUploads(ctx, cutoffs.importUploadsFinishedBefore, retentionDays * DAY_MS, signal);
  const freedPages = await releaseFreedSpace(ctx, signal);
  return { events, webhookLogs, jobs, idempotencyKeys, deskSessions, importUploads, freedPages, ms: Math.round(performance.now() - started) };
}
