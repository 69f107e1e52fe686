import { basicAuthorization, CarrierHttp, jsonOrUndefined } from '../carrier-http.js';
import { CarrierRefusedError, CarrierTransientError, GrantRevokedError } from '../errors.js';
import type { CarrierResponse } from '../http.js';
import type { CarrierContext, ChannelSettings, DeviceCodeIssued, DeviceFlowPoll, UserAuthorization, UserTokens } from '../types.js';
import type { AllegroAuthError } from './response.js';
import { allegroSettings, type AllegroSettings } from './settings.js';

/**
 * Allegro's OAuth2 endpoints (developer.allegro.pl/tutorials/uwierzytelnianie-i-autoryzacja-zlq9e75GdIR: device
 * flow, client_credentials, refresh) with the device authorization grant of RFC 8628. The app authenticates with
 * HTTP Basic `client_id:client_secret` on every call; parameters travel in the query, as Allegro's examples send them.
 */

/** Where the OAuth endpoints live (the OpenAPI's securitySchemes); a channel's baseUrl (the emulator) serves them too. */
export const ALLEGRO_OAUTH_URLS = { production: 'https://allegro.pl', sandbox: 'https://allegro.pl.allegrosandbox.pl' };

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
}

interface DeviceAnswer {
  device_code?: string;
  user_code?: string;
  verification_uri?: string;
  verification_uri_complete?: string;
  expires_in?: number;
  interval?: number;
}

/** Allegro refused the application's Client ID or Secret (401/400 `invalid_client`, or 401 `unauthorized`). */
export class AllegroAppRefused extends CarrierRefusedError {
  constructor(readonly reason: string) {
    super(`Allegro refused the credentials: ${reason}`, { 'settings.clientSecret': [`refused by Allegro: ${reason}`] });
  }
}

function oauthBase(settings: AllegroSettings): string {
  return settings.baseUrl ?? (settings.sandboxMode ? ALLEGRO_OAUTH_URLS.sandbox : ALLEGRO_OAUTH_URLS.production);
}

function reasonOf(body: AllegroAuthError | undefined, status: number): string {
  return body?.error_description || body?.error || `HTTP ${status}`;
}

/** The OAuth calls of one channel's application; `secrets` (a refresh token, a device code) never reach a trace. */
class AllegroOAuth {
  private readonly http: CarrierHttp;
  private readonly authorization: Record<string, string>;

  constructor(readonly settings: AllegroSettings, ctx: CarrierContext, secrets: readonly string[] = []) {
    this.http = new CarrierHttp('allegro', oauthBase(settings), ctx, [settings.clientSecret, ...secrets]);
    this.authorization = basicAuthorization(settings.clientId, settings.clientSecret);
  }

  async post(path: string, query: Record<string, string>, form?: Record<string, string>): Promise<CarrierResponse> {
    const search = new URLSearchParams(query).toString();
    const res = await this.http.call('POST', search ? `${path}?${search}` : path, {
      headers: { ...this.authorization, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form ?? {}),
    });
    const body = jsonOrUndefined<AllegroAuthError>(res);
    if (res.status === 401 || body?.error === 'invalid_client' || body?.error === 'unauthorized_client') throw new AllegroAppRefused(reasonOf(body, res.status));
    return res;
  }
}

function tokensOf(res: CarrierResponse): UserTokens {
  const body = jsonOrUndefined<TokenAnswer>(res);
  if (!body?.access_token || !body.refresh_token) throw new CarrierTransientError(`Allegro answered a token request with HTTP ${res.status} and no tokens`);
  return { accessToken: body.access_token, refreshToken: body.refresh_token, expiresInSeconds: body.expires_in ?? 0 };
}

/** `POST /auth/oauth/token?grant_type=client_credentials`: the application's own credentials, no person needed. */
export async function checkApplicationCredentials(settings: AllegroSettings, ctx: CarrierContext): Promise<void> {
  const res = await new AllegroOAuth(settings, ctx).post('/auth/oauth/token', { grant_type: 'client_credentials' });
  if (res.status !== 200) throw new AllegroAppRefused(reasonOf(jsonOrUndefined<AllegroAuthError>(res), res.status));
}

async function startDeviceFlow(settings: ChannelSettings, ctx: CarrierContext): Promise<DeviceCodeIssued> {
  const parsed = allegroSettings.parse(settings);
  const res = await new AllegroOAuth(parsed, ctx).post('/auth/oauth/device', {}, { client_id: parsed.clientId });
  const body = jsonOrUndefined<DeviceAnswer & AllegroAuthError>(res);
  if (res.status !== 200) throw new AllegroAppRefused(reasonOf(body, res.status));
  if (!body?.device_code || !body.user_code || !body.verification_uri) throw new CarrierTransientError('Allegro answered the device authorization without a code');
  return {
    deviceCode: body.device_code, userCode: body.user_code, verificationUri: body.verification_uri,
    verificationUriComplete: body.verification_uri_complete ?? null, expiresInSeconds: body.expires_in ?? 0, intervalSeconds: body.interval ?? 5,
  };
}

/** RFC 8628 §3.5 error codes; an unknown or used device code counts as expired: the person must start again. */
async function pollDeviceFlow(settings: ChannelSettings, deviceCode: string, ctx: CarrierContext): Promise<DeviceFlowPoll> {
  const oauth = new AllegroOAuth(allegroSettings.parse(settings), ctx, [deviceCode]);
  const res = await oauth.post('/auth/oauth/token', { grant_type: DEVICE_GRANT, device_code: deviceCode });
  if (res.status === 200) return { state: 'granted', tokens: tokensOf(res) };
  const body = jsonOrUndefined<AllegroAuthError>(res);
  switch (body?.error) {
    case 'authorization_pending': return { state: 'pending' };
    case 'slow_down': return { state: 'slow_down' };
    case 'access_denied': return { state: 'denied', message: `Allegro: ${reasonOf(body, res.status)}` };
    default: return { state: 'expired' };
  }
}

/** `grant_type=refresh_token`: Allegro hands out a new refresh token each time; `invalid_grant` means the grant is gone. */
async function refresh(settings: ChannelSettings, refreshToken: string, ctx: CarrierContext): Promise<UserTokens> {
  const oauth = new AllegroOAuth(allegroSettings.parse(settings), ctx, [refreshToken]);
  const res = await oauth.post('/auth/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshToken });
  if (res.status === 200) return tokensOf(res);
  const body = jsonOrUndefined<AllegroAuthError>(res);
  if (body?.error === 'invalid_grant' || body?.error === 'invalid_token') throw new GrantRevokedError(`Allegro no longer honours the grant: ${reasonOf(body, res.status)}`);
  throw new CarrierRefusedError(`Allegro refused to refresh the token: ${reasonOf(body, res.status)}`, { shipping_channel_id: [`Allegro: ${reasonOf(body, res.status)}`] });
}

export const allegroAuthorization: UserAuthorization = { startDeviceFlow, pollDeviceFlow, refresh };
