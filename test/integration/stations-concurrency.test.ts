import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../daemon/app.js';
import { createWorkers, type Workers } from '../../daemon/workers/index.js';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import type { ServiceContext } from '../../src/services/context.js';
import { relayStoreNotices } from '../../src/services/notices.js';
import { closeContext, openContext } from '../../src/services/open.js';
import { startTestDaemon, TEST_DIALECT, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { csvText, orderRow, SENDER_COLUMNS } from '../helpers/order-files.js';
import { pplChannel, shipmentBody } from '../helpers/shipments.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const CREATIONS = 200;
const IMPORTS = 3;
const ORDERS_PER_IMPORT = 20;
const REPEATED_KEYS = 20;

interface Station {
  ctx: ServiceContext;
  app: FastifyInstance;
  workers: Workers;
}

/**
 * Three daemons on one PostgreSQL store, one account, everything at once: 200 creations posted round robin (20 of
 * them posted twice with one Idempotency-Key, to two daemons), three imports, and every daemon's workers creating
 * at the carrier and delivering webhooks side by side. Then every invariant the daemons keep together is checked.
 */
describe.skipIf(TEST_DIALECT !== 'postgres')('three daemons on one account at once', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let rx: WebhookReceiver;
  let a: TestAccount;
  let channel: string;
  const stations: Station[] = [];
  const relays: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    rx = await startWebhookReceiver();
    d = await startTestDaemon({ allowLoopbackWebhooks: true });
    a = await d.account('Three stations');
    channel = await pplChannel(a, emu.urls.ppl!);
    stations.push({ ctx: d.ctx, app: d.app, workers: d.workers });
    for (let i = 2; i <= 3; i++) {
      const ctx = openContext({ dataDir: d.dataDir, log: d.ctx.log, clock: d.clock, store: await d.otherStore(), station: `station-${i}`, options: d.ctx.options });
      stations.push({ ctx, app: await buildApp(ctx, { version: 'test' }), workers: createWorkers(ctx) });
    }
    // as `packdesk daemon` does on PostgreSQL: each daemon hears the others' notices (an import follows its shipments)
    for (const s of stations) relays.push(await relayStoreNotices(s.ctx));
    // uploads are taken by the import worker of the daemon they were posted to
    for (const s of stations) s.workers.imports.start();
    const sub = await a.request('POST', '/v1/webhook-subscriptions', { name: 'erp', url: `${rx.url}/erp`, events: ['*'] });
    expect(sub.statusCode, sub.body).toBe(201);
  });
  afterAll(async () => {
    for (const s of stations) await s.workers.imports.stop();
    for (const stop of relays) await stop();
    for (const s of stations.slice(1)) {
      await s.app.close();
      await closeContext(s.ctx);
    }
    await d?.close();
    await rx?.close();
    await emu?.close();
  });

  const post = (i: number, url: string, body: unknown, headers: Record<string, string> = {}) => stations[i % 3]!.app.inject({
    method: 'POST', url, payload: JSON.stringify(body), headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json', ...headers },
  });

  it('creates, imports and delivers everything exactly once, with counts, list versions and webhook order kept', { timeout: 240_000 }, async () => {
    const versionBefore = (await listOn(0, 'per_page=1')).version;
    const creations = Array.from({ length: CREATIONS }, (_, i) => {
      const body = shipmentBody(channel, { reference_number: `HOT-${i}` });
      const key = i < REPEATED_KEYS ? { 'idempotency-key': `hot-${i}` } : undefined;
      return [post(i, '/v1/shipments', body, key), ...(key ? [post(i + 1, '/v1/shipments', body, key)] : [])];
    }).flat();
    const imports = Array.from({ length: IMPORTS }, (_, i) => {
      const rows = Array.from({ length: ORDERS_PER_IMPORT }, (_, j) => orderRow(`IMP-${i}-${j}`, SENDER_COLUMNS));
      return post(i, '/v1/imports', { file_name: `orders-${i}.csv`, content_base64: Buffer.from(csvText(rows)).toString('base64'), shipping_channel_id: channel });
    });
    const answers = await Promise.all([...creations, ...imports]);
    for (const res of answers) expect([201, 202, 409], res.body).toContain(res.statusCode);
    // a repeated key is answered with the first request's shipment, or refused while that one is in progress
    const created = answers.filter((r) => r.statusCode === 201).map((r) => r.json().data as { id: string; reference_number: string });
    const byReference = new Map<string, Set<string>>();
    for (const s of created) byReference.set(s.reference_number, (byReference.get(s.reference_number) ?? new Set()).add(s.id));
    expect(byReference.size).toBe(CREATIONS);
    expect([...byReference.values()].every((ids) => ids.size === 1)).toBe(true);

    // every daemon's workers at once, until the imports are done and every shipment is created at the carrier
    const total = CREATIONS + IMPORTS * ORDERS_PER_IMPORT;
    let imported = false;
    const importing = Promise.all(stations.map((s) => s.workers.imports.runDue())).then(() => { imported = true; });
    const deadline = performance.now() + 120_000;
    for (let round = 0; ; round++) {
      await Promise.all(stations.map(async (s) => { for (const w of s.workers.all) await w.runDue(); }));
      const { total: pending } = await listOn(round % 3, 'status=pending&per_page=1');
      const { total: all } = await listOn(round % 3, 'per_page=1');
      if (imported && all === total && pending === 0) break;
      expect(performance.now(), `${all} of ${total} shipments, ${pending} pending`).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await importing;

    const store = d.ctx.store;
    // exactly once at the carrier and in the store
    const rows = await store.all<{ reference_number: string; n: number }>(
      'SELECT reference_number, count(*) AS n FROM shipments WHERE account_id = ? GROUP BY reference_number HAVING count(*) > 1', a.id);
    expect(rows).toEqual([]);
    const atCarrier = emu.emulator('ppl').shipments().map((s) => s.referenceId);
    expect(atCarrier).toHaveLength(total);
    expect(new Set(atCarrier).size).toBe(total);
    // the counts the triggers keep, summed over their shards, are the rows' own
    const counted = await store.all<{ status: string; n: number }>(
      'SELECT status, sum(n) AS n FROM shipment_counts WHERE account_id = ? GROUP BY status HAVING sum(n) <> 0 ORDER BY status', a.id);
    const actual = await store.all<{ status: string; n: number }>(
      'SELECT status, count(*) AS n FROM shipments WHERE account_id = ? GROUP BY status ORDER BY status', a.id);
    expect(counted).toEqual(actual);
    expect(actual).toEqual([{ status: 'created', n: total }]);
    // every daemon answers the list as it now is: its cached answers were keyed by a version that moved
    for (let i = 0; i < 3; i++) {
      const listed = await listOn(i, 'status=created&per_page=1');
      expect(listed.total).toBe(total);
      expect(listed.version).toBeGreaterThan(versionBefore);
    }

    // every event delivered, and each shipment's in the order they happened
    const events = await store.all<{ id: string; resource_id: string; type: string }>(
      'SELECT id, resource_id, type FROM events WHERE account_id = ? ORDER BY rowid', a.id);
    expect(events.filter((e) => e.type === 'shipment.created')).toHaveLength(total);
    for (;;) {
      expect(performance.now(), `${rx.at('/erp').length} of ${events.length} events delivered`).toBeLessThan(deadline + 60_000);
      await Promise.all(stations.map((s) => s.workers.webhooks.runDue()));
      if (rx.at('/erp').length >= events.length) break;
      if ((await store.get<{ n: number }>("SELECT count(*) AS n FROM webhook_queue WHERE status IN ('pending', 'delivering')"))!.n === 0
        && (await store.get<{ n: number }>('SELECT count(*) AS n FROM events WHERE dispatched_at IS NULL'))!.n === 0) break;
    }
    const delivered = rx.at('/erp').map((r) => r.headers['webhook-id']!);
    expect(new Set(delivered).size).toBe(delivered.length);
    expect(new Set(delivered)).toEqual(new Set(events.map((e) => e.id)));
    const position = new Map(delivered.map((id, i) => [id, i]));
    const byShipment = new Map<string, number[]>();
    for (const e of events) byShipment.set(e.resource_id, [...(byShipment.get(e.resource_id) ?? []), position.get(e.id)!]);
    for (const [shipment, positions] of byShipment) expect(positions, shipment).toEqual([...positions].sort((x, y) => x - y));

    // conflicts between the daemons' transactions were run again (each daemon counts them), none given up
    for (const s of stations) {
      const health = (await s.app.inject({ method: 'GET', url: '/healthz' })).json();
      expect(health.store_conflicts.failed).toBe(0);
    }
    expect(stations.reduce((sum, s) => sum + s.ctx.store.conflicts.retried, 0)).toBeGreaterThan(0);
  });

  async function listOn(i: number, query: string): Promise<{ total: number; version: number }> {
    const res = await stations[i]!.app.inject({ method: 'GET', url: `/v1/shipments?${query}`, headers: { authorization: `Bearer ${a.key}` } });
    expect(res.statusCode, res.body).toBe(200);
    const version = (await stations[i]!.ctx.store.get<{ v: number }>('SELECT sum(version) AS v FROM shipment_list_versions WHERE account_id = ?', a.id))?.v ?? 0;
    return { total: res.json().meta.total as number, version };
  }
});
