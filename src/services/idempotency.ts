import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq } from 'drizzle-orm';
import { idempotencyKeys } from '../store/schema.js';
import type { ServiceContext } from './context.js';
import { claimsLeftBehind } from './leases.js';

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

/**
 * At start-up the keys of requests a gone daemon was handling (see claimsLeftBehind) are let go: a client's retry with
 * the key is taken at once, not refused as in progress until it counts as abandoned. A key whose request created its
 * resource stays bound to it.
 */
export async function releaseIdempotencyKeysInProgress(ctx: ServiceContext): Promise<number> {
  const left = claimsLeftBehind(ctx);
  if (!left) return 0;
  return ctx.store.run(`DELETE FROM idempotency_keys WHERE response_status IS NULL AND resource_path IS NULL${left.where}`, ...left.params);
}
