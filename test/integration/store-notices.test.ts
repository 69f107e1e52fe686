import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../../src/services/context.js';
import { enqueueJob, workQueued } from '../../src/services/jobs.js';
import { relayStoreNotices } from '../../src/services/notices.js';
import { closeContext, openContext } from '../../src/services/open.js';
import { PostgresStore } from '../../src/store/postgres.js';
import { testDatabaseUrl } from '../helpers/postgres.js';

/** Two daemons' contexts on one PostgreSQL store: work queued on one wakes the other's workers, once it is committed. */
describe('notices between the daemons of a shared store', () => {
  const contexts: ServiceContext[] = [];
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    const url = await testDatabaseUrl();
    const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-notices-'));
    for (const station of ['one', 'two']) {
      contexts.push(openContext({ dataDir, station, log: pino({ level: 'silent' }), store: await PostgresStore.open(url) }));
    }
    stops.push(await relayStoreNotices(contexts[1]!));
  });
  afterAll(async () => {
    for (const stop of stops) await stop();
    for (const ctx of contexts) await closeContext(ctx);
  });

  it('delivers a job queued in a transaction on one daemon to the other when the transaction commits', async () => {
    const [one, two] = contexts as [ServiceContext, ServiceContext];
    const heard: string[] = [];
    two.notices.on(workQueued('notice.test'), () => heard.push('queued'));
    const arrived = once(two.notices, workQueued('notice.test'));
    await one.store.transaction(async () => {
      await enqueueJob(one, { kind: 'notice.test', subjectId: 'x', maxAttempts: 1 });
      // a notice sent at once would arrive within milliseconds; none does while the transaction is open
      await sleep(300);
      expect(heard).toEqual([]);
    });
    await arrived;
    expect(heard).toEqual(['queued']);
  });
});
