/**
 * Allegro's OAuth2 server as the emulator plays it: `POST /auth/oauth/device` and `POST /auth/oauth/token` with the
 * device_code (RFC 8628), refresh_token and client_credentials grants, HTTP Basic client authentication, errors in
 * Allegro's OAuth shape (`{error, error_description}`). Access tokens live briefly; refresh tokens rotate (a used one
 * answers `invalid_grant`). Control endpoints approve or deny a pending code and revoke every grant.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../domain/clock.js';
import { ANONYMOUS, basicCredentials, bearerToken, isBadCredential } from '../emulator/auth.js';
import { EmulatedTokens } from '../emulator/tokens.js';

/** Short on purpose (Allegro's last 12 hours), so packdesk's refresh is exercised. */
const ACCESS_TOKEN_SECONDS = 600;
const DEVICE_CODE_SECONDS = 3600;
const POLL_INTERVAL_SECONDS = 5;
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const USER_CODE_LETTERS = 'abcdefghjkmnpqrstuvwxyz23456789';
/** Whoever approves a code in the emulator acts as this seller, so every grant sees the same shipments. */
export const EMULATED_SELLER = 'emulated-seller';

interface DeviceCode {
  userCode: string;
  clientId: string;
  state: 'pending' | 'approved' | 'denied';
  expiresAt: number;
  lastPollAt?: number;
}

interface Grant {
  clientId: string;
  revoked: boolean;
}

/** Who a bearer token speaks for: the seller (a person's grant) or only the application (client_credentials). */
export type AllegroCaller = { kind: 'user'; seller: string } | { kind: 'app'; clientId: string };

