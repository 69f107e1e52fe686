import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, spawnDaemon, type DaemonProcess, processApi } from '../helpers/processes.js';
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/** kill -9 while webhooks are undelivered, then a restart: every event arrives, none that had succeeded comes twice. */
describe('a daemon killed with undelivered webhooks', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-webhook-crash-'));
  const env = { XDG_CONFIG_HOME: join(dataDir, 'cfg') };
  let daemon: DaemonProcess;
  let rx: WebhookReceiver;
  let key: string;

  const api = processApi(() => daemon.url, () => key);
  const createChannels = async (prefix: string, n: number) => {
    for (let i = 0; i < n; i++) {
      const res = await api('/v1/shipping-channels', 'POST', { name: `${prefix} ${i}`, provider: 'dhl', settings: { apiKey: 'u', apiSecret: 'crash-secret', accountNumber: '123456789', baseUrl: 'http://127.0.0.1:9' } });
      expect(res.status).toBe(201);
    }
  };
  const waitFor = async (what: string, done: () => boolean | Promise<boolean>, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(50);
    }
  };
  const idsAnswered = (status: number) => new Set(rx.received.filter((r) => r.answered === status).map((r) => r.headers['webhook-id']!));

  beforeAll(async () => {
    rx = await startWebhookReceiver();
    key = JSON.parse(execFileSync(process.execPath, [CLI, 'init', '--data-dir', dataDir, '--yes', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' })).api_key;
    daemon = await spawnDaemon(dataDir, env);
  });
  afterAll(async () => {
    await daemon?.stop('SIGKILL');
    await rx?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers every event after kill -9 and a restart, and none that had succeeded again', async () => {
    const sub = (await api('/v1/webhook-subscriptions', 'POST', { name: 'crash', url: `${rx.url}/crash`, events: ['shipping_channel.created'] })).body.data;
    await createChannels('before', 10);
    await waitFor('10 deliveries', async () => (await api(`/v1/webhook-subscriptions/${sub.id}/logs?status=success`)).body.meta.total === 10);
    const succeeded = idsAnswered(200);
    expect(succeeded.size).toBe(10);

    // the receiver stops answering: 4 attempts hang (the per-subscription limit), the rest wait in the queue
    rx.reply = () => ({ status: 200, hang: true });
    await createChannels('during', 12);
    await waitFor('4 hanging attempts', () => rx.received.filter((r) => r.answered === null).length === 4);
    expect((await api(`/v1/webhook-subscriptions/${sub.id}/logs?status=pending`)).body.meta.total).toBe(4);
    expect(await daemon.stop('SIGKILL')).toBeNull();

    rx.reply = () => ({ status: 200 });
    daemon = await spawnDaemon(dataDir, env);
    await waitFor('22 events delivered', () => idsAnswered(200).size === 22);
    await sleep(300); // anything sent twice would arrive now

    const perId = new Map<string, number>();
    for (const r of rx.received) perId.set(r.headers['webhook-id']!, (perId.get(r.headers['webhook-id']!) ?? 0) + 1);
    expect(perId.size).toBe(22);
    for (const id of succeeded) expect(perId.get(id), `${id} had succeeded before the kill`).toBe(1);
    // the four that hung were sent again after the restart; the rest once
    expect([...perId.values()].filter((n) => n === 2)).toHaveLength(4);
    const logs = await api(`/v1/webhook-subscriptions/${sub.id}/logs?status=failed`);
    expect(logs.body.meta.total).toBe(4);
    expect((await api(`/v1/webhook-subscriptions/${sub.id}/logs?status=success`)).body.meta.total).toBe(22);

    const secret = execFileSync(process.execPath, [CLI, 'webhooks', 'secret', sub.id, '--data-dir', dataDir], { env: { ...process.env, ...env }, encoding: 'utf8' }).trim();
    expect(secret).toMatch(/^whsec_/);
    for (const r of rx.received.filter((x) => x.answered === 200)) verifyWebhook(secret, r);
  });
});
