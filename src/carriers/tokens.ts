interface CachedToken {
  token: string;
  expiresAt: number;
}

/** Renew this long before a token expires, so a call never starts with a token about to die. */
const RENEW_MARGIN_MS = 60_000;

/**
 * Per-channel OAuth token cache: one token per key (channel + credentials) until shortly before it expires.
 * Concurrent callers share one in-flight token request.
 */
export class TokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly pending = new Map<string, Promise<string>>();

  async get(key: string, now: () => number, fetchToken: () => Promise<{ token: string; expiresInSeconds: number }>): Promise<string> {
    const cached = this.tokens.get(key);
    if (cached && cached.expiresAt - RENEW_MARGIN_MS > now()) return cached.token;
    let inflight = this.pending.get(key);
    if (!inflight) {
      inflight = fetchToken()
        .then(({ token, expiresInSeconds }) => {
          this.tokens.set(key, { token, expiresAt: now() + expiresInSeconds * 1000 });
          return token;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, inflight);
    }
    return inflight;
  }

  /** The carrier refused the token (expired early, revoked): forget it. */
  invalidate(key: string, token?: string): void {
    if (token === undefined || this.tokens.get(key)?.token === token) this.tokens.delete(key);
  }
}
