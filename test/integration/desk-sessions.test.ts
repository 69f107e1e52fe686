import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { revokeApiKey } from '../../src/services/accounts.js';
import { buildApp } from '../../daemon/app.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';

const HOUR = 3_600_000;

describe('desk sessions: a browser signed in with a cookie instead of the key', () => {
  let d: TestDaemon;
  let a: TestAccount;
  /** Where the daemon listens, as a browser names it: `http://127.0.0.1:<port>`. */
  let origin: string;

  /** A request as the desk's page sends it: the cookie, and the CSRF token on changes. */
  const fromDesk = (cookie: string, method: InjectOptions['method'], url: string, headers: Record<string, string> = {}, body?: unknown) => d.app.inject({
    method, url, headers: { cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  const signIn = async (apiKey: string) => {
    const res = await d.app.inject({ method: 'POST', url: '/v1/desk/sessions', payload: { api_key: apiKey } });
    expect(res.statusCode, res.body).toBe(201);
    const setCookie = String(res.headers['set-cookie']);
    return { res, setCookie, cookie: setCookie.split(';')[0]!, csrf: res.json().data.csrf_token as string };
  };

  const linkOf = async (key: string, headers: Record<string, string> = {}) => {
    const res = await d.app.inject({ method: 'POST', url: '/v1/desk/login-links', headers: { authorization: `Bearer ${key}`, ...headers } });
    expect(res.statusCode, res.body).toBe(201);
    return { res, url: new URL(res.json().data.url as string) };
  };
  const open = (link: URL, method: 'GET' | 'HEAD' = 'GET') => d.app.inject({ method, url: `${link.pathname}${link.search}` });

  beforeAll(async () => {
    d = await startTestDaemon();
    a = await d.account('Desk shop');
    origin = await d.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => d.close());

  it('trades a key for an HttpOnly, SameSite=Strict cookie of 12 hours; the answer holds neither the key nor the cookie\'s token', async () => {
    const { res, setCookie, cookie } = await signIn(a.key);
    expect(setCookie).toMatch(/^packdesk_session_80=[0-9A-Za-z]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(res.json().data).toMatchObject({ account: { id: a.id, name: 'Desk shop' }, scope: 'full' });
    expect(res.body).not.toContain(a.key);
    expect(res.body).not.toContain(cookie.split('=')[1]);
    const session = await fromDesk(cookie, 'GET', '/v1/desk/session');
    expect(session.statusCode).toBe(200);
    expect((await fromDesk(cookie, 'GET', '/v1/account')).json().data.id).toBe(a.id);
    expect(d.logText()).not.toContain(cookie.split('=')[1]);
  });

  it('names the cookie by the daemon\'s port, so a second station on the same host does not take over the session', async () => {
    const { cookie } = await signIn(a.key);
    expect(cookie).toMatch(/^packdesk_session_80=/);
    const otherStation = await d.app.inject({ method: 'GET', url: '/v1/desk/session', headers: { cookie, host: 'localhost:7421' } });
    expect(otherStation.statusCode).toBe(401);
    expect((await d.app.inject({ method: 'GET', url: '/v1/desk/session', headers: { cookie, host: 'localhost:80' } })).statusCode).toBe(200);
  });

  it('refuses a wrong key on the sign-in with the API\'s 401 and field paths for a missing one', async () => {
    const wrong = await d.app.inject({ method: 'POST', url: '/v1/desk/sessions', payload: { api_key: 'pdk_live_nope' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const missing = await d.app.inject({ method: 'POST', url: '/v1/desk/sessions', payload: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toHaveProperty(['api_key']);
  });

  it('needs the session\'s CSRF token, from the desk\'s own origin, for every change', async () => {
    const { cookie, csrf } = await signIn(a.key);
    const body = { name: 'Desk printer', uri: 'tcp://127.0.0.1:9', formats: ['zpl'] };
    const without = await fromDesk(cookie, 'POST', '/v1/printers', {}, body);
    expect(without.statusCode).toBe(403);
    expect(without.json().message).toContain('X-CSRF-Token');
    expect((await fromDesk(cookie, 'POST', '/v1/printers', { 'x-csrf-token': 'x'.repeat(43) }, body)).statusCode).toBe(403);
    const crossSite = await fromDesk(cookie, 'POST', '/v1/printers', { 'x-csrf-token': csrf, origin: 'http://evil.example' }, body);
    expect(crossSite.statusCode).toBe(403);
    const created = await fromDesk(cookie, 'POST', '/v1/printers', { 'x-csrf-token': csrf, origin }, body);
    expect(created.statusCode, created.body).toBe(201);
    const byName = await fromDesk(cookie, 'POST', '/v1/printers', { 'x-csrf-token': csrf, origin: origin.replace('127.0.0.1', 'localhost') }, { ...body, name: 'Desk printer, by name' });
    expect(byName.statusCode, byName.body).toBe(201);
  });

  it('takes changes only from the origins the daemon is reached at, whatever the Host header says (DNS rebinding)', async () => {
    const { cookie, csrf } = await signIn(a.key);
    const port = new URL(origin).port;
    // the cookie is named by the port the Host header names (daemon/desk/cookie.ts)
    const rebound = await fromDesk(cookie.replace('_80=', `_${port}=`), 'POST', '/v1/printers', { 'x-csrf-token': csrf, host: `evil.example:${port}`, origin: `http://evil.example:${port}` },
      { name: 'Rebound', uri: 'tcp://127.0.0.1:9', formats: ['zpl'] });
    expect(rebound.statusCode, rebound.body).toBe(403);
    expect(rebound.json()).toEqual({ message: `A change from the desk must come from the desk's own page, not http://evil.example:${port}.` });
  });

  it('answers a CSRF token with a non-ASCII character where the token ends with 403, not a 500', async () => {
    const { cookie, csrf } = await signIn(a.key);
    const forged = `${csrf.slice(0, -1)}\u00e9`; // as many characters as the token, one byte more
    const res = await fromDesk(cookie, 'POST', '/v1/printers', { 'x-csrf-token': forged, origin }, { name: 'P', uri: 'tcp://127.0.0.1:9', formats: ['zpl'] });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toEqual({ message: 'A change from the desk needs its X-CSRF-Token header; reload the page.' });
  });

  it('ends after 12 hours, when its key is revoked, and when the browser signs out', async () => {
    const timed = await signIn(a.key);
    d.clock.advance(12 * HOUR - 1000);
    expect((await fromDesk(timed.cookie, 'GET', '/v1/account')).statusCode).toBe(200);
    d.clock.advance(2000);
    const ended = await fromDesk(timed.cookie, 'GET', '/v1/account');
    expect(ended.statusCode).toBe(401);
    expect(ended.json().message).toContain('sign in again');

    const other = await d.account('Revoked shop');
    const revoked = await signIn(other.key);
    await revokeApiKey(d.ctx, other.keyId);
    expect((await fromDesk(revoked.cookie, 'GET', '/v1/account')).statusCode).toBe(401);

    const leaving = await signIn(a.key);
    const out = await fromDesk(leaving.cookie, 'DELETE', '/v1/desk/session', { 'x-csrf-token': leaving.csrf });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await fromDesk(leaving.cookie, 'GET', '/v1/account')).statusCode).toBe(401);
  });

  it('gives a read-only key a read-only desk, which may still sign out', async () => {
    const { cookie, csrf, res } = await signIn(a.readOnlyKey);
    expect(res.json().data.scope).toBe('read_only');
    const write = await fromDesk(cookie, 'POST', '/v1/printers', { 'x-csrf-token': csrf }, { name: 'P', uri: 'tcp://127.0.0.1:9', formats: ['zpl'] });
    expect(write.statusCode).toBe(403);
    expect(write.json().message).toContain('read-only');
    expect((await fromDesk(cookie, 'DELETE', '/v1/desk/session', { 'x-csrf-token': csrf })).statusCode).toBe(204);
  });

  it('opens the desk signed in through a one-time link that works once, within 5 minutes', async () => {
    const link = await a.request('POST', '/v1/desk/login-links');
    expect(link.statusCode, link.body).toBe(201);
    const url = new URL(link.json().data.url);
    expect(url.pathname).toBe('/desk/login');
    const opened = await d.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe('/');
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    expect((await fromDesk(cookie, 'GET', '/v1/desk/session')).json().data.account.id).toBe(a.id);
    const again = await d.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(again.headers.location).toBe('/?link=expired');
    expect(again.headers['set-cookie']).toBeUndefined();

    const late = new URL((await a.request('POST', '/v1/desk/login-links')).json().data.url);
    d.clock.advance(5 * 60_000 + 1);
    expect((await d.app.inject({ method: 'GET', url: `${late.pathname}${late.search}` })).headers.location).toBe('/?link=expired');
  });

  it('lets a link preview ask for the link with HEAD without using it up', async () => {
    const { url } = await linkOf(a.key);
    const preview = await open(url, 'HEAD');
    expect(preview.statusCode).toBe(204);
    expect(preview.headers['set-cookie']).toBeUndefined();
    const opened = await open(url);
    expect(opened.headers.location).toBe('/');
    expect(String(opened.headers['set-cookie'])).toMatch(/^packdesk_session_80=/);
  });

  it('puts the link on the address the daemon listens at, not on the Host header of the request', async () => {
    const port = new URL(origin).port;
    expect((await linkOf(a.key, { host: 'evil.example' })).url.origin).toBe(origin);
    expect((await linkOf(a.key, { host: `evil.example:${port}` })).url.origin).toBe(origin);
    // a name the daemon is reached at is kept: the CLI asked through localhost, the browser opens localhost
    expect((await linkOf(a.key, { host: `localhost:${port}` })).url.origin).toBe(`http://localhost:${port}`);
  });

  it('puts links on the admin\'s public URL and takes the desk\'s changes from it', async () => {
    const station = await buildApp(d.ctx, { version: 'test', publicUrls: ['https://station-1.lan:7420/'] });
    try {
      const link = await station.inject({ method: 'POST', url: '/v1/desk/login-links', headers: { authorization: `Bearer ${a.key}`, host: 'evil.example' } });
      expect(link.json().data.url).toMatch(/^https:\/\/station-1\.lan:7420\/desk\/login\?token=\w{43}$/);
      const signedIn = await station.inject({ method: 'POST', url: '/v1/desk/sessions', payload: { api_key: a.key } });
      const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
      const change = (from: string) => station.inject({
        method: 'DELETE', url: '/v1/desk/session', headers: { cookie, 'x-csrf-token': signedIn.json().data.csrf_token, origin: from },
      });
      expect((await change('https://station-1.lan')).statusCode).toBe(403);
      expect((await change('https://station-1.lan:7420')).statusCode).toBe(204);
    } finally {
      await station.close();
    }
  });

  it('never hands a sign-in link out twice: another key with the same Idempotency-Key gets its own, of its own scope', async () => {
    const headers = { 'idempotency-key': 'desk-link-1' };
    const full = await linkOf(a.key, headers);
    const readOnly = await linkOf(a.readOnlyKey, headers);
    expect(readOnly.res.headers['idempotent-replayed']).toBeUndefined();
    expect(readOnly.url.href).not.toBe(full.url.href);
    const retried = await linkOf(a.key, headers);
    expect(retried.url.href).not.toBe(full.url.href);
    const stored = await d.ctx.store.all<{ body: string | null }>('SELECT response_body AS body FROM idempotency_keys');
    for (const link of [full, readOnly, retried]) {
      expect(stored.some((row) => row.body?.includes(link.url.searchParams.get('token')!))).toBe(false);
    }
    const cookie = String((await open(readOnly.url)).headers['set-cookie']).split(';')[0]!;
    expect((await fromDesk(cookie, 'GET', '/v1/desk/session')).json().data.scope).toBe('read_only');
    expect((await open(full.url)).headers.location).toBe('/');
  });

  it('takes 20 sign-ins a minute from one address, then answers 429 until the minute ends', async () => {
    const signInFrom = (remoteAddress: string) => d.app.inject({ method: 'POST', url: '/v1/desk/sessions', remoteAddress, payload: { api_key: a.key } });
    d.clock.set(Date.parse('2026-11-22T08:00:00Z'));
    for (let i = 0; i < 20; i++) expect((await signInFrom('10.0.0.7')).statusCode).toBe(201);
    d.clock.advance(20_000);
    const over = await signInFrom('10.0.0.7');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ message: 'Too many requests. Retry later.' });
    expect(over.headers['retry-after']).toBe('40');
    expect(over.headers['set-cookie']).toBeUndefined();
    const { url } = await linkOf(a.key);
    const link = await d.app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, remoteAddress: '10.0.0.7' });
    expect(link.statusCode).toBe(429);
    expect((await signInFrom('10.0.0.70')).statusCode).toBe(201);
    expect((await a.request('GET', '/v1/account')).statusCode).toBe(200);
    d.clock.advance(40_000);
    expect((await signInFrom('10.0.0.7')).statusCode).toBe(201);
    expect((await open(url)).headers.location).toBe('/'); // the refused try did not use the link up
  });

  it('keeps the live event stream to desks: an API key is told to use a desk session', async () => {
    const res = await a.request('GET', '/v1/desk/events');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toContain('signed-in desk');
  });

  it('serves the page with a strict content security policy, and its assets by content hash', async () => {
    const page = await d.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const script = /src="(\/assets\/desk-\w+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const asset = await d.app.inject({ method: 'GET', url: script! });
    expect(asset.headers['content-type']).toContain('text/javascript');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await d.app.inject({ method: 'GET', url: '/assets/../../package.json' })).statusCode).toBe(404);
  });
});
