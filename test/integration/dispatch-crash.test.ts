import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { CLI, spawnDaemon, type DaemonProcess, processApi } from '../helpers/processes.js';
import { parcelsOf } from '../helpers/shipments.js';

/**
 * Sits between the daemon and GLS Poland's emulator; while `holding`, a close (adePickup_Create) reaches GLS, which
 * carries it out, but its answer never comes back: the daemon is killed in that window, between the carrier's close
 * and the commit that would record it.
 */
async function closeHoldingProxy(target: string) {
  const upstream = new URL(target);
  const state = { holding: true, closes: 0, held: undefined as undefined | (() => void) };
  const heldOnce = new Promise<void>((resolve) => { state.held = resolve; });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const closing = body.includes('adePickup_Create');
      if (closing) state.closes++;
      const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        if (closing && state.holding) {
          answer.resume();
          answer.on('end', () => state.held?.()); // GLS has closed: the answer is kept from the daemon
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    heldOnce,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

describe('a daemon killed between the carrier’s close and its own commit', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-dispatch-crash-'));
  const env = { XDG_CONFIG_HOME: join(dataDir, 'cfg') };
  let emu: RunningEmulators;
  let proxy: Awaited<ReturnType<typeof closeHoldingProxy>>;
  let daemon: DaemonProcess;
  let key: string;
  const api = processApi(() => daemon.url, () => key);

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['gls_pl'], port: 0 });
    proxy = await closeHoldingProxy(emu.url);
    key = JSON.parse(execFileSync(process.execPath, [CLI, 'init', '--data-dir', dataDir, '--yes', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' })).api_key;
    daemon = await spawnDaemon(dataDir, env);
  });
  afterAll(async () => {
    await daemon?.stop('SIGKILL');
    await proxy?.close();
    await emu?.close();
  });

  it('closes the day at GLS Poland once, after kill -9 and a restart', { timeout: 90_000 }, async () => {
    const demo = findProvider('gls_pl')!.demo;
    const { cash_on_delivery_currency: _currency, ...parties } = demo.shipment;
    const channel = await api('/v1/shipping-channels', 'POST', {
      name: 'GLS Poland', provider: 'gls_pl', settings: { ...demo.settings, baseUrl: `${proxy.url}${new URL(emu.urls.gls_pl!).pathname}` },
    });
    expect(channel.body.data.status, JSON.stringify(channel.body.data.validation_error)).toBe('active');
    const ids: string[] = [];
    for (const n of [1, 2, 1]) {
      const made = await api('/v1/shipments?wait=20', 'POST', {
        shipping_channel_id: channel.body.data.id, label_format: 'pdf', reference_number: `DAY-${ids.length}`, parcels: parcelsOf(n), ...parties,
      });
      expect(made.body.data?.status, JSON.stringify(made.body)).toBe('created');
      ids.push(made.body.data.id);
    }
    const dispatch = await api('/v1/dispatches', 'POST', { shipping_channel_id: channel.body.data.id });
    expect(dispatch.status, JSON.stringify(dispatch.body)).toBe(201);
    await proxy.heldOnce;
    expect(await daemon.stop('SIGKILL')).toBeNull();

    proxy.state.holding = false;
    daemon = await spawnDaemon(dataDir, env);
    const deadline = Date.now() + 45_000;
    let now = dispatch.body.data;
    while (Date.now() < deadline && now.status === 'pending') {
      await sleep(200);
      now = (await api(`/v1/dispatches/${dispatch.body.data.id}`)).body.data;
    }
    expect(now.status, JSON.stringify(now.failure)).toBe('dispatched');
    expect(proxy.state.closes).toBe(1); // the restarted daemon found GLS's pickup instead of closing again
    const atCarrier = (await (await fetch(`${emu.url}/_emulator/gls_pl/shipments`)).json()) as { shipments: { pickupId: string | null }[] };
    expect(new Set(atCarrier.shipments.map((s) => s.pickupId))).toEqual(new Set([now.carrier_ref]));
    expect(now.shipments_count).toBe(3);
  });
});
