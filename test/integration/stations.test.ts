import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CLI, runCli } from '../helpers/cli.js';
import { csvText, filesIn, orderRow } from '../helpers/order-files.js';
import { testDatabaseUrl } from '../helpers/postgres.js';
import { processApi, spawnDaemon, type DaemonProcess } from '../helpers/processes.js';
import { pplEmulatorControl, shipmentBody } from '../helpers/shipments.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { startZebra } from '../helpers/zebra.js';

/**
 * Three daemons, three stations, one PostgreSQL store: work is shared, never done twice, and survives a kill -9; a
 * station's printer is printed to by that station's daemon alone.
 */
describe('several daemons on one PostgreSQL store', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'packdesk-stations-'));
  const env = { XDG_CONFIG_HOME: join(tmp, 'cfg') };
  const STATIONS = ['packing-1', 'packing-2', 'returns'] as const;
  const dataDirs = STATIONS.map((s) => join(tmp, s));
  let databaseUrl: string;
  let emu: RunningEmulators;
  let rx: WebhookReceiver;
  let key: string;
  const daemons: DaemonProcess[] = [];

  const start = (i: number) => spawnDaemon(dataDirs[i]!, env, ['--database', databaseUrl, '--station', STATIONS[i]!]);
  const apiOf = (i: number) => processApi(() => daemons[i]!.url, () => key);
  const { fault, shipments: emulated } = pplEmulatorControl(() => emu.url);

  beforeAll(async () => {
    databaseUrl = await testDatabaseUrl();
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    rx = await startWebhookReceiver();
    key = JSON.parse(execFileSync(process.execPath, [CLI, 'init', '--data-dir', dataDirs[0]!, '--database', databaseUrl, '--yes', '--json'], {
      env: { ...process.env, ...env }, encoding: 'utf8',
    })).api_key;
    // the stations seal and open channel credentials with one key: the first station's, copied to the others
    for (const dir of dataDirs.slice(1)) {
      mkdirSync(dir, { mode: 0o700 });
      copyFileSync(join(dataDirs[0]!, 'secret.key'), join(dir, 'secret.key'));
    }
    for (const i of STATIONS.keys()) daemons[i] = await start(i);
  });
  afterAll(async () => {
    for (const d of daemons) await d?.stop('SIGKILL');
    await rx?.close();
    await emu?.close();
  });

  it('lists every daemon with its station, and refuses one whose secret.key differs from the store\'s', async () => {
    const listed = await apiOf(1)('/v1/daemons');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((d: { station: string }) => d.station).sort()).toEqual([...STATIONS].sort());
    const stranger = join(tmp, 'stranger');
    const refused = await runCli(['daemon', '--data-dir', stranger, '--database', databaseUrl, '--port', '0', '--files-root', tmpdir()], { ...process.env, ...env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('sealed with another key');
  });

  it('carries a warehouse\'s work through a kill -9: 80 shipments with carrier faults, 250 tracking checks, two stations\' imports, webhooks and labels', { timeout: 180_000 }, async () => {
    // enough for the kill to land amid every kind of work; the figures at scale are bench/stations.mjs's
    const API_SHIPMENTS = 60;
    const IMPORTED = 10; // per folder
    const TRACKED = 250;
    const sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
    const zebras = await Promise.all([startZebra(), startZebra()]);
    try {
      const channel = await apiOf(0)('/v1/shipping-channels', 'POST', {
        name: 'PPL', provider: 'ppl', settings: { clientId: 'c', clientSecret: 'stations-secret', baseUrl: emu.urls.ppl },
      });
      expect(channel.body.data.status).toBe('active');
      const channelId = channel.body.data.id as string;
      const sub = await apiOf(2)('/v1/webhook-subscriptions', 'POST', {
        name: 'erp', url: `${rx.url}/erp`, events: ['shipment.created', 'tracking_parcel.created', 'tracking_parcel.status_changed'],
      });
      expect(sub.status, JSON.stringify(sub.body)).toBe(201);
      // packing-1 and packing-2 each have a Zebra and a watched folder whose labels it prints, added through their own daemons
      const folders = await Promise.all([0, 1].map(async (i) => {
        const printer = await apiOf(i)('/v1/printers', 'POST', { name: `Zebra ${STATIONS[i]}`, uri: zebras[i]!.uri, formats: ['zpl'] });
        expect(printer.body.data.station).toBe(STATIONS[i]);
        const folder = await apiOf(i)('/v1/watched-folders', 'POST', {
          path: join(tmp, `erp-${STATIONS[i]}`), shipping_channel_id: channelId, label_format: 'zpl', printer_id: printer.body.data.id,
        });
        expect(folder.status, JSON.stringify(folder.body)).toBe(201);
        expect(folder.body.data.station).toBe(STATIONS[i]);
        return folder.body.data as { id: string; folders: Record<'in' | 'processing' | 'done', string> };
      }));

      /** An ERP's POST to station i's daemon: when the answer is lost (that daemon was killed), the next daemon, same key. */
      const post = async (i: number, path: string, body: unknown, key: string) => {
        for (let attempt = 0; ; attempt++) {
          try {
            const res = await apiOf((i + attempt) % 3)(path, 'POST', body, { 'idempotency-key': key });
            if (res.status !== 409) return res;
            await sleep(1000); // the key is held by a request still running, or by one that died before committing until it counts as abandoned
          } catch (err) {
            if (attempt > 100) throw err;
            await sleep(100);
          }
        }
      };
      const inBatches = async (n: number, work: (i: number) => Promise<void>) => {
        for (let i = 0; i < n; i += 16) await Promise.all(Array.from({ length: Math.min(16, n - i) }, (_, j) => work(i + j)));
      };

      await fault({ mode: 'error500', count: 6 });
      const creating = inBatches(API_SHIPMENTS, async (i) => {
        const res = await post(i, '/v1/shipments', shipmentBody(channelId, { reference_number: `API-${i}` }), `ship-${i}`);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      });
      const tracking = inBatches(TRACKED, async (i) => {
        const res = await post(i, '/v1/tracking-parcels', { tracking_number: `9${String(i).padStart(10, '0')}`, shipping_channel_id: channelId }, `track-${i}`);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      });
      folders.forEach((folder, i) => writeFileSync(join(folder.folders.in, 'orders.csv'),
        csvText(Array.from({ length: IMPORTED }, (_, n) => orderRow(`IMP-${i}-${n}`)))));

      // the carrier's faults in turn, then slow answers; the kill lands while all of it is under way
      const atCarrier = async (n: number) => vi.waitFor(async () => expect((await emulated()).length).toBeGreaterThanOrEqual(n), { timeout: 60_000, interval: 50 });
      await atCarrier(8);
      await fault({ mode: 'timeout', ms: 2000, count: 4 });
      await atCarrier(16);
      await fault({ mode: 'rate_limit', count: 8 });
      await atCarrier(24);
      await fault({ mode: 'latency', ms: 300 });
      await atCarrier(40);
      expect(await daemons[0]!.stop('SIGKILL')).toBeNull();
      const killedAt = performance.now();
      await fault({ mode: 'none' });
      daemons[0] = await start(0);
      await Promise.all([creating, tracking]);

      // the operator retries shipments whose creation failed (a carrier fault), as from the desk, until every one is made
      const count = async (query: string) => Number((await sql.query(query)).rows[0].n);
      await vi.waitFor(async () => {
        for (const { id } of (await sql.query("SELECT id FROM shipments WHERE status = 'pending' AND failure IS NOT NULL")).rows) {
          const res = await apiOf(1)(`/v1/shipments/${id}/retry`, 'POST');
          expect([200, 422]).toContain(res.status); // 422: its retry began meanwhile
        }
        expect(await count("SELECT count(*) AS n FROM shipments WHERE status = 'created'")).toBe(API_SHIPMENTS + 2 * IMPORTED);
        expect(await count("SELECT count(*) AS n FROM tracking_parcels WHERE origin = 'external' AND checks_done > 0")).toBe(TRACKED);
        expect(await count("SELECT count(*) AS n FROM print_jobs WHERE status = 'printed'")).toBe(2 * IMPORTED);
        for (const folder of folders) expect(filesIn(folder.folders.processing)).toEqual([]);
        expect(await count('SELECT count(*) AS n FROM events WHERE dispatched_at IS NULL')).toBe(0);
        expect(await count("SELECT count(*) AS n FROM webhook_queue WHERE status <> 'delivered'")).toBe(0);
      }, { timeout: 150_000, interval: 2000 });

      // every order once in the store and once at the carrier
      const made = (await sql.query('SELECT id, reference_number AS ref FROM shipments')).rows as { id: string; ref: string }[];
      expect(made.map((s) => s.ref).sort()).toEqual([
        ...Array.from({ length: API_SHIPMENTS }, (_, i) => `API-${i}`), ...[0, 1].flatMap((f) => Array.from({ length: IMPORTED }, (_, n) => `IMP-${f}-${n}`)),
      ].sort());
      const carrierRefs = (await emulated()).filter((e) => e.state !== 'Canceled').map((e) => e.referenceId);
      expect(carrierRefs.sort()).toEqual(made.map((s) => s.id).sort());

      // every parcel registered once and checked once
      expect(await count("SELECT count(*) AS n FROM tracking_parcels WHERE origin = 'external' AND checks_done = 1 AND lease_until IS NULL")).toBe(TRACKED);

      // every label on its own station's printer, once; the killed station's Zebra may have one printed again: a label it
      // read as its daemon died, before `printed` was stored (the raw-socket window README names), never another one
      for (const [i, zebra] of zebras.entries()) {
        const zpl = zebra.labelBytes().toString('latin1');
        const labels = zpl.split('^XA').slice(1);
        expect(new Set(labels).size, STATIONS[i]).toBe(IMPORTED);
        expect(labels.length - IMPORTED, STATIONS[i]).toBeLessThanOrEqual(i === 0 ? 1 : 0);
        const numbers = (await sql.query(`SELECT p.tracking_number AS n FROM parcels p JOIN shipments s ON s.id = p.shipment_id
          WHERE s.reference_number LIKE $1`, [`IMP-${i}-%`])).rows.map((r) => r.n as string);
        for (const number of numbers) expect(zpl.split(number).length - 1, `${number} on ${STATIONS[i]}`).toBeGreaterThan(0);
      }

      // every event delivered; one answered 200 twice only if its first answer reached a daemon as it was killed
      const events = (await sql.query("SELECT id FROM events WHERE type IN ('shipment.created', 'tracking_parcel.created', 'tracking_parcel.status_changed')")).rows.map((r) => r.id as string);
      const succeeded = new Map<string, number[]>();
      for (const r of rx.at('/erp').filter((w) => w.answered === 200)) {
        const id = (JSON.parse(r.body) as { id: string }).id;
        succeeded.set(id, [...(succeeded.get(id) ?? []), r.arrivedAt]);
      }
      expect([...succeeded.keys()].sort()).toEqual(events.sort());
      const twice = [...succeeded.values()].filter((at) => at.length > 1);
      for (const at of twice) expect(at[0]).toBeLessThan(killedAt);
      expect(twice.length).toBeLessThanOrEqual(32);
      process.stdout.write(`# ${made.length} shipments, ${TRACKED} tracking checks, ${events.length} events (${twice.length} delivered again after the kill)\n`);
    } finally {
      await sql.end();
      for (const zebra of zebras) await zebra.stop();
    }
  });

  it("serves a station's printer and folder on that station's daemon alone, moved through the daemon of the station they go to", { timeout: 90_000 }, async () => {
    const zebra = await startZebra();
    const cli = (i: number, args: string[]) => runCli([...args, '--json'], { ...process.env, ...env, PACKDESK_URL: daemons[i]!.url, PACKDESK_API_KEY: key });
    try {
      const channelId = (await apiOf(0)('/v1/shipping-channels', 'POST', {
        name: 'PPL returns', provider: 'ppl', settings: { clientId: 'c', clientSecret: 'stations-secret', baseUrl: emu.urls.ppl },
      })).body.data.id as string;
      const printer = await apiOf(1)('/v1/printers', 'POST', { name: 'Zebra at the returns desk', uri: zebra.uri, formats: ['zpl'] });
      expect(printer.status, JSON.stringify(printer.body)).toBe(201);
      expect(printer.body.data.station).toBe('packing-2'); // the station of the daemon it was added through
      const printerId = printer.body.data.id as string;
      const folder = await apiOf(1)('/v1/watched-folders', 'POST', {
        path: join(tmp, 'returns-drop'), shipping_channel_id: channelId, label_format: 'zpl', printer_id: printerId,
      });
      expect(folder.status, JSON.stringify(folder.body)).toBe(201);
      const folderId = folder.body.data.id as string;

      // a move is made through the daemon of the station it goes to, which checks the URI and path on its machine
      const elsewhere = await apiOf(1)(`/v1/printers/${printerId}`, 'PATCH', { station: 'returns' });
      expect(elsewhere.status).toBe(422);
      expect(elsewhere.body.errors.station[0]).toContain('this one serves packing-2');
      const movedPrinter = await cli(2, ['printers', 'move', printerId]);
      expect(movedPrinter.code, movedPrinter.stderr).toBe(0);
      expect(JSON.parse(movedPrinter.stdout).station).toBe('returns');
      const movedFolder = await cli(2, ['watch', 'move', folderId]);
      expect(movedFolder.code, movedFolder.stderr).toBe(0);
      expect(JSON.parse(movedFolder.stdout).station).toBe('returns');
      expect(JSON.parse((await cli(0, ['printers', 'list'])).stdout).data.find((p: { id: string }) => p.id === printerId).station).toBe('returns');

      // with the returns desk's daemon down, its printer's jobs and its folder's files wait; packing-2 no longer takes them
      expect(await daemons[2]!.stop('SIGTERM')).toBe(0);
      writeFileSync(join(folder.body.data.folders.in, 'returns.csv'), csvText([orderRow('RET-1')]));
      const queued = await apiOf(0)(`/v1/printers/${printerId}/test`, 'POST', { formats: ['zpl'] });
      expect(queued.status, JSON.stringify(queued.body)).toBe(202);
      const jobId = queued.body.data[0].id as string;
      await sleep(3000); // longer than a file takes to settle (1.5 s), and the other daemons' print queues look every second
      expect((await apiOf(1)(`/v1/print-jobs/${jobId}`)).body.data.status).toBe('queued');
      expect(filesIn(folder.body.data.folders.in)).toEqual(['returns.csv']);
      expect(zebra.labelBytes().length).toBe(0);

      daemons[2] = await start(2);
      await vi.waitFor(async () => {
        expect((await apiOf(1)(`/v1/print-jobs/${jobId}`)).body.data.status).toBe('printed');
        expect(filesIn(folder.body.data.folders.done)).toEqual(['returns.csv']);
        expect(zebra.labelBytes().toString('latin1').split('^XA').length - 1).toBe(2); // the test label and the order's
      }, { timeout: 30_000, interval: 200 });
    } finally {
      await zebra.stop();
    }
  });
});
