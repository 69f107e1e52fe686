import { and, eq, inArray } from 'drizzle-orm';
import { takeFairShares } from '../domain/fair-shares.js';
import { jobs } from '../store/schema.js';
import type { ServiceContext } from './context.js';
import { claimsLeftBehind } from './leases.js';
import { announce } from './notices.js';

export type JobRow = typeof jobs.$inferSelect;

/** A job row in the shape of JobRow, for the statements the workers run on every claim. */
const JOB_COLUMNS = `id, kind, subject_id AS "subjectId", lane, state, attempts, max_attempts AS "maxAttempts", run_at AS "runAt",
  lease_until AS "leaseUntil", last_error AS "lastError", created_at AS "createdAt", updated_at AS "updatedAt"`;

export interface EnqueueInput {
  kind: string;
  subjectId: string;
  /** The lane the job waits in (see jobLane); work that is not divided leaves it out. */
  lane?: string;
  runAt?: number;
  maxAttempts: number;
}

/**
 * A lane of jobs, `group:key`: the jobs of one key (e.g. a shipping channel) take turns with other lanes, and the
 * lanes of one group (e.g. a provider) share the group's limit.
 */
export function jobLane(group: string, key: string): string {
  return `${group}:${key}`;
}

/** The group of a lane: what comes before its first colon. */
export function laneGroup(lane: string): string {
  const colon = lane.indexOf(':');
  return colon < 0 ? lane : lane.slice(0, colon);
}

/**
 * Queues work on a subject. Call it inside the transaction of the change that needs the work. One job per
 * (kind, subject): queuing again while one waits makes it due sooner and resets its attempts.
 */
export async function enqueueJob(ctx: ServiceContext, input: EnqueueInput): Promise<void> {
  const now = ctx.clock.now();
  const runAt = input.runAt ?? now;
  // a running job keeps its claim; it will see the new state when it records its outcome
  await ctx.store.run(`INSERT INTO jobs (id, kind, subject_id, lane, state, attempts, max_attempts, run_at, lease_until, last_error, created_at, updated_at)
    VALUES (?, ?, ?, ?, 'queued', 0, ?, ?, NULL, NULL, ?, ?)
    ON CONFLICT (kind, subject_id) DO UPDATE SET lane = excluded.lane,
      state = CASE WHEN jobs.state = 'running' THEN 'running' ELSE 'queued' END,
      attempts = CASE WHEN jobs.state = 'running' THEN jobs.attempts ELSE 0 END,
      max_attempts = excluded.max_attempts, updated_at = excluded.updated_at,
      run_at = CASE WHEN jobs.run_at < excluded.run_at THEN jobs.run_at ELSE excluded.run_at END`,
    ctx.ids('job'), input.kind, input.subjectId, input.lane ?? '', input.maxAttempts, runAt, now, now);
  announce(ctx, workQueued(input.kind));
}

/**
 * Notice sent when queued work of one kind was committed (a job kind, or the tracking checks and print jobs the
 * workers of those kinds claim): it wakes that kind's worker only, so creating shipments does not send every other
 * worker to the store.
 */
export const workQueued = (kind: string): string => `jobs:queued:${kind}`;

/** Drops a subject's waiting job (e.g. the shipment was deleted). */
export async function cancelJob(ctx: ServiceContext, kind: string, subjectId: string): Promise<void> {
  await ctx.db.delete(jobs).where(and(eq(jobs.kind, kind), eq(jobs.subjectId, subjectId))).run();
}

export function findJob(ctx: ServiceContext, kind: string, subjectId: string): Promise<JobRow | undefined> {
  return ctx.db.select().from(jobs).where(and(eq(jobs.kind, kind), eq(jobs.subjectId, subjectId))).get();
}

/** How many jobs of a lane, and of all lanes of its group, may be in flight at once; a lane may be paused. */
export interface LaneLimits {
  lane: number;
  group: number;
  /** The lane's far end is unavailable: none of its jobs is claimed before this time. */
  pausedUntil?: number;
}

