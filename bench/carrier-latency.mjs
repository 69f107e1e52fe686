// Shipment creation against slow carriers: every provider's emulator answers each call after 0, 100 and 300 ms, and
// one real daemon creates BENCH_CARRIER_SHIPMENTS shipments per provider and latency (2 parcels, cash on delivery,
// between the addresses of the provider's demo story; ZPL where the carrier prints it, else PDF, so no conversion
// costs time), posted 16 at a time. `seconds` runs from the first request until the last shipment is created; the
// steady pace counts the shipments created between the end of the first round of the slots and of the last but one.
//
// The bound at a latency is what the creation slots allow when each call waits that long: slots ÷ latency ÷ calls per
// shipment (the calls the emulator was sent, token calls included; the slots are the pool's, or fewer where the
// provider's creationLimits say so). Prints, per provider and latency, the steady pace and, above 0 ms, its ratio to
// that bound (target ≥ 0.9; calls sent in parallel can take it above 1). Two things can hold the pace below the
// bound that are not the daemon's creation: requests taken in slower than the slots create (`slots_kept_busy` false:
// then the ratio measures how fast the daemon takes in shipments, `posted_per_second`), and this process, where the
// emulators run, busy near 1 (`emulators_busy`: drawing PDF labels costs them ~20 ms a page). Base.com is left out:
// its 100 requests a minute per API token bound it at any latency.
// BENCH_CARRIER_SHIPMENTS (default 128, four rounds of the 32 slots; at least three), BENCH_CARRIER_SLOTS (the
// daemon's creation pool, 32), BENCH_CARRIER_LATENCIES (ms, comma-separated) and BENCH_CARRIER_PROVIDERS (codes)
// change the run. One JSON line per figure.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { dist, log, print, startListening, stopProcess } from './lib.mjs';

const SHIPMENTS = Number(process.env.BENCH_CARRIER_SHIPMENTS ?? 128);
const SLOTS = Number(process.env.BENCH_CARRIER_SLOTS ?? 32);
if (SHIPMENTS < 3 * SLOTS) throw new Error(`BENCH_CARRIER_SHIPMENTS must be at least three rounds of the ${SLOTS} slots`);
const LATENCIES_MS = (process.env.BENCH_CARRIER_LATENCIES ?? '0,100,300').split(',').map(Number);
const TARGET_RATIO = 0.9;
const POSTING_CLIENTS = 16;
const PARCELS = [
  { weight_amount: 2.4, length_dimension: 40, width_dimension: 30, height_dimension: 20 },
  { weight_amount: 0.8, length_dimension: 25, width_dimension: 20, height_dimension: 10 },
];

const { startEmulators } = await import(dist('src/carriers/emulator/server.js'));
const { listProviders } = await import(dist('src/carriers/registry.js'));
const { BASELINKER_REQUESTS_PER_MINUTE } = await import(dist('src/carriers/baselinker/request-budget.js'));

/** Providers whose own documented request budget bounds creation far below the slots, whatever the latency. */
const BUDGETED = { baselinker: `Base.com allows ${BASELINKER_REQUESTS_PER_MINUTE} requests a minute per API token` };
const chosen = process.env.BENCH_CARRIER_PROVIDERS?.split(',');
const providers = listProviders().filter((p) => !BUDGETED[p.code] && (!chosen || chosen.includes(p.code)));
const tmp = mkdtempSync(join(tmpdir(), 'packdesk-bench-latency-'));
const dataDir = join(tmp, 'data');
const env = { XDG_CONFIG_HOME: join(tmp, 'cfg') };
const emulators = await startEmulators({ port: 0 });
let daemon;
let store;

