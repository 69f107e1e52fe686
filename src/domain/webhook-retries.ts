/** The webhook retry policy of SPEC §4, as pure functions of the attempt count, the clock and a random source. */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Wait after failed attempt n (index n-1): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h — about 3 days in all. */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 14 * HOUR, 20 * HOUR, 24 * HOUR,
];

/** The first attempt plus one per step of the schedule; after the last one the delivery is `failed`. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

/** A subscription whose deliveries have only failed for this long is `disabled`. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * HOUR;

/** Spread of each wait, so receivers that come back are not hit by every sender at once. */
export const RETRY_JITTER = 0.1;

/** A `Retry-After` longer than this is not believed; the wait is capped here. */
const MAX_RETRY_AFTER_MS = 24 * HOUR;

/**
 * How long to wait after failed attempt `attemptsDone` (1-based), or undefined when the schedule is over.
 * `random()` in [0, 1) moves the wait by ±10 %; 0.5 gives the schedule exactly. A receiver's `Retry-After`
 * replaces the wait when it is longer.
 */
export function retryDelayMs(attemptsDone: number, random: () => number, retryAfterMs?: number | null): number | undefined {
  const base = RETRY_SCHEDULE_MS[attemptsDone - 1];
  if (base === undefined) return undefined;
  const jittered = Math.round(base * (1 + (random() * 2 - 1) * RETRY_JITTER));
  return retryAfterMs != null && retryAfterMs > jittered ? retryAfterMs : jittered;
}

/** `Retry-After` as milliseconds from `nowMs`: delay-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | null {
  if (!header) return null;
  const value = header.trim();
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * SECOND;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return null;
    ms = at - nowMs;
  }
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}
