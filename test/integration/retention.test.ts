import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDaemon } from '../../daemon/main.js';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { ManualClock } from '../../src/domain/clock.js';
import { createLogger } from '../../src/logging.js';
import { openDeskSession } from '../../src/services/desk-sessions.js';
import { recordEvent } from '../../src/services/events.js';
import { enqueueJob, failJob, findJob } from '../../src/services/jobs.js';
import { DAY_MS, pruneOnce } from '../../src/services/retention.js';
import { fanOutEvents } from '../../src/services/webhook-outbox.js';
import { autoVacuumMode, DB_FILE, openDb } from '../../src/store/db.js';
import type { SqliteStore } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { csvText, orderRow } from '../helpers/order-files.js';
import { spawnDaemon } from '../helpers/processes.js';
import { pplChannel } from '../helpers/shipments.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const HOUR = 3_600_000;
const JOB_KIND = 'retention_story';

describe('retention: the store keeps the present and 30 days of the past', () => {
  let d: TestDaemon;
  let a: TestAccount;
  let emu: RunningEmulators;
  let receiver: WebhookReceiver;
  let channel: string;

  const sql = <T>(query: string, ...args: unknown[]) => d.ctx.store.all<T>(query, ...args);
  const ids = async (query: string, ...args: unknown[]) => (await sql<{ id: string }>(query, ...args)).map((r) => r.id).sort();
  const subscribe = async (path: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
    const res = await a.request('POST', '/v1/webhook-subscriptions', { name: path, url: `${receiver.url}${path}`, events: ['shipment.updated'], ...extra }, headers);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  const event = (resourceId: string) => recordEvent(d.ctx, {
    accountId: a.id, type: 'shipment.updated', resourceName: 'shipment', resource: { id: resourceId, status: 'created' },
  });
  const failedJob = async (subject: string) => {
    await enqueueJob(d.ctx, { kind: JOB_KIND, subjectId: subject, maxAttempts: 1 });
    await failJob(d.ctx, (await findJob(d.ctx, JOB_KIND, subject))!.id, 'the carrier refused it');
  };
  const upload = async (reference: string) => {
    const res = await a.request('POST', '/v1/imports', {
      file_name: 'orders.csv', content_base64: Buffer.from(csvText([orderRow(reference)])).toString('base64'), shipping_channel_id: channel,
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.id as string;
    await vi.waitFor(async () => expect((await a.request('GET', `/v1/imports/${id}`)).json().data.status).toBe('done'), { timeout: 20_000, interval: 50 });
    return id;
  };
  const logsOf = async (subscription: string) =>
    ((await a.request('GET', `/v1/webhook-subscriptions/${subscription}/logs?per_page=100`)).json().data as { event_id: string }[]).map((l) => l.event_id);

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    receiver = await startWebhookReceiver((r) => (r.path === '/gone' ? { status: 410 } : { status: 200, body: 'ok' }));
    d = await startTestDaemon({ allowLoopbackWebhooks: true });
    a = await d.account('Retention warehouse');
    channel = await pplChannel(a, emu.urls.ppl!);
    // uploads need the import and carrier workers; the retention worker is left off, the test prunes by hand
    d.workers.imports.start();
    d.workers.shipments.start();
  });
  afterAll(async () => {
    await d.workers.stop();
    await d.close();
    await receiver.close();
    await emu.close();
  });

  it('removes delivered events, their logs, failed jobs, expired keys and old uploads; keeps newer ones and undelivered events', { timeout: 60_000 }, async () => {
    const start = d.clock.now();
    const receiving = await subscribe('/receiving');
    const gone = await subscribe('/gone');
    const paused = await subscribe('/paused');

    // day 0: an event reaches one receiver, is given up on by another (410), and waits for a paused one
    const waiting = await event('sh_waiting');
    await fanOutEvents(d.ctx);
    expect((await a.request('PATCH', `/v1/webhook-subscriptions/${paused}`, { status: 'paused' })).statusCode).toBe(200);
    await d.runJobs();
    const delivered = await event('sh_delivered');
    await d.runJobs();
    expect(receiver.at('/receiving').map((r) => r.headers['webhook-id'])).toEqual([waiting, delivered]);
    expect(receiver.at('/gone').map((r) => r.headers['webhook-id'])).toEqual([waiting]);
    await failedJob('old-failed');
    await enqueueJob(d.ctx, { kind: JOB_KIND, subjectId: 'old-retrying', maxAttempts: 5, runAt: start + 40 * DAY_MS });
    const oldUpload = await upload('OLD-1');
    await d.runJobs();

    // day 29: newer records of every kind
    d.clock.advance(29 * DAY_MS);
    const recent = await event('sh_recent');
    await d.runJobs();
    await failedJob('new-failed');
    const newUpload = await upload('NEW-1');
    await d.runJobs();

    // idempotency keys live 24 hours: one 30 h old and one 12 h old at the prune
    const pruneAt = start + 31 * DAY_MS;
    d.clock.set(pruneAt - 30 * HOUR);
    await subscribe('/expired-key', { status: 'paused' }, { 'idempotency-key': 'key-30h' });
    d.clock.set(pruneAt - 12 * HOUR);
    await subscribe('/live-key', { status: 'paused' }, { 'idempotency-key': 'key-12h' });
    // desk sessions last 12 hours: one opened 13 h before the prune has ended, one opened 1 h before has not
    d.clock.set(pruneAt - 13 * HOUR);
    const endedSession = (await openDeskSession(d.ctx, a.key)).id;
    d.clock.set(pruneAt - HOUR);
    const liveSession = (await openDeskSession(d.ctx, a.key)).id;
    d.clock.set(pruneAt);

    const cutoff = pruneAt - 30 * DAY_MS;
    const eventsBefore = (await sql<{ n: number }>('SELECT count(*) AS n FROM events'))[0]!.n;
    const report = await pruneOnce(d.ctx);

    expect(await ids('SELECT id FROM events WHERE id IN (?, ?, ?)', waiting, delivered, recent)).toEqual([recent, waiting].sort());
    expect(await ids('SELECT id FROM events WHERE created_at < ?', cutoff), 'of the old events only the undelivered one is left').toEqual([waiting]);
    expect(report.events).toBe(eventsBefore - (await sql<{ n: number }>('SELECT count(*) AS n FROM events'))[0]!.n);
    expect(report.events).toBeGreaterThanOrEqual(1);
    expect(await logsOf(receiving)).toEqual([recent]);
    expect(await logsOf(gone)).toEqual([]);
    expect(report.webhookLogs).toBe(3);
    expect(await sql('SELECT subscription_id, status FROM webhook_queue WHERE event_id = ? ORDER BY status', waiting))
      .toEqual([{ subscription_id: gone, status: 'failed' }, { subscription_id: paused, status: 'pending' }]);
    expect((await sql<{ subject_id: string }>('SELECT subject_id FROM jobs WHERE kind = ? ORDER BY subject_id', JOB_KIND)).map((j) => j.subject_id))
      .toEqual(['new-failed', 'old-retrying']);
    expect(report.jobs).toBe(1);
    expect((await sql<{ key: string }>('SELECT key FROM idempotency_keys')).map((k) => k.key)).toEqual(['key-12h']);
    expect(report.idempotencyKeys).toBe(1);
    expect(await ids('SELECT id FROM desk_sessions WHERE id IN (?, ?)', endedSession, liveSession)).toEqual([liveSession]);
    expect(report.deskSessions).toBe(1);

    // the old upload's files are gone, its record stays; the newer upload keeps its files
    expect(report.importUploads).toBe(1);
    expect(existsSync(join(d.dataDir, 'imports', oldUpload))).toBe(false);
    expect(existsSync(join(d.dataDir, 'imports', newUpload, 'orders.csv'))).toBe(true);
    expect((await a.request('GET', `/v1/imports/${oldUpload}`)).json().data).toMatchObject({ status: 'done', rows: 1, rows_processed: 1, shipments_created: 1 });
    const oldResult = await a.request('GET', `/v1/imports/${oldUpload}/result`);
    expect(oldResult.statusCode).toBe(404);
    expect(oldResult.json().message).toMatch(/no longer at/);
    expect((await a.request('GET', `/v1/imports/${newUpload}/result`)).json().data).toMatchObject([{ reference_number: 'NEW-1', status: 'created' }]);
    const shipments = (await a.request('GET', '/v1/shipments?per_page=100')).json().data as { reference_number: string }[];
    expect(shipments.map((s) => s.reference_number).sort(), 'shipments are never pruned').toEqual(['NEW-1', 'OLD-1']);

    // the undelivered event is still whole: the paused subscription gets it when switched back on
    expect((await a.request('PATCH', `/v1/webhook-subscriptions/${paused}`, { status: 'active' })).statusCode).toBe(200);
    await d.runJobs();
    const late = receiver.at('/paused');
    expect(late.map((r) => r.headers['webhook-id'])).toEqual([waiting]);
    expect(JSON.parse(late[0]!.body)).toMatchObject({ id: waiting, data: { shipment: { id: 'sh_waiting' } } });
  });
});

describe('retention under load', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startTestDaemon();
  });
  afterAll(() => d.close());

  it('keeps /healthz answering while 100,000 events and 100,000 log entries are pruned, then hands the space back', { timeout: 60_000 }, async () => {
    const a = await d.account();
    const sub = (await a.request('POST', '/v1/webhook-subscriptions', { name: 'old', url: 'https://example.com/hook', events: ['*'] })).json().data.id as string;
    const db = (d.ctx.store as SqliteStore).client;
    const old = d.clock.now() - 40 * DAY_MS;
    const rows = 100_000;
    db.prepare(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
      INSERT INTO events SELECT 'evt_old' || i, ?, 'shipment.updated', 'shipment', 'sh_' || i, printf('%.600c', 'x'), ?, ? FROM n`).run(rows, a.id, old, old);
    db.prepare(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
      INSERT INTO webhook_deliveries SELECT 'whl_old' || i, ?, 'evt_old' || i, 'shipment.updated', 1, 'success', 'https://example.com/hook', '{}',
        printf('%.600c', 'x'), 200, 'ok', 12, NULL, NULL, ? FROM n`).run(rows, sub, old);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pagesBefore = db.pragma('page_count', { simple: true }) as number;
    const fileBefore = statSync(join(d.dataDir, DB_FILE)).size;

    // over a socket, as a client would ask: each answer needs the event loop
    const url = await d.app.listen({ host: '127.0.0.1', port: 0 });
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    await new Promise((resolve) => setTimeout(resolve, 20)); // the histogram measures from its first tick on
    let pruning = true;
    const pruned = pruneOnce(d.ctx).finally(() => { pruning = false; });
    const answers: number[] = [];
    while (pruning) {
      const sent = performance.now();
      const res = await fetch(`${url}/healthz`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      answers.push(performance.now() - sent);
    }
    lag.disable();
    const report = await pruned;

    expect(report).toMatchObject({ events: rows, webhookLogs: rows });
    // one statement deleting them all holds the loop for hundreds of milliseconds; batches of 500 take a few each
    expect(answers.length, 'health answers during the prune').toBeGreaterThan(20);
    expect(Math.max(...answers)).toBeLessThan(250);
    expect(lag.max / 1e6).toBeLessThan(250);

    expect(autoVacuumMode(db)).toBe('incremental');
    expect(report.freedPages).toBeGreaterThan(pagesBefore / 2);
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(statSync(join(d.dataDir, DB_FILE)).size).toBeLessThan(fileBefore / 4);
  });
});

