import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq } from 'drizzle-orm';
import { idempotencyKeys } from '../store/schema.js';
import type { ServiceContext } from './context.js';

/** The Idempotency-Key a request holds while it is handled. */
export interface IdempotencyClaim {
  accountId: string;
  key: string;
}

const claims = new AsyncLocalStorage<IdempotencyClaim>();

/** Runs a request's handler with the key it holds, for the services it calls to bind what they create to it. */
export function withIdempotencyClaim<T>(claim: IdempotencyClaim, handle: () => T): T {
  return claims.run(claim, handle);
}

/**
 * Binds the request's key (when it holds one) to the resource it creates, inside the transaction that creates it: if
 * the daemon dies before the answer is recorded, a retry with the key gets this resource back rather than making a
 * second one. `path` is where the API shows the resource (`/v1/shipments/shp_…`).
 */
export async function bindIdempotentResource(ctx: ServiceContext, path: string): Promise<void> {
  const claim = claims.getStore();
  if (!claim) return;
  await ctx.db.update(idempotencyKeys).set({ resourcePath: path })
    .where(and(eq(idempotencyKeys.accountId, claim.accountId), eq(idempotencyKeys.key, claim.key))).run();
}
