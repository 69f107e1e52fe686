import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkers } from '../../daemon/workers/index.js';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import type { ServiceContext } from '../../src/services/context.js';
import { relayStoreNotices } from '../../src/services/notices.js';
import { closeContext, openContext } from '../../src/services/open.js';
import { startTestDaemon, TEST_DIALECT, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { pplChannel, shipmentBody } from '../helpers/shipments.js';

/**
 * Two daemons on one PostgreSQL store: a POST that waits (`Prefer: wait`) on one is answered as soon as the other
 * daemon's worker finished the carrier step, through the store's notices, not at the end of its wait.
 */
describe.skipIf(TEST_DIALECT !== 'postgres')('Prefer: wait across the daemons of a shared store', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let other: ServiceContext;
  let channel: string;
  let stopRelay: () => Promise<void>;

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    d = await startTestDaemon();
    a = await d.account('Two stations');
    channel = await pplChannel(a, emu.urls.ppl!);
    other = openContext({ dataDir: d.dataDir, log: d.ctx.log, clock: d.clock, store: await d.otherStore() });
    // as `packdesk daemon` does on PostgreSQL: the other daemons' notices reach this one
    stopRelay = await relayStoreNotices(d.ctx);
  });
  afterAll(async () => {
    await stopRelay?.();
    if (other) await closeContext(other);
    await d?.close();
    await emu?.close();
  });

  it("answers a waiting POST on this daemon within a second of the other daemon's worker creating the shipment", async () => {
    // this daemon's workers never run: only the other daemon's take the creation
    const answer = a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: 'SHARED-1' }), { prefer: 'wait=10' });
    let listed: { id: string }[] = [];
    while (listed.length === 0) listed = (await a.request('GET', '/v1/shipments?search=SHARED-1')).json().data;
    const workers = createWorkers(other);
    for (const w of workers.all) await w.runDue();
    const finished = Date.now();
    const res = await answer;
    const answeredAfter = Date.now() - finished;
    expect(res.json().data).toMatchObject({ id: listed[0]!.id, status: 'created' });
    expect(answeredAfter).toBeLessThan(1000);
  });
});
