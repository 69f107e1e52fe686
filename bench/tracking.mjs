// Tracking benchmark: 10,000 tracking parcels due at once in a real daemon, checked against the zero-latency PPL
// emulator round after round (each round makes them all due again) until 300,000 checks are done. Prints checks per
// second (the first round, all due since start-up, and the rounds after it) and the daemon's memory: RSS after every
// round, which rises and falls as V8 grows its heap lazily, and the V8 heap in use after a full collection at the end
// of the warm-up (the first fifth of the checks), half way and at the end (bench/memory-probe.mjs), which separates
// what is kept from garbage not yet collected; each with its slope after the warm-up in MB per 100,000 checks. What is
// kept must stay flat. Needs `npm run build`. One JSON line per figure.
// BENCH_TRACKING (parcels), BENCH_TRACKING_CHECKS and DAEMON_NODE_OPTIONS (e.g. --max-old-space-size=80) change the run.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { dist, log, memoryProbe, print, probeMemory, root, rssMb, slope, startListening, stopProcess } from './lib.mjs';

const { openContext, closeContext } = await import(dist('src/services/open.js'));
const { createAccount, createApiKey } = await import(dist('src/services/accounts.js'));
const { startEmulators } = await import(dist('src/carriers/emulator/server.js'));
const { trackingParcels } = await import(dist('src/store/schema.js'));

const COUNT = Number(process.env.BENCH_TRACKING ?? 10_000);
const ROUNDS = Math.max(2, Math.round(Number(process.env.BENCH_TRACKING_CHECKS ?? 300_000) / COUNT));
const WARM_UP_ROUNDS = Math.max(1, Math.round(ROUNDS / 5));
const PPL_BATCH = 1000; // PPL takes at most 1000 shipments per batch request
const CLIENT_ID = 'bench-tracking';
const dataDir = join(root, 'bench', '.data', `tracking-${process.pid}`);
const probe = memoryProbe(join(dataDir, 'memory.jsonl'));

function startDaemon() {
  return startListening([...probe.nodeArgs, dist('bin/packdesk.js'), 'daemon', '--data-dir', dataDir, '--port', '0'], {
    PACKDESK_LOG_LEVEL: 'info', ...probe.env, ...(process.env.DAEMON_NODE_OPTIONS ? { NODE_OPTIONS: process.env.DAEMON_NODE_OPTIONS } : {}),
  });
}

/** Parcels that exist at the emulator: one-parcel shipments in batches of 1000, as a client would send them. */
async function emulatedParcels(pplUrl, count) {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: 'bench-secret', scope: 'myapi2' });
  const token = (await (await fetch(`${pplUrl}/login/getAccessToken`, { method: 'POST', body: form })).json()).access_token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const party = (name, city, zipCode) => ({ name, street: 'Skladová 12', city, zipCode, country: 'CZ', phone: '+420601111222', email: 'bench@example.cz' });
  const numbers = [];
  for (let offset = 0; offset < count; offset += PPL_BATCH) {
    const shipments = Array.from({ length: Math.min(PPL_BATCH, count - offset) }, (_, i) => ({
      referenceId: `TRACK-${offset + i}`, productType: 'PRIV',
      shipmentSet: { numberOfShipments: 1, shipmentSetItems: [{ weighedShipmentInfo: { weight: 1.5 } }] },
      sender: party('Sklad Praha', 'Praha', '11000'), recipient: party('Jana Nováková', 'Brno', '60200'),
    }));
    const body = JSON.stringify({ returnChannel: { type: 'None' }, labelSettings: { format: 'Pdf', dpi: 300 }, shipments });
    const created = await fetch(`${pplUrl}/shipment/batch`, { method: 'POST', headers, body });
    if (created.status !== 201) throw new Error(`emulator refused the batch: ${created.status} ${await created.text()}`);
    const location = created.headers.get('location');
    let status;
    do status = await (await fetch(location, { headers })).json(); while (status.items[0].importState !== 'Complete');
    numbers.push(...status.items.map((item) => item.shipmentNumber));
  }
  return numbers;
}

/** A realistic mix: most parcels have moved on since the last check, some are delivered, a few are unknown. */
async function moveParcels(emulatorUrl, numbers) {
  const targets = ['in_transit', 'out_for_delivery', 'delivered', null];
  const queue = numbers.map((n, i) => [n, targets[i % targets.length]]).filter(([, to]) => to);
  await Promise.all(Array.from({ length: 32 }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      await fetch(`${emulatorUrl}/_emulator/ppl/parcels/${next[0]}/advance`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: next[1] }),
      });
    }
  }));
}

rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const emulators = await startEmulators({ providers: ['ppl'], port: 0 });
log(`creating ${COUNT} parcels at the PPL emulator`);
const known = await emulatedParcels(emulators.urls.ppl, Math.round(COUNT * 0.98));
await moveParcels(emulators.url, known);
const numbers = [...known, ...Array.from({ length: COUNT - known.length }, (_, i) => `8${String(i).padStart(10, '0')}`)];

let ctx = openContext({ dataDir, log: pino({ level: 'silent' }) });
const account = await createAccount(ctx, { name: 'bench', plan: 'enterprise' });
const { apiKey } = await createApiKey(ctx, { accountId: account.id });
await closeContext(ctx);

