import { setTimeout as realSleep } from 'node:timers/promises';
import { CarrierTransientError } from './errors.js';
import type { CarrierContext } from './types.js';

export interface PollOptions {
  /** Waits between reads; the last one repeats. */
  delaysMs: readonly number[];
  /** Give up (as a transient failure, so the shipment is tried again later) after this long. */
  deadlineMs: number;
  /** What is awaited, for the message: "PPL batch 123 is still being imported". */
  stillWaiting: string;
}

/**
 * Reads until `read` gives a value. Time is the context's: the deadline counts on `ctx.clock` (and on the waits
 * themselves, so a clock a test holds still cannot make it endless), and waiting uses `ctx.sleep`.
 */
export async function pollUntil<T>(ctx: Pick<CarrierContext, 'clock' | 'sleep'>, options: PollOptions, read: () => Promise<T | undefined>): Promise<T> {
  const sleep = ctx.sleep ?? realSleep;
  const started = ctx.clock.now();
  let waited = 0;
  for (let i = 0; ; i++) {
    const value = await read();
    if (value !== undefined) return value;
    if (Math.max(waited, ctx.clock.now() - started) >= options.deadlineMs) throw new CarrierTransientError(options.stillWaiting);
    const delay = options.delaysMs[Math.min(i, options.delaysMs.length - 1)]!;
    await sleep(delay);
    waited += delay;
  }
}