describe('the store file', () => {
  it('converts a small store made without auto-vacuum when it is opened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'packdesk-old-store-'));
    try {
      const old = new Database(join(dir, DB_FILE));
      old.pragma('journal_mode = WAL');
      old.exec('CREATE TABLE notes (body TEXT)');
      old.close();
      const store = openDb(dir);
      expect(autoVacuumMode(store.client)).toBe('incremental');
      expect(store.client.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 0 });
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the retention policy reaches the daemon', () => {
  it('prunes on the worker schedule with the days given to startDaemon', { timeout: 30_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-retention-days-'));
    const lines: string[] = [];
    const log = createLogger({ level: 'info', destination: new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } }) });
    const clock = new ManualClock();
    const daemon = await startDaemon({ dataDir, host: '127.0.0.1', port: 0, log, clock, retentionDays: 7 });
    try {
      const { ctx } = daemon;
      const fail = async (subject: string) => {
        await enqueueJob(ctx, { kind: JOB_KIND, subjectId: subject, maxAttempts: 1 });
        await failJob(ctx, (await findJob(ctx, JOB_KIND, subject))!.id, 'refused');
      };
      await fail('ten-days-old');
      clock.advance(5 * DAY_MS);
      await fail('five-days-old');
      clock.advance(5 * DAY_MS); // past the first run, due a minute after start
      const pruned = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'retention: pruned');
      await vi.waitFor(() => expect(pruned()).toHaveLength(1), { timeout: 10_000, interval: 50 });
      expect(pruned()[0]).toMatchObject({ retention_days: 7, jobs: 1, events: 0, webhook_logs: 0, idempotency_keys: 0, import_uploads: 0 });
      expect(await ctx.store.all('SELECT subject_id FROM jobs WHERE kind = ?', JOB_KIND)).toEqual([{ subject_id: 'five-days-old' }]);
      expect(lines.some((l) => l.includes('"msg":"listening"') && l.includes('"retention_days":7'))).toBe(true);
    } finally {
      await daemon.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('takes --retention-days, else PACKDESK_RETENTION_DAYS, and refuses a day count that is not positive', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-retention-flag-'));
    try {
      const fromFlag = await spawnDaemon(dataDir, { PACKDESK_RETENTION_DAYS: '9' }, ['--retention-days', '7']);
      expect(JSON.parse(fromFlag.line)).toMatchObject({ msg: 'listening', retention_days: 7 });
      expect(await fromFlag.stop()).toBe(0);
      const fromEnv = await spawnDaemon(dataDir, { PACKDESK_RETENTION_DAYS: '9' });
      expect(JSON.parse(fromEnv.line)).toMatchObject({ retention_days: 9 });
      expect(await fromEnv.stop()).toBe(0);
      const refused = await runCli(['daemon', '--data-dir', dataDir, '--port', '0', '--retention-days', '0'], { ...process.env, CI: 'true' });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/--retention-days must be a positive integer/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
