import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Clock } from '../src/domain/clock.js';
import { randomIds } from '../src/domain/ids.js';
import type { ImportLimits } from '../src/imports/limits.js';
import type { ServiceContext } from '../src/services/context.js';
import { closeContext, openContext } from '../src/services/open.js';
import { relayStoreNotices } from '../src/services/notices.js';
import { DataDirLock } from '../src/store/lock.js';
import { PostgresStore } from '../src/store/postgres.js';
import { checkSecretKey, heartbeat, HEARTBEAT_MS, registerDaemon, unregisterDaemon } from '../src/services/daemons.js';
import { VERSION } from '../src/version.js';
import { buildApp } from './app.js';
import type { DeskStreamOptions } from './desk/stream.js';
import type { HttpLimits } from './http/limits.js';
import { releaseIdempotencyKeysInProgress } from '../src/services/idempotency.js';
import { releaseOrphanedJobs } from '../src/services/jobs.js';
import { stopLabelConversions } from '../src/labels/index.js';
import { createWorkers } from './workers/index.js';

/** Why a daemon may refuse to start, besides a data directory another daemon holds. */
export { StoreUnavailableError } from '../src/store/postgres.js';
export { SecretKeyMismatchError } from '../src/services/daemons.js';

export interface DaemonOptions {
  /** Where the secret key (and on SQLite the store, on both the uploaded import files) live. */
  dataDir: string;
  /** A PostgreSQL store several daemons share (`--database`); the data directory's SQLite when not given. */
  databaseUrl?: string;
  /** The station this daemon serves (`--station`); the host name when not given. */
  station?: string;
  host: string;
  port: number;
  log: Logger;
  allowHttpWebhooks?: boolean;
  /** Webhooks may reach this machine's loopback (`--allow-loopback-webhooks`). */
  allowLoopbackWebhooks?: boolean;
  /** Directories watched folders and `file:` printers may lie in; the home directory when not given. */
  filesRoots?: string[];
  /** Days finished records are kept (`--retention-days`); 30 when not given. */
  retentionDays?: number;
  /** How much of an order file is read (`--import-limit`); the defaults when not given. */
  importLimits?: ImportLimits;
  tls?: { cert: Buffer; key: Buffer };
  clock?: Clock;
  /** The desk's live events (how often printers are asked while a desk is open). */
  desk?: DeskStreamOptions;
  /** Timeouts, connection and per-address limits (`--max-connections-per-address`); the defaults when not given. */
  http?: Partial<HttpLimits>;
  /** Where people open the daemon besides its listen address (`--public-url`). */
  publicUrls?: string[];
}

export interface RunningDaemon {
  url: string;
  app: FastifyInstance;
  ctx: ServiceContext;
  /** Stops taking requests, lets in-flight requests and jobs finish, closes the store, releases the lock. */
  close(): Promise<void>;
}

/**
 * Starts the daemon on a data directory's SQLite store, refusing one another daemon holds, or on a PostgreSQL store
 * beside other daemons.
 */
export async function startDaemon(o: DaemonOptions): Promise<RunningDaemon> {
  const daemonId = randomIds('daemon');
  const lock = DataDirLock.acquire(o.dataDir, daemonId);
  let ctx: ServiceContext | undefined;
  let heartbeats: NodeJS.Timeout | undefined;
  let stopRelay: (() => Promise<void>) | undefined;
  let me: { id: string } | undefined;
  try {
    ctx = openContext({
      dataDir: o.dataDir, log: o.log, clock: o.clock, store: o.databaseUrl ? await PostgresStore.open(o.databaseUrl) : undefined, station: o.station,
      daemonId, previousDaemonId: lock.previousDaemonId,
      options: {
        allowHttpWebhooks: o.allowHttpWebhooks ?? false, allowLoopbackWebhooks: o.allowLoopbackWebhooks ?? false, ...(o.filesRoots ? { filesRoots: o.filesRoots } : {}),
        ...(o.retentionDays !== undefined ? { retentionDays: o.retentionDays } : {}),
        ...(o.importLimits ? { importLimits: o.importLimits } : {}),
      },
    });
    await checkSecretKey(ctx);
    stopRelay = await relayStoreNotices(ctx);
    if (lock.previousDaemonId) await unregisterDaemon(ctx, lock.previousDaemonId); // gone: the lock was free
    me = await registerDaemon(ctx, VERSION);
    const registered = me;
    const beating = ctx;
    heartbeats = setInterval(() => {
      heartbeat(beating, registered.id).catch((err: unknown) => o.log.warn({ err }, 'heartbeat: the store did not take it'));
    }, HEARTBEAT_MS).unref();
    const orphaned = await releaseOrphanedJobs(ctx);
    if (orphaned > 0) o.log.info({ jobs: orphaned }, 'resuming jobs of a previous run');
    await releaseIdempotencyKeysInProgress(ctx);
    const workers = createWorkers(ctx);
    const app = await buildApp(ctx, {
      version: VERSION, tls: o.tls, health: { workers: workers.health }, desk: o.desk, http: o.http, publicUrls: o.publicUrls,
    });
    const url = await app.listen({ host: o.host, port: o.port });
    workers.start();
    o.log.info({
      url, data_dir: o.dataDir, store: ctx.store.dialect, station: ctx.station, files_roots: ctx.options.filesRoots, retention_days: ctx.options.retentionDays, version: VERSION, pid: process.pid,
    }, 'listening');
    const opened = ctx;
    let closing: Promise<void> | undefined;
    return {
      url, app, ctx: opened,
      close: () => (closing ??= (async () => {
        await app.close();
        await workers.stop();
        await stopLabelConversions();
        clearInterval(heartbeats);
        await stopRelay?.();
        await unregisterDaemon(opened, registered.id);
        await closeContext(opened);
        lock.release();
      })()),
    };
  } catch (err) {
    clearInterval(heartbeats);
    await stopRelay?.();
    if (ctx && me) await unregisterDaemon(ctx, me.id).catch(() => {});
    if (ctx) await closeContext(ctx);
    lock.release();
    throw err;
  }
}
