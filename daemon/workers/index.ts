import type { ServiceContext } from '../../src/services/context.js';
import { JOBS_QUEUED } from '../../src/services/jobs.js';
import { createShipmentAtCarrier } from '../../src/services/shipments/carrier-step.js';
import { CREATE_AT_CARRIER } from '../../src/services/shipments/create.js';
import { JobWorker } from './runner.js';

export interface Workers {
  all: JobWorker[];
  shipments: JobWorker;
  start(): void;
  stop(): Promise<void>;
  health(): Record<string, string>;
}

/** The daemon's background workers, each claiming durable jobs from the store. */
export function createWorkers(ctx: ServiceContext, options: { shipmentConcurrency?: number } = {}): Workers {
  const shipments = new JobWorker(ctx, {
    name: 'shipment_creation', kinds: [CREATE_AT_CARRIER], concurrency: options.shipmentConcurrency ?? 16, leaseMs: 5 * 60_000,
    handle: (job) => createShipmentAtCarrier(ctx, job.subjectId, job.attempts, job.maxAttempts),
  });
  const all = [shipments];
  const wake = () => setImmediate(() => all.forEach((w) => w.wake()));
  return {
    all, shipments,
    start: () => {
      ctx.notices.on(JOBS_QUEUED, wake);
      all.forEach((w) => w.start());
    },
    stop: async () => {
      ctx.notices.off(JOBS_QUEUED, wake);
      await Promise.all(all.map((w) => w.stop()));
    },
    health: () => Object.fromEntries(all.map((w) => [w.name, w.state])),
  };
}
