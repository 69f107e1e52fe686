import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { releaseIdempotencyKeysInProgress } from '../../src/services/idempotency.js';
import { claimDueTrackingParcels, releaseTrackingLeases } from '../../src/services/tracking/due.js';
import { idempotencyKeys } from '../../src/store/schema.js';
import { DEFAULT_TRACKING_POLLER_OPTIONS, TrackingPoller } from '../../daemon/workers/tracking-poller.js';
import { startTestDaemon, TEST_DIALECT, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { pplChannel, pplEmulatorControl } from '../helpers/shipments.js';

/**
 * A worker renews the leases of the claims it is at: a carrier call longer than a lease keeps its claim, so a second
 * daemon does not take the work as abandoned; once the work ends, the claim is released. A daemon restarted on its
 * data directory takes back at once what its killed predecessor held.
 */
describe('leases of work in flight', () => {
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

  it("takes back at start the claims of the daemon that ran on its data directory before, and on a shared store no other daemon's", async () => {
    const channel = await pplChannel(a, emu.urls.ppl!);
    const ids: string[] = [];
    for (const n of ['80000004301', '80000004302']) {
      const parcel = await a.request('POST', '/v1/tracking-parcels', { tracking_number: n, shipping_channel_id: channel });
      expect(parcel.statusCode, parcel.body).toBe(201);
      ids.push(parcel.json().data.id);
    }
    const killed = { ...d.ctx, daemonId: 'dmn_killedonthisdatadir0' };
    const elsewhere = { ...d.ctx, daemonId: 'dmn_livingatanotherstation' };
    expect(await claimDueTrackingParcels(killed, 1, 60_000)).toHaveLength(1);
    expect(await claimDueTrackingParcels(elsewhere, 1, 60_000)).toHaveLength(1);
    const leased = async () => (await d.ctx.store.all<{ owner: string }>('SELECT lease_owner AS owner FROM tracking_parcels WHERE lease_until IS NOT NULL AND id IN (?, ?)', ...ids)).map((r) => r.owner);
    expect((await leased()).sort()).toEqual([elsewhere.daemonId, killed.daemonId].sort());

    const restarted = { ...d.ctx, daemonId: 'dmn_restartedonthisdatadir', previousDaemonId: killed.daemonId };
    // SQLite has one daemon: every claim is a gone one's; PostgreSQL's other daemons keep theirs until their leases run out
    expect(await releaseTrackingLeases(restarted)).toBe(TEST_DIALECT === 'postgres' ? 1 : 2);
    expect(await leased()).toEqual(TEST_DIALECT === 'postgres' ? [elsewhere.daemonId] : []);
  });

  it('lets a retry through at once when the daemon that was handling the request is gone, not after the key counts as abandoned', async () => {
    const killed = 'dmn_killedonthisdatadir1';
    const elsewhere = 'dmn_livingatanotherstation1';
    const channel = await pplChannel(a, emu.urls.ppl!);
    const now = d.clock.now();
    // what an interrupted request leaves: its key held, no answer and nothing created yet
    for (const [key, owner] of [['retry-after-kill', killed], ['running-elsewhere', elsewhere]]) {
      await d.ctx.db.insert(idempotencyKeys).values({ accountId: a.id, key: key!, apiKeyId: null, requestHash: 'interrupted', leaseOwner: owner!, createdAt: now }).run();
    }
    const post = (key: string, number: string) => a.request('POST', '/v1/tracking-parcels', { tracking_number: number, shipping_channel_id: channel }, { 'idempotency-key': key });
    expect((await post('retry-after-kill', '80000004310')).statusCode).toBe(409);

    await releaseIdempotencyKeysInProgress({ ...d.ctx, daemonId: 'dmn_restartedonthisdatadir1', previousDaemonId: killed });
    expect((await post('retry-after-kill', '80000004310')).statusCode).toBe(201);
    expect((await post('running-elsewhere', '80000004311')).statusCode).toBe(TEST_DIALECT === 'postgres' ? 409 : 201);
  });
});
