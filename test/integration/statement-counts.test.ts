import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { startTestDaemon, TEST_DIALECT, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { pplChannel, shipmentBody } from '../helpers/shipments.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * What the hot use cases cost in statements (on PostgreSQL: round trips, BEGIN, COMMIT and locks included), counted
 * by the store itself. A change that adds statements to one of them fails here and says by how many: raise the
 * figure only knowingly. The figures are for one shipment of one parcel on a PPL channel, with one webhook subscription.
 */
const BUDGET: Record<typeof TEST_DIALECT, Record<string, number>> = {
  sqlite: { 'create a shipment (POST)': 9, "record the carrier's answer (job claimed, run, finished)": 26, 'deliver a webhook (fan-out, claim, attempt)': 21 },
  postgres: { 'create a shipment (POST)': 11, "record the carrier's answer (job claimed, run, finished)": 28, 'deliver a webhook (fan-out, claim, attempt)': 31 },
};

describe('statements per use case', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let rx: WebhookReceiver;
  let a: TestAccount;
  let channel: string;

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    rx = await startWebhookReceiver();
    d = await startTestDaemon({ allowLoopbackWebhooks: true });
    a = await d.account('Counted');
    channel = await pplChannel(a, emu.urls.ppl!);
    expect((await a.request('POST', '/v1/webhook-subscriptions', { name: 'erp', url: `${rx.url}/erp`, events: ['shipment.created'] })).statusCode).toBe(201);
    // the first shipment warms what is read once (channel, key, settings); the second is counted
    await a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: 'WARM' }));
    await d.runJobs();
  });
  afterAll(async () => {
    await d?.close();
    await rx?.close();
    await emu?.close();
  });

  async function counted(work: () => Promise<unknown>): Promise<number> {
    const before = d.ctx.store.statements;
    await work();
    return d.ctx.store.statements - before;
  }

  it('stays within its budget', async () => {
    const figures: Record<string, number> = {};
    let id = '';
    figures['create a shipment (POST)'] = await counted(async () => {
      const res = await a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: 'COUNTED' }));
      expect(res.statusCode, res.body).toBe(201);
      id = res.json().data.id;
    });
    figures["record the carrier's answer (job claimed, run, finished)"] = await counted(() => d.workers.shipments.runDue());
    expect((await a.request('GET', `/v1/shipments/${id}`)).json().data.status).toBe('created');
    const delivered = rx.received.length;
    figures['deliver a webhook (fan-out, claim, attempt)'] = await counted(() => d.workers.webhooks.runDue());
    expect(rx.received.length - delivered).toBe(1); // the counted shipment's `shipment.created`
    expect(figures).toEqual(BUDGET[TEST_DIALECT]);
  });
});