let daemon = await startDaemon();
const res = await fetch(`${daemon.url}/v1/shipping-channels`, {
  method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'PPL bench', provider: 'ppl', settings: { clientId: CLIENT_ID, clientSecret: 'bench-secret', baseUrl: emulators.urls.ppl } }),
});
const channel = (await res.json()).data;
if (channel?.status !== 'active') throw new Error(`channel not active: ${JSON.stringify(channel)}`);
await stopProcess(daemon.child);

// all parcels due at once, written straight into the store while the daemon is down
ctx = openContext({ dataDir, log: pino({ level: 'silent' }) });
const now = Date.now();
await ctx.store.transaction(async () => {
  for (let i = 0; i < numbers.length; i += 500) {
    await ctx.db.insert(trackingParcels).values(numbers.slice(i, i + 500).map((trackingNumber, j) => ({
      id: `tp_bench${String(i + j).padStart(15, '0')}`, accountId: account.id, channelId: channel.id, provider: 'ppl', shipmentId: null,
      parcelId: null, trackingNumber, origin: 'external', status: 'created', recipientName: null, recipientEmail: null, recipientPhone: null,
      checkDelayHours: 6, maxChecks: 20, checksDone: 0, nextCheckAt: now, lastCheckedAt: null, leaseUntil: null, externalData: {},
      trackingUrl: null, createdAt: now, updatedAt: now,
    }))).run();
  }
});
await closeContext(ctx);

daemon = await startDaemon();
const store = new Database(join(dataDir, 'packdesk.sqlite'));
store.pragma('busy_timeout = 5000');
const checkedAtLeast = store.prepare('SELECT count(*) AS n FROM tracking_parcels WHERE checks_done >= ?');
const rss = [rssMb(daemon.child.pid)];
// a full collection changes how the heap grows after it: only at start-up, the end of the warm-up, half way and the end
const probedAfter = [...new Set([0, WARM_UP_ROUNDS, Math.round((WARM_UP_ROUNDS + ROUNDS) / 2), ROUNDS])];
const heap = [(await probeMemory(daemon.child, probe.file)).heap_used_mb];
const perSecond = [];
for (let round = 1; round <= ROUNDS; round++) {
  // round 1: every parcel due since the daemon started; later rounds: all made due again at once, while it runs
  if (round > 1) store.prepare('UPDATE tracking_parcels SET next_check_at = ?').run(Date.now());
  if (round <= 2 || round % 10 === 0) log(`round ${round} of ${ROUNDS}: checking ${COUNT} due tracking parcels`);
  const started = Date.now();
  for (;;) {
    const n = checkedAtLeast.get(round).n;
    if (n >= COUNT) break;
    if (Date.now() - started > 300_000) throw new Error(`only ${n} of ${COUNT} parcels checked after 5 minutes`);
    await new Promise((r) => setTimeout(r, 20));
  }
  perSecond.push(Math.round(COUNT / ((Date.now() - started) / 1000)));
  rss.push(rssMb(daemon.child.pid));
  if (probedAfter.includes(round)) heap.push((await probeMemory(daemon.child, probe.file)).heap_used_mb);
}
const statuses = Object.fromEntries(store.prepare('SELECT status, count(*) AS n FROM tracking_parcels GROUP BY status').all().map((r) => [r.status, r.n]));
const changes = store.prepare("SELECT count(*) AS n FROM events WHERE type = 'tracking_parcel.status_changed'").get().n;
store.close();
const later = perSecond.slice(1).sort((x, y) => x - y);
print({
  bench: 'tracking-poll', parcels: COUNT, rounds: ROUNDS, first_round_checks_per_second: perSecond[0],
  later_rounds_checks_per_second: { min: later[0], median: later[Math.floor(later.length / 2)], max: later[later.length - 1] },
  target_per_second: 500, statuses, status_changed_events: changes,
});
// RSS is sampled after round 0 (start-up) … ROUNDS; its slope counts from the end of the warm-up
const checksAt = (rounds) => rounds.map((round) => round * COUNT);
const perHundredThousand = (rounds, ys) => +(slope(checksAt(rounds), ys) * 100_000).toFixed(2);
const afterWarmUp = rss.map((_, round) => round).slice(WARM_UP_ROUNDS);
print({
  bench: 'tracking-memory', checks: COUNT * ROUNDS, warm_up_checks: COUNT * WARM_UP_ROUNDS,
  rss_mb_start: rss[0], rss_mb_end: rss[ROUNDS], rss_mb_max: Math.max(...rss), rss_mb_per_100k_checks_after_warm_up: perHundredThousand(afterWarmUp, rss.slice(WARM_UP_ROUNDS)),
  heap_after_gc_mb_per_100k_checks_after_warm_up: perHundredThousand(probedAfter.slice(1), heap.slice(1)),
  rss_mb_samples: rss, heap_after_gc_mb_samples: Object.fromEntries(probedAfter.map((round, i) => [`after_${round * COUNT}_checks`, heap[i]])),
});

await stopProcess(daemon.child);
await emulators.close();
rmSync(dataDir, { recursive: true, force: true });
