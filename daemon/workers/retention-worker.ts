import type { ServiceContext } from '../../src/services/context.js';
import { pruneOnce, type PruneReport } from '../../src/services/retention.js';
import { autoVacuumMode } from '../../src/store/db.js';
import { SqliteStore } from '../../src/store/store.js';
import { PollingWorker } from './polling-worker.js';

export interface RetentionWorkerOptions {
  /** The first prune runs this long after the worker is made (the daemon's start-up is left alone). */
  firstRunAfterMs?: number;
  /** Then one prune this often. */
  everyMs?: number;
}

export const DEFAULT_RETENTION_SCHEDULE: Required<RetentionWorkerOptions> = { firstRunAfterMs: 60_000, everyMs: 60 * 60_000 };

/**
 * Prunes the store by the retention policy (src/services/retention.ts) on a schedule of the service clock: once soon
 * after start, then hourly. Logs one line per run with what went.
 */
export class RetentionWorker extends PollingWorker {
  private readonly everyMs: number;
  private nextRunAt: number;
  private abort = new AbortController();
  private toldAboutVacuum = false;

  constructor(ctx: ServiceContext, options: RetentionWorkerOptions = {}) {
    super(ctx, 'retention');
    const schedule = { ...DEFAULT_RETENTION_SCHEDULE, ...options };
    this.everyMs = schedule.everyMs;
    this.nextRunAt = ctx.clock.now() + schedule.firstRunAfterMs;
  }

  protected claimAndStart(): number {
    const now = this.ctx.clock.now();
    if (this.running.size > 0 || now < this.nextRunAt) return 0;
    this.nextRunAt = now + this.everyMs;
    this.track(this.prune(now));
    return 1;
  }

  protected nextDueAt(): number | undefined {
    return this.running.size > 0 ? undefined : this.nextRunAt;
  }

  private async prune(now: number): Promise<void> {
    let report: PruneReport;
    try {
      report = await pruneOnce(this.ctx, now, { signal: this.abort.signal });
    } catch (err) {
      this.ctx.log.error({ err }, 'retention: prune failed; trying again at the next run');
      return;
    }
    this.ctx.log.info({
      retention_days: this.ctx.options.retentionDays, events: report.events, webhook_logs: report.webhookLogs, jobs: report.jobs,
      idempotency_keys: report.idempotencyKeys, desk_sessions: report.deskSessions, import_uploads: report.importUploads, freed_pages: report.freedPages, ms: report.ms,
    }, 'retention: pruned');
    const store = this.ctx.store;
    if (!this.toldAboutVacuum && store instanceof SqliteStore && autoVacuumMode(store.client) === 'none') {
      this.toldAboutVacuum = true;
      this.ctx.log.info('retention: the store predates incremental auto-vacuum; freed space is reused but the file does not shrink');
    }
  }

  protected override resume(): void {
    this.abort = new AbortController();
  }

  /** Stops a prune in progress between two batches, then stops. */
  override async stop(): Promise<void> {
    this.abort.abort();
    await super.stop();
  }
}
