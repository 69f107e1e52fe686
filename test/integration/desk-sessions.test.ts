import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { revokeApiKey } from '../../src/services/accounts.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';

const HOUR = 3_600_000;

describe('desk sessions: a browser signed in with a cookie instead of the key', () => {
  let d: TestDaemon;
  let a: TestAccount;

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

  beforeAll(async () => {
    d = await startTestDaemon();
    a = await d.account('Desk shop');
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
    const created = await fromDesk(cookie, 'POST', '/v1/printers', { 'x-csrf-token': csrf, origin: 'http://localhost:80' }, body);
    expect(created.statusCode, created.body).toBe(201);
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
