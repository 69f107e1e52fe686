import type { ServiceContext } from '../../src/services/context.js';
import { claimJobs, completeJob, failJob, nextDueAt, renewJobLeases, retryJob, type JobOutcome, type JobRow } from '../../src/services/jobs.js';
import { PollingWorker } from './polling-worker.js';

export interface WorkerOptions {
  name: string;
  kinds: readonly string[];
  concurrency: number;
  /**
   * How long a claim lasts before another worker may take the job (the holder is presumed dead). A running worker
   * renews the leases of its jobs three times per lease, so a long carrier call keeps its job, and the jobs of a
   * daemon killed mid-work are taken by another (or by itself, restarted) within one lease.
   */
  leaseMs: number;
  handle(job: JobRow): Promise<JobOutcome>;
}

/** Claims due jobs of some kinds from the durable job queue and runs them; records each outcome on the job row. */
export class JobWorker extends PollingWorker {
  constructor(ctx: ServiceContext, private readonly options: WorkerOptions) {
    super(ctx, options.name, { leaseMs: options.leaseMs, renew: (ids, until) => renewJobLeases(ctx, ids, until) });
  }

  private async finishJob(job: JobRow): Promise<void> {
    let outcome: JobOutcome;
    try {
      outcome = await this.options.handle(job);
    } catch (err) {
      outcome = { result: 'retry', at: this.ctx.clock.now() + 60_000, error: (err as Error).message };
      this.ctx.log.error({ err, job: job.id, kind: job.kind }, 'job handler threw');
    }
    if (outcome.result === 'done') await completeJob(this.ctx, job.id);
    else if (outcome.result === 'retry') await retryJob(this.ctx, job.id, outcome.at, outcome.error);
    else await failJob(this.ctx, job.id, outcome.error);
  }

  protected async claimAndStart(): Promise<number> {
    const jobs = await claimJobs(this.ctx, this.options.kinds, this.options.concurrency - this.running.size, this.options.leaseMs);
    for (const job of jobs) this.trackHeld([job.id], () => this.finishJob(job));
    return jobs.length;
  }

  protected nextDueAt(): Promise<number | undefined> {
    return nextDueAt(this.ctx, this.options.kinds);
  }
}
