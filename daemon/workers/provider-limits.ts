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
  random?: () => number;
}

/** Per provider: after a 429/5xx/outage, no call until a backoff (or the carrier's Retry-After) has passed. */
export class ProviderBackoff {
  private readonly state = new Map<string, { failures: number; until: number }>();

  constructor(private readonly clock: Clock, private readonly options: BackoffOptions) {}

  /** When the provider may be called again, or undefined when it may be called now. */
  blockedUntil(provider: string): number | undefined {
    const until = this.state.get(provider)?.until;
    return until !== undefined && until > this.clock.now() ? until : undefined;
  }

  blockedProviders(): string[] {
    return [...this.state.keys()].filter((p) => this.blockedUntil(p) !== undefined);
  }

  /** Records a failure; returns when the provider may be called again. */
  failed(provider: string, retryAfterMs = 0): number {
    const now = this.clock.now();
    const current = this.state.get(provider);
    // calls that were already in flight when the first failure came in do not lengthen the backoff again
    if (current && current.until > now) {
      current.until = Math.max(current.until, now + retryAfterMs);
      return current.until;
    }
    const failures = (current?.failures ?? 0) + 1;
    const until = now + Math.max(retryAfterMs, backoffDelay(failures, this.options.baseMs, this.options.capMs, this.options.random));
    this.state.set(provider, { failures, until });
    return until;
  }

  succeeded(provider: string): void {
    this.state.delete(provider);
  }
}
