import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CLI, runCli } from '../helpers/cli.js';
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

  it('creates every shipment exactly once at the carrier through a kill -9 of one daemon, then delivers every event once', { timeout: 120_000 }, async () => {
    const channel = await apiOf(0)('/v1/shipping-channels', 'POST', {
      name: 'PPL', provider: 'ppl', settings: { clientId: 'c', clientSecret: 'stations-secret', baseUrl: emu.urls.ppl },
    });
    expect(channel.body.data.status).toBe('active');
    const create = async (n: number, prefix: string) => Promise.all(Array.from({ length: n }, async (_, i) => {
      const res = await apiOf(i % 3)('/v1/shipments', 'POST', shipmentBody(channel.body.data.id, { reference_number: `${prefix}-${i}` }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id as string;
    }));
    const allCreated = async (ids: string[]) => {
      await vi.waitFor(async () => {
        const statuses = await Promise.all(ids.map(async (id) => (await apiOf(1)(`/v1/shipments/${id}`)).body.data.status));
        expect(statuses.filter((s) => s !== 'created')).toEqual([]);
      }, { timeout: 60_000, interval: 250 });
    };

    // slow carrier calls: the kill lands while the three daemons are creating; the killed daemon's jobs are taken
    // again once their leases run out (30 s), by whichever daemon comes first
    await fault({ mode: 'latency', ms: 200 });
    const first = await create(60, 'KILL');
    await vi.waitFor(async () => expect((await emulated()).length).toBeGreaterThan(5), { timeout: 30_000, interval: 20 });
    expect(await daemons[0]!.stop('SIGKILL')).toBeNull();
    await fault({ mode: 'none' });
    daemons[0] = await start(0);
    await allCreated(first);

    // webhooks: every event of the next shipments reaches the receiver once, whichever daemon claims it
    const sub = await apiOf(2)('/v1/webhook-subscriptions', 'POST', { name: 'erp', url: `${rx.url}/erp`, events: ['shipment.created'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const second = await create(60, 'HOOK');
    await allCreated(second);
    await vi.waitFor(() => expect(rx.at('/erp').filter((r) => r.answered === 200).length).toBeGreaterThanOrEqual(second.length), { timeout: 30_000, interval: 100 });
    await sleep(1500); // a second delivery of any event would come within the workers' next looks
    const delivered = rx.at('/erp').map((r) => JSON.parse(r.body) as { id: string; data: { shipment: { id: string } } });
    expect(new Set(delivered.map((e) => e.id)).size).toBe(delivered.length);
    expect(delivered.map((e) => e.data.shipment.id).sort()).toEqual([...second].sort());

    const atCarrier = await emulated();
    for (const id of [...first, ...second]) {
      expect(atCarrier.filter((s) => s.referenceId === id && s.state !== 'Canceled'), `${id} at the carrier`).toHaveLength(1);
    }
  });

  it("prints a station's jobs only on that station's daemon: they wait while it is down, in the queue", { timeout: 60_000 }, async () => {
    const zebra = await startZebra();
    try {
      const printer = await apiOf(1)('/v1/printers', 'POST', { name: 'Zebra at packing 2', uri: zebra.uri, formats: ['zpl'] });
      expect(printer.status, JSON.stringify(printer.body)).toBe(201);
      expect(printer.body.data.station).toBe('packing-2'); // the station of the daemon it was added through
      expect(await daemons[1]!.stop('SIGTERM')).toBe(0);
      const queued = await apiOf(0)(`/v1/printers/${printer.body.data.id}/test`, 'POST', { formats: ['zpl'] });
      expect(queued.status, JSON.stringify(queued.body)).toBe(202);
      const jobId = queued.body.data[0].id as string;
      await sleep(2500); // the two other daemons' print queues look at least twice in this time (every second at most)
      expect((await apiOf(2)(`/v1/print-jobs/${jobId}`)).body.data.status).toBe('queued');
      expect(zebra.labelBytes().length).toBe(0);
      daemons[1] = await start(1);
      await vi.waitFor(async () => expect((await apiOf(2)(`/v1/print-jobs/${jobId}`)).body.data.status).toBe('printed'), { timeout: 20_000, interval: 100 });
      expect(zebra.labelBytes().toString('latin1').split('^XA').length - 1).toBe(1);
    } finally {
      await zebra.stop();
    }
  });
});