export interface JobClaimOptions {
  kind: string;
  /** Jobs this process runs at once, shared max-min fair between lane groups, and within a group between its lanes. */
  concurrency: number;
  /** Jobs beyond `concurrency`, one at a time for each lane with none in flight: its next job never waits for a slot. */
  reservedSlots: number;
  /** Jobs this process has in flight, by lane. */
  inFlight: ReadonlyMap<string, number>;
  limits(lane: string): LaneLimits;
  leaseMs: number;
}

export interface ClaimedJobs {
  jobs: JobRow[];
  /** When more work comes due that no slot coming free would start (a paused lane, a retry, a lease), if any. */
  nextDueAt: number | undefined;
}

/** A lane with work, as the claim sees it. */
interface LaneTurn {
  lane: string;
  held: number;
  /** Running jobs whose lease ran out: their worker died. */
  expired: number;
  /** A claim found fewer due jobs than it asked for. */
  exhausted: boolean;
  limits: LaneLimits;
}

/**
 * Claims due jobs of one kind for `leaseMs`, fairly between lanes (see JobClaimOptions), oldest first within a lane.
 * Each lane is claimed in one statement that stops at the slots it may fill, so the work is proportional to the lanes
 * and the slots, never to a backlog. A running job whose lease expired belongs to a worker that died; it is claimed
 * again. Daemons sharing a store pass over each other's claims.
 */
export async function claimJobs(ctx: ServiceContext, options: JobClaimOptions): Promise<ClaimedJobs> {
  let running = 0;
  for (const n of options.inFlight.values()) running += n;
  if (running >= options.concurrency + options.reservedSlots) return { jobs: [], nextDueAt: undefined };
  const now = ctx.clock.now();
  const { lanes, nextDueAt } = await lanesWithDueJobs(ctx, options, now);
  const claimed: JobRow[] = [];
  const take = async (turn: LaneTurn, group: { held: number }, wanted: number): Promise<number> => {
    const room = Math.min(wanted, turn.limits.lane - turn.held, turn.limits.group - group.held);
    if (room <= 0) return 0;
    const rows = await claimInLane(ctx, options.kind, turn, room, now, options.leaseMs);
    turn.held += rows.length;
    group.held += rows.length;
    claimed.push(...rows);
    return rows.length;
  };
  const groups = new Map<string, { held: number; lanes: LaneTurn[] }>();
  for (const turn of lanes) {
    const name = laneGroup(turn.lane);
    const group = groups.get(name) ?? { held: 0, lanes: [] };
    group.lanes.push(turn);
    groups.set(name, group);
  }
  for (const [lane, n] of options.inFlight) {
    const group = groups.get(laneGroup(lane));
    if (group) group.held += n;
  }
  // a group (a lane) that takes less than its share has no more due or reached its limit; the others share what it left
  const open = await takeFairShares([...groups.values()], options.concurrency - running, (g) => g.held, async (group, offered) => {
    let got = 0;
    await takeFairShares(group.lanes, offered, (l) => l.held, async (turn, share) => {
      const n = await take(turn, group, share);
      got += n;
      return n;
    });
    return got;
  });
  let reserved = options.concurrency + options.reservedSlots - running - claimed.length;
  for (const group of open) {
    for (const turn of group.lanes) {
      if (reserved > 0 && turn.held === 0 && !turn.exhausted) reserved -= await take(turn, group, 1);
    }
  }
  return { jobs: claimed, nextDueAt };
}

/**
 * The lanes with jobs due now and not paused, those whose work waited longest first (the slots that do not divide
 * evenly go to them); and when the others' work comes due: a paused lane's pause, a retry, a lease.
 */
