import type { Clock } from '../../src/domain/clock.js';
import type { Store } from '../../src/store/store.js';

export interface RateDecision {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
  allowed: boolean;
  retryAfter: number;
}

/** Fixed one-minute windows per account, on the injected clock. */
export interface RateLimiter {
  take(accountId: string, limit: number): Promise<RateDecision>;
}

const WINDOW_MS = 60_000;

function decide(limit: number, used: number, allowed: boolean, start: number, now: number): RateDecision {
  const resetMs = start + WINDOW_MS;
  return {
    limit, remaining: Math.max(0, limit - used), reset: Math.ceil(resetMs / 1000), allowed,
    retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
  };
}

/** The limiter for a store: counted in memory when this daemon owns the store, in the store when daemons share it. */
export function rateLimiterFor(store: Store, clock: Clock): RateLimiter {
  return store.shared ? new StoreRateLimiter(store, clock) : new MemoryRateLimiter(clock);
}

/** One daemon's count, kept in memory for at most `maxKeys` keys: beyond them the least recently counted is forgotten. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly clock: Clock, private readonly maxKeys = 10_000) {}

  async take(key: string, limit: number): Promise<RateDecision> {
    const now = this.clock.now();
    const start = now - (now % WINDOW_MS);
    const found = this.windows.get(key);
    const w = found && found.start === start ? found : { start, count: 0 };
    // set again so the map's order is the order keys were last counted
    this.windows.delete(key);
    this.windows.set(key, w);
    if (this.windows.size > this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
    const allowed = w.count < limit;
    if (allowed) w.count += 1;
    return decide(limit, w.count, allowed, start, now);
  }

  /** What `take` would decide now, without counting a request. */
  peek(key: string, limit: number): RateDecision {
    const now = this.clock.now();
    const start = now - (now % WINDOW_MS);
    const w = this.windows.get(key);
    const used = w && w.start === start ? w.count : 0;
    return decide(limit, used, used < limit, start, now);
  }
}

/**
 * Every daemon's count of an account, one row per account and window in the shared store (an unlogged table: a count
 * lost in a crash costs nothing). One statement counts a request and tells whether it was under the limit; a request
 * over it is not counted, so the row shows what was allowed.
 */
export class StoreRateLimiter implements RateLimiter {
  private prunedBefore = 0;

  constructor(private readonly store: Store, private readonly clock: Clock) {}

  async take(accountId: string, limit: number): Promise<RateDecision> {
    const now = this.clock.now();
    const start = now - (now % WINDOW_MS);
    if (start > this.prunedBefore) {
      this.prunedBefore = start;
      await this.store.run('DELETE FROM rate_windows WHERE window_start < ?', start);
    }
    const counted = await this.store.get<{ count: number }>(
      `INSERT INTO rate_windows (account_id, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (account_id, window_start) DO UPDATE SET count = rate_windows.count + 1 WHERE rate_windows.count < ?
       RETURNING count`,
      accountId, start, limit,
    );
    return decide(limit, counted?.count ?? limit, counted !== undefined, start, now);
  }
}
