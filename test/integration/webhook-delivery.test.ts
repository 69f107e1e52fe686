import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { isoTime } from '../../src/domain/clock.js';
import { RETRY_SCHEDULE_MS } from '../../src/domain/webhook-retries.js';
import { recordEvent } from '../../src/services/events.js';
import { fanOutEvents } from '../../src/services/webhook-outbox.js';
import { createSubscription, revealSecret } from '../../src/services/webhooks.js';
import { webhookQueue, webhookSubscriptions } from '../../src/store/schema.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { startWebhookReceiver, verifyWebhook, type ReceivedWebhook, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const DHL = { apiKey: 'u', apiSecret: 's3cret-value', accountNumber: '123456789', baseUrl: 'http://127.0.0.1:9' };
const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

interface Payload {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, { id: string; previous_status?: string | null; [k: string]: unknown }>;
}

interface Log {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: string;
  response_status: number | null;
  error_message: string | null;
  next_retry_at: string | null;
  created_at: string;
  request_headers: Record<string, string>;
}

const payloadOf = (r: ReceivedWebhook) => JSON.parse(r.body) as Payload;
const typesOf = (rs: ReceivedWebhook[]) => rs.map((r) => r.headers['x-packdesk-event']);

describe('webhook delivery (manual clock, real receivers on loopback)', () => {
  let d: TestDaemon;
  let a: TestAccount;
  let b: TestAccount;
  let rx: WebhookReceiver;
  let channelNo = 0;

  beforeAll(async () => {
    // random 0.5 = no jitter: the schedule's offsets exactly
    d = await startTestDaemon({ allowLoopbackWebhooks: true, webhooks: { random: () => 0.5 } });
    a = await d.account('Hooks A');
    b = await d.account('Hooks B');
    rx = await startWebhookReceiver();
  });
  afterEach(() => {
    rx.reply = () => ({ status: 200, body: 'ok' });
  });
  afterAll(async () => {
    await rx.close();
    await d.close();
  });

  const subscribe = async (who: TestAccount, path: string, events: string[], extra: Record<string, unknown> = {}) => {
    const res = await who.request('POST', '/v1/webhook-subscriptions', { name: `hook ${path}`, url: rx.url + path, events, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; url: string };
  };
  const createChannel = async (who: TestAccount = a) => {
    const res = await who.request('POST', '/v1/shipping-channels', { name: `DHL ${++channelNo}`, provider: 'dhl', settings: DHL });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string };
  };
  const logs = async (subId: string, query = '') => (await a.request('GET', `/v1/webhook-subscriptions/${subId}/logs${query}`)).json() as { data: Log[]; meta: { total: number; per_page: number } };
  const subscription = async (id: string) => (await d.ctx.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)).get())!;
  const queueOf = (id: string) => d.ctx.db.select().from(webhookQueue).where(eq(webhookQueue.subscriptionId, id)).all();

  it('delivers channel events from real changes, in order, verified for a generated whsec_ and a plain secret', async () => {
    const generated = await subscribe(a, '/generated', ['*']);
    const plain = await subscribe(a, '/plain', ['*'], { secret: 'a-plain-secret-of-my-own' });
    const deletesOnly = await subscribe(a, '/deletes', ['shipping_channel.deleted']);
    const other = await subscribe(b, '/other-account', ['*']);
    const channel = await createChannel();
    expect((await a.request('PATCH', `/v1/shipping-channels/${channel.id}`, { description: 'night shift' })).statusCode).toBe(200);
    expect((await a.request('PATCH', `/v1/shipping-channels/${channel.id}`, { status: 'inactive' })).statusCode).toBe(200);
    expect((await a.request('DELETE', `/v1/shipping-channels/${channel.id}`)).statusCode).toBe(200);
    await d.runJobs();

    const expected = ['shipping_channel.created', 'shipping_channel.updated', 'shipping_channel.updated', 'shipping_channel.status_changed', 'shipping_channel.deleted'];
    for (const [sub, path] of [[generated, '/generated'], [plain, '/plain']] as const) {
      const got = rx.at(path);
      expect(typesOf(got), path).toEqual(expected);
      const secret = await revealSecret(d.ctx, sub.id);
      for (const r of got) {
        const payload = verifyWebhook(secret, r, d.clock.now()) as Payload;
        expect(payload.type).toBe(r.headers['x-packdesk-event']);
        expect(r.headers['webhook-id']).toBe(payload.id);
        expect(r.headers['user-agent']).toMatch(/^packdesk\/\d+\.\d+\.\d+/);
        expect(r.headers['content-type']).toBe('application/json');
        expect(payload.data.shipping_channel!.id).toBe(channel.id);
        expect(payload.data.shipping_channel!.settings).toEqual({ ...DHL, apiSecret: '••••••••' });
        expect('previous_status' in payload.data.shipping_channel!).toBe(payload.type.endsWith('.status_changed'));
      }
      expect(payloadOf(got[3]!).data.shipping_channel).toMatchObject({ status: 'inactive', previous_status: 'pending_validation' });
      const entries = await logs(sub.id);
      expect(entries.meta.total).toBe(5);
      expect(entries.data.every((l) => l.status === 'success' && l.response_status === 200 && l.attempt === 1)).toBe(true);
    }
    expect(rx.at('/generated')[0]!.body).toBe(rx.at('/plain')[0]!.body); // the stored payload, byte for byte
    expect(() => verifyWebhook('another-secret-entirely', rx.at('/plain')[0]!, d.clock.now())).toThrow();
    expect(typesOf(rx.at('/deletes'))).toEqual(['shipping_channel.deleted']);
    expect(rx.at('/other-account')).toEqual([]);
    expect((await logs(deletesOnly.id)).meta.total).toBe(1);
    expect(await queueOf(other.id)).toEqual([]);
  });

  it('retries a receiver that fails 3 times at the schedule offsets, then delivers the event once', async () => {
    const sub = await subscribe(a, '/flaky', ['shipping_channel.created']);
    rx.reply = (r, all) => (r.path === '/flaky' && all.filter((x) => x.path === '/flaky').length <= 3 ? { status: 500, body: 'not now' } : { status: 204 });
    const t0 = d.clock.now();
    await createChannel();
    await d.runJobs();
    expect(rx.at('/flaky')).toHaveLength(1);
    expect((await subscription(sub.id)).failingSince).toBe(t0);

    let at = t0;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const latest = (await logs(sub.id)).data[0]!;
      at += RETRY_SCHEDULE_MS[attempt - 1]!;
      expect(latest).toMatchObject({ attempt, status: 'failed', response_status: 500, error_message: 'HTTP 500', next_retry_at: isoTime(at) });
      d.clock.set(at - SECOND);
      await d.runJobs();
      expect(rx.at('/flaky'), `nothing before offset ${attempt}`).toHaveLength(attempt);
      d.clock.set(at);
      await d.runJobs();
      expect(rx.at('/flaky')).toHaveLength(attempt + 1);
    }

    const entries = await logs(sub.id);
    expect(entries.data.map((l) => [l.attempt, l.status])).toEqual([[4, 'success'], [3, 'failed'], [2, 'failed'], [1, 'failed']]);
    expect(entries.data.map((l) => l.created_at)).toEqual([at, at - RETRY_SCHEDULE_MS[2]!, t0 + RETRY_SCHEDULE_MS[0]!, t0].map(isoTime));
    expect(entries.data[0]!.next_retry_at).toBeNull();
    const got = rx.at('/flaky');
    const secret = await revealSecret(d.ctx, sub.id);
    const offsets = [t0, t0 + 5 * SECOND, t0 + 5 * SECOND + 5 * 60 * SECOND, at];
    got.forEach((r, i) => {
      expect(r.headers['webhook-timestamp']).toBe(String(Math.floor(offsets[i]! / 1000)));
      verifyWebhook(secret, r, offsets[i]);
    });
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.map((r) => r.headers['webhook-signature'])).size).toBe(4);
    expect(got.filter((r) => r.answered === 204)).toHaveLength(1);
    expect((await subscription(sub.id)).failingSince).toBeNull();
    expect(await queueOf(sub.id)).toEqual([]);
    d.clock.advance(2 * DAY);
    await d.runJobs();
    expect(rx.at('/flaky')).toHaveLength(4);
  });

  it('gives up after the 10th attempt of a receiver that always fails (about 3 days)', async () => {
    const sub = await subscribe(a, '/down', ['shipping_channel.created']);
    rx.reply = (r) => ({ status: r.path === '/down' ? 502 : 200 });
    const t0 = d.clock.now();
    await createChannel();
    for (let attempt = 1; attempt <= 10; attempt++) {
      await d.runJobs();
      expect(rx.at('/down')).toHaveLength(attempt);
      const next = (await logs(sub.id)).data[0]!.next_retry_at;
      if (attempt < 10) d.clock.set(Date.parse(next!));
      else expect(next).toBeNull();
    }
    const total = RETRY_SCHEDULE_MS.reduce((s, ms) => s + ms, 0);
    expect(d.clock.now() - t0).toBe(total);
    expect(total / DAY).toBeCloseTo(3.15, 2);
    const entries = await logs(sub.id);
    expect(entries.meta.total).toBe(10);
    expect(entries.data[0]).toMatchObject({ attempt: 10, status: 'failed', error_message: 'HTTP 502 (no attempts left)' });
    expect((await queueOf(sub.id)).map((q) => [q.status, q.attempts])).toEqual([['failed', 10]]);
    d.clock.advance(3 * DAY);
    await d.runJobs();
    expect(rx.at('/down')).toHaveLength(10);
    expect((await subscription(sub.id)).status).toBe('active');
  });

  it('disables the subscription on 410 Gone and queues nothing more for it', async () => {
    const sub = await subscribe(a, '/gone', ['*']);
    rx.reply = (r) => (r.path === '/gone' ? { status: 410, body: 'unsubscribed' } : { status: 200 });
    await createChannel();
    await d.runJobs();
    expect(rx.at('/gone')).toHaveLength(1);
    expect((await a.request('GET', `/v1/webhook-subscriptions/${sub.id}`)).json().data.status).toBe('disabled');
    expect((await logs(sub.id)).data[0]).toMatchObject({
      status: 'failed', response_status: 410, next_retry_at: null,
      error_message: 'HTTP 410 (subscription disabled: the receiver answered 410 Gone)',
    });
    await createChannel();
    d.clock.advance(HOUR);
    await d.runJobs();
    expect(rx.at('/gone')).toHaveLength(1);
    expect((await queueOf(sub.id)).map((q) => q.status)).toEqual(['failed']);
  });

  it('disables a subscription after 5 days of only failed deliveries', async () => {
    const sub = await subscribe(a, '/failing', ['shipping_channel.created']);
    rx.reply = (r) => ({ status: r.path === '/failing' ? 500 : 200 });
    const t0 = d.clock.now();
    // a new event every 12 hours keeps attempts going; each due attempt is run at its time
    const until = t0 + 6 * DAY;
    let nextEvent = t0;
    while (d.clock.now() < until && (await subscription(sub.id)).status === 'active') {
      if (d.clock.now() >= nextEvent) {
        await createChannel();
        nextEvent += 12 * HOUR;
      }
      await d.runJobs();
      const due = (await queueOf(sub.id)).filter((q) => q.status === 'pending').map((q) => q.nextAttemptAt);
      d.clock.set(Math.min(nextEvent, ...due));
    }
    const row = await subscription(sub.id);
    expect(row.status).toBe('disabled');
    expect(row.failingSince).toBe(t0);
    expect(row.updatedAt).toBe(t0 + 5 * DAY); // the first failure at or after 5 days (an event created at t0 + 5 days)
    expect((await logs(sub.id)).data[0]!.error_message).toBe('HTTP 500 (subscription disabled: deliveries failed for 5 days)');
    expect((await queueOf(sub.id)).every((q) => q.status === 'failed')).toBe(true);
    const sent = rx.at('/failing').length;
    await createChannel();
    d.clock.advance(DAY);
    await d.runJobs();
    expect(rx.at('/failing')).toHaveLength(sent);

    // switched on again by the user: deliveries resume, the failure count starts again
    rx.reply = () => ({ status: 200 });
    expect((await a.request('PATCH', `/v1/webhook-subscriptions/${sub.id}`, { status: 'active' })).json().data.status).toBe('active');
    expect((await subscription(sub.id)).failingSince).toBeNull();
    await createChannel();
    await d.runJobs();
    expect(rx.at('/failing')).toHaveLength(sent + 1);
  });

  it('honours Retry-After: 120 on a 429 instead of the 5 s step', async () => {
    const sub = await subscribe(a, '/busy', ['shipping_channel.created']);
    rx.reply = (r, all) => (r.path === '/busy' && all.filter((x) => x.path === '/busy').length === 1 ? { status: 429, headers: { 'retry-after': '120' } } : { status: 200 });
    const t0 = d.clock.now();
    await createChannel();
    await d.runJobs();
    expect((await logs(sub.id)).data[0]).toMatchObject({ status: 'failed', response_status: 429, next_retry_at: isoTime(t0 + 120 * SECOND) });
    d.clock.set(t0 + 119 * SECOND);
    await d.runJobs();
    expect(rx.at('/busy')).toHaveLength(1);
    d.clock.set(t0 + 120 * SECOND);
    await d.runJobs();
    expect(rx.at('/busy').map((r) => r.answered)).toEqual([429, 200]);
  });

  it('keeps event order per resource: a failing first event of X holds back X, not Y', async () => {
    const sub = await subscribe(a, '/ordered', ['shipping_channel.created', 'shipping_channel.updated']);
    const x = await createChannel();
    let failedOnce = false;
    rx.reply = (r) => {
      if (r.path !== '/ordered') return { status: 200 };
      const p = payloadOf(r);
      if (p.data.shipping_channel!.id === x.id && !failedOnce) {
        failedOnce = true;
        return { status: 500 };
      }
      return { status: 200 };
    };
    await a.request('PATCH', `/v1/shipping-channels/${x.id}`, { description: 'second event of X' });
    const y = await createChannel();
    await d.runJobs();
    const label = (r: ReceivedWebhook) => `${payloadOf(r).data.shipping_channel!.id === x.id ? 'X' : 'Y'} ${r.headers['x-packdesk-event']!.split('.')[1]} ${r.answered}`;
    expect(rx.at('/ordered').map(label).sort()).toEqual(['X created 500', 'Y created 200']);
    expect((await queueOf(sub.id)).find((q) => q.resourceKey === `shipping_channel:${x.id}` && q.attempts === 0)).toBeDefined();
    d.clock.advance(5 * SECOND);
    await d.runJobs();
    expect(rx.at('/ordered').map(label).slice(2)).toEqual(['X created 200', 'X updated 200']);
    expect(y.id).not.toBe(x.id);
  });

  it('does not let a slow receiver (2 s per answer) delay deliveries to another subscription', async () => {
    await subscribe(a, '/slow', ['shipping_channel.created']);
    await subscribe(a, '/fast', ['shipping_channel.created']);
    rx.reply = (r) => (r.path === '/slow' ? { status: 200, delayMs: 2000 } : { status: 200 });
    for (let i = 0; i < 8; i++) await createChannel();
    const started = performance.now();
    await d.runJobs();
    const took = performance.now() - started;
    const fast = rx.at('/fast');
    expect(fast).toHaveLength(8);
    expect(Math.max(...fast.map((r) => r.arrivedAt)) - started).toBeLessThan(1000);
    expect(rx.at('/slow').filter((r) => r.answered === 200)).toHaveLength(8);
    expect(took).toBeGreaterThanOrEqual(4000); // 4 at a time to the slow one: two rounds of 2 s
  });

  it('queues nothing for paused subscriptions and drops pending deliveries of a deleted one', async () => {
    const paused = await subscribe(a, '/paused', ['shipping_channel.created'], { status: 'paused' });
    const doomed = await subscribe(a, '/doomed', ['shipping_channel.created']);
    rx.reply = (r) => (r.path === '/doomed' ? { status: 500 } : { status: 200 });
    await createChannel();
    await d.runJobs();
    expect(rx.at('/paused')).toEqual([]);
    expect(await queueOf(paused.id)).toEqual([]);
    expect((await queueOf(doomed.id)).map((q) => q.status)).toEqual(['pending']);
    expect((await a.request('DELETE', `/v1/webhook-subscriptions/${doomed.id}`)).statusCode).toBe(204);
    expect(await queueOf(doomed.id)).toEqual([]);
    d.clock.advance(HOUR);
    await d.runJobs();
    expect(rx.at('/doomed')).toHaveLength(1);
    await a.request('PATCH', `/v1/webhook-subscriptions/${paused.id}`, { status: 'active' });
    await createChannel();
    await d.runJobs();
    expect(rx.at('/paused')).toHaveLength(1);
  });

  it('never writes a secret into the daemon log or the delivery logs', async () => {
    const secret = 'never-log-this-secret-Q7';
    const sub = await subscribe(a, '/quiet', ['*'], { secret });
    const generated = await subscribe(a, '/quiet-generated', ['*']);
    rx.reply = (r) => ({ status: r.path === '/quiet' ? 500 : 200 });
    await createChannel();
    await d.runJobs();
    expect((await a.request('POST', `/v1/webhook-subscriptions/${sub.id}/test`)).statusCode).toBe(200);
    const generatedSecret = (await revealSecret(d.ctx, generated.id)).slice(6);
    for (const id of [sub.id, generated.id]) {
      const body = (await a.request('GET', `/v1/webhook-subscriptions/${id}/logs`)).body;
      expect(body).not.toContain(secret);
      expect(body).not.toContain(generatedSecret);
    }
    expect(d.logText()).toContain('webhook attempt failed');
    expect(d.logText()).not.toContain(secret);
    expect(d.logText()).not.toContain(generatedSecret);
    expect(d.logText()).not.toContain(DHL.apiSecret);
  });

  it('sends a test event at once, redelivers a logged event and clears logs, with 401/403/404 across accounts', async () => {
    const sub = await subscribe(a, '/tested', ['shipment.created']);
    const bystander = await subscribe(a, '/bystander', ['*']);
    const res = await a.request('POST', `/v1/webhook-subscriptions/${sub.id}/test`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { message: string; data: Log };
    expect(body.message).toBe('Test webhook sent');
    expect(body.data).toMatchObject({ event_type: 'webhook.test', attempt: 1, status: 'success', response_status: 200, next_retry_at: null });
    const [delivered] = rx.at('/tested');
    const payload = verifyWebhook(await revealSecret(d.ctx, sub.id), delivered!, d.clock.now()) as Payload;
    expect(payload).toMatchObject({ id: body.data.event_id, type: 'webhook.test', data: { webhook: { id: sub.id, url: sub.url, secret: '••••••••••••••••' } } });
    await d.runJobs();
    expect(rx.at('/bystander')).toEqual([]); // a test event goes only where it was sent

    rx.reply = (r) => (r.path === '/tested' ? { status: 503, body: 'maintenance' } : { status: 200 });
    const failed = await a.request('POST', `/v1/webhook-subscriptions/${sub.id}/test`);
    expect(failed.statusCode).toBe(200);
    expect(failed.json().data).toMatchObject({ status: 'failed', response_status: 503, response_body: 'maintenance', next_retry_at: null });
    d.clock.advance(HOUR);
    await d.runJobs();
    expect(rx.at('/tested')).toHaveLength(2); // tests are not retried
    rx.reply = () => ({ status: 200 });

    const again = await a.request('POST', `/v1/webhook-subscriptions/${sub.id}/logs/${body.data.id}/redeliver`);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ event_id: body.data.event_id, attempt: 2, status: 'success' });
    expect(again.json().data.id).not.toBe(body.data.id);
    const third = rx.at('/tested')[2]!;
    expect(third.headers['webhook-id']).toBe(body.data.event_id);
    verifyWebhook(await revealSecret(d.ctx, sub.id), third, d.clock.now());
    const list = await logs(sub.id);
    expect(list.data.map((l) => l.attempt)).toEqual([2, 1, 1]);
    expect((await logs(sub.id, '?event_type=webhook.test&status=failed')).meta.total).toBe(1);

    const paths = [`/v1/webhook-subscriptions/${sub.id}/test`, `/v1/webhook-subscriptions/${sub.id}/logs/${body.data.id}/redeliver`];
    for (const path of paths) {
      expect((await b.request('POST', path)).statusCode, path).toBe(403);
      expect((await d.app.inject({ method: 'POST', url: path })).statusCode, path).toBe(401);
      expect((await d.app.inject({ method: 'POST', url: path, headers: { authorization: `Bearer ${a.readOnlyKey}` } })).statusCode, path).toBe(403);
    }
    expect((await a.request('POST', '/v1/webhook-subscriptions/wh_unknown/test')).statusCode).toBe(404);
    expect((await a.request('POST', `/v1/webhook-subscriptions/${sub.id}/logs/whl_unknown/redeliver`)).statusCode).toBe(404);
    expect((await a.request('POST', `/v1/webhook-subscriptions/${bystander.id}/logs/${body.data.id}/redeliver`)).statusCode).toBe(404);
    expect((await b.request('DELETE', `/v1/webhook-subscriptions/${sub.id}/logs`)).statusCode).toBe(403);
    expect((await d.app.inject({ method: 'DELETE', url: `/v1/webhook-subscriptions/${sub.id}/logs` })).statusCode).toBe(401);
    expect((await a.request('DELETE', '/v1/webhook-subscriptions/wh_unknown/logs')).statusCode).toBe(404);
    expect(rx.at('/tested')).toHaveLength(3);

    const cleared = await a.request('DELETE', `/v1/webhook-subscriptions/${sub.id}/logs`);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ message: 'Webhook logs cleared' });
    expect((await logs(sub.id)).meta.total).toBe(0);
    expect((await a.request('POST', `/v1/webhook-subscriptions/${sub.id}/logs/${body.data.id}/redeliver`)).statusCode).toBe(404);
  });

  it('checks the URL again at delivery time: one that now points to a metadata address is not sent', async () => {
    const sub = await subscribe(a, '/moved', ['shipping_channel.created']);
    // as if the stored URL had been changed behind the API's back
    await d.ctx.db.update(webhookSubscriptions).set({ url: 'https://169.254.169.254/latest/meta-data' }).where(eq(webhookSubscriptions.id, sub.id)).run();
    const t0 = d.clock.now();
    await createChannel();
    await d.runJobs();
    expect(rx.at('/moved')).toEqual([]);
    expect((await logs(sub.id)).data[0]).toMatchObject({
      status: 'failed', response_status: null, next_retry_at: isoTime(t0 + 5 * SECOND),
      error_message: 'not sent: the url must not point to a link-local or metadata address',
    });
    // a host name goes through the guarded DNS lookup of the connection itself
    const named = await a.request('POST', '/v1/webhook-subscriptions', { name: 'named', url: rx.url.replace('127.0.0.1', 'localhost') + '/named', events: ['shipping_channel.created'] });
    await createChannel();
    await d.runJobs();
    expect(rx.at('/named').map((r) => r.answered)).toEqual([200]);
    expect((await logs(named.json().data.id)).data[0]!.status).toBe('success');
  });

  it('lists logs newest first, 15 per page by default', async () => {
    const sub = await subscribe(a, '/many', ['shipping_channel.created']);
    for (let i = 0; i < 17; i++) {
      await createChannel();
      d.clock.advance(SECOND);
    }
    await d.runJobs();
    const page1 = await logs(sub.id);
    expect(page1.meta).toMatchObject({ per_page: 15, total: 17 });
    expect(page1.data).toHaveLength(15);
    const times = page1.data.map((l) => l.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await logs(sub.id, '?page=2')).data).toHaveLength(2);
  });
});

