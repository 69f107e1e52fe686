// Webhook delivery benchmark: 10,000 events to each of 10 subscriptions (100,000 signed deliveries) from a real
// daemon process to a local receiver that answers 200 at once; deliveries per second from the daemon's start to
// the last delivery (fan-out included), and the daemon's peak RSS meanwhile. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { dist, log, print, root } from './lib.mjs';

const { openContext, closeContext } = await import(dist('src/services/open.js'));
const { createAccount } = await import(dist('src/services/accounts.js'));
const { createSubscription, revealSecret } = await import(dist('src/services/webhooks.js'));
const { recordEvent } = await import(dist('src/services/events.js'));

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const SUBSCRIPTIONS = Number(process.env.BENCH_WEBHOOK_SUBSCRIPTIONS ?? 10);
const RESOURCES = Math.max(1, Math.round(EVENTS / 5)); // five events per shipment, so per-resource order is exercised
const DELIVERIES = EVENTS * SUBSCRIPTIONS;

// the receiver: counts each (subscription path, webhook-id) and checks the first signature of every subscription
const seen = new Map();
let delivered = 0;
let duplicates = 0;
let lastAt = 0;
let onAllDelivered;
const allDelivered = new Promise((resolve) => { onAllDelivered = resolve; });
const secrets = new Map();
const checked = new Set();
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const id = req.headers['webhook-id'];
    const key = `${req.url} ${id}`;
    if (seen.has(key)) duplicates++;
    else seen.set(key, true);
    if (!checked.has(req.url)) {
      checked.add(req.url);
      const secret = secrets.get(req.url);
      const keyBytes = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret);
      const expected = `v1,${createHmac('sha256', keyBytes).update(`${id}.${req.headers['webhook-timestamp']}.${Buffer.concat(chunks)}`).digest('base64')}`;
      if (req.headers['webhook-signature'] !== expected) throw new Error(`bad signature on ${req.url}`);
    }
    res.writeHead(200).end();
    delivered++;
    lastAt = performance.now();
    if (delivered === DELIVERIES) onAllDelivered();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}`;

// a fresh data directory: an account, the subscriptions, and the events already in the outbox
const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-bench-webhooks-'));
const ctx = openContext({ dataDir, log: pino({ level: 'silent' }), options: { allowLoopbackWebhooks: true } });
const account = await createAccount(ctx, { name: 'bench', plan: 'enterprise' });
for (let i = 0; i < SUBSCRIPTIONS; i++) {
  const sub = await createSubscription(ctx, account.id, { name: `bench ${i}`, url: `${receiverUrl}/s${i}`, events: ['*'] });
  secrets.set(`/s${i}`, await revealSecret(ctx, sub.id));
}
log(`writing ${EVENTS} events over ${RESOURCES} shipments into ${dataDir}`);
for (let start = 0; start < EVENTS; start += 1000) {
  await ctx.store.transaction(async () => {
    for (let i = start; i < Math.min(EVENTS, start + 1000); i++) {
      const n = i % RESOURCES;
      await recordEvent(ctx, {
        accountId: account.id, type: 'shipment.updated', resourceName: 'shipment',
        resource: {
          id: `sh_bench${String(n).padStart(15, '0')}`, reference_number: `ORD-${n}`, status: 'created', provider_shipment_id: `PPL${n}`,
          total_price: 12.5, currency: 'CZK', metadata: { revision: Math.floor(i / RESOURCES) }, created_at: '2026-11-20T09:00:00Z', updated_at: '2026-11-20T09:00:00Z',
        },
      });
    }
  });
}
await closeContext(ctx);

const daemon = spawn(process.execPath, [dist('bin/packdesk.js'), 'daemon', '--data-dir', dataDir, '--port', '0', '--allow-loopback-webhooks'], {
  env: { ...process.env, PACKDESK_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'inherit'],
});
daemon.stdout.resume();
const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${daemon.pid}/status`, 'utf8'))[1]) / 1024);
const started = performance.now();
let peakRss = 0;
const sampler = setInterval(() => { peakRss = Math.max(peakRss, rss()); }, 100);
const timeout = setTimeout(() => { throw new Error(`only ${delivered} of ${DELIVERIES} deliveries after 10 minutes`); }, 600_000);
await allDelivered;
clearInterval(sampler);
clearTimeout(timeout);
peakRss = Math.max(peakRss, rss());
const seconds = (lastAt - started) / 1000;

print({
  bench: 'webhook-delivery', events: EVENTS, subscriptions: SUBSCRIPTIONS, deliveries: DELIVERIES, duplicates,
  seconds: +seconds.toFixed(2), per_second: Math.round(DELIVERIES / seconds), target_per_second: 1000,
});
print({ bench: 'webhook-daemon-rss', during: `${DELIVERIES} deliveries`, rss_mb: peakRss, target_mb: 250 });

daemon.kill('SIGTERM');
await new Promise((resolve) => daemon.once('exit', resolve));
receiver.close();
rmSync(dataDir, { recursive: true, force: true });
