import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../../src/domain/clock.js';
import type { ImportLimits } from '../../src/imports/limits.js';
import { createLogger } from '../../src/logging.js';
import { createAccount, createApiKey, type Plan } from '../../src/services/accounts.js';
import type { ServiceContext } from '../../src/services/context.js';
import { closeContext, openContext } from '../../src/services/open.js';
import { PostgresStore } from '../../src/store/postgres.js';
import type { Dialect, Store } from '../../src/store/store.js';
import { buildApp } from '../../daemon/app.js';
import { createWorkers, type Workers } from '../../daemon/workers/index.js';
import type { DispatcherOptions } from '../../daemon/workers/webhook-dispatcher.js';
import { testDatabaseUrl } from './postgres.js';

/**
 * A real daemon app on a real store, with a hand-moved clock and a captured log. The store is a SQLite file in a
 * temporary data directory, or, in the runs with PACKDESK_TEST_STORE=postgres (vitest.config.ts), a fresh database
 * of the run's PostgreSQL server: the same suites run on both dialects.
 */
export interface TestDaemon {
  app: FastifyInstance;
  /** Background workers, not started: tests run due jobs with `runJobs()`. */
  workers: Workers;
  /** Runs every job due now on the test clock, until none is left. */
  runJobs(): Promise<void>;
  ctx: ServiceContext;
  /** Another connection to the daemon's store, as a second station has one (SQLite: `openContext` on `dataDir` opens the same file). */
  otherStore(): Promise<Store | undefined>;
  clock: ManualClock;
  dataDir: string;
  /** Every log line written so far. */
  logText(): string;
  account(name?: string, plan?: Plan, rateLimit?: number | null): Promise<TestAccount>;
  close(): Promise<void>;
}

export interface TestAccount {
  id: string;
  key: string;
  keyId: string;
  /** A read-only key of the same account. */
  readOnlyKey: string;
  request(method: InjectOptions['method'], url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

export interface TestDaemonOptions {
  allowHttpWebhooks?: boolean;
  /** Webhooks may reach loopback (`--allow-loopback-webhooks`): the test receivers listen on 127.0.0.1. */
  allowLoopbackWebhooks?: boolean;
  carrierTimeoutMs?: number;
  webhooks?: DispatcherOptions;
  /** Where watched folders and file: printers may lie: the temporary directory unless given. */
  filesRoots?: string[];
  /** How much of an order file is read (the daemon's defaults unless given). */
  importLimits?: ImportLimits;
}

/** The dialect the suites run on: SQLite unless PACKDESK_TEST_STORE says postgres. */
export const TEST_DIALECT: Dialect = process.env.PACKDESK_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/** A new PostgreSQL database in the PostgreSQL runs; undefined (the data directory's SQLite) otherwise. */
async function testDatabase(): Promise<string | undefined> {
  return TEST_DIALECT === 'postgres' ? testDatabaseUrl() : undefined;
}

export async function startTestDaemon(options: TestDaemonOptions = {}): Promise<TestDaemon> {
  const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-test-'));
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
  const clock = new ManualClock();
  const log = createLogger({ level: 'debug', destination: sink });
  const databaseUrl = await testDatabase();
  const ctx = openContext({
    dataDir, log, clock, store: databaseUrl ? await PostgresStore.open(databaseUrl) : undefined,
    options: {
      allowHttpWebhooks: options.allowHttpWebhooks ?? false, allowLoopbackWebhooks: options.allowLoopbackWebhooks ?? false, filesRoots: options.filesRoots ?? [tmpdir()],
      ...(options.carrierTimeoutMs ? { carrierTimeoutMs: options.carrierTimeoutMs } : {}),
      ...(options.importLimits ? { importLimits: options.importLimits } : {}),
    },
  });
  const workers = createWorkers(ctx, { webhooks: options.webhooks });
  const app = await buildApp(ctx, { version: 'test', health: { workers: workers.health } });
  return {
    app, ctx, clock, dataDir, workers,
    otherStore: async () => (databaseUrl ? PostgresStore.open(databaseUrl) : undefined),
    runJobs: async () => {
      for (const w of workers.all) await w.runDue();
    },
    logText: () => lines.join(''),
    async account(name = 'Test warehouse', plan: Plan = 'enterprise', rateLimit: number | null = null) {
      const account = await createAccount(ctx, { name, plan, rateLimit: plan === 'enterprise' ? rateLimit : undefined });
      const full = await createApiKey(ctx, { accountId: account.id });
      const ro = await createApiKey(ctx, { accountId: account.id, scope: 'read_only' });
      return {
        id: account.id, key: full.apiKey, keyId: full.row.id, readOnlyKey: ro.apiKey,
        request: (method, url, body, headers = {}) => app.inject({
          method, url,
          headers: { authorization: `Bearer ${full.apiKey}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
          ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
        }),
      };
    },
    async close() {
      await app.close();
      await closeContext(ctx);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