describe('webhook fan-out', () => {
  it('ends a fan-out transaction with the event whose deliveries reach the limit, and leaves the rest for the next', async () => {
    const d = await startTestDaemon();
    try {
      const account = await d.account('Fan-out');
      for (let i = 0; i < 10; i++) await createSubscription(d.ctx, account.id, { name: `s${i}`, url: `https://example.com/${i}`, events: ['*'] });
      await d.ctx.store.transaction(async () => {
        for (let i = 0; i < 30; i++) {
          await recordEvent(d.ctx, { accountId: account.id, type: 'shipment.updated', resourceName: 'shipment', resource: { id: `shp_fan${i}` } });
        }
      });
      const count = async (sql: string) => (await d.ctx.store.get<{ n: number }>(sql))!.n;
      const first = await fanOutEvents(d.ctx, { events: 500, deliveries: 25 });
      expect(first.more).toBe(true);
      expect(first.subscriptions.size).toBe(10);
      expect(await count('SELECT count(*) AS n FROM webhook_queue')).toBe(30); // three events of ten deliveries each
      expect(await count('SELECT count(*) AS n FROM events WHERE dispatched_at IS NULL')).toBe(27);
      let batches = 1;
      for (let more = true; more; batches++) more = (await fanOutEvents(d.ctx, { events: 500, deliveries: 25 })).more;
      expect(batches).toBe(10); // the last one took the last three events and saw none after them
      expect(await count('SELECT count(*) AS n FROM webhook_queue')).toBe(300);
      expect((await fanOutEvents(d.ctx)).more).toBe(false);
    } finally {
      await d.close();
    }
  });
});
