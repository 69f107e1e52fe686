import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, spawnDaemon, type DaemonProcess } from '../helpers/processes.js';
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from '../helpers/webhook-receiver.js';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

type Env = Record<string, string>;

interface DeliveryLog {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: string;
  response_status: number | null;
}

/** The environment of the test runner without any packdesk settings, so only what a test passes counts. */
function isolatedEnv(): Env {
  const env: Env = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('PACKDESK_')) env[key] = value;
  return env;
}

describe('packdesk webhooks test | redeliver | clear-logs | secret', () => {
  let tmp: string;
  let dataDir: string;
  let baseEnv: Env;
  let envA: Env;
  let envB: Env;
  let daemon: DaemonProcess;
  let rx: WebhookReceiver;
  let subId: string;

  const cli = (args: string[], env: Env = {}): Promise<CliResult> => new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...baseEnv, ...env }, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
  const cliJson = async <T>(args: string[], env: Env = envA): Promise<T> => {
    const result = await cli([...args, '--json'], env);
    if (result.code !== 0) throw new Error(`packdesk ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
    return JSON.parse(result.stdout) as T;
  };

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'packdesk-cli-webhooks-'));
    dataDir = join(tmp, 'data');
    baseEnv = { ...isolatedEnv(), XDG_CONFIG_HOME: join(tmp, 'cfg'), CI: 'true' };
    rx = await startWebhookReceiver();
    const init = await cliJson<{ api_key: string }>(['init', '--data-dir', dataDir, '--yes'], {});
    daemon = await spawnDaemon(dataDir, baseEnv);
    const accountB = (await cliJson<{ account_id: string }>(['accounts', 'create', '--name', 'Other shop', '--data-dir', dataDir], {})).account_id;
    const keyB = await cliJson<{ api_key: string }>(['keys', 'create', '--account', accountB, '--data-dir', dataDir], {});
    envA = { PACKDESK_URL: daemon.url, PACKDESK_API_KEY: init.api_key };
    envB = { PACKDESK_URL: daemon.url, PACKDESK_API_KEY: keyB.api_key };
    subId = (await cliJson<{ id: string }>(['webhooks', 'add', '--name', 'erp', '--url', `${rx.url}/erp`, '--event', 'shipment.created'])).id;
  });
  afterAll(async () => {
    await daemon?.stop();
    await rx?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('secret prints the signing secret from the local store, which verifies what test sends', async () => {
    const secret = (await cli(['webhooks', 'secret', subId, '--data-dir', dataDir])).stdout.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await cliJson(['webhooks', 'secret', subId, '--data-dir', dataDir], {})).toEqual({ id: subId, secret });
    expect((await cli(['webhooks', 'show', subId, '--json'], envA)).stdout).not.toContain(secret.slice(6));
    expect((await cli(['webhooks', 'secret', 'wh_missing', '--data-dir', dataDir])).code).toBe(3);

    const log = await cliJson<DeliveryLog>(['webhooks', 'test', subId]);
    expect(log).toMatchObject({ event_type: 'webhook.test', attempt: 1, status: 'success', response_status: 200 });
    const delivered = rx.at('/erp').at(-1)!;
    expect(delivered.headers['webhook-id']).toBe(log.event_id);
    expect(verifyWebhook(secret, delivered)).toMatchObject({ type: 'webhook.test', data: { webhook: { id: subId } } });
  });

  it('test prints the outcome for people and exits 1 when the receiver refused it', async () => {
    const ok = await cli(['webhooks', 'test', subId], envA);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/webhook\.test evt_\w+ to http:\/\/127\.0\.0\.1:\d+\/erp: delivered \(HTTP 200, \d+ ms\)/);
    rx.reply = () => ({ status: 500, body: 'broken' });
    try {
      const refused = await cli(['webhooks', 'test', subId], envA);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toContain('failed: HTTP 500');
    } finally {
      rx.reply = () => ({ status: 200 });
    }
    expect((await cli(['webhooks', 'test', subId], envB)).code).toBe(1);
    expect((await cli(['webhooks', 'test', 'wh_missing'], envA)).code).toBe(3);
  });

  it('redeliver sends a logged event again as the next attempt; clear-logs empties the log', async () => {
    const first = await cliJson<DeliveryLog>(['webhooks', 'test', subId]);
    const again = await cliJson<DeliveryLog>(['webhooks', 'redeliver', subId, first.id]);
    expect(again).toMatchObject({ event_id: first.event_id, attempt: 2, status: 'success' });
    expect(rx.at('/erp').filter((r) => r.headers['webhook-id'] === first.event_id)).toHaveLength(2);
    expect((await cli(['webhooks', 'redeliver', subId, 'whl_missing'], envA)).code).toBe(3);

    const before = await cliJson<{ meta: { total: number } }>(['webhooks', 'logs', subId]);
    expect(before.meta.total).toBeGreaterThanOrEqual(5);
    expect((await cli(['webhooks', 'clear-logs', subId], envB)).code).toBe(1);
    const cleared = await cli(['webhooks', 'clear-logs', subId], envA);
    expect(cleared).toMatchObject({ code: 0, stdout: 'Webhook logs cleared\n' });
    expect((await cliJson<{ meta: { total: number } }>(['webhooks', 'logs', subId])).meta.total).toBe(0);
    expect(await cliJson(['webhooks', 'clear-logs', subId])).toEqual({ message: 'Webhook logs cleared' });
  });
});
