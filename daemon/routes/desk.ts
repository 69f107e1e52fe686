import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { isoTime } from '../../src/domain/clock.js';
import { UnauthorizedError } from '../../src/domain/errors.js';
import type { ServiceContext } from '../../src/services/context.js';
import {
  createDeskLoginLink, endDeskSession, openDeskSession, redeemDeskLoginLink, type DeskSession,
} from '../../src/services/desk-sessions.js';
import { caller } from '../http/conventions.js';
import type { DaemonOrigins } from '../http/origins.js';
import { Envelope, errorResponses, Timestamp } from '../http/schemas.js';
import { clearDeskCookie, setDeskCookie } from '../desk/cookie.js';

const tags = ['Desk'];

const DeskSessionSchema = Type.Object({
  account: Type.Object({ id: Type.String(), name: Type.String() }),
  scope: Type.String({ enum: ['full', 'read_only'], description: 'read_only: the desk shows everything and changes nothing' }),
  csrf_token: Type.String({ description: 'Sent back in X-CSRF-Token with every change the page makes' }),
  expires_at: Timestamp,
  station: Type.String({ description: 'The station of the daemon serving the desk: the desk works with its settings (GET /v1/stations/{name}/settings)' }),
});

const presentSession = (session: DeskSession, station: string) => ({
  account: { id: session.caller.account.id, name: session.caller.account.name },
  scope: session.caller.scope,
  csrf_token: session.csrfToken,
  expires_at: isoTime(session.expiresAt),
  station,
});

function deskSession(request: FastifyRequest): DeskSession {
  if (!request.deskSession) throw new UnauthorizedError('This request was not made from a signed-in desk.');
  return request.deskSession;
}

/** The browser desk's sign-in: a session cookie in exchange for an API key, or for a one-time link. */
export function deskRoutes(ctx: ServiceContext, origins: DaemonOrigins): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/desk/sessions', {
      config: { public: true, signIn: true },
      schema: {
        tags, operationId: 'openDeskSession', security: [],
        summary: 'Sign a browser in to the desk with an API key (sets an HttpOnly, SameSite=Strict session cookie)',
        body: Type.Object({ api_key: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 201: Envelope(DeskSessionSchema), ...errorResponses(400, 401, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const session = await openDeskSession(ctx, request.body.api_key.trim());
      setDeskCookie(request, reply, session.token, session.expiresAt, ctx.clock.now());
      return reply.code(201).send({ data: presentSession(session, ctx.station), message: 'Signed in' });
    });

    app.get('/v1/desk/session', {
      schema: {
        tags, operationId: 'getDeskSession', summary: 'The desk session of this browser: account, scope and CSRF token',
        response: { 200: Envelope(DeskSessionSchema), ...errorResponses(401, 429) },
      },
    }, async (request) => ({ data: presentSession(deskSession(request), ctx.station), message: 'Desk session retrieved' }));

    app.delete('/v1/desk/session', {
      config: { anyScope: true },
      schema: {
        tags, operationId: 'endDeskSession', summary: 'Sign this browser out of the desk',
        response: { 204: Type.Null(), ...errorResponses(401, 403, 429) },
      },
    }, async (request, reply) => {
      await endDeskSession(ctx, deskSession(request).id);
      clearDeskCookie(request, reply);
      return reply.code(204).send(null);
    });

    app.post('/v1/desk/login-links', {
      config: { anyScope: true, answerHoldsSecret: true },
      schema: {
        tags, operationId: 'createDeskLoginLink',
        summary: 'A one-time link that opens the desk signed in with the calling key (valid 5 minutes)',
        description: 'The link is on one of the daemon\'s own origins (never a Host header\'s). It is shown once: an Idempotency-Key is not replayed here, a retry makes a new link.',
        response: {
          201: Envelope(Type.Object({ url: Type.String(), expires_at: Timestamp })),
          ...errorResponses(401, 403, 429),
        },
      },
    }, async (request, reply) => {
      const link = await createDeskLoginLink(ctx, caller(request));
      const url = `${origins.linkOrigin(request.protocol, request.host)}/desk/login?token=${link.token}`;
      return reply.code(201).send({ data: { url, expires_at: isoTime(link.expiresAt) }, message: 'Sign-in link created' });
    });

    app.get('/desk/login', {
      config: { public: true, signIn: true },
      schema: { hide: true, querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) }) },
    }, async (request, reply) => {
      // a link preview asks with HEAD: only a GET uses the one-time link up
      if (request.method !== 'GET') return reply.code(204).header('cache-control', 'no-store').send();
      try {
        const session = await redeemDeskLoginLink(ctx, request.query.token ?? '');
        setDeskCookie(request, reply, session.token, session.expiresAt, ctx.clock.now());
        return reply.redirect('/', 303);
      } catch (err) {
        if (!(err instanceof UnauthorizedError)) throw err;
        return reply.redirect('/?link=expired', 303);
      }
    });
  };
}
