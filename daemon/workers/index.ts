import { findProvider } from '../../src/carriers/registry.js';
import type { ServiceContext } from '../../src/services/context.js';
import { workQueued } from '../../src/services/jobs.js';
import { PRINT_JOBS } from '../../src/services/printing/printers.js';
import { TRACKING_CHECKS } from '../../src/services/tracking/manage.js';
import { createShipmentAtCarrier } from '../../src/services/shipments/carrier-step.js';
import { CREATE_AT_CARRIER } from '../../src/services/shipments/create.js';
import { HAND_OVER, handOverAtCarrier } from '../../src/services/dispatches.js';
import { DispatchClockWorker } from './dispatch-clock.js';
import { AuthorizationWorker } from './authorization-worker.js';
import { ImportWorker, type ImportWorkerOptions } from './import-worker.js';
import { PrintQueueWorker, type PrintQueueWorkerOptions } from './print-queue.js';
import { RetentionWorker, type RetentionWorkerOptions } from './retention-worker.js';
import { JobWorker } from './runner.js';
import { DEFAULT_TRACKING_POLLER_OPTIONS, TrackingPoller, type TrackingPollerOptions } from './tracking-poller.js';
import { WebhookDispatcher, type DispatcherOptions } from './webhook-dispatcher.js';

/** What every background worker offers: the JobWorker shape (the webhook dispatcher has it too). */
export type BackgroundWorker = Pick<JobWorker, 'name' | 'state' | 'runDue' | 'start' | 'wake' | 'stop'>;

export interface Workers {
  all: BackgroundWorker[];
  webhooks: WebhookDispatcher;
  shipments: JobWorker;
  tracking: TrackingPoller;
  printing: PrintQueueWorker;
  authorizations: AuthorizationWorker;
  /** Order files from watched folders and uploads; not in `all`: files and notices drive it, not due jobs. */
  imports: ImportWorker;
  /** Prunes old records on its own schedule; not in `all`, so running due jobs never prunes. */
  retention: RetentionWorker;
  start(): void;
  stop(): Promise<void>;
  health(): Record<string, string>;
}

/** The daemon's background workers, each claiming durable jobs from the store. */
export function createWorkers(ctx: ServiceContext, options: {
  shipmentConcurrency?: number; webhooks?: DispatcherOptions; tracking?: Partial<TrackingPollerOptions>;
  printing?: PrintQueueWorkerOptions; imports?: ImportWorkerOptions; retention?: RetentionWorkerOptions;
} = {}): Workers {
  // lanes are channels, grouped by provider (see queueCreationAtCarrier)
  const shipments = new JobWorker(ctx, {
    name: 'shipment_creation', kind: CREATE_AT_CARRIER, concurrency: options.shipmentConcurrency ?? 32, reservedSlots: 8,
    groupLimits: (provider) => {
      const limits = findProvider(provider)?.creationLimits;
      return { perLane: limits?.perChannel, perGroup: limits?.perProvider };
    },
    // one slow answer does not pause a channel; a second in a row does
    backoff: { baseMs: 5_000, capMs: 5 * 60_000, failuresToBlock: 2 }, leaseMs: 30_000,
    handle: (job) => createShipmentAtCarrier(ctx, job.subjectId, job.attempts, job.maxAttempts),
  });
  // the day's hand-overs, a channel at a time (each carries a whole day of a channel's shipments)
  const handOvers = new JobWorker(ctx, {
    name: 'dispatch_hand_over', kind: HAND_OVER, concurrency: 4, reservedSlots: 0,
    groupLimits: () => ({ perLane: 1 }),
    backoff: { baseMs: 5_000, capMs: 5 * 60_000, failuresToBlock: 2 }, leaseMs: 60_000,
    handle: (job) => handOverAtCarrier(ctx, job.subjectId, job.attempts, job.maxAttempts),
  });
  const tracking = new TrackingPoller(ctx, { ...DEFAULT_TRACKING_POLLER_OPTIONS, ...options.tracking });
  const printing = new PrintQueueWorker(ctx, options.printing);
  const authorizations = new AuthorizationWorker(ctx, 'channel_authorization');
  // the dispatcher runs last, so a test's runJobs() delivers the events the other workers just recorded
  const webhooks = new WebhookDispatcher(ctx, options.webhooks);
  const dispatchClock = new DispatchClockWorker(ctx);
  const all: BackgroundWorker[] = [shipments, dispatchClock, handOvers, tracking, printing, authorizations, webhooks];
  const imports = new ImportWorker(ctx, options.imports);
  const retention = new RetentionWorker(ctx, options.retention);
  // work queued wakes the worker of its kind (a worker's wakes during a look ask for one more look, however many jobs a
  // transaction queued); the other workers look at the store on their own schedules (at least every second)
  const wakes = new Map<string, () => void>([
    [workQueued(CREATE_AT_CARRIER), () => shipments.wake()], [workQueued(HAND_OVER), () => handOvers.wake()],
    [workQueued(TRACKING_CHECKS), () => tracking.wake()], [workQueued(PRINT_JOBS), () => printing.wake()],
  ]);
  return {
    all, shipments, tracking, printing, authorizations, webhooks, imports, retention,
    start: () => {
      for (const [notice, wake] of wakes) ctx.notices.on(notice, wake);
      all.forEach((w) => w.start());
      imports.start();
      retention.start();
    },
    stop: async () => {
      for (const [notice, wake] of wakes) ctx.notices.off(notice, wake);
      await Promise.all([imports.stop(), retention.stop()]);
      await Promise.all(all.map((w) => w.stop()));
    },
    health: () => ({ ...Object.fromEntries(all.map((w) => [w.name, w.state])), [imports.name]: imports.state, [retention.name]: retention.state }),
  };
}
