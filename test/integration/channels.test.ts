import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { events, shippingChannels } from '../../src/store/schema.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';

// a closed local port: DHL channels stay pending validation and nothing leaves the machine
const dhlSettings = { apiKey: 'dhl-user', apiSecret: 'dhl-secret-value-123', accountNumber: '123456789', baseUrl: 'http://127.0.0.1:9' };

describe('shipping channels and providers', () => {
  let d: TestDaemon;
  let a: TestAccount;

  beforeAll(async () => {
    d = await startTestDaemon();
    a = await d.account('Channels');
  });
  afterAll(() => d.close());

  it('lists the 15 providers with capabilities and a settings schema that has sandboxMode and baseUrl', async () => {
    const res = await a.request('GET', '/v1/providers');
    expect(res.statusCode).toBe(200);
    const providers = res.json().data as { code: string; settings: { key: string; type: string; required: boolean; secret: boolean; description: string }[]; label_formats: string[]; label_sources: Record<string, string> }[];
    expect(providers.map((p) => p.code)).toEqual([
      'ppl', 'dhl', 'dhl_pl', 'dpd', 'dpd_pl', 'gls', 'gls_pl', 'spx', 'mrw', 'poste_italiane', 'allegro', 'baselinker', 'onedelivery', 'packeta', 'inpost',
    ]);
    for (const p of providers) {
      const keys = p.settings.map((s) => s.key);
      expect(keys, p.code).toContain('sandboxMode');
      expect(keys, p.code).toContain('baseUrl');
      expect(p.settings.some((s) => s.secret), `${p.code} has a secret`).toBe(true);
      expect(p.label_formats, p.code).toEqual(['pdf', 'zpl', 'epl']);
      for (const s of p.settings) {
        expect(['string', 'boolean', 'integer', 'number']).toContain(s.type);
        expect(s.description.length).toBeGreaterThan(0);
      }
    }
    const ppl = providers.find((p) => p.code === 'ppl')!;
    // PPL gives PDF and ZPL itself; EPL is converted from its PDF
    expect(ppl.label_sources).toEqual({ pdf: 'carrier', zpl: 'carrier', epl: 'converted' });
    expect(providers.find((p) => p.code === 'mrw')!.label_sources).toEqual({ pdf: 'carrier', zpl: 'converted', epl: 'converted' });
    expect(ppl.settings.find((s) => s.key === 'clientSecret')).toMatchObject({ type: 'string', required: true, secret: true });
  });

  it('creates a channel with masked secrets, pending validation while its carrier is unreachable, and an outbox event', async () => {
    const res = await a.request('POST', '/v1/shipping-channels', { name: 'DHL main', provider: 'dhl', settings: dhlSettings, description: 'Express' });
    expect(res.statusCode).toBe(201);
    const ch = res.json().data;
    expect(ch).toMatchObject({
      name: 'DHL main', provider: 'dhl', description: 'Express', status: 'pending_validation', last_validated_at: null, validation_error: null,
      settings: { apiKey: 'dhl-user', apiSecret: '••••••••', accountNumber: '123456789' },
    });
    expect(res.body).not.toContain('dhl-secret-value-123');
    const stored = (await d.ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, ch.id)).get())!;
    expect(stored.settingsEnc).not.toContain('dhl-secret-value-123');
    expect(stored.settingsEnc).not.toContain('dhl-user');
    const outbox = await d.ctx.db.select().from(events).where(eq(events.resourceId, ch.id)).all();
    expect(outbox.map((e) => e.type)).toEqual(['shipping_channel.created']);
    const payload = JSON.parse(outbox[0]!.payload);
    expect(payload).toMatchObject({ id: outbox[0]!.id, type: 'shipping_channel.created', data: { shipping_channel: { id: ch.id, status: 'pending_validation' } } });
    expect(outbox[0]!.payload).not.toContain('dhl-secret-value-123');
  });

  it('refuses settings with missing, unknown and wrong-typed keys, naming every field', async () => {
    const res = await a.request('POST', '/v1/shipping-channels', {
      name: 'Broken', provider: 'ppl', settings: { clientId: 7, bogus: 'x', sandboxMode: 'yes', productType: 'NOPE' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      'settings.clientId': ['must be a string'],
      'settings.bogus': ['is not a setting of provider ppl'],
      'settings.sandboxMode': ['must be a boolean'],
      'settings.productType': ['must be one of PRIV, BUSS, DOPO, SMAR, SMEU, CONN, COPL, RETD'],
      'settings.clientSecret': ['is required'],
    });
  });

  it('reports body and settings problems together, and refuses unknown providers and duplicate names', async () => {
    const both = await a.request('POST', '/v1/shipping-channels', { name: '', provider: 'nope', settings: 'x' });
    expect(both.statusCode).toBe(422);
    expect(Object.keys(both.json().errors).sort()).toEqual(['name', 'provider', 'settings']);
    const dup = await a.request('POST', '/v1/shipping-channels', { name: 'DHL main', provider: 'dhl', settings: dhlSettings });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors).toEqual({ name: ['is already used by another shipping channel'] });
  });

  it('merges settings key by key on update; a masked secret sent back keeps the stored one', async () => {
    const created = (await a.request('POST', '/v1/shipping-channels', { name: 'Mergeable', provider: 'dhl', settings: dhlSettings })).json().data;
    const res = await a.request('PATCH', `/v1/shipping-channels/${created.id}`, {
      settings: { ...created.settings, accountNumber: '999999999' }, description: 'changed',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.settings).toEqual({ apiKey: 'dhl-user', apiSecret: '••••••••', accountNumber: '999999999', baseUrl: dhlSettings.baseUrl });
    const row = (await d.ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, created.id)).get())!;
    expect(d.ctx.secrets.openJson(row.settingsEnc)).toEqual({ ...dhlSettings, accountNumber: '999999999' });
    const types = (await d.ctx.db.select().from(events).where(eq(events.resourceId, created.id)).all()).map((e) => e.type);
    expect(types).toEqual(['shipping_channel.created', 'shipping_channel.updated']);
  });

  it('sets inactive and back through validation, with status_changed events carrying previous_status', async () => {
    const created = (await a.request('POST', '/v1/shipping-channels', { name: 'Toggle', provider: 'dhl', settings: dhlSettings })).json().data;
    const off = await a.request('PATCH', `/v1/shipping-channels/${created.id}`, { status: 'inactive' });
    expect(off.json().data.status).toBe('inactive');
    const on = await a.request('PUT', `/v1/shipping-channels/${created.id}`, { status: 'active' });
    expect(on.json().data.status).toBe('pending_validation');
    const changes = (await d.ctx.db.select().from(events).where(eq(events.resourceId, created.id)).all())
      .filter((e) => e.type === 'shipping_channel.status_changed')
      .map((e) => JSON.parse(e.payload).data.shipping_channel)
      .map((c: { status: string; previous_status: string }) => [c.previous_status, c.status]);
    expect(changes).toEqual([['pending_validation', 'inactive'], ['inactive', 'pending_validation']]);
    const bad = await a.request('PATCH', `/v1/shipping-channels/${created.id}`, { status: 'error' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.status).toEqual(['must be one of active, inactive']);
  });

  it('filters the list by provider and status', async () => {
    const all = (await a.request('GET', '/v1/shipping-channels?per_page=100')).json();
    const inactive = (await a.request('GET', '/v1/shipping-channels?status=pending_validation&provider=dhl&per_page=100')).json();
    expect(inactive.meta.total).toBe(all.data.filter((c: { status: string; provider: string }) => c.status === 'pending_validation' && c.provider === 'dhl').length);
    expect((await a.request('GET', '/v1/shipping-channels?provider=ppl')).json().data).toEqual([]);
    expect((await a.request('GET', '/v1/shipping-channels?status=bogus')).statusCode).toBe(422);
  });

  it('deletes with 200 {message} and a deleted event, after which the id is 404', async () => {
    const created = (await a.request('POST', '/v1/shipping-channels', { name: 'Doomed', provider: 'dhl', settings: dhlSettings })).json().data;
    const res = await a.request('DELETE', `/v1/shipping-channels/${created.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Shipping channel deleted' });
    expect((await a.request('GET', `/v1/shipping-channels/${created.id}`)).statusCode).toBe(404);
    const types = (await d.ctx.db.select().from(events).where(eq(events.resourceId, created.id)).all()).map((e) => e.type);
    expect(types).toEqual(['shipping_channel.created', 'shipping_channel.deleted']);
  });
});
