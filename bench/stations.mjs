// Shipment creation and webhook delivery with 1, 2 and 3 daemons on one PostgreSQL store, beside one daemon on SQLite,
// in one run. Each set-up gets a fresh store, the zero-latency PPL emulator and a webhook receiver on loopback; the
// shipments are posted round robin over the daemons, 16 at a time, and each one's `shipment.created` event is
// delivered to the receiver. Creation is timed until the last shipment is created, delivery until the last event
// arrived (both from the first request).
//
// PostgreSQL runs twice: reached directly, and behind BENCH_LATENCY_MS (1) of delay each way, as a server on another
// host is. The delay is a relay process (bench/latency-relay.mjs) for each daemon, its connections all going through it.
//
// BENCH_ONLY runs one set-up instead: `sqlite:1`, `postgres:3`, `postgres:3:delayed` (store, daemons, behind the delay).
//
// PostgreSQL: a throwaway cluster of its own, as the tests start one (scripts/throwaway-postgres.mjs), removed at the
// end; or PACKDESK_BENCH_DATABASE_URL, a URL of a server whose user may create databases (one per set-up is created).
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createDatabase, startPostgres } from '../scripts/throwaway-postgres.mjs';
import { dist, log, percentile, print, root, startListening, stopProcess } from './lib.mjs';

const SHIPMENTS = Number(process.env.BENCH_SHIPMENTS ?? 600);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 1);
const ONLY = process.env.BENCH_ONLY;

const { startEmulators } = await import(dist('src/carriers/emulator/server.js'));
const { findProvider } = await import(dist('src/carriers/registry.js'));
const ppl = findProvider('ppl');
const emulators = await startEmulators({ providers: ['ppl'], port: 0 });

