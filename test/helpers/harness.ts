import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../../src/domain/clock.js';
import { createLogger } from '../../src/logging.js';
import { createAccount, createApiKey, type Plan } from '../../src/services/accounts.js';
import type { ServiceContext } from '../../src/services/context.js';
import { closeContext, openContext } from '../../src/services/open.js';
import { buildApp } from '../../daemon/app.js';
import { createWorkers, type Workers } from '../../daemon/workers/index.js';
import type { DispatcherOptions } from '../../daemon/workers/webhook-dispatcher.js';

/** A real daemon app on a real SQLite file in a temporary data directory, with a hand-moved clock and a captured log. */
export interface TestDaemon {
  app: FastifyInstance;
  /** Background workers, not started: tests run due jobs with `runJobs()`. */
  workers: Workers;
  /** Runs every job due now on the test clock, until none is left. */
  runJobs(): Promise<void>;
  ctx: ServiceContext;
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
  carrierTimeoutMs?: number;
  webhooks?: DispatcherOptions;
  /** Where watched folders and file: printers may lie: the temporary directory unless given. */
  filesRoots?: string[];
}

export async function startTestDaemon(options: TestDaemonOptions = {}): Promise<TestDaemon> {
  const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-test-'));
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
  const clock = new ManualClock();
  const log = createLogger({ level: 'debug', destination: sink });
  const ctx = openContext({
    dataDir, log, clock,
    options: {
      allowHttpWebhooks: options.allowHttpWebhooks ?? false, filesRoots: options.filesRoots ?? [tmpdir()],
      ...(options.carrierTimeoutMs ? { carrierTimeoutMs: options.carrierTimeoutMs } : {}),
    },
  });
  const workers = createWorkers(ctx, { webhooks: options.webhooks });
  const app = await buildApp(ctx, { version: 'test', health: { workers: workers.health } });
  return {
    app, ctx, clock, dataDir, workers,
    runJobs: async () => {
      for (const w of workers.all) await w.runDue();
    },
    logText: () => lines.join(''),
    async account(name = 'Test warehouse', plan: Plan = 'enterprise', rateLimit: number | null = null) {
      const account = createAccount(ctx, { name, plan, rateLimit: plan === 'enterprise' ? rateLimit : undefined });
      const full = createApiKey(ctx, { accountId: account.id });
      const ro = createApiKey(ctx, { accountId: account.id, scope: 'read_only' });
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
      closeContext(ctx);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
