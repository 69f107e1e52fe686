import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { trackingParcels } from '../../src/store/schema.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { emulatorProxy } from '../helpers/recording-proxy.js';
import { pplChannel, pplEmulatorControl } from '../helpers/shipments.js';

const PARCELS = 3_000; // the throughput at 300,000 checks is bench/tracking.mjs's; this many show the batches and the limit
const CHANNELS = 3;
const PER_PROVIDER_LIMIT = 4;

/** Sits between the daemon and the emulator and counts the calls in flight at the carrier. */
interface CountingProxy {
  url: string;
  maxInFlight: number;
  trackingCalls: number;
  largestBatch: number;
  close(): Promise<void>;
}

async function countingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  let inFlight = 0;
  const stats = { maxInFlight: 0, trackingCalls: 0, largestBatch: 0 };
  const server: Server = emulatorProxy((req, res) => {
    inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    const url = new URL(req.url ?? '/', 'http://proxy');
    if (req.method === 'GET' && url.pathname === '/ppl/shipment') {
      stats.trackingCalls += 1;
      stats.largestBatch = Math.max(stats.largestBatch, url.searchParams.getAll('ShipmentNumbers').length);
    }
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('end', () => { inFlight -= 1; });
    });
    forward.on('error', () => {
      inFlight -= 1;
      res.destroy();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get maxInFlight() { return stats.maxInFlight; },
    get trackingCalls() { return stats.trackingCalls; },
    get largestBatch() { return stats.largestBatch; },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

describe('the tracking poller under load', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let proxy: CountingProxy;
  let a: TestAccount;

  beforeAll(async () => {
    d = await startTestDaemon({ carrierTimeoutMs: 10_000 });
    emu = await startEmulators({ providers: ['ppl'], port: 0, clock: d.clock });
    proxy = await countingProxy(emu.url);
    a = await d.account('Busy warehouse');
  });
  afterAll(async () => {
    await d.close();
    await proxy.close();
    await emu.close();
  });

  it(`checks ${PARCELS} parcels due at once in batches of 100, never more than ${PER_PROVIDER_LIMIT} PPL calls in flight`, async () => {
    const channels: string[] = [];
    for (let i = 0; i < CHANNELS; i++) channels.push(await pplChannel(a, `${proxy.url}/ppl`, { clientId: `load-${i}` }));
    const now = d.clock.now();
    const rows = Array.from({ length: PARCELS }, (_, i) => ({
      id: `tp_load${String(i).padStart(15, '0')}`, accountId: a.id, channelId: channels[i % CHANNELS]!, provider: 'ppl',
      shipmentId: null, parcelId: null, trackingNumber: `8${String(i).padStart(10, '0')}`, origin: 'external' as const, status: 'created',
      recipientName: null, recipientEmail: null, recipientPhone: null, checkDelayHours: 6, maxChecks: 20, checksDone: 0,
      nextCheckAt: now - (i % 1000), lastCheckedAt: null, leaseUntil: null, externalData: {}, trackingUrl: null, createdAt: now, updatedAt: now,
    }));
    await d.ctx.store.transaction(async () => {
      for (let i = 0; i < rows.length; i += 500) await d.ctx.db.insert(trackingParcels).values(rows.slice(i, i + 500)).run();
    });
    // every carrier call takes a while, so unbounded concurrency would show
    await pplEmulatorControl(() => emu.url).fault({ mode: 'latency', ms: 15 });

    const started = Date.now();
    await d.workers.tracking.runDue();
    const seconds = (Date.now() - started) / 1000;

    const summary = (await d.ctx.store.get<Record<string, number>>(`SELECT count(*) AS n, sum(CASE WHEN checks_done = 1 THEN 1 ELSE 0 END) AS checked,
      sum(CASE WHEN status = 'not_recognized' THEN 1 ELSE 0 END) AS unknown, sum(CASE WHEN lease_until IS NULL THEN 1 ELSE 0 END) AS released,
      min(next_check_at) AS first_next FROM tracking_parcels`))!;
    expect(summary).toMatchObject({ n: PARCELS, checked: PARCELS, unknown: PARCELS, released: PARCELS });
    expect(summary.first_next).toBeGreaterThanOrEqual(now + 6 * 3_600_000);
    expect(proxy.maxInFlight).toBeLessThanOrEqual(PER_PROVIDER_LIMIT);
    expect(proxy.maxInFlight).toBeGreaterThan(1);
    expect(proxy.largestBatch).toBe(100);
    expect(proxy.trackingCalls).toBeGreaterThanOrEqual(PARCELS / 100);
    expect(proxy.trackingCalls).toBeLessThanOrEqual(PARCELS / 100 + CHANNELS * 25);
    const events = (await d.ctx.store.get<{ n: number }>("SELECT count(*) AS n FROM events WHERE type = 'tracking_parcel.status_changed'"))!;
    expect(events.n).toBe(PARCELS);
    process.stdout.write(`# ${PARCELS} checks in ${seconds.toFixed(2)} s (${Math.round(PARCELS / seconds)}/s), ${proxy.trackingCalls} PPL calls, at most ${proxy.maxInFlight} in flight\n`);
  }, 60_000); // ~15,000 statements: over PostgreSQL's connection, beside the rest of the suite, that takes longer than the usual limit
});
