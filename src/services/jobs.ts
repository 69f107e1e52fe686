import { and, eq, inArray } from 'drizzle-orm';
import { jobs } from '../store/schema.js';
import type { ServiceContext } from './context.js';
import { announce } from './notices.js';

export type JobRow = typeof jobs.$inferSelect;

/** A job row in the shape of JobRow, for the statements the workers run on every claim. */
const JOB_COLUMNS = `id, kind, subject_id AS "subjectId", state, attempts, max_attempts AS "maxAttempts", run_at AS "runAt",
  lease_until AS "leaseUntil", last_error AS "lastError", created_at AS "createdAt", updated_at AS "updatedAt"`;

export interface EnqueueInput {
  kind: string;
  subjectId: string;
  runAt?: number;
  maxAttempts: number;
}

/**
 * Queues work on a subject. Call it inside the transaction of the change that needs the work. One job per
 * (kind, subject): queuing again while one waits makes it due sooner and resets its attempts.
 */
export async function enqueueJob(ctx: ServiceContext, input: EnqueueInput): Promise<void> {
  const now = ctx.clock.now();
  const runAt = input.runAt ?? now;
  // a running job keeps its claim; it will see the new state when it records its outcome
  await ctx.store.run(`INSERT INTO jobs (id, kind, subject_id, state, attempts, max_attempts, run_at, lease_until, last_error, created_at, updated_at)
    VALUES (?, ?, ?, 'queued', 0, ?, ?, NULL, NULL, ?, ?)
    ON CONFLICT (kind, subject_id) DO UPDATE SET
      state = CASE WHEN jobs.state = 'running' THEN 'running' ELSE 'queued' END,
      attempts = CASE WHEN jobs.state = 'running' THEN jobs.attempts ELSE 0 END,
      max_attempts = excluded.max_attempts, updated_at = excluded.updated_at,
      run_at = CASE WHEN jobs.run_at < excluded.run_at THEN jobs.run_at ELSE excluded.run_at END`,
    ctx.ids('job'), input.kind, input.subjectId, input.maxAttempts, runAt, now, now);
  announce(ctx, JOBS_QUEUED);
}

/** Notice sent when queued work was committed. */
export const JOBS_QUEUED = 'jobs:queued';

/** Drops a subject's waiting job (e.g. the shipment was deleted). */
export async function cancelJob(ctx: ServiceContext, kind: string, subjectId: string): Promise<void> {
  await ctx.db.delete(jobs).where(and(eq(jobs.kind, kind), eq(jobs.subjectId, subjectId))).run();
}

export function findJob(ctx: ServiceContext, kind: string, subjectId: string): Promise<JobRow | undefined> {
  return ctx.db.select().from(jobs).where(and(eq(jobs.kind, kind), eq(jobs.subjectId, subjectId))).get();
}

/**
 * Claims up to `limit` due jobs of these kinds for `leaseMs`, in one statement. A running job whose lease expired
 * belongs to a worker that died; it is claimed again. Daemons sharing a store pass over each other's claims.
 */
export function claimJobs(ctx: ServiceContext, kinds: readonly string[], limit: number, leaseMs: number): Promise<JobRow[]> {
  if (limit <= 0) return Promise.resolve([]);
  const now = ctx.clock.now();
  return ctx.store.all<JobRow>(`UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_until = ?, updated_at = ?
    WHERE id IN (SELECT id FROM jobs WHERE kind IN (${kinds.map(() => '?').join(', ')})
      AND ((state = 'queued' AND run_at <= ?) OR (state = 'running' AND lease_until <= ?)) ORDER BY run_at LIMIT ?${ctx.store.sql.skipLocked})
    RETURNING ${JOB_COLUMNS}`, now + leaseMs, now, ...kinds, now, now, limit);
}

/** Moves the leases of running jobs on to `until`: their worker is alive and still at them. */
export async function renewJobLeases(ctx: ServiceContext, ids: readonly string[], until: number): Promise<void> {
  await ctx.db.update(jobs).set({ leaseUntil: until }).where(and(eq(jobs.state, 'running'), inArray(jobs.id, [...ids]))).run();
}

/** The job's work is done: its row goes. */
export async function completeJob(ctx: ServiceContext, id: string): Promise<void> {
  await ctx.store.run('DELETE FROM jobs WHERE id = ?', id);
}

export async function retryJob(ctx: ServiceContext, id: string, runAt: number, error: string): Promise<void> {
  await ctx.db.update(jobs).set({ state: 'queued', runAt, leaseUntil: null, lastError: error, updatedAt: ctx.clock.now() })
    .where(eq(jobs.id, id)).run();
}

export async function failJob(ctx: ServiceContext, id: string, error: string): Promise<void> {
  await ctx.db.update(jobs).set({ state: 'failed', leaseUntil: null, lastError: error, updatedAt: ctx.clock.now() })
    .where(eq(jobs.id, id)).run();
}

/** At start-up every running job belongs to a process that is gone (one daemon per data directory). */
export async function releaseOrphanedJobs(ctx: ServiceContext): Promise<number> {
  if (ctx.store.shared) return 0; // another daemon's claims: they are taken again when their leases run out
  const now = ctx.clock.now();
  return (await ctx.db.update(jobs).set({ state: 'queued', leaseUntil: null, runAt: now, updatedAt: now })
    .where(eq(jobs.state, 'running')).returning({ id: jobs.id })).length;
}

/** Earliest time a queued job becomes due, for the worker to sleep until then. */
export async function nextDueAt(ctx: ServiceContext, kinds: readonly string[]): Promise<number | undefined> {
  const row = await ctx.store.get<{ at: number | null }>(`SELECT min(coalesce(lease_until, run_at)) AS at FROM jobs
    WHERE kind IN (${kinds.map(() => '?').join(', ')}) AND state IN ('queued', 'running')`, ...kinds);
  return row?.at ?? undefined;
}

/**
 * Exponential backoff with "equal jitter": attempt n waits between half and all of min(cap, base·2^(n-1)).
 * `random` is injected so tests can pin it.
 */
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** What a job handler reports; the worker records it on the job row. */
export type JobOutcome =
  | { result: 'done' }
  | { result: 'retry'; at: number; error: string }
  | { result: 'fail'; error: string };
