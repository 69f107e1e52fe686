import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../../src/domain/errors.js';
import { deskSessionOf, type DeskSession } from '../../src/services/desk-sessions.js';
import type { ServiceContext } from '../../src/services/context.js';
import type { DaemonOrigins } from '../http/origins.js';

/**
 * The desk's session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site sends it). Browsers share
 * cookies across a host's ports, so the name carries the port: two stations on one host keep their own sessions.
 */
export function deskCookieName(request: FastifyRequest): string {
  return `packdesk_session_${request.port ?? (request.protocol === 'https' ? 443 : 80)}`;
}
const CSRF_HEADER = 'x-csrf-token';

/** The value of one cookie in the request's Cookie header. */
export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function setDeskCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: number, now: number): void {
  const maxAge = Math.max(0, Math.floor((expiresAt - now) / 1000));
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header('Set-Cookie', `${deskCookieName(request)}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`);
}

export function clearDeskCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('Set-Cookie', `${deskCookieName(request)}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
}

const digest = (text: string) => createHash('sha256').update(text).digest();
// digests have one length whatever was sent (a header's non-ASCII character is more bytes than it is characters)
const sameText = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/**
 * The desk session of a request that carries the cookie and no API key. A change (`write`) must also carry the
 * session's CSRF token in X-CSRF-Token and, when the browser names an Origin, come from one of the daemon's origins.
 */
export async function deskSessionOfRequest(
  ctx: ServiceContext, request: FastifyRequest, write: boolean, origins: DaemonOrigins,
): Promise<DeskSession | undefined> {
  const token = cookieValue(request, deskCookieName(request));
  if (token === undefined) return undefined;
  const session = await deskSessionOf(ctx, token);
  if (write) {
    const presented = request.headers[CSRF_HEADER];
    if (typeof presented !== 'string' || !sameText(presented, session.csrfToken)) {
      throw new ForbiddenError('A change from the desk needs its X-CSRF-Token header; reload the page.');
    }
    const origin = request.headers.origin;
    if (typeof origin === 'string' && !origins.includes(origin)) {
      throw new ForbiddenError(`A change from the desk must come from the desk's own page, not ${origin}.`);
    }
  }
  return session;
}
