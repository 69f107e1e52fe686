import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEYS_CHANGED, createApiKey, revokeApiKey, setPlan } from '../../src/services/accounts.js';
import { relayStoreNotices } from '../../src/services/notices.js';
import { closeContext, openContext } from '../../src/services/open.js';
import { buildApp } from '../../daemon/app.js';
import { SHARED_STORE_TRUST_MS } from '../../daemon/http/verified-keys.js';
import { startTestDaemon, TEST_DIALECT, type TestAccount, type TestDaemon } from '../helpers/harness.js';

const dhlSettings = { apiKey: 'dhl-user', apiSecret: 'dhl-secret-value-123', accountNumber: '123456789', baseUrl: 'http://127.0.0.1:9' };

describe('the /v1 conventions', () => {
  let d: TestDaemon;
  let a: TestAccount;
  let b: TestAccount;

  beforeAll(async () => {
    d = await startTestDaemon();
    a = await d.account('Alpha');
    b = await d.account('Beta');
  });
  afterAll(() => d.close());

  describe('authentication', () => {
    it('answers 401 with the error envelope for a missing, malformed, unknown or revoked key', async () => {
      const victim = await d.account('Revoked');
      await revokeApiKey(d.ctx, victim.keyId);
      const cases: Record<string, string | undefined> = {
        missing: undefined,
        malformed: 'Basic abc',
        unknown: 'Bearer pdk_live_00000000000000000000000000000000',
        notAKey: 'Bearer hello',
        revoked: `Bearer ${victim.key}`,
      };
      for (const [name, header] of Object.entries(cases)) {
        const res = await d.app.inject({ method: 'GET', url: '/v1/account', headers: header ? { authorization: header } : {} });
        expect(res.statusCode, name).toBe(401);
        expect(res.json(), name).toEqual({ message: 'Invalid or missing API key.' });
      }
    });

    it('returns the caller account from GET /v1/account', async () => {
      const res = await a.request('GET', '/v1/account');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: { id: a.id, name: 'Alpha', plan: 'enterprise', rate_limit: null, created_at: '2026-11-20T09:00:00Z' },
        message: 'Account retrieved',
      });
    });

    it('refuses writes with a read-only key (403) but lets it read', async () => {
      const headers = { authorization: `Bearer ${a.readOnlyKey}`, 'content-type': 'application/json' };
      const write = await d.app.inject({ method: 'POST', url: '/v1/webhook-subscriptions', headers, payload: '{}' });
      expect(write.statusCode).toBe(403);
      expect(write.json().message).toMatch(/read-only/);
      const read = await d.app.inject({ method: 'GET', url: '/v1/webhook-subscriptions', headers });
      expect(read.statusCode).toBe(200);
    });

    it('refuses a key at once when it is revoked after it was used, and shows a changed plan at once', async () => {
      const shop = await d.account('Busy shop');
      for (let i = 0; i < 3; i++) expect((await shop.request('GET', '/v1/account')).headers['x-ratelimit-limit']).toBeUndefined();
      await setPlan(d.ctx, shop.id, 'standard');
      expect((await shop.request('GET', '/v1/account')).headers['x-ratelimit-limit']).toBe('300');
      await revokeApiKey(d.ctx, shop.keyId);
      const refused = await shop.request('GET', '/v1/account');
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ message: 'Invalid or missing API key.' });
    });

    it('refuses at once a key that another process revoked on the same store (`packdesk keys revoke`, another station)', async () => {
      const shop = await d.account('Shop of two stations');
      expect((await shop.request('GET', '/v1/account')).statusCode).toBe(200);
      const other = openContext({ dataDir: d.dataDir, log: d.ctx.log, clock: d.clock, store: await d.otherStore() });
      // as `packdesk daemon` does: on PostgreSQL the other daemons' notices reach this one
      const stopRelay = await relayStoreNotices(d.ctx);
      try {
        const heard = TEST_DIALECT === 'postgres' ? once(d.ctx.notices, API_KEYS_CHANGED) : undefined;
        await revokeApiKey(other, shop.keyId);
        await heard;
        expect((await shop.request('GET', '/v1/account')).statusCode).toBe(401);
      } finally {
        await stopRelay();
        await closeContext(other);
      }
    });

    it('refuses a key revoked by hand in the store: at once on SQLite, on PostgreSQL once the trust window passed', async () => {
      const shop = await d.account('Hand-edited shop');
      expect((await shop.request('GET', '/v1/account')).statusCode).toBe(200);
      const other = openContext({ dataDir: d.dataDir, log: d.ctx.log, clock: d.clock, store: await d.otherStore() });
      try {
        await other.store.run('UPDATE api_keys SET revoked_at = ? WHERE id = ?', d.clock.now(), shop.keyId);
        if (TEST_DIALECT === 'postgres') {
          // no notice tells the other daemons of a change made by hand
          expect((await shop.request('GET', '/v1/account')).statusCode).toBe(200);
          d.clock.advance(SHARED_STORE_TRUST_MS);
        }
        expect((await shop.request('GET', '/v1/account')).statusCode).toBe(401);
      } finally {
        await closeContext(other);
      }
    });
  });

  describe('ownership', () => {
    it("answers 403 on another account's channel and subscription and 404 on unknown ids, for every verb", async () => {
      const ch = await a.request('POST', '/v1/shipping-channels', { name: 'A DHL', provider: 'dhl', settings: dhlSettings });
      expect(ch.statusCode).toBe(201);
      const wh = await a.request('POST', '/v1/webhook-subscriptions', { name: 'A hook', url: 'https://example.com/hook', events: ['*'] });
      expect(wh.statusCode).toBe(201);
      const chId = ch.json().data.id as string;
      const whId = wh.json().data.id as string;
      const calls: [string, string, unknown?][] = [
        ['GET', `/v1/shipping-channels/${chId}`], ['PATCH', `/v1/shipping-channels/${chId}`, { name: 'x' }],
        ['PUT', `/v1/shipping-channels/${chId}`, { name: 'x' }], ['DELETE', `/v1/shipping-channels/${chId}`],
        ['POST', `/v1/shipping-channels/${chId}/validate`],
        ['GET', `/v1/webhook-subscriptions/${whId}`], ['PATCH', `/v1/webhook-subscriptions/${whId}`, { name: 'x' }],
        ['PUT', `/v1/webhook-subscriptions/${whId}`, { name: 'x' }], ['DELETE', `/v1/webhook-subscriptions/${whId}`],
        ['GET', `/v1/webhook-subscriptions/${whId}/logs`], ['DELETE', `/v1/webhook-subscriptions/${whId}/logs`],
        ['GET', `/v1/webhook-subscriptions/${whId}/logs/whl_unknown`],
      ];
      for (const [method, url, body] of calls) {
        const other = await b.request(method as 'GET', url, body);
        expect(other.statusCode, `${method} ${url}`).toBe(403);
        expect(Object.keys(other.json())).toEqual(['message']);
        const unknown = await a.request(method as 'GET', url.replace(chId, 'ch_00000000000000000000').replace(whId, 'wh_00000000000000000000'), body);
        expect(unknown.statusCode, `${method} ${url} unknown`).toBe(404);
      }
      // nothing was changed by the refused calls
      expect((await a.request('GET', `/v1/shipping-channels/${chId}`)).json().data.name).toBe('A DHL');
      expect((await a.request('GET', `/v1/webhook-subscriptions/${whId}`)).json().data.name).toBe('A hook');
    });

    it("never lists another account's resources", async () => {
      await b.request('POST', '/v1/shipping-channels', { name: 'B DHL', provider: 'dhl', settings: dhlSettings });
      const listA = (await a.request('GET', '/v1/shipping-channels')).json();
      const listB = (await b.request('GET', '/v1/shipping-channels')).json();
      expect(listA.data.map((c: { name: string }) => c.name)).not.toContain('B DHL');
      expect(listB.data.map((c: { name: string }) => c.name)).toEqual(['B DHL']);
      expect((await b.request('GET', '/v1/webhook-subscriptions')).json().data).toEqual([]);
    });
  });

  describe('request format', () => {
    it('answers 400 to a body without Content-Type application/json', async () => {
      const withBody = await d.app.inject({
        method: 'POST', url: '/v1/webhook-subscriptions', payload: 'name=x',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(withBody.statusCode).toBe(400);
      expect(withBody.json().message).toMatch(/Content-Type must be application\/json/);
    });

    it('answers 400 to malformed JSON', async () => {
      const res = await a.request('POST', '/v1/webhook-subscriptions', '{"name": "x",');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'The request body is not valid JSON.' });
    });

    it('answers 413 to a body over 1 MiB', async () => {
      const big = JSON.stringify({ name: 'x', url: 'https://example.com', events: ['*'], pad: 'x'.repeat(1024 * 1024) });
      const res = await a.request('POST', '/v1/webhook-subscriptions', big);
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toMatch(/1 MiB/);
    });

    it('lists every validation error at once with dotted field paths (422)', async () => {
      const res = await a.request('POST', '/v1/webhook-subscriptions', { name: 5, url: 'ftp://x', events: ['nope.event', 3], secret: 'short' });
      expect(res.statusCode).toBe(422);
      const body = res.json();
      expect(body.message).toBe('The given data was invalid.');
      // schema errors and the handler's own checks come back together; an array with an item of the wrong type is
      // answered by the schema alone
      expect(Object.keys(body.errors).sort()).toEqual(['events.1', 'name', 'secret', 'url']);
      expect(body.errors.name).toEqual(['must be a string']);
      expect(body.errors['events.1']).toEqual(['must be a string']);
      expect(body.errors.url).toEqual(['must use https']);
      expect(body.errors.secret).toEqual(['must be at least 16 characters']);
      const events = await a.request('POST', '/v1/webhook-subscriptions', { name: 'x', url: 'ftp://x', events: ['nope.event'] });
      expect(events.json().errors).toEqual({ url: ['must use https'], 'events.0': [expect.stringMatching(/is not a known event/)] });
    });

    it('ignores unknown top-level fields', async () => {
      const res = await a.request('POST', '/v1/webhook-subscriptions', { name: 'extra', url: 'https://example.com/h', events: ['*'], colour: 'blue' });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).not.toHaveProperty('colour');
    });

    it('answers unknown paths with a 404 envelope', async () => {
      for (const url of ['/v1/nothing-here', '/v2/shipments', '/nothing-here']) {
        const res = await a.request('GET', url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json().message).toMatch(/^No route for GET/);
      }
    });
  });

  describe('pagination', () => {
    let p: TestAccount;
    beforeAll(async () => {
      p = await d.account('Pager');
      for (let i = 1; i <= 7; i++) {
        d.clock.advance(1000);
        const res = await p.request('POST', '/v1/webhook-subscriptions', { name: `hook ${i}`, url: `https://example.com/${i}`, events: ['*'] });
        expect(res.statusCode).toBe(201);
      }
    });

    it('pages newest first with exact meta and absolute links that keep filters', async () => {
      const res = await p.request('GET', '/v1/webhook-subscriptions?per_page=3&page=2', undefined, { host: 'packdesk.local:7420' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.data.map((s: { name: string }) => s.name)).toEqual(['hook 4', 'hook 3', 'hook 2']);
      expect(body.meta).toEqual({
        current_page: 2, from: 4, last_page: 3, path: 'http://packdesk.local:7420/v1/webhook-subscriptions', per_page: 3, to: 6, total: 7,
      });
      expect(body.links).toEqual({
        first: 'http://packdesk.local:7420/v1/webhook-subscriptions?page=1&per_page=3',
        last: 'http://packdesk.local:7420/v1/webhook-subscriptions?page=3&per_page=3',
        prev: 'http://packdesk.local:7420/v1/webhook-subscriptions?page=1&per_page=3',
        next: 'http://packdesk.local:7420/v1/webhook-subscriptions?page=3&per_page=3',
      });
    });

    it('defaults to 15 per page for webhook subscriptions and nulls prev/next when absent', async () => {
      const body = (await p.request('GET', '/v1/webhook-subscriptions')).json();
      expect(body.meta.per_page).toBe(15);
      expect(body.meta.total).toBe(7);
      expect(body.links.prev).toBeNull();
      expect(body.links.next).toBeNull();
    });

    it('returns an empty page past the end with correct meta', async () => {
      const body = (await p.request('GET', '/v1/webhook-subscriptions?page=9&per_page=5')).json();
      expect(body.data).toEqual([]);
      expect(body.meta).toMatchObject({ current_page: 9, from: null, to: null, last_page: 2, total: 7 });
      expect(body.links.next).toBeNull();
      expect(body.links.prev).toMatch(/page=2/);
    });

    it('refuses per_page 0 and 101 and page 0 with 422', async () => {
      for (const q of ['per_page=0', 'per_page=101', 'page=0', 'per_page=abc']) {
        const res = await p.request('GET', `/v1/webhook-subscriptions?${q}`);
        expect(res.statusCode, q).toBe(422);
        expect(Object.keys(res.json().errors), q).toEqual([q.split('=')[0]]);
      }
    });

    it('keeps filters in links', async () => {
      const body = (await a.request('GET', '/v1/shipping-channels?provider=dhl&per_page=1', undefined, { host: 'h' })).json();
      expect(body.links.first).toBe('http://h/v1/shipping-channels?provider=dhl&page=1&per_page=1');
    });
  });

  describe('rate limits', () => {
    it('allows a free account 60 requests a minute, then 429 with Retry-After, then resets', async () => {
      d.clock.set(Date.parse('2026-11-20T10:00:00Z'));
      const free = await d.account('Free shop', 'free');
      for (let i = 1; i <= 60; i++) {
        const res = await free.request('GET', '/v1/account');
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('60');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(60 - i));
        expect(res.headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-11-20T10:01:00Z') / 1000));
      }
      d.clock.advance(15_000);
      const over = await free.request('GET', '/v1/account');
      expect(over.statusCode).toBe(429);
      expect(over.json().message).toMatch(/Too many requests/);
      expect(over.headers['retry-after']).toBe('45');
      expect(over.headers['x-ratelimit-remaining']).toBe('0');
      d.clock.advance(45_000);
      expect((await free.request('GET', '/v1/account')).statusCode).toBe(200);
    });

    it('counts per account: one account over its limit does not limit another', async () => {
      d.clock.set(Date.parse('2026-11-20T11:00:00Z'));
      const one = await d.account('One', 'enterprise', 2);
      const two = await d.account('Two', 'enterprise', 2);
      await one.request('GET', '/v1/account');
      await one.request('GET', '/v1/account');
      expect((await one.request('GET', '/v1/account')).statusCode).toBe(429);
      expect((await two.request('GET', '/v1/account')).statusCode).toBe(200);
    });

    it.runIf(TEST_DIALECT === 'postgres')('counts an account\'s requests to every daemon on a shared store together', async () => {
      d.clock.set(Date.parse('2026-11-20T12:00:00Z'));
      const limited = await d.account('Two stations', 'enterprise', 10);
      const other = openContext({ dataDir: d.dataDir, log: d.ctx.log, clock: d.clock, store: await d.otherStore() });
      const otherApp = await buildApp(other, { version: 'test' });
      try {
        const viaOther = () => otherApp.inject({ method: 'GET', url: '/v1/account', headers: { authorization: `Bearer ${limited.key}` } });
        const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 ? viaOther() : limited.request('GET', '/v1/account'))));
        expect(answers.map((r) => r.statusCode).sort()).toEqual([...Array(10).fill(200), ...Array(6).fill(429)]);
        expect(answers.filter((r) => r.statusCode === 200).map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((x, y) => x - y))
          .toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        d.clock.advance(60_000);
        expect((await viaOther()).headers['x-ratelimit-remaining']).toBe('9');
      } finally {
        await otherApp.close();
        await closeContext(other);
      }
    });

    it('answers an address that sent 20 wrong keys in a minute with 429 until the minute ends, while keys that work go on', async () => {
      d.clock.set(Date.parse('2026-11-20T13:00:00Z'));
      const from = (remoteAddress: string, key: string) =>
        d.app.inject({ method: 'GET', url: '/v1/account', remoteAddress, headers: { authorization: `Bearer ${key}` } });
      expect((await from('10.0.0.8', a.key)).statusCode).toBe(200); // the ERP's key, at work before the guessing starts
      for (let i = 0; i < 20; i++) {
        const wrong = await from('10.0.0.8', `pdk_live_${String(i).padStart(32, '0')}`);
        expect(wrong.statusCode).toBe(401);
      }
      d.clock.advance(15_000);
      const refused = await from('10.0.0.8', 'pdk_live_99999999999999999999999999999999');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ message: 'Too many requests. Retry later.' });
      expect(refused.headers['retry-after']).toBe('45');
      // a right key that has not worked yet is not even checked, so a guess that hits learns nothing
      const fresh = (await createApiKey(d.ctx, { accountId: b.id })).apiKey;
      expect((await from('10.0.0.8', fresh)).statusCode).toBe(429);
      expect((await from('10.0.0.8', a.key)).statusCode).toBe(200);
      expect((await from('10.0.0.9', 'pdk_live_99999999999999999999999999999999')).statusCode).toBe(401);
      d.clock.advance(45_000);
      expect((await from('10.0.0.8', 'pdk_live_99999999999999999999999999999999')).statusCode).toBe(401);
      expect((await from('10.0.0.8', fresh)).statusCode).toBe(200);
    });

    it('gives standard accounts 300 a minute and unlimited enterprise accounts no limit headers', async () => {
      const std = await d.account('Std', 'standard');
      expect((await std.request('GET', '/v1/account')).headers['x-ratelimit-limit']).toBe('300');
      expect((await a.request('GET', '/v1/account')).headers['x-ratelimit-limit']).toBeUndefined();
    });
  });

  describe('idempotency', () => {
    it('replays the first response for the same key and body, and 409s the same key with another body', async () => {
      const body = { name: 'idem', url: 'https://example.com/idem', events: ['shipment.created'] };
      const headers = { 'idempotency-key': 'order-42' };
      const first = await a.request('POST', '/v1/webhook-subscriptions', body, headers);
      expect(first.statusCode).toBe(201);
      const again = await a.request('POST', '/v1/webhook-subscriptions', body, headers);
      expect(again.statusCode).toBe(201);
      expect(again.body).toBe(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      const other = await a.request('POST', '/v1/webhook-subscriptions', { ...body, name: 'different' }, headers);
      expect(other.statusCode).toBe(409);
      expect(other.json().message).toMatch(/different request/);
      const list = (await a.request('GET', '/v1/webhook-subscriptions?per_page=100')).json();
      expect(list.data.filter((s: { name: string }) => s.name === 'idem')).toHaveLength(1);
    });

    it('keys are per account and expire after 24 hours', async () => {
      const body = { name: 'per account', url: 'https://example.com/pa', events: ['*'] };
      const headers = { 'idempotency-key': 'shared-key' };
      expect((await a.request('POST', '/v1/webhook-subscriptions', body, headers)).statusCode).toBe(201);
      expect((await b.request('POST', '/v1/webhook-subscriptions', { ...body, name: 'b' }, headers)).statusCode).toBe(201);
      d.clock.advance(24 * 3600 * 1000 + 1000);
      const later = await a.request('POST', '/v1/webhook-subscriptions', { ...body, name: 'after a day' }, headers);
      expect(later.statusCode).toBe(201);
      expect(later.headers['idempotent-replayed']).toBeUndefined();
    });

    it('gives back what a request created when its daemon died before recording the answer, and re-runs one that created nothing', async () => {
      const body = { name: 'lost answer', url: 'https://example.com/lost', events: ['*'] };
      const headers = { 'idempotency-key': 'lost-answer' };
      const first = await a.request('POST', '/v1/webhook-subscriptions', body, headers);
      expect(first.statusCode).toBe(201);
      const id = first.json().data.id as string;
      // the state a kill -9 between the commit and the recording of the answer leaves: the key in progress, bound to what it made
      const keyRow = () => d.ctx.store.get<{ path: string | null; status: number | null }>(
        'SELECT resource_path AS path, response_status AS status FROM idempotency_keys WHERE account_id = ? AND key = ?', a.id, 'lost-answer');
      expect((await keyRow())?.path).toBe(`/v1/webhook-subscriptions/${id}`);
      await d.ctx.store.run('UPDATE idempotency_keys SET response_status = NULL, response_body = NULL WHERE key = ?', 'lost-answer');
      const retried = await a.request('POST', '/v1/webhook-subscriptions', body, headers);
      expect(retried.statusCode, retried.body).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBe('true');
      expect(retried.json().data).toMatchObject({ id, name: 'lost answer' });
      expect((await keyRow())?.status).toBe(201); // later retries replay this answer
      const list = (await a.request('GET', '/v1/webhook-subscriptions?per_page=100')).json().data as { name: string }[];
      expect(list.filter((s) => s.name === 'lost answer')).toHaveLength(1);

      // a request that died before its transaction committed bound nothing: once abandoned, the key is free for a new run
      const other = { ...body, name: 'died early' };
      const hash = createHash('sha256').update(`POST /v1/webhook-subscriptions\n${JSON.stringify(other)}`).digest('hex');
      await d.ctx.store.run('INSERT INTO idempotency_keys (account_id, key, api_key_id, request_hash, created_at) VALUES (?, ?, ?, ?, ?)',
        a.id, 'died-early', a.keyId, hash, d.clock.now());
      const early = () => a.request('POST', '/v1/webhook-subscriptions', other, { 'idempotency-key': 'died-early' });
      expect((await early()).json().message).toBe('A request with this Idempotency-Key is still in progress.');
      d.clock.advance(61_000);
      const rerun = await early();
      expect(rerun.statusCode, rerun.body).toBe(201);
      expect(rerun.headers['idempotent-replayed']).toBeUndefined();
    });

    it("answers another key of the account that reuses an Idempotency-Key with 409, never with the first key's answer", async () => {
      const body = { name: 'first key', url: 'https://example.com/first', events: ['*'] };
      const headers = { 'idempotency-key': 'one-key-only' };
      const first = await a.request('POST', '/v1/webhook-subscriptions', body, headers);
      expect(first.statusCode, first.body).toBe(201);
      const second = (await createApiKey(d.ctx, { accountId: a.id })).apiKey;
      const theirs = await d.app.inject({
        method: 'POST', url: '/v1/webhook-subscriptions', payload: body,
        headers: { authorization: `Bearer ${second}`, ...headers },
      });
      expect(theirs.statusCode, theirs.body).toBe(409);
      expect(theirs.json()).toEqual({ message: 'This Idempotency-Key was used by another API key of this account.' });
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
      expect(theirs.body).not.toContain(first.json().data.id);
      const again = await a.request('POST', '/v1/webhook-subscriptions', body, headers);
      expect(again.headers['idempotent-replayed']).toBe('true');
    });

    it('does not store a refused (422) request, so the corrected request can use the same key', async () => {
      const headers = { 'idempotency-key': 'fix-me' };
      expect((await a.request('POST', '/v1/webhook-subscriptions', { name: 'x', url: 'ftp://bad', events: ['*'] }, headers)).statusCode).toBe(422);
      expect((await a.request('POST', '/v1/webhook-subscriptions', { name: 'x', url: 'https://ok.example.com', events: ['*'] }, headers)).statusCode).toBe(201);
    });

    it('refuses a key over 255 characters', async () => {
      const res = await a.request('POST', '/v1/webhook-subscriptions', { name: 'x', url: 'https://e.com', events: ['*'] }, { 'idempotency-key': 'k'.repeat(256) });
      expect(res.statusCode).toBe(400);
    });
  });

  describe('discovery', () => {
    it('serves /healthz without a key', async () => {
      const res = await d.app.inject({ method: 'GET', url: '/healthz' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'ok', store: 'ok' });
    });

    it('serves a rendered reference at /docs', async () => {
      const res = await d.app.inject({ method: 'GET', url: '/docs' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('/v1/shipping-channels/{id}/validate');
    });

    it('uses prefixed ids and ISO 8601 UTC timestamps', async () => {
      const res = await a.request('POST', '/v1/webhook-subscriptions', { name: 'ids', url: 'https://e.com/ids', events: ['*'] });
      const data = res.json().data;
      expect(data.id).toMatch(/^wh_[0-9A-Za-z]{20}$/);
      expect(data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });
  });
});
