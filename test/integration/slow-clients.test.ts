import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon, type DaemonOptions, type RunningDaemon } from '../../daemon/main.js';
import { createLogger } from '../../src/logging.js';
import { createAccount, createApiKey } from '../../src/services/accounts.js';
import { lastAnswer, rawClient } from '../helpers/raw-client.js';

/** Slow, stalled and greedy clients against a daemon listening on a real port. */
describe('clients that stall or hold connections', () => {
  const running: { daemon: RunningDaemon; dataDir: string }[] = [];
  afterEach(async () => {
    for (const { daemon, dataDir } of running.splice(0)) {
      await daemon.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  /** A daemon with `http` limits, a key, and a log whose lines can be awaited. */
  const start = async (http: DaemonOptions['http']) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-slow-'));
    const lines: string[] = [];
    const waiting: { msg: string; done: () => void }[] = [];
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        for (const w of waiting.filter((w) => String(chunk).includes(`"msg":"${w.msg}"`))) w.done();
        callback();
      },
    });
    const daemon = await startDaemon({ dataDir, host: '127.0.0.1', port: 0, log: createLogger({ level: 'info', destination: sink }), filesRoots: [dataDir], http });
    running.push({ daemon, dataDir });
    const account = await createAccount(daemon.ctx, { name: 'Slow clients', plan: 'enterprise' });
    const key = (await createApiKey(daemon.ctx, { accountId: account.id })).apiKey;
    const logged = (msg: string) => new Promise<void>((done) => (lines.some((l) => l.includes(`"msg":"${msg}"`)) ? done() : waiting.push({ msg, done })));
    return { daemon, key, logged };
  };

  it('cuts off bodies and headers that stall, without a key, on unknown paths and after a 401, with a 408 in the envelope', async () => {
    const { daemon } = await start({ requestTimeoutMs: 400, headersTimeoutMs: 300, connectionsCheckingMs: 50 });
    const stalled = {
      signIn: 'POST /v1/desk/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"api_key":"pdk_live_',
      unknownPath: 'POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      afterA401: 'POST /v1/shipments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer pdk_live_00000000000000000000000000000000\r\n'
        + 'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      headers: 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ',
    };
    const clients = await Promise.all(Object.values(stalled).map(async (bytes) => {
      const client = await rawClient(daemon.url);
      client.socket.write(bytes);
      return client;
    }));
    const [signIn, unknownPath, afterA401, headers] = await Promise.all(clients.map((c) => c.closed));
    for (const raw of [signIn!, unknownPath!, headers!]) {
      const answer = lastAnswer(raw);
      expect(answer.status, raw).toBe(408);
      expect(JSON.parse(answer.body)).toEqual({ message: 'The request took too long to arrive.' });
    }
    expect(afterA401).toMatch(/^HTTP\/1\.1 401 /);
    const health = await fetch(`${daemon.url}/healthz`);
    expect(health.status).toBe(200);
  }, 15_000);

  it('closes connections beyond the cap of one address at once, while other clients get answers', async () => {
    const { daemon, key } = await start({ maxConnectionsPerAddress: 4 });
    const held = await Promise.all(Array.from({ length: 4 }, async () => {
      const client = await rawClient(daemon.url, '127.0.0.2');
      client.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await client.receives('"status":"ok"'); // taken: the daemon answered on it
      client.socket.write('POST /v1/desk/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      return client;
    }));
    const beyond = await rawClient(daemon.url, '127.0.0.2');
    beyond.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await beyond.closed).toBe('');
    const fresh = await fetch(`${daemon.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    expect(fresh.status).toBe(200);
    expect(held.every((c) => !c.socket.destroyed)).toBe(true);
    for (const client of held) client.socket.destroy();
  }, 15_000);

  it('answers requests that arrive while it drains with a 503 in the envelope, and closes the connection', async () => {
    const { daemon, logged } = await start({});
    const client = await rawClient(daemon.url);
    // a request in flight holds the connection open while the daemon drains; the 100 Continue says it was taken
    const body = JSON.stringify({ api_key: 'pdk_live_00000000000000000000000000000000' });
    client.socket.write(`POST /v1/desk/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`);
    await client.receives('100 Continue');
    const closing = daemon.close();
    await logged('draining: new requests are answered 503');
    client.socket.write(`${body}GET /v1/shipments HTTP/1.1\r\nHost: x\r\n\r\n`);
    const raw = await client.closed;
    expect(raw).toContain('HTTP/1.1 401 ');
    const answer = lastAnswer(raw);
    expect(answer.status, raw).toBe(503);
    expect(answer.headers.connection).toBe('close');
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({ message: 'The daemon is shutting down; retry in a moment.' });
    await closing;
  }, 15_000);
});
