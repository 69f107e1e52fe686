// Soak: SOAK_EVENTS (1,000,000) outbox events through webhook delivery and retention in a daemon process, to show the
// store does not grow without bound. The daemon runs on a hand-moved clock with --retention-days SOAK_RETENTION_DAYS
// (10): each simulated day it records SOAK_EVENTS_PER_DAY (10,000) events, spread over SOAK_SUBSCRIPTIONS (8)
// subscriptions by event type so each event is delivered once, to a local receiver that answers 200; then the clock
// moves a day and the daemon's own retention worker prunes. Every SOAK_SAMPLE_EVERY
// (100,000) events: the store's size on disk (main file + WAL) and the daemon's RSS (after a full GC; the RSS before it
// is in the line too), after that day's prune. Figures: those samples, and whether they stay flat after the first
// retention period. About ten minutes for a million events. Needs `npm run build`.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { dist, log, print, rssMb } from './lib.mjs';

const EVENTS = Number(process.env.SOAK_EVENTS ?? 1_000_000);
const EVENTS_PER_DAY = Number(process.env.SOAK_EVENTS_PER_DAY ?? 10_000);
const RETENTION_DAYS = Number(process.env.SOAK_RETENTION_DAYS ?? 10);
const SAMPLE_EVERY = Number(process.env.SOAK_SAMPLE_EVERY ?? 100_000);
const SUBSCRIPTIONS = Number(process.env.SOAK_SUBSCRIPTIONS ?? 8);
/** A sample counts as flat within this share of the first sample after the first retention period. */
const FLAT_TOLERANCE = 0.15;
const DAY_MS = 24 * 60 * 60 * 1000;

if (process.env.SOAK_ROLE === 'daemon') await runDaemon();
else await runSoak();

/** The daemon process: records each day's events, waits until they are delivered, moves the clock, waits for the prune. */
async function runDaemon() {
  const { startDaemon } = await import(dist('daemon/main.js'));
  const { ManualClock } = await import(dist('src/domain/clock.js'));
  const { createLogger } = await import(dist('src/logging.js'));
  const { createAccount } = await import(dist('src/services/accounts.js'));
  const { createSubscription } = await import(dist('src/services/webhooks.js'));
  const { recordEvent } = await import(dist('src/services/events.js'));
  const { EVENT_TYPES } = await import(dist('src/domain/events.js'));

  // the retention worker's one line per run is how this process learns a prune happened
  let prunes = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) {
        if (line.includes('"retention: pruned"')) prunes.push(JSON.parse(line));
        else if (line.includes('"level":50')) process.stderr.write(`${line}\n`);
      }
      done();
    },
  });
  const clock = new ManualClock();
  const daemon = await startDaemon({
    dataDir: process.env.SOAK_DATA_DIR, host: '127.0.0.1', port: 0, log: createLogger({ level: 'info', destination: sink }), clock,
    retentionDays: RETENTION_DAYS, allowLoopbackWebhooks: true,
  });
  const { ctx } = daemon;
  const account = await createAccount(ctx, { name: 'soak', plan: 'enterprise' });
  // one event type per subscription: every event is delivered exactly once, over several subscriptions' slots
  const types = EVENT_TYPES.filter((t) => t !== 'webhook.test').slice(0, SUBSCRIPTIONS);
  for (const type of types) await createSubscription(ctx, account.id, { name: type, url: `${process.env.SOAK_RECEIVER}/${type}`, events: [type] });
  const outboxBusy = async () => (await ctx.store.get(`SELECT EXISTS (SELECT 1 FROM webhook_queue)
    OR EXISTS (SELECT 1 FROM events WHERE dispatched_at IS NULL) AS busy`)).busy;
  const count = async (table) => (await ctx.store.get(`SELECT count(*) AS n FROM ${table}`)).n;
  const acked = () => new Promise((resolve) => process.once('message', resolve));

  let recorded = 0;
  for (let day = 1; recorded < EVENTS; day++) {
    const today = Math.min(EVENTS_PER_DAY, EVENTS - recorded);
    for (let start = 0; start < today; start += 1000) {
      await ctx.store.transaction(async () => {
        for (let i = start; i < Math.min(today, start + 1000); i++) {
          const n = (recorded + i) % 5000;
          const type = types[(recorded + i) % types.length];
          await recordEvent(ctx, {
            accountId: account.id, type, resourceName: type.slice(0, type.indexOf('.')),
            resource: {
              id: `res_soak${String(n).padStart(16, '0')}`, reference_number: `ORD-${n}`, status: 'created', provider_shipment_id: `PPL${n}`,
              total_price: 12.5, currency: 'CZK', metadata: { day }, created_at: '2026-11-20T09:00:00Z', updated_at: '2026-11-20T09:00:00Z',
            },
          });
        }
      });
      await yieldToLoop();
    }
    recorded += today;
    while (await outboxBusy()) await sleep(20);
    // a day passes: the daemon's retention worker (hourly on its clock) runs once within a second
    prunes = [];
    clock.advance(DAY_MS);
    while (prunes.length === 0) await sleep(20);
    if (recorded % SAMPLE_EVERY === 0 || recorded === EVENTS) {
      const { events, webhook_logs: webhookLogs, freed_pages: freedPages, ms } = prunes[0];
      const rssBeforeGc = process.memoryUsage().rss;
      // the sampled figures are what stays reachable: garbage V8 has not collected yet is not growth
      globalThis.gc?.();
      const memory = process.memoryUsage();
      process.send({
        events: recorded, day, rss_before_gc_mb: Math.round(rssBeforeGc / 2 ** 20), heap_mb: Math.round(memory.heapUsed / 2 ** 20), rows: { events: await count('events'), webhook_deliveries: await count('webhook_deliveries'), webhook_queue: await count('webhook_queue') },
        last_prune: { events, webhook_logs: webhookLogs, freed_pages: freedPages, ms },
      });
      await acked();
    }
  }
  await daemon.close();
  process.disconnect();
  process.exitCode = 0;
}