/** The emulator's control endpoints, as the contract story drives them. */
async function control(code, path, body) {
  const res = await fetch(`${emulators.url}/_emulator/${code}/${path}`, {
    method: 'POST', ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`POST /_emulator/${code}/${path}: ${res.status} ${await res.text()}`);
}

function client(apiKey) {
  return async (method, path, body, headers = {}) => {
    const send = () => fetch(daemon.url + path, {
      method, headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    // a keep-alive connection the daemon closed while idle (between runs) fails the next request sent on it; the
    // request is sent again once, which its Idempotency-Key makes safe for a POST
    const res = await send().catch((err) => (method === 'GET' || headers['idempotency-key'] ? send() : Promise.reject(err)));
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
}

/** A channel on the provider's emulator with its demo settings, approved at the emulator where a person must authorize. */
async function openChannel(api, provider) {
  const path = '/v1/shipping-channels';
  let channel = await api('POST', path, { name: `${provider.name} (emulator)`, provider: provider.code, settings: { ...provider.demo.settings, baseUrl: emulators.urls[provider.code] } });
  if (channel.status === 'authorization_required') {
    const started = await api('POST', `${path}/${channel.id}/authorize`);
    await control(provider.code, `device/${encodeURIComponent(started.user_code)}/approve`);
    // the daemon's authorization worker polls the carrier at the interval the carrier asks for
    for (const deadline = Date.now() + 30_000; channel.status === 'authorization_required' && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 200));
      channel = await api('GET', `${path}/${channel.id}`);
    }
  }
  if (channel.status !== 'active') throw new Error(`${provider.code} channel is ${channel.status}: ${JSON.stringify(channel.validation_error)}`);
  return channel;
}

/** Creates SHIPMENTS shipments on the channel while every call to its emulator waits `latencyMs`; returns the figures. */
async function measure(api, provider, channel, latencyMs) {
  await control(provider.code, 'faults', latencyMs > 0 ? { mode: 'latency', ms: latencyMs } : { mode: 'none' });
  const { cash_on_delivery_currency: currency, ...parties } = provider.demo.shipment;
  const labelFormat = provider.capabilities.nativeLabelFormats.includes('zpl') ? 'zpl' : 'pdf';
  const prefix = `LAT${latencyMs}-`;
  const body = (i) => ({
    shipping_channel_id: channel.id, label_format: labelFormat, reference_number: `${prefix}${i}`, ...parties,
    parcels: PARCELS, cash_on_delivery_amount: 1249.9, cash_on_delivery_currency: currency,
  });
  const progress = store.prepare(`SELECT count(*) FILTER (WHERE status = 'created') AS created,
    count(*) FILTER (WHERE status = 'pending' AND failure IS NOT NULL AND next_attempt_at IS NULL) AS refused
    FROM shipments WHERE channel_id = ? AND reference_number LIKE ?`);
  const createdAt = store.prepare(`SELECT updated_at AS at FROM shipments WHERE channel_id = ? AND reference_number LIKE ? AND status = 'created'
    ORDER BY updated_at`).pluck();

  const callsBefore = emulators.calls(provider.code);
  const busyBefore = performance.eventLoopUtilization();
  const started = Date.now();
  const queue = Array.from({ length: SHIPMENTS }, (_, i) => i);
  const postedAt = [];
  await Promise.all(Array.from({ length: POSTING_CLIENTS }, async () => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
      await api('POST', '/v1/shipments', body(i), { 'idempotency-key': `${provider.code}-${prefix}${i}` });
      postedAt.push(Date.now());
    }
  }));
  for (const deadline = started + 120_000; ;) {
    const { created, refused } = progress.get(channel.id, `${prefix}%`);
    if (refused > 0) throw new Error(`${provider.code}: ${refused} shipments refused at ${latencyMs} ms`);
    if (created === SHIPMENTS) break;
    if (Date.now() > deadline) throw new Error(`${provider.code}: ${created} of ${SHIPMENTS} shipments created after 120 s at ${latencyMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const busy = performance.eventLoopUtilization(busyBefore).utilization;
  const times = createdAt.all(channel.id, `${prefix}%`);
  const callsPerShipment = (emulators.calls(provider.code) - callsBefore) / SHIPMENTS;
  const slots = Math.min(SLOTS, provider.creationLimits?.perProvider ?? SLOTS, provider.creationLimits?.perChannel ?? SLOTS);
  // steady pace: the shipments created after the first `slots` and up to the last `slots`, so neither the posting and
  // the first claims nor the last round finishing unevenly count (whole rounds either way, when they finish together)
  const steadyTimes = times.slice(slots - 1, SHIPMENTS - slots);
  const steady = (steadyTimes.length - 1) / ((steadyTimes[steadyTimes.length - 1] - steadyTimes[0]) / 1000);
  // every slot had a shipment throughout, unless the requests came in slower than the slots created them
  const slotsKeptBusy = steadyTimes.every((at, i) => postedAt.filter((posted) => posted <= at).length - (slots + i) >= slots);
  const bound = latencyMs > 0 ? slots / (latencyMs / 1000) / callsPerShipment : undefined;
  return {
    bench: 'carrier-latency', provider: provider.code, latency_ms: latencyMs, label_format: labelFormat, shipments: SHIPMENTS, parcels: PARCELS.length,
    seconds: +((times[SHIPMENTS - 1] - started) / 1000).toFixed(2), posted_per_second: +(SHIPMENTS / ((postedAt[SHIPMENTS - 1] - started) / 1000)).toFixed(1),
    steady_per_second: +steady.toFixed(1), slots_kept_busy: slotsKeptBusy, calls_per_shipment: +callsPerShipment.toFixed(2), emulators_busy: +busy.toFixed(2),
    ...(bound ? { slots, bound_per_second: +bound.toFixed(1), ratio: +(steady / bound).toFixed(2), target_ratio: TARGET_RATIO } : {}),
  };
}

try {
  const apiKey = JSON.parse(execFileSync(process.execPath, [dist('bin/packdesk.js'), 'init', '--data-dir', dataDir, '--yes', '--json'], {
    env: { ...process.env, ...env }, encoding: 'utf8',
  })).api_key;
  daemon = await startListening([dist('bin/packdesk.js'), 'daemon', '--data-dir', dataDir, '--port', '0'], env);
  store = new Database(join(dataDir, 'packdesk.sqlite'), { readonly: true });
  store.pragma('busy_timeout = 5000');
  const api = client(apiKey);
  for (const [provider, reason] of Object.entries(BUDGETED)) if (!chosen || chosen.includes(provider)) print({ bench: 'carrier-latency', provider, skipped: reason });
  const channels = new Map();
  for (const provider of providers) channels.set(provider.code, await openChannel(api, provider));
  for (const latencyMs of LATENCIES_MS) {
    log(`carrier-latency: ${providers.length} providers at ${latencyMs} ms, ${SHIPMENTS} shipments each`);
    const ratios = [];
    for (const provider of providers) {
      const figures = await measure(api, provider, channels.get(provider.code), latencyMs);
      print(figures);
      if (figures.ratio !== undefined) ratios.push([provider.code, figures.ratio, figures.slots_kept_busy]);
    }
    if (ratios.length) {
      print({
        bench: 'carrier-latency-summary', latency_ms: latencyMs, min_ratio: Math.min(...ratios.map(([, r]) => r)), target_ratio: TARGET_RATIO,
        below_target: ratios.filter(([, r]) => r < TARGET_RATIO).map(([code]) => code),
        slots_not_kept_busy: ratios.filter(([, , busy]) => !busy).map(([code]) => code),
      });
    }
  }
} finally {
  store?.close();
  if (daemon) await stopProcess(daemon.child);
  await emulators.close();
  rmSync(tmp, { recursive: true, force: true });
}
