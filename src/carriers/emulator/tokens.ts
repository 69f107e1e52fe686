import { randomBytes } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';

export type TokenRequestVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const MINUTE_MS = 60_000;

/** Tokens an emulated carrier hands out: each lives `lifetimeSeconds`, and a caller may ask `perMinute` times a minute. */
export class EmulatedTokens {
  private tokens = new Map<string, { owner: string; expiresAt: number }>();
  private requests = new Map<string, number[]>();

  constructor(private readonly clock: Clock, readonly lifetimeSeconds: number, private readonly perMinute = Infinity) {}

  /** Counts a token request against the caller's allowance. */
  countRequest(owner: string): TokenRequestVerdict {
    const now = this.clock.now();
    const recent = (this.requests.get(owner) ?? []).filter((at) => at > now - MINUTE_MS);
    if (recent.length >= this.perMinute) {
      this.requests.set(owner, recent);
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0]! + MINUTE_MS - now) / 1000)) };
    }
    this.requests.set(owner, [...recent, now]);
    return { allowed: true };
  }

  issue(owner: string): string {
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, { owner, expiresAt: this.clock.now() + this.lifetimeSeconds * 1000 });
    return token;
  }

  /** Whose live token this is; undefined when unknown or expired. */
  ownerOf(token: string): string | undefined {
    const entry = this.tokens.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt > this.clock.now()) return entry.owner;
    this.tokens.delete(token);
    return undefined;
  }

  /** Every token stops working at once (the `expire_tokens` fault). */
  expireAll(): void {
    this.tokens.clear();
  }

  reset(): void {
    this.tokens.clear();
    this.requests.clear();
  }
}
