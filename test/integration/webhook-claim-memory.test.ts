import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import type { ServiceContext } from '../../src/services/context.js';
import type { AttemptResult } from '../../src/services/webhook-http.js';
import {
  claimDueDeliveries, fanOutEvents, forgetIdle, IDLE_TRUSTED_MS, newClaimMemory, recordQueuedAttempt,
} from '../../src/services/webhook-outbox.js';
import { isTransactionConflict, type Store } from '../../src/store/store.js';
import { startTestDaemon, type TestDaemon } from '../helpers/harness.js';
import { pplChannel, shipmentBody } from '../helpers/shipments.js';

/**
 * The store, except that each transaction's first attempt is rolled back after its work, for a conflict, and run
 * again: as PostgreSQL does when another daemon's transaction got in the way.
 */
function conflictingOnce(store: Store): Store {
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name !== 'transaction') return Reflect.get(target, name, receiver);
      return async <T>(fn: () => Promise<T>, options?: Parameters<Store['transaction']>[1]): Promise<T> => {
        let first = true;
        for (;;) {
          try {
            return await target.transaction(async () => {
              const result = await fn();
              if (first) {
                first = false;
                throw Object.assign(new Error('could not serialize access'), { code: '40001' });
              }
              return result;
            }, options);
          } catch (err) {
            if (!isTransactionConflict(err)) throw err;
          }
        }
      };
    },
  });
}

/** The store, except that `during(sql)` runs after each of its reads, before the caller has the rows. */
function watching(store: Store, during: (sql: string) => void): Store {
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name !== 'get' && name !== 'all') return Reflect.get(target, name, receiver);
      return async (sql: string, ...args: unknown[]) => {
        const rows: unknown = await (target[name] as (sql: string, ...args: unknown[]) => Promise<unknown>)(sql, ...args);
        during(sql);
        return rows;
      };
    },
  });
}

const failed: AttemptResult = {
  ok: false, responseStatus: 503, responseBody: null, durationMs: 1, errorMessage: null, retryAfterMs: null, gone: false,
};

describe('what a webhook claim remembers between claims', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  const limits = { concurrency: 8, reservedSlots: 0, perSubscription: 4, inFlight: new Map<string, number>(), leaseMs: 60_000 };

  /** A subscription, the only one of its account, with `shipments` deliveries queued for it. */
  async function queued(name: string, shipments = 1): Promise<string> {
    const a = await d.account(name);
    const sub = (await a.request('POST', '/v1/webhook-subscriptions', { name, url: `http://127.0.0.1:9/${name}`, events: ['shipment.created'] })).json().data;
    const channel = await pplChannel(a, emu.urls.ppl!);
    for (let i = 0; i < shipments; i++) expect((await a.request('POST', '/v1/shipments', shipmentBody(channel))).statusCode).toBe(201);
    await fanOutEvents(d.ctx);
    return sub.id as string;
  }

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    d = await startTestDaemon({ allowLoopbackWebhooks: true });
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
  });

  it('claims what is due after a conflict: the rolled-back attempt left no subscription marked idle', async () => {
    const sub = await queued('erp');
    const ctx: ServiceContext = { ...d.ctx, store: conflictingOnce(d.ctx.store) };
    const memory = newClaimMemory();
    // one due delivery and four slots for the subscription: the pick comes up short, so it learns the subscription is
    // idle once this one is claimed
    const claimed = await claimDueDeliveries(ctx, { ...limits, memory });
    expect(claimed.map((c) => c.subscriptionId)).toEqual([sub]);
    expect(memory.idleUntil.get(sub)).toBe(d.clock.now() + IDLE_TRUSTED_MS);
    await recordQueuedAttempt(d.ctx, claimed[0]!, { ...failed, ok: true, responseStatus: 204 }, () => 0.5);
  });

  it("learns no idleness from a claim that read the queue before this process's attempt changed it", async () => {
    const sub = await queued('wms');
    const memory = newClaimMemory();
    // this process's attempt ends while the claim runs (after the claim read the subscription's queue, before it commits)
    const ctx: ServiceContext = {
      ...d.ctx, store: watching(d.ctx.store, (sql) => { if (sql.includes('min(next_attempt_at)')) forgetIdle(memory, sub); }),
    };
    const claimed = await claimDueDeliveries(ctx, { ...limits, memory });
    expect(claimed.map((c) => c.subscriptionId)).toEqual([sub]);
    expect(memory.idleUntil.has(sub)).toBe(false);
    await recordQueuedAttempt(d.ctx, claimed[0]!, { ...failed, ok: true, responseStatus: 204 }, () => 0.5);
  });

  it('claims a due delivery once, though its account is offered slots again in a later round of the fair shares', async () => {
    await queued('idle a', 0);
    await queued('idle b', 0);
    const sub = await queued('one due');
    // a slot for each account: the account with a delivery takes its whole share, so it is offered what the idle ones left
    const { n } = (await d.ctx.store.get<{ n: number }>("SELECT count(DISTINCT account_id) AS n FROM webhook_subscriptions WHERE status = 'active'"))!;
    const claimed = await claimDueDeliveries(d.ctx, { ...limits, concurrency: n, memory: newClaimMemory() });
    expect(claimed.map((c) => [c.subscriptionId, c.attempt])).toEqual([[sub, 1]]);
    await recordQueuedAttempt(d.ctx, claimed[0]!, { ...failed, ok: true, responseStatus: 204 }, () => 0.5);
  });

  it("claims a delivery that another daemon's attempt made due, though this daemon last found the subscription idle", async () => {
    const sub = await queued('shop', 2);
    const here = newClaimMemory();
    const there = newClaimMemory();
    const [first] = await claimDueDeliveries(d.ctx, { ...limits, perSubscription: 1, memory: there });
    // this daemon claims the other delivery: its pick comes up short, so it learns the subscription has nothing more due
    const [second] = await claimDueDeliveries(d.ctx, { ...limits, memory: here });
    expect([first?.subscriptionId, second?.subscriptionId]).toEqual([sub, sub]);
    // the other daemon's attempt fails and is due again later; nothing tells this daemon
    expect(await recordQueuedAttempt(d.ctx, first!, failed, () => 0.5)).toBe('retry');
    const { at } = (await d.ctx.store.get<{ at: number }>('SELECT next_attempt_at AS at FROM webhook_queue WHERE id = ?', first!.queueId))!;
    d.clock.set(at);
    const again = await claimDueDeliveries(d.ctx, { ...limits, inFlight: new Map([[sub, 1]]), memory: here });
    expect(again.map((c) => [c.queueId, c.attempt])).toEqual([[first!.queueId, 2]]);
    for (const c of [second!, ...again]) await recordQueuedAttempt(d.ctx, c, { ...failed, ok: true, responseStatus: 204 }, () => 0.5);
  });
});
