import type { ServiceContext } from '../../src/services/context.js';
import {
  claimPrintJobs, DEFAULT_PRINT_QUEUE_OPTIONS, nextPrintDueAt, releaseInterruptedPrintJobs, runPrintJob, type PrintQueueOptions,
} from '../../src/services/printing/print-queue.js';

export interface PrintQueueWorkerOptions extends Partial<PrintQueueOptions> {
  /** Printers served at the same time (each printer prints one job at a time). */
  concurrency?: number;
  /** How long a claim lasts before the job counts as abandoned (longer than the slowest IPP job we wait for). */
  leaseMs?: number;
}

/** Longest sleep between looks at the queue when nothing is due (jobs queued by this process wake it at once). */
const IDLE_POLL_MS = 1000;

/**
 * Claims due printer heads from `print_jobs` and prints them. Same shape as `JobWorker`: `runDue()` runs everything
 * due now (tests drive it with a manual clock); `start()` keeps running in the background.
 */
export class PrintQueueWorker {
  readonly name = 'print_queue';
  private readonly running = new Set<Promise<void>>();
  private readonly options: PrintQueueOptions;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private timer: NodeJS.Timeout | undefined;
  private active = false;
  private pumping = false;

  constructor(private readonly ctx: ServiceContext, options: PrintQueueWorkerOptions = {}) {
    this.options = { ...DEFAULT_PRINT_QUEUE_OPTIONS, ...options };
    this.concurrency = options.concurrency ?? 8;
    this.leaseMs = options.leaseMs ?? 3 * 60_000;
  }

  get state(): string {
    return this.active ? `running (${this.running.size} in flight)` : 'stopped';
  }

  private claimAndStart(): number {
    const claimed = claimPrintJobs(this.ctx, this.concurrency - this.running.size, this.leaseMs);
    for (const job of claimed) {
      const run = runPrintJob(this.ctx, job, this.options).catch((err: unknown) => {
        this.ctx.log.error({ err, print_job_id: job.job.id }, 'print queue: recording an outcome failed');
      });
      const tracked = run.finally(() => {
        this.running.delete(tracked);
        this.wake();
      });
      this.running.add(tracked);
    }
    return claimed.length;
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
    const resumed = releaseInterruptedPrintJobs(this.ctx);
    if (resumed > 0) this.ctx.log.info({ print_jobs: resumed }, 'resuming print jobs of a previous run');
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
    const due = nextPrintDueAt(this.ctx);
    const wait = due === undefined ? IDLE_POLL_MS : Math.min(IDLE_POLL_MS, Math.max(10, due - this.ctx.clock.now()));
    this.timer = setTimeout(() => this.wake(), wait);
    this.timer.unref();
  }

  /** Stops claiming and waits for the jobs in flight. */
  async stop(): Promise<void> {
    this.active = false;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.running]);
  }
}
