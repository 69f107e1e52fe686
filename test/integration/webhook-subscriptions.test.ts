import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { revealSecret } from '../../src/services/webhooks.js';
import { webhookDeliveries, webhookSubscriptions } from '../../src/store/schema.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';

describe('webhook subscriptions', () => {
  let d: TestDaemon;
  let a: TestAccount;
  let b: TestAccount;

  beforeAll(async () => {
    d = await startTestDaemon();
    a = await d.account('Hooks A');
    b = await d.account('Hooks B');
  });
  afterAll(() => d.close());

  const create = (who: TestAccount, body: Record<string, unknown>) =>
    who.request('POST', '/v1/webhook-subscriptions', { name: 'ERP', url: 'https://erp.example.com/hook', events: ['*'], ...body });

  it('creates with a generated whsec_ secret that is stored encrypted and always returned masked', async () => {
    const res = await create(a, { events: ['shipment.created', 'tracking_parcel.status_changed'] });
    expect(res.statusCode).toBe(201);
    const sub = res.json().data;
    expect(sub).toMatchObject({ name: 'ERP', url: 'https://erp.example.com/hook', status: 'active', secret: '••••••••••••••••',
      events: ['shipment.created', 'tracking_parcel.status_changed'] });
    const secret = await revealSecret(d.ctx, sub.id);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    const row = (await d.ctx.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, sub.id)).get())!;
    expect(row.secretEnc).not.toContain(secret.slice(6, 20));
    for (const path of [`/v1/webhook-subscriptions/${sub.id}`, '/v1/webhook-subscriptions']) {
      expect((await a.request('GET', path)).body).not.toContain(secret.slice(6, 20));
    }
  });

  it('keeps a user-given secret of 16+ characters and refuses shorter ones or bad whsec_ values', async () => {
    const ok = await create(a, { secret: 'my-plain-secret-16' });
    expect(ok.statusCode).toBe(201);
    expect(await revealSecret(d.ctx, ok.json().data.id)).toBe('my-plain-secret-16');
    expect((await create(a, { secret: 'short' })).json().errors.secret).toEqual(['must be at least 16 characters']);
    expect((await create(a, { secret: 'whsec_!!!!!!!!!!!!!!!!!!' })).json().errors.secret[0]).toMatch(/base64/);
  });

  it('refuses plain http, this machine\'s loopback, and link-local or metadata addresses', async () => {
    const loopback = 'a loopback address (allowed only when the daemon runs with --allow-loopback-webhooks)';
    const cases: [string, string][] = [
      ['http://erp.example.com/hook', 'must use https'],
      ['http://127.0.0.1:9000/hook', `must not point to ${loopback}`],
      ['https://127.0.0.1:9000/hook', `must not point to ${loopback}`],
      ['http://localhost:9000/hook', `must not point to ${loopback}`],
      ['https://localhost:9000/hook', `resolves to ${loopback}`],
      ['https://[::1]:9000/hook', `must not point to ${loopback}`],
      ['https://169.254.169.254/latest/meta-data', 'link-local'],
      ['https://[fe80::1]/hook', 'link-local'],
      ['https://metadata.google.internal/computeMetadata', 'metadata'],
      ['ftp://example.com/x', 'must use https'],
      ['not a url', 'absolute URL'],
    ];
    for (const [url, problem] of cases) {
      const res = await create(a, { url });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().errors.url[0], url).toContain(problem);
    }
  });

  it('allows loopback, over plain http too, when the daemon runs with --allow-loopback-webhooks', async () => {
    const local = await startTestDaemon({ allowLoopbackWebhooks: true });
    try {
      const acc = await local.account();
      for (const url of ['http://127.0.0.1:9000/hook', 'http://localhost:9000/hook', 'http://[::1]:9000/hook', 'https://127.0.0.1:9000/hook']) {
        expect((await create(acc, { url })).statusCode, url).toBe(201);
      }
      expect((await create(acc, { url: 'http://erp.example.com/hook' })).json().errors.url[0]).toContain('must use https');
      expect((await create(acc, { url: 'https://169.254.169.254/' })).json().errors.url[0]).toContain('link-local');
    } finally {
      await local.close();
    }
  });

  it('allows plain http to any host when the daemon runs with --allow-http-webhooks', async () => {
    const open = await startTestDaemon({ allowHttpWebhooks: true });
    try {
      const acc = await open.account();
      expect((await create(acc, { url: 'http://erp.lan/hook' })).statusCode).toBe(201);
      expect((await create(acc, { url: 'http://169.254.1.1/hook' })).statusCode).toBe(422);
      // plain http says nothing about loopback: that takes its own switch
      expect((await create(acc, { url: 'http://127.0.0.1:9000/hook' })).json().errors.url[0]).toContain('must not point to a loopback address');
    } finally {
      await open.close();
    }
  });

  it('refuses an empty event list, unknown events and disabled as a user-set status', async () => {
    const res = await create(a, { events: [], status: 'disabled' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({ events: ['must not be empty'], status: ['must be one of active, paused'] });
    expect((await create(a, { events: ['parcel.moved'] })).json().errors['events.0'][0]).toMatch(/not a known event/);
  });

  it('updates name, url, events, status and secret, and keeps the rest', async () => {
    const sub = (await create(a, { secret: 'first-secret-value' })).json().data;
    const res = await a.request('PATCH', `/v1/webhook-subscriptions/${sub.id}`, {
      status: 'paused', events: ['shipping_channel.created'], secret: 'second-secret-value',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'ERP', url: sub.url, status: 'paused', events: ['shipping_channel.created'], secret: '••••••••••••••••' });
    expect(await revealSecret(d.ctx, sub.id)).toBe('second-secret-value');
    const put = await a.request('PUT', `/v1/webhook-subscriptions/${sub.id}`, { url: 'http://example.com/plain' });
    expect(put.statusCode).toBe(422);
  });

  it('lists, filters, shows and clears delivery logs with the seed status codes', async () => {
    const sub = (await create(a, {})).json().data;
    const at = d.clock.now();
    const log = (id: string, status: 'success' | 'failed', eventType: string, offset: number) => ({
      id, subscriptionId: sub.id, eventId: `evt_${id}`, eventType, attempt: 1, status, url: sub.url,
      requestHeaders: '{"webhook-id":"evt_x"}', requestBody: '{}', responseStatus: status === 'success' ? 200 : 500,
      responseBody: 'ok', durationMs: 12, errorMessage: null, nextRetryAt: null, createdAt: at + offset,
    });
    await d.ctx.db.insert(webhookDeliveries).values([
      log('whl_1', 'success', 'shipment.created', 1), log('whl_2', 'failed', 'shipment.created', 2), log('whl_3', 'success', 'tracking_parcel.created', 3),
    ]).run();
    const all = (await a.request('GET', `/v1/webhook-subscriptions/${sub.id}/logs`)).json();
    expect(all.data.map((l: { id: string }) => l.id)).toEqual(['whl_3', 'whl_2', 'whl_1']);
    expect(all.meta.per_page).toBe(15);
    expect(all.data[0]).toMatchObject({ webhook_subscription_id: sub.id, event_type: 'tracking_parcel.created', request_headers: { 'webhook-id': 'evt_x' } });
    const failed = (await a.request('GET', `/v1/webhook-subscriptions/${sub.id}/logs?status=failed`)).json();
    expect(failed.data.map((l: { id: string }) => l.id)).toEqual(['whl_2']);
    const byType = (await a.request('GET', `/v1/webhook-subscriptions/${sub.id}/logs?event_type=shipment.created`)).json();
    expect(byType.meta.total).toBe(2);
    expect((await a.request('GET', `/v1/webhook-subscriptions/${sub.id}/logs/whl_2`)).json().data.status).toBe('failed');
    expect((await a.request('GET', `/v1/webhook-subscriptions/${sub.id}/logs/whl_nope`)).statusCode).toBe(404);
    expect((await b.request('GET', `/v1/webhook-subscriptions/${sub.id}/logs/whl_2`)).statusCode).toBe(403);
    expect((await b.request('DELETE', `/v1/webhook-subscriptions/${sub.id}/logs`)).statusCode).toBe(403);
    const cleared = await a.request('DELETE', `/v1/webhook-subscriptions/${sub.id}/logs`);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ message: 'Webhook logs cleared' });
    expect((await a.request('GET', `/v1/webhook-subscriptions/${sub.id}/logs`)).json().meta.total).toBe(0);
    expect((await a.request('DELETE', '/v1/webhook-subscriptions/wh_unknown/logs')).statusCode).toBe(404);
  });

  it('deletes with 204 and no body; the id is then 404', async () => {
    const sub = (await create(a, {})).json().data;
    const res = await a.request('DELETE', `/v1/webhook-subscriptions/${sub.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await a.request('GET', `/v1/webhook-subscriptions/${sub.id}`)).statusCode).toBe(404);
  });
});
