import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Clock } from '../src/domain/clock.js';
import type { ServiceContext } from '../src/services/context.js';
import { closeContext, openContext } from '../src/services/open.js';
import { DataDirLock } from '../src/store/lock.js';
import { VERSION } from '../src/version.js';
import { buildApp } from './app.js';
import type { DeskStreamOptions } from './desk/stream.js';
import { releaseOrphanedJobs } from '../src/services/jobs.js';
import { stopLabelConversions } from '../src/labels/index.js';
import { createWorkers } from './workers/index.js';

export interface DaemonOptions {
  dataDir: string;
  host: string;
  port: number;
  log: Logger;
  allowHttpWebhooks?: boolean;
  /** Directories watched folders and `file:` printers may lie in; the home directory when not given. */
  filesRoots?: string[];
  /** Days finished records are kept (`--retention-days`); 30 when not given. */
  retentionDays?: number;
  tls?: { cert: Buffer; key: Buffer };
  clock?: Clock;
  /** The desk's live events (how often printers are asked while a desk is open). */
  desk?: DeskStreamOptions;
}

export interface RunningDaemon {
  url: string;
  app: FastifyInstance;
  ctx: ServiceContext;
  /** Stops taking requests, lets in-flight requests and jobs finish, closes the store, releases the lock. */
  close(): Promise<void>;
}

/** Starts the daemon on a data directory, refusing one another daemon holds. */
export async function startDaemon(o: DaemonOptions): Promise<RunningDaemon> {
  const lock = DataDirLock.acquire(o.dataDir);
  let ctx: ServiceContext | undefined;
  try {
    ctx = openContext({
      dataDir: o.dataDir, log: o.log, clock: o.clock,
      options: {
        allowHttpWebhooks: o.allowHttpWebhooks ?? false, ...(o.filesRoots ? { filesRoots: o.filesRoots } : {}),
        ...(o.retentionDays !== undefined ? { retentionDays: o.retentionDays } : {}),
      },
    });
    const orphaned = await releaseOrphanedJobs(ctx);
    if (orphaned > 0) o.log.info({ jobs: orphaned }, 'resuming jobs of a previous run');
    const workers = createWorkers(ctx);
    const app = await buildApp(ctx, { version: VERSION, tls: o.tls, health: { workers: workers.health }, desk: o.desk });
    const url = await app.listen({ host: o.host, port: o.port });
    workers.start();
    o.log.info({
      url, data_dir: o.dataDir, files_roots: ctx.options.filesRoots, retention_days: ctx.options.retentionDays, version: VERSION, pid: process.pid,
    }, 'listening');
    const opened = ctx;
    let closing: Promise<void> | undefined;
    return {
      url, app, ctx: opened,
      close: () => (closing ??= (async () => {
        await app.close();
        await workers.stop();
        await stopLabelConversions();
        await closeContext(opened);
        lock.release();
      })()),
    };
  } catch (err) {
    if (ctx) await closeContext(ctx);
    lock.release();
    throw err;
  }
}
