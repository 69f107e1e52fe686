import type { ServiceContext } from '../../src/services/context.js';
import { claimJobs, completeJob, failJob, nextDueAt, retryJob, type JobOutcome, type JobRow } from '../../src/services/jobs.js';

export interface WorkerOptions {
  name: string;
  kinds: readonly string[];
  concurrency: number;
  /** How long a claim lasts before another worker may take the job (the holder is presumed dead). */
  leaseMs: number;
  handle(job: JobRow): Promise<JobOutcome>;
}

/** Longest sleep between looks at the queue when nothing is due (jobs queued by this process wake it at once). */
const IDLE_POLL_MS = 1000;

/**
 * Claims due jobs of some kinds and runs them with bounded concurrency; records each outcome on the job row.
 * `runDue()` runs everything due now (tests drive it with a manual clock); `start()` keeps running in the background.
 */
export class JobWorker {
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private active = false;
  private pumping = false;

  constructor(private readonly ctx: ServiceContext, private readonly options: WorkerOptions) {}

  get name(): string {
    return this.options.name;
  }

  get state(): string {
    return this.active ? `running (${this.running.size} in flight)` : 'stopped';
  }

  private runJob(job: JobRow): Promise<void> {
    const run = (async () => {
      let outcome: JobOutcome;
      try {
        outcome = await this.options.handle(job);
      } catch (err) {
        outcome = { result: 'retry', at: this.ctx.clock.now() + 60_000, error: (err as Error).message };
        this.ctx.log.error({ err, job: job.id, kind: job.kind }, 'job handler threw');
      }
      if (outcome.result === 'done') completeJob(this.ctx, job.id);
      else if (outcome.result === 'retry') retryJob(this.ctx, job.id, outcome.at, outcome.error);
      else failJob(this.ctx, job.id, outcome.error);
    })();
    const tracked = run.finally(() => this.running.delete(tracked));
    this.running.add(tracked);
    return tracked;
  }

  /** Claims what fits in the free slots and starts it; returns how many started. */
  private claimAndStart(): number {
    const free = this.options.concurrency - this.running.size;
    const jobs = claimJobs(this.ctx, this.options.kinds, free, this.options.leaseMs);
    for (const job of jobs) void this.runJob(job).then(() => this.wake());
    return jobs.length;
  }

  /** Runs every job due now, and those that become due while doing so, until none is left. */
  async runDue(): Promise<void> {
    for (;;) {
      this.claimAndStart();
      if (this.running.size === 0) return;
      await Promise.race(this.running);
    }
  }

  start(): void {
    this.active = true;
    this.wake();
  }

  /** Looks at the queue now (called when this process queued work). */
  wake(): void {
    if (!this.active || this.pumping) return;
    this.pumping = true;
    try {
      this.claimAndStart();
    } finally {
      this.pumping = false;
    }
    clearTimeout(this.timer);
    const due = nextDueAt(this.ctx, this.options.kinds);
    const wait = due === undefined ? IDLE_POLL_MS : Math.min(IDLE_POLL_MS, Math.max(10, due - this.ctx.clock.now()));
    this.timer = setTimeout(() => this.wake(), wait);
    this.timer.unref();
  }

  /** Stops claiming and waits for jobs in flight. */
  async stop(): Promise<void> {
    this.active = false;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.running]);
  }
}
