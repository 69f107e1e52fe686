import { createHash } from 'node:crypto';
import { carrierFetch, joinUrl, type CarrierFetch, type CarrierResponse } from './http.js';
import { TokenCache } from './tokens.js';
import type { CarrierContext } from './types.js';

export interface CarrierCall {
  headers?: Record<string, string>;
  /** Text or form body, sent as is. */
  body?: string | URLSearchParams;
  /** A JSON body: serialised, with `content-type: application/json`. */
  json?: unknown;
}

export interface TokenGrant {
  token: string;
  expiresInSeconds: number;
}

/** How a carrier hands out tokens and how a call presents one. */
export interface TokenAuth {
  /** Values that tell one login from another (user, secret …): part of the cache key, never logged. */
  credentials: readonly string[];
  fetchToken(http: CarrierHttp): Promise<TokenGrant>;
  /** The headers that carry the token on a call. */
  present(token: string): Record<string, string>;
}

/** One token per channel, credentials and base URL, shared by every carrier; renewed shortly before it expires. */
const tokens = new TokenCache();

/**
 * A channel's view of one carrier's API: calls relative to its base URL, with the channel's time limit and the
 * channel's secrets redacted from every trace. Clients are thin: one method per carrier operation on top of this.
 */
export class CarrierHttp {
  constructor(
    readonly provider: string,
    readonly base: string,
    readonly ctx: CarrierContext,
    private readonly secrets: readonly string[],
    private readonly fetch: CarrierFetch = carrierFetch,
  ) {}

  url(path: string): string {
    return /^https?:\/\//.test(path) ? path : joinUrl(this.base, path);
  }

  call(method: string, path: string, init: CarrierCall = {}): Promise<CarrierResponse> {
    const headers = { ...init.headers, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) };
    const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
    return this.fetch(this.ctx.log, this.provider, { method, url: this.url(path), headers, body, timeoutMs: this.ctx.timeoutMs }, this.secrets);
  }

  /**
   * A call with a cached token; a 401 means the token died early (expired, revoked): forget it and try once more
   * with a new one. Concurrent calls of one channel share one token request.
   */
  async authed(auth: TokenAuth, method: string, path: string, init: CarrierCall = {}): Promise<CarrierResponse> {
    const fingerprint = createHash('sha256').update([this.provider, this.base, ...auth.credentials].join('\n')).digest('hex');
    const key = `${this.ctx.channelId}:${fingerprint}`;
    for (let attempt = 1; ; attempt++) {
      const token = await tokens.get(key, () => this.ctx.clock.now(), () => auth.fetchToken(this));
      const res = await this.call(method, path, { ...init, headers: { ...init.headers, ...auth.present(token) } });
      if (res.status !== 401 || attempt === 2) return res;
      tokens.invalidate(key, token);
    }
  }
}

/** `Authorization: Basic …` for a user and password (RFC 7617, UTF-8). */
export function basicAuthorization(user: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}` };
}

/** A carrier answer's JSON, or undefined when it is not JSON (an HTML error page, an empty body). */
export function jsonOrUndefined<T>(res: CarrierResponse): T | undefined {
  try {
    return res.json<T>();
  } catch {
    return undefined;
  }
}
