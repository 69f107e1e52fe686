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
  /** Return an HTTP 500 that carries a SOAP Fault instead of throwing it as an outage. */
  soapFaults?: boolean;
}

export interface TokenGrant {
  token: string;
  expiresInSeconds: number;
}

/** How a carrier hands out tokens (OAuth access tokens, login sessions). */
export interface TokenSource {
  /** Values that tell one login from another (user, secret …): part of the cache key, never logged. */
  credentials: readonly string[];
  fetchToken(http: CarrierHttp): Promise<TokenGrant>;
}

/** A token source whose token travels in HTTP headers. */
export interface TokenAuth extends TokenSource {
  /** The headers that carry the token on a call. */
  present(token: string): Record<string, string>;
}

/** Thrown by a call that the carrier refused for its token (expired early, revoked): a fresh token gets one more try. */
export class TokenRejected extends Error {
  constructor() {
    super('the carrier refused the token');
    this.name = 'TokenRejected';
  }
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
    const request = { method, url: this.url(path), headers, body, timeoutMs: this.ctx.timeoutMs, soapFaults: init.soapFaults };
    return this.fetch(this.ctx.log, this.provider, request, this.secrets);
  }

  /**
   * Runs `use` with the channel's cached token. When `use` throws TokenRejected on its first run, the token is
   * forgotten and `use` runs once more with a new one (`retried` true). Concurrent calls share one token request.
   */
  async withToken<T>(auth: TokenSource, use: (token: string, retried: boolean) => Promise<T>): Promise<T> {
    const fingerprint = createHash('sha256').update([this.provider, this.base, ...auth.credentials].join('\n')).digest('hex');
    const key = `${this.ctx.channelId}:${fingerprint}`;
    const token = () => tokens.get(key, () => this.ctx.clock.now(), () => auth.fetchToken(this));
    const first = await token();
    try {
      return await use(first, false);
    } catch (err) {
      if (!(err instanceof TokenRejected)) throw err;
      tokens.invalidate(key, first);
    }
    return use(await token(), true);
  }

  /** A call with the cached token in its headers; a 401 on the first try is a token that died early. */
  authed(auth: TokenAuth, method: string, path: string, init: CarrierCall = {}): Promise<CarrierResponse> {
    return this.withToken(auth, async (token, retried) => {
      const res = await this.call(method, path, { ...init, headers: { ...init.headers, ...auth.present(token) } });
      if (res.status === 401 && !retried) throw new TokenRejected();
      return res;
    });
  }

  /**
   * A call for the person who authorised the channel (`ctx.grant`): their access token as a Bearer. A 401 on the
   * first try means the token died early: it is refreshed once and the call repeated.
   */
  async asUser(method: string, path: string, init: CarrierCall = {}): Promise<CarrierResponse> {
    const grant = this.ctx.grant;
    if (!grant) throw new Error(`${this.provider} calls need a channel grant, and this context has none`);
    const send = (token: string) => this.call(method, path, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
    const first = await grant.accessToken();
    const res = await send(first);
    if (res.status !== 401) return res;
    await grant.refused(first);
    return send(await grant.accessToken());
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
