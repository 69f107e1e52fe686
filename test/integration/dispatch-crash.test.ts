import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { nextWorkingDay } from '../helpers/dispatch-adapter.js';
import { CLI, spawnDaemon, type DaemonProcess, processApi } from '../helpers/processes.js';
import { emulatorProxy } from '../helpers/recording-proxy.js';
import { parcelsOf } from '../helpers/shipments.js';

/**
 * Each carrier's hand-over requests that change something at the carrier (a close, a courier booking), as they reach
 * its emulator: method, path below the carrier's prefix, and for SOAP or form APIs the operation in the body.
 */
const HAND_OVER_CALLS: Record<string, (method: string, path: string, body: string) => string | null> = {
  gls_pl: (_m, _p, body) => /adePickup_Create|adeCourier_Order/.exec(body)?.[0] ?? null,
  dpd_pl: (_m, _p, body) => /packagesPickupCallV4/.exec(body)?.[0] ?? null,
  dhl_pl: (_m, _p, body) => /bookCourier/.exec(body)?.[0] ?? null,
  dhl: (method, path) => (method === 'POST' && /\/pickups$/.test(path) ? 'POST /pickups' : null),
  dpd: (method, path) => (method === 'POST' && path.endsWith('/shipping/v1/pickupscheduling') ? 'POST pickupscheduling' : null),
  allegro: (method, path) => (method === 'POST' && path.endsWith('/shipment-management/pickups/create-commands') ? 'POST pickups/create-commands' : null),
  baselinker: (_m, _p, body) => /runRequestParcelPickup/.exec(body)?.[0] ?? null,
  ppl: (method, path) => (method === 'POST' && path.endsWith('/order/batch') ? 'POST /order/batch' : null),
  onedelivery: (method, path) => (method === 'POST' && /^\/(batch|pickup)$/.test(path) ? `POST ${path}` : null),
  gls: (method, path) => (method === 'POST' && path.endsWith('/CreatePickupRequest') ? 'CreatePickupRequest' : null),
  poste_italiane: (method, path) => (method === 'POST' && path.endsWith('/parcel/pickup') ? 'POST parcel/pickup' : null),
};

/**
 * Sits between the daemon and the carriers' emulators; while `holding`, each carrier's first hand-over request reaches
 * the carrier, which carries it out, but its answer never comes back: the daemon is killed in that window, between the
 * carrier's close or booking and the commit that would record it. It counts every hand-over request per carrier.
 */
