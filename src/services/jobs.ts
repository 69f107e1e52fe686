import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { inTransaction } from '../store/db.js';
import { jobs } from '../store/schema.js';
import type { ServiceContext } from './context.js';

export type JobRow = typeof jobs.$inferSelect;

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
export function enqueueJob(ctx: ServiceContext, input: EnqueueInput): void {
  const now = ctx.clock.now();
  const runAt = input.runAt ?? now;
  ctx.db.insert(jobs).values({
    id: ctx.ids('job'), kind: input.kind, subjectId: input.subjectId, state: 'queued', attempts: 0,
    maxAttempts: input.maxAttempts, runAt, leaseUntil: null, lastError: null, createdAt: now, updatedAt: now,
  }).onConflictDoUpdate({
    target: [jobs.kind, jobs.subjectId],
    // a running job keeps its claim; it will see the new state when it records its outcome
    set: {
      state: sql`CASE WHEN ${jobs.state} = 'running' THEN 'running' ELSE 'queued' END`,
      attempts: sql`CASE WHEN ${jobs.state} = 'running' THEN ${jobs.attempts} ELSE 0 END`,
      maxAttempts: input.maxAttempts, runAt: sql`min(${jobs.runAt}, ${runAt})`, updatedAt: now,
    },
  }).run();
  ctx.notices.emit(JOBS_QUEUED);
}

/** Notice sent when work was queued; listeners must not touch the store synchronously (the queuing transaction is open). */
export const JOBS_QUEUED = 'jobs:queued';

/** Drops a subject's waiting job (e.g. the shipment was deleted). */
export function cancelJob(ctx: ServiceContext, kind: string, subjectId: string): void {
  ctx.db.delete(jobs).where(and(eq(jobs.kind, kind), eq(jobs.subjectId, subjectId))).run();
}

export function findJob(ctx: ServiceContext, kind: string, subjectId: string): JobRow | undefined {
  return ctx.db.select().from(jobs).where(and(eq(jobs.kind, kind), eq(jobs.subjectId, subjectId))).get();
}

/**
 * Claims up to `limit` due jobs of these kinds for `leaseMs`. A running job whose lease expired belongs to a
 * worker that died; it is claimed again.
 */
export function claimJobs(ctx: ServiceContext, kinds: readonly string[], limit: number, leaseMs: number): JobRow[] {
  if (limit <= 0) return [];
  const now = ctx.clock.now();
  const due = or(
    and(eq(jobs.state, 'queued'), lte(jobs.runAt, now)),
    and(eq(jobs.state, 'running'), lte(jobs.leaseUntil, now)),
  );
  return inTransaction(ctx.db, () => {
    const ids = ctx.db.select({ id: jobs.id }).from(jobs).where(and(inArray(jobs.kind, [...kinds]), due))
      .orderBy(jobs.runAt).limit(limit).all().map((r) => r.id);
    if (ids.length === 0) return [];
    return ctx.db.update(jobs)
      .set({ state: 'running', attempts: sql`${jobs.attempts} + 1`, leaseUntil: now + leaseMs, updatedAt: now })
      .where(inArray(jobs.id, ids)).returning().all();
  });
}

/** The job's work is done: its row goes. */
export function completeJob(ctx: ServiceContext, id: string): void {
  ctx.db.delete(jobs).where(eq(jobs.id, id)).run();
}

export function retryJob(ctx: ServiceContext, id: string, runAt: number, error: string): void {
  ctx.db.update(jobs).set({ state: 'queued', runAt, leaseUntil: null, lastError: error, updatedAt: ctx.clock.now() })
    .where(eq(jobs.id, id)).run();
}

export function failJob(ctx: ServiceContext, id: string, error: string): void {
  ctx.db.update(jobs).set({ state: 'failed', leaseUntil: null, lastError: error, updatedAt: ctx.clock.now() })
    .where(eq(jobs.id, id)).run();
}

/** At start-up every running job belongs to a process that is gone (one daemon per data directory). */
export function releaseOrphanedJobs(ctx: ServiceContext): number {
  const now = ctx.clock.now();
  return ctx.db.update(jobs).set({ state: 'queued', leaseUntil: null, runAt: now, updatedAt: now })
    .where(eq(jobs.state, 'running')).run().changes;
}

/** Earliest time a queued job becomes due, for the worker to sleep until then. */
export function nextDueAt(ctx: ServiceContext, kinds: readonly string[]): number | undefined {
  const row = ctx.db.select({ at: sql<number>`min(coalesce(${jobs.leaseUntil}, ${jobs.runAt}))` }).from(jobs)
    .where(and(inArray(jobs.kind, [...kinds]), inArray(jobs.state, ['queued', 'running']))).get();
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
