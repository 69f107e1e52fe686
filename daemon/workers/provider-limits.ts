import type { Clock } from '../../src/domain/clock.js';
import { backoffDelay } from '../../src/services/jobs.js';

/** At most `limit` tasks in flight per provider; the others wait their turn in order. */
export class ProviderLanes {
  private readonly lanes = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(private readonly limit: number) {}

  async run<T>(provider: string, task: () => Promise<T>): Promise<T> {
    const lane = this.lanes.get(provider) ?? { running: 0, waiting: [] };
    this.lanes.set(provider, lane);
    if (lane.running >= this.limit) await new Promise<void>((resolve) => lane.waiting.push(resolve));
    else lane.running += 1;
    try {
      return await task();
    } finally {
      const next = lane.waiting.shift();
      // the slot passes straight to the next waiter; the lane goes only when nothing uses it
      if (next) next();
      else if (--lane.running === 0) this.lanes.delete(provider);
    }
  }

  /** Tasks running now, over every provider. */
  get inFlight(): number {
    let n = 0;
    for (const lane of this.lanes.values()) n += lane.running;
    return n;
  }
}

export interface BackoffOptions {
  baseMs: number;
  capMs: number;
  /** Failures in a row of a provider that was answering before it is blocked (1 when absent); a Retry-After blocks at once. */
  failuresToBlock?: number;
  random?: () => number;
}

/**
 * Per provider (or per lane of jobs): after a 429/5xx/outage, no call until a backoff (or the carrier's Retry-After)
 * has passed.
 */
export class ProviderBackoff {
  /** `failures`: backoffs in a row (they double); `misses`: failures since the provider last answered. */
  private readonly state = new Map<string, { failures: number; until: number; misses: number }>();

  constructor(private readonly clock: Clock, private readonly options: BackoffOptions) {}

  /** When the provider may be called again, or undefined when it may be called now. */
  blockedUntil(provider: string): number | undefined {
    const until = this.state.get(provider)?.until;
    return until !== undefined && until > this.clock.now() ? until : undefined;
  }

  /** It was blocked and the backoff has passed, without an answer since: one call at a time finds out whether it answers. */
  recovering(provider: string): boolean {
    const state = this.state.get(provider);
    return state !== undefined && state.failures > 0 && state.until <= this.clock.now();
  }

  blockedProviders(): string[] {
    return [...this.state.keys()].filter((p) => this.blockedUntil(p) !== undefined);
  }

  /** Records a failure; returns when the provider may be called again (now, while it is not blocked yet). */
  failed(provider: string, retryAfterMs = 0): number {
    const now = this.clock.now();
    const current = this.state.get(provider) ?? { failures: 0, until: 0, misses: 0 };
    this.state.set(provider, current);
    // calls that were already in flight when the first failure came in do not lengthen the backoff again
    if (current.until > now) {
      current.until = Math.max(current.until, now + retryAfterMs);
      return current.until;
    }
    current.misses += 1;
    if (current.failures === 0 && retryAfterMs === 0 && current.misses < (this.options.failuresToBlock ?? 1)) return now;
    current.failures += 1;
    current.until = now + Math.max(retryAfterMs, backoffDelay(current.failures, this.options.baseMs, this.options.capMs, this.options.random));
    return current.until;
  }

  succeeded(provider: string): void {
    this.state.delete(provider);
  }
}
