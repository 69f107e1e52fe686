import type { Clock } from '../../src/domain/clock.js';

export interface RateDecision {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
  allowed: boolean;
  retryAfter: number;
}

/** Fixed one-minute windows per account, on the injected clock. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly clock: Clock, private readonly windowMs = 60_000) {}

  take(accountId: string, limit: number): RateDecision {
    const now = this.clock.now();
    const start = now - (now % this.windowMs);
    let w = this.windows.get(accountId);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(accountId, w);
      if (this.windows.size > 10_000) this.prune(start);
    }
    const allowed = w.count < limit;
    if (allowed) w.count += 1;
    const resetMs = start + this.windowMs;
    return {
      limit, remaining: Math.max(0, limit - w.count), reset: Math.ceil(resetMs / 1000), allowed,
      retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }

  private prune(currentStart: number): void {
    for (const [key, w] of this.windows) if (w.start !== currentStart) this.windows.delete(key);
  }
}
