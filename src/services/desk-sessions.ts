import { randomBase62 } from '../domain/ids.js';
import { UnauthorizedError } from '../domain/errors.js';
import { deskSessions } from '../store/schema.js';
import { authenticate, hashApiKey, type AccountRow, type Caller, type KeyScope } from './accounts.js';
import type { ServiceContext } from './context.js';

/** A desk stays signed in for a working day (and a bit); then the key is asked for again. */
export const DESK_SESSION_TTL_MS = 12 * 3600_000;
/** A login link printed by `packdesk desk` or the demo works once, within this time. */
export const DESK_LOGIN_LINK_TTL_MS = 5 * 60_000;

export interface DeskSession {
  id: string;
  csrfToken: string;
  expiresAt: number;
  caller: Caller;
}

/** What the browser keeps: the cookie's token, shown only here. */
export interface OpenedDeskSession extends DeskSession {
  token: string;
}

const newToken = () => randomBase62(43);

/** Signs a browser in with an API key: a new session bound to that key. Unknown or revoked keys are a 401. */
export async function openDeskSession(ctx: ServiceContext, apiKey: string): Promise<OpenedDeskSession> {
  const caller = await authenticate(ctx, apiKey);
  const token = newToken();
  const now = ctx.clock.now();
  const row = {
    id: ctx.ids('deskSession'), apiKeyId: caller.keyId, tokenHash: hashApiKey(token), linkHash: null, linkExpiresAt: null,
    csrfToken: newToken(), createdAt: now, expiresAt: now + DESK_SESSION_TTL_MS,
  };
  await ctx.db.insert(deskSessions).values(row).run();
  return { id: row.id, csrfToken: row.csrfToken, expiresAt: row.expiresAt, caller, token };
}

/** A one-time link that signs a browser in as the caller's key (for `packdesk desk` and the demo). */
export async function createDeskLoginLink(ctx: ServiceContext, caller: Caller): Promise<{ token: string; expiresAt: number }> {
  const token = newToken();
  const now = ctx.clock.now();
  const expiresAt = now + DESK_LOGIN_LINK_TTL_MS;
  await ctx.db.insert(deskSessions).values({
    id: ctx.ids('deskSession'), apiKeyId: caller.keyId, tokenHash: null, linkHash: hashApiKey(token), linkExpiresAt: expiresAt,
    csrfToken: newToken(), createdAt: now, expiresAt,
  }).run();
  return { token, expiresAt };
}

const SESSION_BY = (column: 'token_hash' | 'link_hash') => `SELECT s.id AS "sessionId", s.csrf_token AS "csrfToken", s.expires_at AS "expiresAt",
    s.link_expires_at AS "linkExpiresAt", k.id AS "keyId", k.scope, a.id, a.name, a.plan, a.rate_limit AS "rateLimit", a.created_at AS "createdAt"
  FROM desk_sessions s JOIN api_keys k ON k.id = s.api_key_id AND k.revoked_at IS NULL JOIN accounts a ON a.id = k.account_id
  WHERE s.${column} = ?`;

type SessionJoin = AccountRow & { sessionId: string; csrfToken: string; expiresAt: number; linkExpiresAt: number | null; keyId: string; scope: KeyScope };

function sessionOf(found: SessionJoin): DeskSession {
  const { sessionId, csrfToken, expiresAt, linkExpiresAt: _link, keyId, scope, ...account } = found;
  return { id: sessionId, csrfToken, expiresAt, caller: { account, keyId, scope } };
}

/** Exchanges a login link's token for a session (once); a used, expired or unknown link is a 401. */
export async function redeemDeskLoginLink(ctx: ServiceContext, linkToken: string): Promise<OpenedDeskSession> {
  const now = ctx.clock.now();
  // looked up and used up in one transaction: a link signs in one browser only
  return ctx.store.transaction(async () => {
    const found = linkToken ? await ctx.store.get<SessionJoin>(SESSION_BY('link_hash'), hashApiKey(linkToken)) : undefined;
    if (!found || (found.linkExpiresAt ?? 0) <= now) throw new UnauthorizedError('This sign-in link was used already or has expired; run packdesk desk again.');
    const token = newToken();
    const expiresAt = now + DESK_SESSION_TTL_MS;
    await ctx.store.run('UPDATE desk_sessions SET token_hash = ?, link_hash = NULL, link_expires_at = NULL, expires_at = ? WHERE id = ?',
      hashApiKey(token), expiresAt, found.sessionId);
    return { ...sessionOf({ ...found, expiresAt }), token };
  });
}

/** The session a cookie's token belongs to; expired sessions and those of revoked keys are a 401. */
export async function deskSessionOf(ctx: ServiceContext, token: string): Promise<DeskSession> {
  const found = token ? await ctx.store.get<SessionJoin>(SESSION_BY('token_hash'), hashApiKey(token)) : undefined;
  if (!found || found.expiresAt <= ctx.clock.now()) throw new UnauthorizedError('The desk session has ended; sign in again.');
  return sessionOf(found);
}

export async function endDeskSession(ctx: ServiceContext, sessionId: string): Promise<void> {
  await ctx.store.run('DELETE FROM desk_sessions WHERE id = ?', sessionId);
}