async function handOverHoldingProxy(target: string) {
  const upstream = new URL(target);
  const state = { holding: true, calls: {} as Record<string, Record<string, number>>, held: new Set<string>() };
  let onHeld = () => {};
  const server: Server = emulatorProxy((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const [, carrier = '', path = ''] = /^\/([^/]+)(\/[^?]*)/.exec(req.url ?? '') ?? [];
      const call = HAND_OVER_CALLS[carrier]?.(req.method ?? '', path, body.toString('utf8')) ?? null;
      if (call) (state.calls[carrier] ??= {})[call] = (state.calls[carrier]?.[call] ?? 0) + 1;
      const hold = call !== null && state.holding && !state.held.has(carrier);
      if (hold) state.held.add(carrier);
      const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        if (hold) {
          answer.resume();
          answer.on('end', onHeld); // the carrier has done it: the answer is kept from the daemon
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
    /** Resolves once every one of `carriers` has had a hand-over request carried out and its answer held. */
    allHeld: (carriers: string[]) => new Promise<void>((resolve) => {
      onHeld = () => { if (carriers.every((c) => state.held.has(c))) resolve(); };
      onHeld();
    }),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

const CARRIERS = Object.keys(HAND_OVER_CALLS);
/** The daemon's hand-over worker runs this many channels' hand-overs at once (daemon/workers/index.ts). */
const HAND_OVERS_AT_ONCE = 4;

describe('a daemon killed between the carriers’ close or courier booking and its own commit', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-dispatch-crash-'));
  const env = { XDG_CONFIG_HOME: join(dataDir, 'cfg') };
  let emu: RunningEmulators;
  let proxy: Awaited<ReturnType<typeof handOverHoldingProxy>>;
  let daemon: DaemonProcess;
  let key: string;
  const api = processApi(() => daemon.url, () => key);

  /** A channel of the carrier's demo settings whose calls go through the proxy, authorized where a person must approve. */
  async function openChannel(code: string): Promise<string> {
    const provider = findProvider(code)!;
    const made = await api('/v1/shipping-channels', 'POST', {
      name: provider.name, provider: code, settings: { ...provider.demo.settings, baseUrl: `${proxy.url}${new URL(emu.urls[code]!).pathname}` },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.data.id as string;
    if (provider.userAuthorization) {
      const started = await api(`/v1/shipping-channels/${id}/authorize`, 'POST');
      await fetch(`${emu.url}/_emulator/${code}/device/${started.body.data.user_code}/approve`, { method: 'POST' });
    }
    for (let waited = 0; waited < 30_000; waited += 250) {
      const channel = (await api(`/v1/shipping-channels/${id}`)).body.data;
      if (channel.status === 'active') return id;
      await sleep(250);
    }
    throw new Error(`the ${code} channel never became active`);
  }

  beforeAll(async () => {
    emu = await startEmulators({ providers: CARRIERS, port: 0 });
    proxy = await handOverHoldingProxy(emu.url);
    key = JSON.parse(execFileSync(process.execPath, [CLI, 'init', '--data-dir', dataDir, '--yes', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' })).api_key;
    daemon = await spawnDaemon(dataDir, env);
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop('SIGKILL');
    await proxy?.close();
    await emu?.close();
  });

  it(`closes the day and books each courier once at ${CARRIERS.join(', ')} after kill -9 and a restart`, { timeout: 180_000 }, async () => {
    const pickup = { date: nextWorkingDay(), from: '10:00', to: '16:00' };
    const channels = Object.fromEntries(await Promise.all(CARRIERS.map(async (code) => [code, await openChannel(code)] as const)));
    await Promise.all(CARRIERS.map(async (code) => {
      const { cash_on_delivery_currency: _currency, ...parties } = findProvider(code)!.demo.shipment;
      for (const [i, n] of [1, 2, 1].entries()) {
        const made = await api('/v1/shipments?wait=30', 'POST', {
          shipping_channel_id: channels[code], label_format: 'pdf', reference_number: `DAY-${code}-${i}`, parcels: parcelsOf(n), ...parties,
        });
        expect(made.body.data?.status, `${code}: ${JSON.stringify(made.body)}`).toBe('created');
      }
    }));
    const dispatches: Record<string, string> = {};
    type Settled = { status: string; failure: unknown; shipments_count: number; pickup: { confirmation: string | null; note: string | null } | null };
    const settled: Record<string, Settled> = {};
    // the daemon hands over 4 channels at a time: a round of 4 are all inside the carrier's window when it dies
    for (let round = 0; round < CARRIERS.length; round += HAND_OVERS_AT_ONCE) {
      const carriers = CARRIERS.slice(round, round + HAND_OVERS_AT_ONCE);
      proxy.state.holding = true;
      for (const code of carriers) {
        const made = await api('/v1/dispatches', 'POST', { shipping_channel_id: channels[code], pickup });
        expect(made.status, `${code}: ${JSON.stringify(made.body)}`).toBe(201);
        dispatches[code] = made.body.data.id;
      }
      await proxy.allHeld(carriers);
      expect(await daemon.stop('SIGKILL')).toBeNull();

      proxy.state.holding = false;
      daemon = await spawnDaemon(dataDir, env);
      const deadline = Date.now() + 45_000;
      while (Date.now() < deadline && carriers.some((c) => !settled[c])) {
        for (const code of carriers.filter((c) => !settled[c])) {
          const now = (await api(`/v1/dispatches/${dispatches[code]}`)).body.data;
          if (now.status !== 'pending') settled[code] = now;
        }
        await sleep(250);
      }
    }
    for (const code of CARRIERS) {
      expect(settled[code]?.status, `${code}: ${JSON.stringify(settled[code]?.failure)}`).toBe('dispatched');
      expect(settled[code]!.shipments_count).toBe(3);
      // a booking found again has its confirmation; one the carrier cannot be asked for says what to check instead
      const booked = settled[code]!.pickup;
      expect(booked !== null && (booked.confirmation !== null || /check with/.test(booked.note ?? '')), `${code}: ${JSON.stringify(settled[code])}`).toBe(true);
      for (const [call, n] of Object.entries(proxy.state.calls[code] ?? {})) expect(n, `${code} ${call}`).toBe(1);
    }
    expect(Object.keys(proxy.state.calls).sort()).toEqual([...CARRIERS].sort());
    // GLS Poland's consignments all left the preparing box in the one pickup the restarted daemon found
    const gls = (await (await fetch(`${emu.url}/_emulator/gls_pl/shipments`)).json()) as { shipments: { pickupId: string | null }[] };
    const pickups = [...new Set(gls.shipments.map((s) => s.pickupId))];
    expect(pickups).toHaveLength(1);
    expect(pickups[0]).not.toBeNull();
  });
});