function secret(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

function userCode(): string {
  return Array.from(randomBytes(8), (b) => USER_CODE_LETTERS[b % USER_CODE_LETTERS.length]).join('');
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').send({ error, error_description: description });
}

export class EmulatedAllegroOAuth {
  private readonly tokens: EmulatedTokens;
  private devices = new Map<string, DeviceCode>();
  private grants = new Map<string, Grant>();
  /** Refresh token → its grant; deleted once used, since Allegro's refresh tokens rotate. */
  private refreshTokens = new Map<string, string>();
  private refreshes = 0;

  constructor(private readonly clock: Clock) {
    this.tokens = new EmulatedTokens(clock, ACCESS_TOKEN_SECONDS);
  }

  /** Every access token dies (the `expire_tokens` fault); refresh tokens still work. */
  expireAccessTokens(): void {
    this.tokens.expireAll();
  }

  reset(): void {
    this.tokens.reset();
    this.devices.clear();
    this.grants.clear();
    this.refreshTokens.clear();
    this.refreshes = 0;
  }

  /** The caller of an API request, or undefined for a missing, unknown, expired or revoked token. */
  callerOf(request: FastifyRequest): AllegroCaller | undefined {
    const token = bearerToken(request.headers.authorization);
    const owner = token ? this.tokens.ownerOf(token) : undefined;
    if (owner === undefined) return undefined;
    if (owner.startsWith('app:')) return { kind: 'app', clientId: owner.slice(4) };
    return this.grants.get(owner)?.revoked === false ? { kind: 'user', seller: EMULATED_SELLER } : undefined;
  }

  private tokenAnswer(owner: string, refreshToken?: string): Record<string, unknown> {
    return {
      access_token: this.tokens.issue(owner), token_type: 'bearer', expires_in: ACCESS_TOKEN_SECONDS - 1,
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      scope: 'allegro:api:shipments:read allegro:api:shipments:write', allegro_api: true, jti: secret(12),
    };
  }

  private issueRefreshToken(grantId: string): string {
    const token = secret(32);
    this.refreshTokens.set(token, grantId);
    return token;
  }

  /** `/auth/oauth/device` and `/auth/oauth/token`, mounted with the carrier's routes. */
  readonly routes: FastifyPluginAsync = async (app) => {
    const clientOf = (request: FastifyRequest, reply: FastifyReply): string | undefined => {
      const basic = basicCredentials(request.headers.authorization);
      if (basic?.user && basic.password && !isBadCredential(basic.user, basic.password)) return basic.user;
      void oauthError(reply, 401, 'invalid_client', 'Bad client credentials');
      return undefined;
    };
    const paramsOf = (request: FastifyRequest) => ({
      ...(request.query as Record<string, string>), ...((request.body ?? {}) as Record<string, string>),
    });

    app.post('/auth/oauth/device', ANONYMOUS, async (request, reply) => {
      const clientId = clientOf(request, reply);
      if (clientId === undefined) return reply;
      if (paramsOf(request).client_id !== clientId) return oauthError(reply, 400, 'invalid_request', 'client_id does not match the client credentials');
      const code = userCode();
      const deviceCode = secret(32);
      this.devices.set(deviceCode, { userCode: code, clientId, state: 'pending', expiresAt: this.clock.now() + DEVICE_CODE_SECONDS * 1000 });
      const page = `http://${request.headers.host}/allegro/skojarz-aplikacje`;
      return {
        device_code: deviceCode, user_code: code, verification_uri: page, verification_uri_complete: `${page}?code=${code}`,
        expires_in: DEVICE_CODE_SECONDS, interval: POLL_INTERVAL_SECONDS,
      };
    });

    app.post('/auth/oauth/token', ANONYMOUS, async (request, reply) => {
      const clientId = clientOf(request, reply);
      if (clientId === undefined) return reply;
      const params = paramsOf(request);
      switch (params.grant_type) {
        case 'client_credentials': return this.tokenAnswer(`app:${clientId}`);
        case DEVICE_GRANT: return this.deviceToken(clientId, params.device_code ?? '', reply);
        case 'refresh_token': return this.refreshToken(clientId, params.refresh_token ?? '', reply);
        default: return oauthError(reply, 400, 'unsupported_grant_type', `Unsupported grant type: ${params.grant_type ?? ''}`);
      }
    });

    // What verification_uri shows: the emulator's stand-in for allegro.pl/skojarz-aplikacje.
    app.get('/skojarz-aplikacje', ANONYMOUS, async (request, reply) => {
      const code = String((request.query as { code?: string }).code ?? '').replace(/[^a-z0-9]/g, '');
      return reply.type('text/html; charset=utf-8').send(`<!doctype html><title>Allegro (emulator)</title>
<form method="post" action="/_emulator/allegro/device/${code}/approve"><p>Connect the application with code <b>${code}</b>?</p><button>Approve</button></form>
<form method="post" action="/_emulator/allegro/device/${code}/deny"><button>Deny</button></form>`);
    });
  };

  private deviceToken(clientId: string, deviceCode: string, reply: FastifyReply): FastifyReply | Record<string, unknown> {
    const device = this.devices.get(deviceCode);
    if (!device || device.clientId !== clientId) return oauthError(reply, 400, 'invalid_grant', 'Invalid device code');
    const now = this.clock.now();
    if (device.expiresAt <= now) {
      this.devices.delete(deviceCode);
      return oauthError(reply, 400, 'expired_token', 'Device code expired');
    }
    if (device.state === 'denied') {
      this.devices.delete(deviceCode);
      return oauthError(reply, 400, 'access_denied', 'The user denied access to the application');
    }
    if (device.state === 'approved') {
      this.devices.delete(deviceCode);
      const grantId = secret(12);
      this.grants.set(grantId, { clientId, revoked: false });
      return this.tokenAnswer(grantId, this.issueRefreshToken(grantId));
    }
    const tooSoon = device.lastPollAt !== undefined && now - device.lastPollAt < POLL_INTERVAL_SECONDS * 1000;
    device.lastPollAt = now;
    return tooSoon ? oauthError(reply, 400, 'slow_down', 'Polling too frequently') : oauthError(reply, 400, 'authorization_pending', 'Authorization pending');
  }

  private refreshToken(clientId: string, refreshToken: string, reply: FastifyReply): FastifyReply | Record<string, unknown> {
    const grantId = this.refreshTokens.get(refreshToken);
    const grant = grantId ? this.grants.get(grantId) : undefined;
    if (!grantId || !grant || grant.revoked || grant.clientId !== clientId) {
      return oauthError(reply, 400, 'invalid_grant', 'Invalid refresh token');
    }
    this.refreshTokens.delete(refreshToken);
    this.refreshes++;
    return this.tokenAnswer(grantId, this.issueRefreshToken(grantId));
  }

  /** Mounted under `/_emulator/allegro`: what the person does on allegro.pl, and what tests read. */
  readonly control: FastifyPluginAsync = async (app) => {
    const decide = (state: 'approved' | 'denied') => async (request: FastifyRequest, reply: FastifyReply) => {
      const { userCode: code } = request.params as { userCode: string };
      const device = [...this.devices.values()].find((d) => d.userCode === code && d.state === 'pending' && d.expiresAt > this.clock.now());
      if (!device) return reply.code(404).send({ error: `no pending device code with user code ${code}` });
      device.state = state;
      return { userCode: code, state };
    };
    app.post('/device/:userCode/approve', decide('approved'));
    app.post('/device/:userCode/deny', decide('denied'));
    app.post('/grants/revoke', async () => {
      const live = [...this.grants.values()].filter((g) => !g.revoked);
      for (const grant of live) grant.revoked = true;
      this.refreshTokens.clear();
      return { revoked: live.length };
    });
    app.get('/oauth', async () => ({
      refreshes: this.refreshes,
      pendingDeviceCodes: [...this.devices.values()].filter((d) => d.state === 'pending' && d.expiresAt > this.clock.now()).length,
    }));
  };
}
