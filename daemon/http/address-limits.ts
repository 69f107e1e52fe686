import { createHash } from 'node:crypto';
import type { Clock } from '../../src/domain/clock.js';
import { RateLimitedError } from '../../src/domain/errors.js';
import { MemoryRateLimiter } from './rate-limit.js';
import type { HttpLimits } from './limits.js';

/** Keys that authenticated, remembered (as hashes) so an address refused for wrong keys still passes with a right one. */
const MAX_KNOWN_KEYS = 1_000;

const hashOf = (credentials: string) => createHash('sha256').update(credentials).digest('hex');

/**
 * Limits per remote address, counted in this daemon's memory (daemons sharing a store each count their own): desk
 * sign-ins, and requests whose API key does not authenticate. Both maps are bounded, however many addresses come.
 */
export class AddressLimits {
  private readonly signIns: MemoryRateLimiter;
  private readonly failedKeys: MemoryRateLimiter;
  private readonly knownKeys = new Set<string>();

  constructor(clock: Clock, private readonly limits: Pick<HttpLimits, 'signInsPerMinute' | 'failedKeysPerMinute'>) {
    this.signIns = new MemoryRateLimiter(clock);
    this.failedKeys = new MemoryRateLimiter(clock);
  }

  /** Counts a sign-in attempt; one over the address's limit is a 429. */
  async signIn(address: string): Promise<void> {
    const decision = await this.signIns.take(address, this.limits.signInsPerMinute);
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfter);
  }

  /**
   * Before `credentials` (the Authorization header) are checked: an address that sent too many wrong ones this minute
   * is refused without checking, so guessing learns nothing; credentials that authenticated before still pass.
   */
  admit(address: string, credentials: string): void {
    const decision = this.failedKeys.peek(address, this.limits.failedKeysPerMinute);
    if (!decision.allowed && !this.knownKeys.has(hashOf(credentials))) throw new RateLimitedError(decision.retryAfter);
  }

  async failed(address: string): Promise<void> {
    await this.failedKeys.take(address, this.limits.failedKeysPerMinute);
  }

  authenticated(credentials: string): void {
    const hash = hashOf(credentials);
    if (this.knownKeys.has(hash)) return;
    this.knownKeys.add(hash);
    if (this.knownKeys.size > MAX_KNOWN_KEYS) this.knownKeys.delete(this.knownKeys.values().next().value!);
  }
}
