import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import type { ServiceContext } from '../../src/services/context.js';
import { claimDueDeliveries, fanOutEvents, type ClaimMemory } from '../../src/services/webhook-outbox.js';
import { isTransactionConflict, type Store } from '../../src/store/store.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
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

describe('a webhook claim run again after a conflict', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    d = await startTestDaemon({ allowLoopbackWebhooks: true });
    a = await d.account('Retried claims');
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
  });

  it('claims what is due: the rolled-back attempt left no subscription marked idle', async () => {
    const sub = (await a.request('POST', '/v1/webhook-subscriptions', { name: 'erp', url: 'http://127.0.0.1:9/erp', events: ['shipment.created'] })).json().data;
    const channel = await pplChannel(a, emu.urls.ppl!);
    expect((await a.request('POST', '/v1/shipments', shipmentBody(channel))).statusCode).toBe(201);
    await fanOutEvents(d.ctx);

    const ctx: ServiceContext = { ...d.ctx, store: conflictingOnce(d.ctx.store) };
    const memory: ClaimMemory = { idleUntil: new Map(), cursor: new Map(), turn: 0 };
    // one due delivery and four slots for the subscription: the pick comes up short, so it learns the subscription is
    // idle once this one is claimed
    const claimed = await claimDueDeliveries(ctx, {
      concurrency: 8, reservedSlots: 0, perSubscription: 4, inFlight: new Map(), leaseMs: 60_000, memory,
    });
    expect(claimed.map((c) => c.subscriptionId)).toEqual([sub.id]);
    expect(memory.idleUntil.get(sub.id)).toBe(Infinity);
  });
});