async function lanesWithDueJobs(ctx: ServiceContext, options: JobClaimOptions, now: number): Promise<{ lanes: LaneTurn[]; nextDueAt: number | undefined }> {
  let nextDueAt: number | undefined;
  const later = (at: number) => { nextDueAt = Math.min(at, nextDueAt ?? Infinity); };
  const expired = new Map<string, number>();
  for (const row of await ctx.store.all<{ lane: string; lease: number }>(
    `SELECT lane, lease_until AS lease FROM jobs WHERE kind = ? AND state = 'running'`, options.kind)) {
    if (row.lease <= now) expired.set(row.lane, (expired.get(row.lane) ?? 0) + 1);
    else later(row.lease);
  }
  const first = new Map<string, number>([...expired.keys()].map((lane) => [lane, now]));
  for (const row of await queuedLanes(ctx, options.kind)) first.set(row.lane, Math.min(row.first, first.get(row.lane) ?? Infinity));
  const lanes: LaneTurn[] = [];
  for (const [lane, at] of [...first].sort((a, b) => a[1] - b[1])) {
    const limits = options.limits(lane);
    if (limits.pausedUntil !== undefined && limits.pausedUntil > now) later(limits.pausedUntil);
    else if (at > now) later(at);
    else lanes.push({ lane, held: options.inFlight.get(lane) ?? 0, expired: expired.get(lane) ?? 0, exhausted: false, limits });
  }
  return { lanes, nextDueAt };
}

/**
 * Each lane with queued jobs and its oldest job's due time, one index step per lane (a loose index scan): a lane's
 * backlog costs nothing here.
 */
function queuedLanes(ctx: ServiceContext, kind: string): Promise<{ lane: string; first: number }[]> {
  return ctx.store.all(`WITH RECURSIVE lanes(lane) AS (
      SELECT min(lane) FROM jobs WHERE kind = ? AND state = 'queued'
      UNION ALL
      SELECT (SELECT min(lane) FROM jobs WHERE kind = ? AND state = 'queued' AND lane > lanes.lane) FROM lanes WHERE lanes.lane IS NOT NULL
    )
    SELECT lane, (SELECT min(run_at) FROM jobs WHERE kind = ? AND state = 'queued' AND jobs.lane = lanes.lane) AS first
    FROM lanes WHERE lane IS NOT NULL`, kind, kind, kind);
}

/** Up to `limit` due jobs of one lane: those of a worker that died first, then the oldest queued. */
async function claimInLane(ctx: ServiceContext, kind: string, turn: LaneTurn, limit: number, now: number, leaseMs: number): Promise<JobRow[]> {
  const claim = (state: 'running' | 'queued', n: number) => ctx.store.all<JobRow>(`UPDATE jobs
    SET state = 'running', attempts = attempts + 1, lease_until = ?, lease_owner = ?, updated_at = ?
    WHERE id IN (SELECT id FROM jobs WHERE kind = ? AND state = '${state}' AND lane = ? AND ${state === 'running' ? 'lease_until' : 'run_at'} <= ?
      ORDER BY run_at LIMIT ?${ctx.store.sql.skipLocked})
    RETURNING ${JOB_COLUMNS}`, now + leaseMs, ctx.daemonId, now, kind, turn.lane, now, n);
  const rows = turn.expired > 0 ? await claim('running', limit) : [];
  turn.expired = 0;
  if (rows.length < limit) rows.push(...await claim('queued', limit - rows.length));
  if (rows.length < limit) turn.exhausted = true;
  return rows;
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

/** At start-up the running jobs a gone daemon left (see claimsLeftBehind) are due again at once. */
export async function releaseOrphanedJobs(ctx: ServiceContext): Promise<number> {
  const left = claimsLeftBehind(ctx);
  if (!left) return 0;
  const now = ctx.clock.now();
  return ctx.store.run(`UPDATE jobs SET state = 'queued', lease_until = NULL, run_at = ?, updated_at = ? WHERE state = 'running'${left.where}`, now, now, ...left.params);
}

/**
 * Exponential backoff with "equal jitter": attempt n waits between half and all of min(cap, base·2^(n-1)).
 * `random` is injected so tests can pin it.
 */
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** How the far end of a job's lane (e.g. a carrier) did, when the job called it: it answered, or it was unavailable. */
export type LaneReport = { answered: true } | { answered: false; retryAfterMs?: number };

/** What a job handler reports; the worker records it on the job row, and `lane` on the lane. */
export type JobOutcome = (
  | { result: 'done' }
  | { result: 'retry'; at: number; error: string }
  | { result: 'fail'; error: string }
) & { lane?: LaneReport };
