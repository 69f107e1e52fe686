// Shipments benchmarks: (a) list and search over 1,000,000 stored shipments beside a bare fastify route,
// (b) creation through the zero-latency PPL emulator with labels stored, and the daemon's RSS afterwards.
// Needs `npm run build`. Prints one JSON line per figure.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import { dist, log, print, root, rssMb, startListening } from './lib.mjs';

const { openContext, closeContext } = await import(dist('src/services/open.js'));
const { createAccount, createApiKey, listAccounts } = await import(dist('src/services/accounts.js'));
const { startEmulators } = await import(dist('src/carriers/emulator/server.js'));
const { seedShipments } = await import('./seed-shipments.mjs');

const COUNT = Number(process.env.BENCH_SHIPMENTS ?? 1_000_000);
const CREATE = Number(process.env.BENCH_CREATE ?? 1000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const dataDir = join(root, 'bench', '.data', `shipments-${COUNT}`);

/** A free loopback port (the daemon's log then goes to /dev/null, as to a log file, not through this process). */
async function freePort() {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

async function startDaemon() {
  const port = await freePort();
  const child = spawn(process.execPath, [dist('bin/packdesk.js'), 'daemon', '--data-dir', dataDir, '--port', String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) return { child, url };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the daemon did not start');
}

async function load(url, headers, duration = DURATION) {
  const r = await autocannon({ url, connections: 32, pipelining: 1, duration, headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The figures of the round whose requests per second are the median. */
const medianRound = (results) => results.find((r) => r.rps === median(results.map((x) => x.rps)));

mkdirSync(dataDir, { recursive: true });
const emulators = await startEmulators({ providers: ['ppl'], port: 0 });

// account, key and an active PPL channel (through the daemon so the channel is validated at the emulator)
const ctx = openContext({ dataDir, log: pino({ level: 'silent' }) });
const account = (await listAccounts(ctx)).find((a) => a.name === 'bench') ?? await createAccount(ctx, { name: 'bench', plan: 'enterprise' });
const { apiKey } = await createApiKey(ctx, { accountId: account.id });
await closeContext(ctx);
const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };

let daemon = await startDaemon();
const api = async (method, path, body, extra = {}) => {
  const res = await fetch(daemon.url + path, { method, headers: { ...headers, ...extra }, body: body ? JSON.stringify(body) : undefined });
  return res.json();
};
let channel = (await api('GET', '/v1/shipping-channels?provider=ppl&status=active')).data[0];
if (!channel) channel = (await api('POST', '/v1/shipping-channels', { name: 'PPL bench', provider: 'ppl', settings: { clientId: 'b', clientSecret: 's', baseUrl: emulators.urls.ppl } })).data;
else channel = (await api('PATCH', `/v1/shipping-channels/${channel.id}`, { settings: { baseUrl: emulators.urls.ppl } })).data;

const existing = (await api('GET', '/v1/shipments?per_page=1')).meta.total;
if (existing < COUNT) {
  daemon.child.kill('SIGTERM');
  await new Promise((r) => daemon.child.once('exit', r));
  log(`seeding ${COUNT - existing} shipments into ${dataDir} (done once, kept for later runs)`);
  const started = Date.now();
  seedShipments(join(dataDir, 'packdesk.sqlite'), { accountId: account.id, channelId: channel.id, count: COUNT, log });
  log(`seeded in ${Math.round((Date.now() - started) / 1000)} s`);
  daemon = await startDaemon();
}

// (a) list and search beside a bare fastify route. Both are warmed up first, then they take turns (ROUNDS of half the
// duration each), so a change in what else the machine runs meanwhile weighs on both; the ratio is the rounds' median.
const ROUNDS = 3;
const listUrl = `${daemon.url}/v1/shipments?per_page=20`;
const listPage = await (await fetch(listUrl, { headers })).text();
const bare = await startListening([join(root, 'bench', 'bare-server.mjs')], { BARE_BODY: listPage });
await load(`${bare.url}/bare`, {}, 2);
await load(listUrl, headers, 2);
const rounds = [];
for (let i = 0; i < ROUNDS; i++) {
  const bareRound = await load(`${bare.url}/bare`, {}, DURATION / 2);
  const listRound = await load(listUrl, headers, DURATION / 2);
  rounds.push({ bare: bareRound, list: listRound, vs_bare: +(listRound.rps / bareRound.rps).toFixed(2) });
}
bare.child.kill('SIGTERM');
const bareResult = medianRound(rounds.map((r) => r.bare));
const listResult = medianRound(rounds.map((r) => r.list));
const searchResult = await load(`${daemon.url}/v1/shipments?search=${encodeURIComponent('ORD-076543')}`, headers);
const total = (await api('GET', '/v1/shipments?per_page=1')).meta.total;
print({ bench: 'bare-fastify-route', body_bytes: Buffer.byteLength(listPage), ...bareResult });
print({
  bench: 'shipments-list', shipments: total, per_page: 20, ...listResult,
  vs_bare: median(rounds.map((r) => r.vs_bare)), vs_bare_rounds: rounds.map((r) => r.vs_bare), target_vs_bare: 0.5,
});
print({ bench: 'shipments-search', shipments: total, search: 'ORD-076543', ...searchResult, target_p99_ms: 20 });

// (b) creation through the zero-latency emulator, labels merged and stored
const body = JSON.parse(readFileSync(join(root, 'examples', 'shipment.json'), 'utf8'));
body.shipping_channel_id = channel.id;
body.parcels = body.parcels.slice(0, 1); // the common case: one parcel per shipment
const started = Date.now();
const ids = [];
const queue = Array.from({ length: CREATE }, (_, i) => i);
await Promise.all(Array.from({ length: 16 }, async () => {
  for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
    const res = await api('POST', '/v1/shipments', { ...body, reference_number: `BENCH-${started}-${i}` });
    ids.push(res.data.id);
  }
}));
for (;;) {
  const pending = (await api('GET', '/v1/shipments?status=pending&per_page=1')).meta.total;
  if (pending === 0) break;
  await new Promise((r) => setTimeout(r, 50));
}
const seconds = (Date.now() - started) / 1000;
const sample = await api('GET', `/v1/shipments/${ids[ids.length - 1]}`);
if (sample.data.status !== 'created' || !sample.data.has_label) throw new Error(`shipment not created: ${JSON.stringify(sample.data)}`);
print({ bench: 'shipment-creation', shipments: CREATE, parcels_each: body.parcels.length, seconds: +seconds.toFixed(2), per_second: Math.round(CREATE / seconds), target_per_second: 200 });
print({ bench: 'daemon-rss', after: 'list, search and creation', rss_mb: rssMb(daemon.child.pid), target_mb: 250 });

daemon.child.kill('SIGTERM');
await new Promise((r) => daemon.child.once('exit', r));
await emulators.close();
