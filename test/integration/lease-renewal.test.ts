import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { claimDueTrackingParcels } from '../../src/services/tracking/due.js';
import { DEFAULT_TRACKING_POLLER_OPTIONS, TrackingPoller } from '../../daemon/workers/tracking-poller.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { pplChannel, pplEmulatorControl } from '../helpers/shipments.js';

/**
 * A worker renews the leases of the claims it is at: a carrier call longer than a lease keeps its claim, so a second
 * daemon does not take the work as abandoned; once the work ends, the claim is released.
 */
describe('lease renewal of work in flight', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;

  beforeAll(async () => {
    d = await startTestDaemon();
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    a = await d.account('Slow carrier');
  });
  afterAll(async () => {
    await d.close();
    await emu.close();
  });

  it('keeps a tracking check that outlasts its lease claimed, and releases it when recorded', async () => {
    const channel = await pplChannel(a, emu.urls.ppl!);
    const parcel = await a.request('POST', '/v1/tracking-parcels', { tracking_number: '80000004242', shipping_channel_id: channel });
    expect(parcel.statusCode, parcel.body).toBe(201);
    const leaseOf = async () => (await d.ctx.store.get<{ lease: number | null }>('SELECT lease_until AS lease FROM tracking_parcels WHERE id = ?', parcel.json().data.id))!.lease;
    await pplEmulatorControl(() => emu.url).fault({ mode: 'latency', ms: 1500 });
    const leaseMs = 300;
    const poller = new TrackingPoller(d.ctx, { ...DEFAULT_TRACKING_POLLER_OPTIONS, leaseMs });
    const claimedAt = d.clock.now();
    poller.start();
    try {
      await vi.waitFor(async () => expect(await leaseOf()).toBe(claimedAt + leaseMs), { timeout: 2000, interval: 10 });
      // the carrier is still answering when the first lease would run out; the poller has moved it on by then
      d.clock.advance(250);
      await vi.waitFor(async () => expect(await leaseOf()).toBe(claimedAt + 250 + leaseMs), { timeout: 1000, interval: 10 });
      d.clock.advance(200);
      expect(await claimDueTrackingParcels(d.ctx, 10, leaseMs)).toEqual([]); // another daemon finds nothing to take
      await vi.waitFor(async () => expect(await leaseOf()).toBeNull(), { timeout: 3000, interval: 20 });
      await sleep(leaseMs / 3 + 50); // a renewal after the check was recorded would set a lease again
      expect(await leaseOf()).toBeNull();
    } finally {
      await poller.stop();
      await pplEmulatorControl(() => emu.url).fault({ mode: 'none' });
    }
    expect((await a.request('GET', `/v1/tracking-parcels/${parcel.json().data.id}`)).json().data.checks_done).toBe(1);
  });
});
