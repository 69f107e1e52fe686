import type { ServiceContext } from '../../src/services/context.js';
import {
  claimJobs, completeJob, failJob, laneGroup, renewJobLeases, retryJob, type JobOutcome, type JobRow, type LaneLimits,
} from '../../src/services/jobs.js';
import { PollingWorker } from './polling-worker.js';
import { ProviderBackoff, type BackoffOptions } from './provider-limits.js';

/** What the lanes of one group (e.g. a provider's channels) may have in flight at once, where less than the pool. */
export interface GroupLimits {
  perLane?: number;
  perGroup?: number;
}

export interface WorkerOptions {
  name: string;
  kind: string;
  /** Jobs in flight at once, shared max-min fair between lane groups, and within a group between its lanes. */
  concurrency: number;
  /** Jobs beyond `concurrency`, one for each lane with none in flight, so its next job starts at once. */
  reservedSlots: number;
  groupLimits?(group: string): GroupLimits | undefined;
  /**
   * Once jobs found their lane's far end unavailable (`failuresToBlock` in a row, or once with a Retry-After), the lane's
   * jobs wait queued for this backoff (doubling while it stays so); then one job at a time finds out whether it answers.
   */
  backoff: BackoffOptions;
  /**
   * How long a claim lasts before another worker may take the job (the holder is presumed dead). A running worker
   * renews the leases of its jobs three times per lease, so a long carrier call keeps its job, and the jobs of a
   * daemon killed mid-work are taken by another (or by itself, restarted) within one lease.
   */
  leaseMs: number;
  handle(job: JobRow): Promise<JobOutcome>;
}

/**
 * Claims due jobs of one kind from the durable job queue, fairly between their lanes, and runs them; records each
 * outcome on the job row and pauses a lane whose far end is unavailable.
 */
export class JobWorker extends PollingWorker {
  /** Jobs in flight, by lane. */
  private readonly inFlight = new Map<string, number>();
  private readonly backoff: ProviderBackoff;
  private nextDue: number | undefined;

  constructor(ctx: ServiceContext, private readonly options: WorkerOptions) {
    super(ctx, options.name, { leaseMs: options.leaseMs, renew: (ids, until) => renewJobLeases(ctx, ids, until) });
    this.backoff = new ProviderBackoff(ctx.clock, options.backoff);
  }

  private limits(lane: string): LaneLimits {
    const declared = this.options.groupLimits?.(laneGroup(lane));
    return {
      lane: this.backoff.recovering(lane) ? 1 : declared?.perLane ?? Infinity,
      group: declared?.perGroup ?? Infinity,
      pausedUntil: this.backoff.blockedUntil(lane),
    };
  }

  private async finishJob(job: JobRow): Promise<void> {
    let outcome: JobOutcome;
    try {
      outcome = await this.options.handle(job);
    } catch (err) {
      outcome = { result: 'retry', at: this.ctx.clock.now() + 60_000, error: (err as Error).message };
      this.ctx.log.error({ err, job: job.id, kind: job.kind }, 'job handler threw');
    }
    if (outcome.lane?.answered === true) this.backoff.succeeded(job.lane);
    else if (outcome.lane?.answered === false) this.pauseLane(job.lane, outcome.lane.retryAfterMs, 'error' in outcome ? outcome.error : '');
    if (outcome.result === 'done') await completeJob(this.ctx, job.id);
    else if (outcome.result === 'retry') await retryJob(this.ctx, job.id, outcome.at, outcome.error);
    else await failJob(this.ctx, job.id, outcome.error);
  }

  private pauseLane(lane: string, retryAfterMs: number | undefined, error: string): void {
    const paused = this.backoff.blockedUntil(lane) !== undefined;
    const until = this.backoff.failed(lane, retryAfterMs);
    // the jobs that were in flight with the first failure fail alike; one line says it
    if (!paused && until > this.ctx.clock.now()) {
      this.ctx.log.warn({ worker: this.name, lane, error, resume_at: new Date(until).toISOString() }, 'lane unavailable; its jobs wait');
    }
  }

  protected async claimAndStart(): Promise<number> {
    const claim = await claimJobs(this.ctx, {
      kind: this.options.kind, concurrency: this.options.concurrency, reservedSlots: this.options.reservedSlots,
      inFlight: this.inFlight, limits: (lane) => this.limits(lane), leaseMs: this.options.leaseMs,
    });
    this.nextDue = claim.nextDueAt;
    for (const job of claim.jobs) {
      this.inFlight.set(job.lane, (this.inFlight.get(job.lane) ?? 0) + 1);
      this.trackHeld([job.id], () => this.finishJob(job).finally(() => {
        const left = this.inFlight.get(job.lane)! - 1;
        if (left > 0) this.inFlight.set(job.lane, left);
        else this.inFlight.delete(job.lane);
      }));
    }
    return claim.jobs.length;
  }

  /** What the last claim found coming due later; a job that ends wakes the worker anyway. */
  protected nextDueAt(): number | undefined {
    return this.nextDue;
  }
}
