import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { CLI, spawnDaemon, type DaemonProcess, processApi } from '../helpers/processes.js';
import { parcelsOf, shipmentBody, pplEmulatorControl } from '../helpers/shipments.js';

/** kill -9 while shipments are being created at the carrier, then a restart: every shipment ends created, once. */
describe('a daemon killed mid-creation', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-crash-'));
  const env = { XDG_CONFIG_HOME: join(dataDir, 'cfg') };
  let emu: RunningEmulators;
  let daemon: DaemonProcess;
  let key: string;

  const api = processApi(() => daemon.url, () => key);
  const { fault, shipments: emulated } = pplEmulatorControl(() => emu.url);

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    key = JSON.parse(execFileSync(process.execPath, [CLI, 'init', '--data-dir', dataDir, '--yes', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' })).api_key;
    daemon = await spawnDaemon(dataDir, env);
  });
  afterAll(async () => {
    await daemon?.stop('SIGKILL');
    await emu?.close();
  });

  it('finishes every shipment exactly once, with its label, after kill -9 and a restart', { timeout: 90_000 }, async () => {
    const channel = await api('/v1/shipping-channels', 'POST', {
      name: 'PPL', provider: 'ppl', settings: { clientId: 'c', clientSecret: 'crash-secret', baseUrl: emu.urls.ppl },
    });
    expect(channel.body.data.status).toBe('active');
    await fault({ mode: 'latency', ms: 300 }); // every carrier call is slow, so the kill lands mid-creation
    const ids = await Promise.all(Array.from({ length: 48 }, async (_, i) => {
      const res = await api('/v1/shipments', 'POST', shipmentBody(channel.body.data.id, { reference_number: `CRASH-${i}`, parcels: parcelsOf(1 + (i % 3)) }));
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    }));
    // the kill lands when the carrier holds the first shipments: the others are on their way or still waiting their turn
    await vi.waitFor(async () => expect((await emulated()).length).toBeGreaterThan(0), { timeout: 20_000, interval: 20 });
    expect(await daemon.stop('SIGKILL')).toBeNull();
    const before = await Promise.all(ids.map(async (id) => (await emulated()).filter((s: { referenceId: string }) => s.referenceId === id).length));
    expect(before.some((n) => n === 0), 'some shipments had not reached the carrier yet').toBe(true);
    expect(before.some((n) => n === 1), 'some shipments had reached the carrier').toBe(true);

    await fault({ mode: 'none' });
    daemon = await spawnDaemon(dataDir, env);
    const deadline = Date.now() + 45_000;
    let statuses: string[] = [];
    while (Date.now() < deadline) {
      statuses = await Promise.all(ids.map(async (id) => (await api(`/v1/shipments/${id}`)).body.data.status as string));
      if (statuses.every((s) => s === 'created')) break;
      await sleep(200);
    }
    expect(statuses).toEqual(ids.map(() => 'created'));
    const atCarrier = (await emulated()) as { referenceId: string; state: string; shipmentNumbers: string[] }[];
    for (const [i, id] of ids.entries()) {
      const live = atCarrier.filter((s) => s.referenceId === id && s.state !== 'Canceled');
      expect(live, `${id} at the carrier`).toHaveLength(1);
      const record = (await api(`/v1/shipments/${id}`)).body.data;
      const numbers = record.parcels.map((p: { tracking_number: string }) => p.tracking_number);
      expect(numbers).toEqual(live[0]!.shipmentNumbers);
      expect(numbers).toHaveLength(1 + (i % 3));
    }
    // the labels of three shipments the carrier held at the kill and of three it had not seen yet scan as their parcels
    const sample = [...ids.filter((_, i) => before[i] === 1).slice(0, 3), ...ids.filter((_, i) => before[i] === 0).slice(0, 3)];
    for (const id of sample) {
      const numbers = (await api(`/v1/shipments/${id}`)).body.data.parcels.map((p: { tracking_number: string }) => [p.tracking_number]);
      const label = await api(`/v1/shipments/${id}/label?download=1`);
      expect(await decodePdfBarcodes(label.body as Buffer)).toEqual(numbers);
    }
  });
});
