import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { CLI, processApi, spawnDaemon, type DaemonProcess } from '../helpers/processes.js';
import { parcelsOf } from '../helpers/shipments.js';

/**
 * Baselinker tracks by package id, which no Base.com method finds from a parcel number: the daemon that tracks a
 * parcel must learn it from the store, not from the daemon that created the shipment.
 */
describe('Baselinker tracking after the daemon that created the shipment is gone', () => {
  const baselinker = findProvider('baselinker')!;
  const { cash_on_delivery_currency: _currency, ...parties } = baselinker.demo.shipment;
  const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-tracking-restart-'));
  const env = { XDG_CONFIG_HOME: join(dataDir, 'cfg') };
  let emu: RunningEmulators;
  let daemon: DaemonProcess;
  let key: string;

  const api = processApi(() => daemon.url, () => key);
  const advance = async (number: string, to: string) => {
    const moved = await fetch(`${emu.url}/_emulator/baselinker/parcels/${number}/advance`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to }),
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
  };
  /** Asks Base.com now, through the daemon running at the time: the parcel's status and how many events it has. */
  const refresh = async (number: string) => {
    const [tracked] = (await api(`/v1/tracking-parcels?search=${number}`)).body.data as { id: string }[];
    const refreshed = await api(`/v1/tracking-parcels/${tracked!.id}/refresh`, 'POST');
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    return { status: refreshed.body.data.status as string, events: (refreshed.body.data.status_updates as unknown[]).length };
  };
  const restart = async (meanwhile: () => void = () => {}) => {
    expect(await daemon.stop('SIGTERM')).toBe(0);
    meanwhile();
    daemon = await spawnDaemon(dataDir, env);
  };

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['baselinker'], port: 0 });
    key = JSON.parse(execFileSync(process.execPath, [CLI, 'init', '--data-dir', dataDir, '--yes', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' })).api_key;
    daemon = await spawnDaemon(dataDir, env);
  });
  afterAll(async () => {
    await daemon?.stop('SIGKILL');
    await emu?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads the events of a 2-parcel shipment created before a restart, and of one whose store kept no package ids', async () => {
    const channel = await api('/v1/shipping-channels', 'POST', {
      name: 'Baselinker', provider: 'baselinker', settings: { ...baselinker.demo.settings, baseUrl: emu.urls.baselinker },
    });
    expect(channel.body.data.status, JSON.stringify(channel.body)).toBe('active');
    const created = await api('/v1/shipments', 'POST', {
      shipping_channel_id: channel.body.data.id, label_format: 'pdf', reference_number: 'BL-RESTART', parcels: parcelsOf(2), ...parties,
    }, { prefer: 'wait=20' });
    expect(created.body.data?.status, JSON.stringify(created.body)).toBe('created');
    const numbers: string[] = created.body.data.parcels.map((p: { tracking_number: string }) => p.tracking_number);
    await advance(numbers[0]!, 'delivered');
    await advance(numbers[1]!, 'in_transit');

    await restart();
    const afterRestart = [await refresh(numbers[0]!), await refresh(numbers[1]!)];
    expect(afterRestart.map((r) => r.status)).toEqual(['delivered', 'in_transit']);
    for (const r of afterRestart) expect(r.events).toBeGreaterThan(1);

    // a store written by an older packdesk has no package ids: they are found among the order's packages
    await advance(numbers[1]!, 'delivered');
    await restart(() => {
      const db = new Database(join(dataDir, 'packdesk.sqlite'));
      db.prepare('UPDATE parcels SET carrier_ref = NULL').run();
      db.close();
    });
    expect((await refresh(numbers[1]!)).status).toBe('delivered');
  }, 90_000); // three daemon processes start and stop in it
});
