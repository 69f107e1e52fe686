import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliJsonInProcess } from '../helpers/cli.js';
import { spawnDaemon, type DaemonProcess } from '../helpers/processes.js';
import { rawClient } from '../helpers/raw-client.js';

/** The daemon as a real process: its log, its lock, its secrets, its shutdown. */
describe('packdesk daemon', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-daemon-'));
  const env = { XDG_CONFIG_HOME: join(dataDir, 'cfg'), PACKDESK_LOG_LEVEL: 'debug' };
  let daemon: DaemonProcess;
  let held: DaemonProcess | undefined;
  let apiKey: string;
  let otherKey: string;

  // the set-up commands run in this process: the daemon is the process under test
  const cli = (...args: string[]) => runCliJsonInProcess<Record<string, string>>(args, { ...process.env, ...env });

  beforeAll(async () => {
    apiKey = (await cli('init', '--data-dir', dataDir, '--yes', '--json')).api_key!;
    const other = (await cli('accounts', 'create', '--name', 'Other', '--data-dir', dataDir, '--json')).account_id!;
    otherKey = (await cli('keys', 'create', '--account', other, '--data-dir', dataDir, '--json')).api_key!;
    daemon = await spawnDaemon(dataDir, env);
  });
  afterAll(async () => {
    await daemon?.stop('SIGKILL');
    await held?.stop('SIGKILL');
  });

  it('logs exactly one JSON listening line with its URL', () => {
    const listening = daemon.output().split('\n').filter((l) => l.includes('"msg":"listening"'));
    expect(listening).toHaveLength(1);
    expect(JSON.parse(listening[0]!).url).toBe(daemon.url);
    expect(daemon.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('keeps the secret key file at 0600 and the store in WAL mode', () => {
    expect(statSync(join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'packdesk.sqlite-wal')).isFile()).toBe(true);
  });

  it('never shows an API key, carrier credential or webhook secret in responses, errors or the log', async () => {
    const carrierSecret = 'carrier-S3CRET-value-0042';
    const webhookSecret = 'hook-S3CRET-value-0042';
    const call = async (key: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(daemon.url + path, {
        method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.text();
    };
    const bodies: string[] = [];
    const channel = await call(apiKey, 'POST', '/v1/shipping-channels', {
      name: 'PPL', provider: 'ppl', settings: { clientId: 'client-1', clientSecret: carrierSecret },
    });
    bodies.push(channel);
    const channelId = JSON.parse(channel).data.id as string;
    bodies.push(await call(apiKey, 'PATCH', `/v1/shipping-channels/${channelId}`, { settings: { clientSecret: carrierSecret, bogus: carrierSecret } }));
    bodies.push(await call(apiKey, 'POST', `/v1/shipping-channels/${channelId}/validate`));
    const hook = await call(apiKey, 'POST', '/v1/webhook-subscriptions', { name: 'h', url: 'https://e.com/h', events: ['*'], secret: webhookSecret });
    bodies.push(hook);
    const hookId = JSON.parse(hook).data.id as string;
    bodies.push(await call(apiKey, 'POST', '/v1/webhook-subscriptions', { name: 'h', url: 'ftp://e.com/h', events: ['*'], secret: webhookSecret }));
    bodies.push(await call(apiKey, 'GET', `/v1/webhook-subscriptions/${hookId}`));
    bodies.push(await call(apiKey, 'GET', '/v1/shipping-channels'));
    bodies.push(await call(otherKey, 'GET', `/v1/shipping-channels/${channelId}`));
    bodies.push(await call(`${apiKey}x`, 'GET', '/v1/account'));
    bodies.push(await call(apiKey, 'POST', '/v1/shipping-channels', '{broken'));
    const log = daemon.output();
    expect(log).toContain('/v1/shipping-channels'); // the requests were logged
    for (const secret of [apiKey, otherKey, carrierSecret, webhookSecret, apiKey.slice(9)]) {
      for (const body of bodies) expect(body).not.toContain(secret);
      expect(log).not.toContain(secret);
    }
    expect(readFileSync(join(dataDir, 'packdesk.sqlite')).includes(carrierSecret)).toBe(false);
  });

  it('refuses a second daemon on the same data directory with a clear message', async () => {
    await expect(spawnDaemon(dataDir, env)).rejects.toThrow(/another packdesk daemon .*is using the data directory/);
  });

  it('drains and exits 0 on SIGTERM, releasing the data directory', async () => {
    expect(await daemon.stop('SIGTERM')).toBe(0);
    expect(daemon.output()).toContain('"msg":"stopped"');
    const next = await spawnDaemon(dataDir, env);
    expect(await next.stop('SIGTERM')).toBe(0);
  });

  it('exits 0 within 10 s of SIGTERM whatever its clients do: stalled bodies and headers, with or without a key, on any path', async () => {
    held = await spawnDaemon(dataDir, env);
    const stalls = [
      'POST /v1/desk/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"api_key":"',
      'POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      'POST /v1/shipments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer pdk_live_0\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      `POST /v1/shipments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ',
    ];
    const clients = await Promise.all(stalls.map(async (stall) => {
      const client = await rawClient(held!.url);
      client.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await client.receives('"status":"ok"'); // the daemon took the connection
      client.socket.write(stall);
      return client;
    }));
    const code = await Promise.race([held.stop('SIGTERM'), new Promise<string>((resolve) => setTimeout(resolve, 10_000, 'still running'))]);
    expect(code, held.output().slice(-2_000)).toBe(0);
    expect(await Promise.all(clients.map((c) => c.closed.then(() => 'closed')))).toEqual(Array(stalls.length).fill('closed'));
  }, 20_000);
});
