import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const DHL = { apiKey: 'u', apiSecret: 's3cret-value', accountNumber: '123456789', baseUrl: 'http://127.0.0.1:9' };
/** The dispatcher's shared slots in this story. */
const SLOTS = 16;

/** One account's receivers that never answer must not hold up another account's webhooks (the dispatcher runs on its own). */
describe('webhook dispatch shared between accounts', () => {
  let d: TestDaemon;
  let rx: WebhookReceiver;
  let channelNo = 0;

  beforeEach(async () => {
    // accepts every connection and never answers on /never/…
    rx = await startWebhookReceiver((r) => (r.path.startsWith('/never/') ? { status: 200, hang: true } : { status: 200, body: 'ok' }));
    // the timeout only bounds the run when deliveries are not shared fairly: a fair dispatcher never waits for it here
    d = await startTestDaemon({ allowLoopbackWebhooks: true, webhooks: { concurrency: SLOTS, timeoutMs: 10_000 } });
  });
  afterEach(async () => {
    await rx.close(); // the hanging attempts fail now, so the dispatcher stops without waiting for their timeout
    await d.workers.webhooks.stop();
    await d.close();
  });

  const subscribe = async (who: TestAccount, path: string) => {
    const res = await who.request('POST', '/v1/webhook-subscriptions', { name: `hook ${path}`, url: rx.url + path, events: ['shipping_channel.created'] });
    expect(res.statusCode, res.body).toBe(201);
  };
  const createChannel = async (who: TestAccount) => {
    const res = await who.request('POST', '/v1/shipping-channels', { name: `DHL ${++channelNo}`, provider: 'dhl', settings: DHL });
    expect(res.statusCode, res.body).toBe(201);
  };
  const hanging = (all: ReceivedWebhook[], prefix = '/never/') => all.filter((r) => r.path.startsWith(prefix) && !r.abandoned);

  it('delivers another account\'s event at once while one account\'s receivers hang on every shared slot', async () => {
    const stalled = await d.account('Night Owl Imports');
    const prompt = await d.account('Prompt Parcels');
    for (let i = 0; i < 12; i++) await subscribe(stalled, `/never/${i}`);
    await subscribe(prompt, '/prompt');
    d.workers.webhooks.start();

    // two channels: 24 deliveries to receivers that never answer, for 16 slots; alone, the account may use them all
    await createChannel(stalled);
    await createChannel(stalled);
    await rx.until((all) => hanging(all).length === SLOTS);

    await createChannel(prompt);
    await rx.until((all) => all.some((r) => r.path === '/prompt' || r.abandoned));
    expect(rx.at('/prompt'), 'the prompt account\'s event arrived while every stalled delivery still hung').toHaveLength(1);
    expect(rx.received.filter((r) => r.abandoned)).toEqual([]);
    expect(hanging(rx.received)).toHaveLength(SLOTS);
  });

  it('splits the shared slots evenly between two accounts that each have more due than fits', async () => {
    const first = await d.account('First Freight');
    const second = await d.account('Second Sorting');
    for (let i = 0; i < 12; i++) await subscribe(first, `/never/first/${i}`);
    for (let i = 0; i < 12; i++) await subscribe(second, `/never/second/${i}`);
    // 24 deliveries each, waiting when the dispatcher starts
    for (const who of [first, second, first, second]) await createChannel(who);
    d.workers.webhooks.start();

    await rx.until((all) => hanging(all).length === SLOTS);
    expect(hanging(rx.received, '/never/first/')).toHaveLength(SLOTS / 2);
    expect(hanging(rx.received, '/never/second/')).toHaveLength(SLOTS / 2);
  });
});

describe('a receiver that never answers', () => {
  it('holds its slot only until the delivery timeout; then the next delivery goes out', async () => {
    // the first request hangs, every later one is answered
    const rx = await startWebhookReceiver((_r, all) => (all.length === 1 ? { status: 200, hang: true } : { status: 200 }));
    const d = await startTestDaemon({ allowLoopbackWebhooks: true, webhooks: { concurrency: 1, reservedSlots: 0, timeoutMs: 300 } });
    try {
      const a = await d.account();
      const sub = (await a.request('POST', '/v1/webhook-subscriptions', { name: 'one slot', url: `${rx.url}/one`, events: ['shipping_channel.created'] })).json().data;
      for (const name of ['DHL first', 'DHL second']) {
        expect((await a.request('POST', '/v1/shipping-channels', { name, provider: 'dhl', settings: DHL })).statusCode).toBe(201);
      }
      await d.runJobs();
      expect(rx.received.map((r) => [r.abandoned, r.answered])).toEqual([[true, null], [false, 200]]);
      const logs = (await a.request('GET', `/v1/webhook-subscriptions/${sub.id}/logs`)).json().data as { status: string; error_message: string | null }[];
      expect(logs.map((l) => [l.status, l.error_message]).sort()).toEqual([['failed', 'timed out after 0.3 s'], ['success', null]]);
    } finally {
      await rx.close();
      await d.close();
    }
  });
});
