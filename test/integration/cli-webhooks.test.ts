import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type Env, type Station } from '../helpers/cli.js';
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from '../helpers/webhook-receiver.js';

interface DeliveryLog {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: string;
  response_status: number | null;
}

describe('packdesk webhooks test | redeliver | clear-logs | secret', () => {
  let station: Station;
  let envB: Env;
  let rx: WebhookReceiver;
  let subId: string;

  beforeAll(async () => {
    rx = await startWebhookReceiver();
    station = await startStation();
    const { dataDir, localEnv } = station;
    const accountB = (await station.cliJson<{ account_id: string }>(['accounts', 'create', '--name', 'Other shop', '--data-dir', dataDir, '--json'], localEnv)).account_id;
    const keyB = await station.cliJson<{ api_key: string }>(['keys', 'create', '--account', accountB, '--data-dir', dataDir, '--json'], localEnv);
    envB = { ...station.env, PACKDESK_API_KEY: keyB.api_key };
    subId = (await station.cliJson<{ id: string }>(['webhooks', 'add', '--name', 'erp', '--url', `${rx.url}/erp`, '--event', 'shipment.created', '--json'])).id;
  });
  afterAll(async () => {
    await rx?.close();
    if (station) expect(await station.stop()).toBe(0);
  });

  it('secret prints the signing secret from the local store, which verifies what test sends', async () => {
    const secret = (await station.cli(['webhooks', 'secret', subId, '--data-dir', station.dataDir], station.localEnv)).stdout.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await station.cliJson(['webhooks', 'secret', subId, '--data-dir', station.dataDir, '--json'], station.localEnv)).toEqual({ id: subId, secret });
    expect((await station.cli(['webhooks', 'show', subId, '--json'])).stdout).not.toContain(secret.slice(6));
    expect((await station.cli(['webhooks', 'secret', 'wh_missing', '--data-dir', station.dataDir], station.localEnv)).code).toBe(3);

    const log = await station.cliJson<DeliveryLog>(['webhooks', 'test', subId, '--json']);
    expect(log).toMatchObject({ event_type: 'webhook.test', attempt: 1, status: 'success', response_status: 200 });
    const delivered = rx.at('/erp').at(-1)!;
    expect(delivered.headers['webhook-id']).toBe(log.event_id);
    expect(verifyWebhook(secret, delivered)).toMatchObject({ type: 'webhook.test', data: { webhook: { id: subId } } });
  });

  it('test prints the outcome for people and exits 1 when the receiver refused it', async () => {
    const ok = await station.cli(['webhooks', 'test', subId]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/webhook\.test evt_\w+ to http:\/\/127\.0\.0\.1:\d+\/erp: delivered \(HTTP 200, \d+ ms\)/);
    rx.reply = () => ({ status: 500, body: 'broken' });
    try {
      const refused = await station.cli(['webhooks', 'test', subId]);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toContain('failed: HTTP 500');
    } finally {
      rx.reply = () => ({ status: 200 });
    }
    expect((await station.cli(['webhooks', 'test', subId], envB)).code).toBe(1);
    expect((await station.cli(['webhooks', 'test', 'wh_missing'])).code).toBe(3);
  });

  it('redeliver sends a logged event again as the next attempt; clear-logs empties the log', async () => {
    const first = await station.cliJson<DeliveryLog>(['webhooks', 'test', subId, '--json']);
    const again = await station.cliJson<DeliveryLog>(['webhooks', 'redeliver', subId, first.id, '--json']);
    expect(again).toMatchObject({ event_id: first.event_id, attempt: 2, status: 'success' });
    expect(rx.at('/erp').filter((r) => r.headers['webhook-id'] === first.event_id)).toHaveLength(2);
    expect((await station.cli(['webhooks', 'redeliver', subId, 'whl_missing'])).code).toBe(3);

    const before = await station.cliJson<{ meta: { total: number } }>(['webhooks', 'logs', subId, '--json']);
    expect(before.meta.total).toBeGreaterThanOrEqual(5);
    expect((await station.cli(['webhooks', 'clear-logs', subId], envB)).code).toBe(1);
    const cleared = await station.cli(['webhooks', 'clear-logs', subId]);
    expect(cleared).toMatchObject({ code: 0, stdout: 'Webhook logs cleared\n' });
    expect((await station.cliJson<{ meta: { total: number } }>(['webhooks', 'logs', subId, '--json'])).meta.total).toBe(0);
    expect(await station.cliJson(['webhooks', 'clear-logs', subId, '--json'])).toEqual({ message: 'Webhook logs cleared' });
  });
});