let delivered = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    delivered++;
    res.end('ok');
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}`;

/** A relay `LATENCY_MS` away from the server of `url`; resolves to where to connect instead, and how to stop it. */
async function delayedBy(url) {
  const target = new URL(url);
  const relay = spawn(process.execPath, [join(root, 'bench', 'latency-relay.mjs'), target.hostname, target.port, String(LATENCY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await once(relay.stdout, 'data');
  const via = (original) => {
    const rewritten = new URL(original);
    rewritten.host = `127.0.0.1:${JSON.parse(String(line)).port}`;
    return rewritten.href;
  };
  return { via, pid: relay.pid, stop: () => stopProcess(relay) };
}

async function run(dialect, daemonCount, adminUrl, delayed = false) {
  const tmp = mkdtempSync(join(tmpdir(), 'packdesk-bench-stations-'));
  const created = dialect === 'postgres' ? await createDatabase(adminUrl) : undefined;
  const relays = [];
  const daemons = [];
  let seconds;
  let usage;
  try {
    if (delayed) relays.push(...await Promise.all(Array.from({ length: daemonCount }, () => delayedBy(adminUrl))));
    // the store as daemon `i` reaches it
    const store = (i) => (created ? ['--database', relays[i]?.via(created) ?? created] : []);
    const dirs = Array.from({ length: daemonCount }, (_, i) => join(tmp, `station-${i + 1}`));
    const env = { ...process.env, XDG_CONFIG_HOME: join(tmp, 'cfg') };
    const key = JSON.parse(execFileSync(process.execPath, [dist('bin/packdesk.js'), 'init', '--data-dir', dirs[0], ...store(0), '--yes', '--json'], { env, encoding: 'utf8' })).api_key;
    for (const dir of dirs.slice(1)) {
      mkdirSync(dir, { mode: 0o700 });
      copyFileSync(join(dirs[0], 'secret.key'), join(dir, 'secret.key'));
    }
    for (const [i, dir] of dirs.entries()) {
      daemons.push(await startListening([dist('bin/packdesk.js'), 'daemon', '--data-dir', dir, '--port', '0', '--allow-loopback-webhooks', ...store(i), '--station', `station-${i + 1}`], env));
    }
    const cpu = () => cpuSeconds(daemons, relays);
    const cpuBefore = cpu();
    const locks = created ? sampleLocks(created) : undefined;
    seconds = await measure(daemons, key, cpu);
    const lockWaits = await locks?.stop();
    const cpuAfter = cpu();
    const perShipment = (k) => Math.round(((cpuAfter[k] - cpuBefore[k]) * 1000) / SHIPMENTS * 10) / 10;
    const total = (sample) => Object.values(sample).reduce((a, b) => a + b);
    // the share of the machine's cores in use: while shipments were being created, and until the last event arrived
    const busy = (until, window) => Math.round(((total(until) - total(cpuBefore)) / (window * cpus().length)) * 100) / 100;
    usage = {
      cpu_ms_per_shipment: { daemons: perShipment('daemons'), postgres: perShipment('postgres'), relays: perShipment('relays'), bench_and_emulator: perShipment('rest') },
      cpu_busy: { creating: busy(seconds.cpuAtCreated, seconds.created), delivering: busy(cpuAfter, seconds.delivered) }, ...lockWaits,
    };
  } finally {
    for (const d of daemons) await stopProcess(d.child);
    for (const relay of relays) await relay.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
  print({
    bench: 'stations', store: dialect, latency_ms: delayed ? LATENCY_MS : 0, daemons: daemonCount, shipments: SHIPMENTS,
    creation_per_second: Math.round(SHIPMENTS / seconds.created), webhook_deliveries_per_second: Math.round(SHIPMENTS / seconds.delivered), post_ms: seconds.post_ms, event_loop_lag_p99_ms: seconds.event_loop_lag_p99_ms, ...usage,
  });
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** CPU seconds a process used so far (user and system), or 0 once it is gone. */
function processCpu(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds so far of the daemons, of PostgreSQL's processes, of the latency relays, and of everything else on the machine (this process, the emulator in it). */
function cpuSeconds(daemons, relays) {
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  let postgres = 0;
  let all = 0;
  for (const pid of pids) {
    const seconds = processCpu(pid);
    all += seconds;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') postgres += seconds;
    } catch { /* gone */ }
  }
  const ofDaemons = daemons.reduce((sum, d) => sum + processCpu(d.child.pid), 0);
  const ofRelays = relays.reduce((sum, r) => sum + processCpu(r.pid), 0);
  return { daemons: ofDaemons, postgres, relays: ofRelays, rest: all - ofDaemons - postgres - ofRelays };
}

/**
 * Samples PostgreSQL's sessions of the database every 20 ms while the set-up runs: how many were waiting for a lock
 * (a row's, or a turn's advisory lock) and how many were running a statement, on average.
 */
function sampleLocks(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  let samples = 0;
  let waiting = 0;
  let active = 0;
  let stopped = false;
  const sampling = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows: [row] } = await client.query(`SELECT count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS waiting,
        count(*) FILTER (WHERE state = 'active')::int - 1 AS active FROM pg_stat_activity WHERE datname = current_database()`);
      samples++;
      waiting += row.waiting;
      active += row.active;
      await new Promise((r) => setTimeout(r, 20));
    }
    await client.end();
  })();
  const round = (n) => Math.round((n / Math.max(1, samples)) * 100) / 100;
  return {
    async stop() {
      stopped = true;
      await sampling;
      return { sessions_waiting_for_locks: round(waiting), sessions_running_statements: round(active) };
    },
  };
}

/**
 * Seconds until every shipment is created and until every `shipment.created` event arrived, from the first request;
 * the CPU times (`cpu()`) when the last shipment was created, the POSTs' answer times, and the daemons' event-loop lag at the end.
 */
async function measure(daemons, key, cpu) {
  const api = async (i, method, path, body) => {
    const res = await fetch(daemons[i % daemons.length].url + path, {
      method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
    });
    return res.json();
  };
  const channel = (await api(0, 'POST', '/v1/shipping-channels', { name: 'PPL', provider: 'ppl', settings: { ...ppl.demo.settings, baseUrl: emulators.urls.ppl } })).data;
  await api(0, 'POST', '/v1/webhook-subscriptions', { name: 'erp', url: `${receiverUrl}/erp`, events: ['shipment.created'] });
  const body = JSON.parse(readFileSync(join(root, 'examples', 'shipment.json'), 'utf8'));
  body.shipping_channel_id = channel.id;
  body.parcels = body.parcels.slice(0, 1);

  delivered = 0;
  const started = Date.now();
  const queue = Array.from({ length: SHIPMENTS }, (_, i) => i);
  const answered = [];
  await Promise.all(Array.from({ length: 16 }, async () => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
      const sent = performance.now();
      const answer = await api(i, 'POST', '/v1/shipments', { ...body, reference_number: `BENCH-${i}` });
      answered.push(performance.now() - sent);
      if (!answer.data?.id) throw new Error(`shipment ${i} was not created: ${JSON.stringify(answer)}`);
    }
  }));
  let createdSeconds;
  let cpuAtCreated;
  for (;;) {
    if (createdSeconds === undefined && (await api(0, 'GET', '/v1/shipments?status=pending&per_page=1')).meta.total === 0) {
      createdSeconds = (Date.now() - started) / 1000;
      cpuAtCreated = cpu();
    }
    if (createdSeconds !== undefined && delivered >= SHIPMENTS) break;
    if (Date.now() - started > 300_000) throw new Error(`not done after 5 minutes: ${delivered} of ${SHIPMENTS} events delivered`);
    await new Promise((r) => setTimeout(r, 20));
  }
  answered.sort((a, b) => a - b);
  // each daemon's event-loop lag over the last 10–20 s, as /healthz reports it: the largest p99 of them
  const lags = await Promise.all(daemons.map(async (d) => (await (await fetch(`${d.url}/healthz`)).json()).event_loop.lag_ms.p99));
  return { created: createdSeconds, cpuAtCreated, delivered: (Date.now() - started) / 1000, post_ms: { p50: Math.round(percentile(answered, 0.5)), p95: Math.round(percentile(answered, 0.95)) },
    event_loop_lag_p99_ms: Math.round(Math.max(...lags)) };
}

const given = process.env.PACKDESK_BENCH_DATABASE_URL;
if (!given) log('stations: starting a throwaway PostgreSQL cluster');
const cluster = given ? undefined : await startPostgres();
const adminUrl = given ?? cluster.url;
try {
  if (ONLY) {
    const [dialect, daemons, delayed] = ONLY.split(':');
    await run(dialect, Number(daemons), adminUrl, delayed === 'delayed');
  } else {
    await run('sqlite', 1);
    for (const n of [1, 2, 3]) await run('postgres', n, adminUrl);
    for (const n of [1, 2, 3]) await run('postgres', n, adminUrl, true);
  }
} finally {
  await cluster?.stop();
  receiver.close();
  await emulators.close();
}
