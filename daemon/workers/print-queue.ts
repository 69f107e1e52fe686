import type { ServiceContext } from '../../src/services/context.js';
import {
  claimPrintJobs, DEFAULT_PRINT_QUEUE_OPTIONS, nextPrintDueAt, releaseInterruptedPrintJobs, renewPrintLeases, runPrintJob, type PrintQueueOptions,
} from '../../src/services/printing/print-queue.js';
import { PollingWorker } from './polling-worker.js';

export interface PrintQueueWorkerOptions extends Partial<PrintQueueOptions> {
  /** Printers served at the same time (each printer prints one job at a time). */
  concurrency?: number;
  /** How long a claim lasts before the job counts as abandoned; renewed while the job prints. */
  leaseMs?: number;
}

/** Claims due printer heads from `print_jobs` and prints them. */
export class PrintQueueWorker extends PollingWorker {
  private readonly options: PrintQueueOptions;
  private readonly concurrency: number;
  private readonly leaseMs: number;

  constructor(ctx: ServiceContext, options: PrintQueueWorkerOptions = {}) {
    const leaseMs = options.leaseMs ?? 60_000;
    super(ctx, 'print_queue', { leaseMs, renew: (ids, until) => renewPrintLeases(ctx, ids, until) });
    this.options = { ...DEFAULT_PRINT_QUEUE_OPTIONS, ...options };
    this.concurrency = options.concurrency ?? 8;
    this.leaseMs = leaseMs;
  }

  protected async claimAndStart(): Promise<number> {
    const claimed = await claimPrintJobs(this.ctx, this.concurrency - this.running.size, this.leaseMs);
    for (const job of claimed) {
      this.trackHeld([job.job.id], () => runPrintJob(this.ctx, job, this.options).catch((err: unknown) => {
        this.ctx.log.error({ err, print_job_id: job.job.id }, 'print queue: recording an outcome failed');
      }));
    }
    return claimed.length;
  }

  protected nextDueAt(): Promise<number | undefined> {
    return nextPrintDueAt(this.ctx);
  }

  protected override async resume(): Promise<void> {
    const resumed = await releaseInterruptedPrintJobs(this.ctx);
    if (resumed > 0) this.ctx.log.info({ print_jobs: resumed }, 'resuming print jobs of a previous run');
  }
}