/** The bench: a receiver, the daemon process, a sample line at each of its reports, then the verdict. */
async function runSoak() {
  let delivered = 0;
  let duplicates = 0;
  const seen = new Set();
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['webhook-id'];
      if (seen.has(id)) duplicates++;
      else seen.add(id);
      delivered++;
      res.writeHead(200).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-bench-soak-'));
  const sizeMb = (file) => {
    try {
      return statSync(join(dataDir, file)).size / 1e6;
    } catch {
      return 0;
    }
  };
  log(`soak: ${EVENTS} events, ${EVENTS_PER_DAY} a day, retention ${RETENTION_DAYS} days, in ${dataDir}`);
  const started = performance.now();
  const daemon = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--expose-gc'],
    env: { ...process.env, SOAK_ROLE: 'daemon', SOAK_DATA_DIR: dataDir, SOAK_RECEIVER: `http://127.0.0.1:${receiver.address().port}` },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const samples = [];
  daemon.on('message', (report) => {
    const main = sizeMb('packdesk.sqlite');
    const wal = sizeMb('packdesk.sqlite-wal');
    const sample = {
      bench: 'soak-sample', ...report, db_mb: +(main + wal).toFixed(1), db_main_mb: +main.toFixed(1), db_wal_mb: +wal.toFixed(1),
      rss_mb: rssMb(daemon.pid), seconds: Math.round((performance.now() - started) / 1000),
    };
    samples.push(sample);
    print(sample);
    daemon.send('sampled');
  });
  const code = await new Promise((resolve) => daemon.once('exit', resolve));
  receiver.close();
  if (process.env.SOAK_KEEP === '1') log(`kept ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`the soak daemon exited with ${code}`);
  const seconds = (performance.now() - started) / 1000;

  // flat: no sample after the first retention period is more than FLAT_TOLERANCE above the first one there
  const steady = samples.filter((s) => s.events >= RETENTION_DAYS * EVENTS_PER_DAY);
  const verdict = (field) => {
    if (steady.length < 2) return { flat: null, note: 'too few samples after the first retention period' };
    const reference = steady[0][field];
    const highest = Math.max(...steady.map((s) => s[field]));
    return { first: reference, max: highest, flat: highest <= reference * (1 + FLAT_TOLERANCE) };
  };
  print({
    bench: 'soak', events: EVENTS, deliveries: delivered, duplicates, events_per_day: EVENTS_PER_DAY, retention_days: RETENTION_DAYS,
    simulated_days: Math.ceil(EVENTS / EVENTS_PER_DAY), seconds: Math.round(seconds), events_per_second: Math.round(EVENTS / seconds),
    db_mb_after_first_period: verdict('db_mb'), rss_mb_after_first_period: verdict('rss_mb'), flat_tolerance: FLAT_TOLERANCE,
  });
}
