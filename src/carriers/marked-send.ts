import { CarrierRefusedError } from './errors.js';
import type { CarrierContext, CarrierProgress } from './types.js';

/**
 * Sends a create whose answer can be lost (timeout, dropped connection, 5xx after the carrier stored it). The
 * shipment's progress marks the send first as `{sendingSince}`: `since`, the start of an earlier unanswered send,
 * is kept so that a later search covers both. A refusal creates nothing and clears the mark; any other failure
 * leaves it, so the next attempt knows the carrier may hold the shipment.
 */
export async function markedSend<T>(
  ctx: Pick<CarrierContext, 'clock'> & { progress: CarrierProgress }, since: number | undefined, send: () => Promise<T>,
): Promise<T> {
  await ctx.progress.save({ sendingSince: since ?? ctx.clock.now() });
  try {
    return await send();
  } catch (err) {
    if (err instanceof CarrierRefusedError) await ctx.progress.save({});
    throw err;
  }
}
