import { createHash } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { ErrorObject } from 'ajv';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AppError, BadRequestError, FieldErrorCollector, ForbiddenError, ConflictError, RateLimitedError, UnauthorizedError,
} from '../../src/domain/errors.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { authenticate, type Caller } from '../../src/services/accounts.js';
import type { ServiceContext } from '../../src/services/context.js';
import type { DeskSession } from '../../src/services/desk-sessions.js';
import { withIdempotencyClaim, type IdempotencyClaim } from '../../src/services/idempotency.js';
import { IDEMPOTENCY_KEY_TTL_MS } from '../../src/services/retention.js';
import { idempotencyKeys } from '../../src/store/schema.js';
import { deskSessionOfRequest } from '../desk/cookie.js';
import { AddressLimits } from './address-limits.js';
import type { DaemonOrigins } from './origins.js';
import { rateLimiterFor } from './rate-limit.js';
import type { HttpLimits } from './limits.js';
import { fieldErrorsFromAjv, takeOutWrongTypes } from './validation.js';
import { VerifiedKeys } from './verified-keys.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
    /** The desk session the request was signed in with, when it came from the browser page. */
    deskSession?: DeskSession;
    /** Schema errors of the body, for routes that report them together with their own checks. */
    fieldErrors: FieldErrorCollector;
    idempotency?: IdempotencyClaim;
  }
  interface FastifyContextConfig {
    /** The handler merges body schema errors with its own checks (all errors at once). */
    mergeValidation?: boolean;
    /** No API key needed (discovery endpoints). */
    public?: boolean;
    /** A read-only key may call it although it is not a GET (signing a desk out, a sign-in link). */
    anyScope?: boolean;
    /** A desk sign-in: counted against the remote address's sign-in limit. */
    signIn?: boolean;
    /** The answer holds a one-time secret: it is never kept for an Idempotency-Key replay (a retry gets a new one). */
    answerHoldsSecret?: boolean;
  }
}

/** An idempotency row still marked in progress after this long belongs to a request that died (see also releaseIdempotencyKeysInProgress). */
const IDEMPOTENCY_ABANDONED_MS = 60_000;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const bearerKey = (header: string): string | undefined => /^Bearer\s+(\S+)$/i.exec(header)?.[1];

export function caller(request: FastifyRequest): Caller {
  if (!request.caller) throw new UnauthorizedError();
  return request.caller;
}

/** `1 MiB`, `64 MiB`: body limits as people say them. */
function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

function sendError(reply: FastifyReply, status: number, message: string, errors?: Record<string, string[]>) {
  return reply.code(status).type('application/json; charset=utf-8').send(errors ? { message, errors } : { message });
}

/** No field of the API nests deeper; a body that does is refused before anything walks it recursively. */
const MAX_BODY_DEPTH = 32;

/** True when `value` nests objects/arrays deeper than `limit` (iterative: a hostile body cannot overflow the stack). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** The error envelope for what fastify answers before a route runs (bad URL, over-long path segment). */
export function frameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, 414, 'A path segment is longer than 100 characters.');
  return sendError(reply, 400, 'The request URL is not valid.');
}

/** Errors of the HTTP parser itself (headers too large, a malformed request line), in the error envelope. */
export function clientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] = error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout', 'The request took too long to arrive.']
      : [400, 'Bad Request', 'The request is not valid HTTP.'];
  const body = JSON.stringify({ message });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

export interface ConventionOptions {
  /** Where the daemon is reached: the desk's changes must come from one of these origins. */
  origins: DaemonOrigins;
  limits: Pick<HttpLimits, 'signInsPerMinute' | 'failedKeysPerMinute'>;
}

/** Auth, scopes, rate limits, idempotency, error envelopes: the conventions of every /v1 request. */
export function registerConventions(app: FastifyInstance, ctx: ServiceContext, options: ConventionOptions): void {
  const limiter = rateLimiterFor(ctx.store, ctx.clock);
  const addressLimits = new AddressLimits(ctx.clock, options.limits);
  const verifiedKeys = new VerifiedKeys(ctx);
  app.addHook('onClose', async () => verifiedKeys.close());
  app.decorateRequest('fieldErrors', null as unknown as FieldErrorCollector);

  // fastify's own 503 while closing is outside the envelope (return503OnClosing is off): requests that still come are answered here
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
    ctx.log.info('draining: new requests are answered 503');
  });

  // JSON only: a JSON body sent as text/plain is refused (400), not read as a string that fails every field
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parseJson(request, body as string, (err, value) => {
      if (err) return done(err, undefined);
      if (nestsDeeperThan(value, MAX_BODY_DEPTH)) return done(new BadRequestError(`The request body nests deeper than ${MAX_BODY_DEPTH} levels.`), undefined);
      done(null, value);
    });
  });

  app.addHook('onRoute', (route) => {
    route.attachValidation = true;
    // the services a handler calls bind what they create to the request's Idempotency-Key (src/services/idempotency.ts)
    const handler = route.handler;
    route.handler = function handle(this: FastifyInstance, request, reply) {
      const claim = request.idempotency;
      return claim ? withIdempotencyClaim(claim, () => handler.call(this, request, reply)) : handler.call(this, request, reply);
    };
  });

  app.addHook('onRequest', (request, reply, done) => {
    if (draining) {
      sendError(reply.header('connection', 'close'), 503, 'The daemon is shutting down; retry in a moment.');
      return;
    }
    request.fieldErrors = new FieldErrorCollector();
    const known = knownCaller(request);
    // most requests come with a key verified before, of an account without a rate limit: they are admitted at once
    if (known && known.account.rateLimit == null) {
      request.caller = known;
      return done(scopeRefusal(request, known));
    }
    admit(request, reply, known).then(() => done(), done);
  });

  /** The caller of a key this daemon verified before, on a /v1 route that needs one; undefined when it must be checked. */
  function knownCaller(request: FastifyRequest): Caller | undefined {
    const header = request.headers.authorization;
    const config = request.routeOptions.config;
    if (header === undefined || config?.signIn || config?.public || !request.url.startsWith('/v1/') || request.is404) return undefined;
    const presented = bearerKey(header);
    return presented === undefined ? undefined : verifiedKeys.callerOf(presented);
  }

  async function admit(request: FastifyRequest, reply: FastifyReply, known: Caller | undefined): Promise<void> {
    const config = request.routeOptions.config;
    if (config?.signIn) await addressLimits.signIn(request.ip);
    if (!request.url.startsWith('/v1/') || request.is404 || config?.public) return;
    const header = request.headers.authorization;
    // the desk in a browser signs in with a session cookie instead of the key (daemon/desk/cookie.ts)
    const desk = header === undefined ? await deskSessionOfRequest(ctx, request, WRITE_METHODS.has(request.method), options.origins) : undefined;
    const who = desk?.caller ?? known ?? await authenticateKey(request, header);
    request.deskSession = desk;
    request.caller = who;
    const limit = who.account.rateLimit;
    if (limit != null) {
      const d = await limiter.take(who.account.id, limit);
      reply.header('X-RateLimit-Limit', d.limit).header('X-RateLimit-Remaining', d.remaining).header('X-RateLimit-Reset', d.reset);
      if (!d.allowed) throw new RateLimitedError(d.retryAfter);
    }
    const refusal = scopeRefusal(request, who);
    if (refusal) throw refusal;
  }

  function scopeRefusal(request: FastifyRequest, who: Caller): ForbiddenError | undefined {
    if (who.scope === 'read_only' && WRITE_METHODS.has(request.method) && !request.routeOptions.config?.anyScope) {
      return new ForbiddenError('This API key is read-only.');
    }
    return undefined;
  }

  /** The caller of an Authorization header; wrong keys count against the remote address, which then waits (429). */
  async function authenticateKey(request: FastifyRequest, header: string | undefined): Promise<Caller> {
    if (header === undefined) return authenticate(ctx, undefined);
    addressLimits.admit(request.ip, header);
    const presented = bearerKey(header);
    const checkBegan = verifiedKeys.checkBegins();
    try {
      const who = await authenticate(ctx, presented);
      addressLimits.authenticated(header);
      verifiedKeys.remember(presented!, who, checkBegan);
      return who;
    } catch (err) {
      if (err instanceof UnauthorizedError) await addressLimits.failed(request.ip);
      throw err;
    }
  }

  app.addHook('preHandler', async (request, reply) => {
    const v = request.validationError as (FastifyError & { validationContext?: string; validation?: unknown[] }) | undefined;
    if (v) {
      const context = v.validationContext ?? 'body';
      const errors = (v.validation ?? []) as ErrorObject[];
      request.fieldErrors.merge(fieldErrorsFromAjv(errors, context));
      // a handler merging its own checks reads only values of the schema's types
      const merge = context === 'body' && request.routeOptions.config?.mergeValidation && takeOutWrongTypes(request.body, errors, request.fieldErrors);
      if (!merge) request.fieldErrors.throwIfAny();
    }
    if (request.method === 'POST' && request.caller && !request.routeOptions.config?.answerHoldsSecret) return replayIdempotent(request, reply);
  });

  async function replayIdempotent(request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string') return;
    if (key.length === 0 || key.length > 255) throw new BadRequestError('Idempotency-Key must be 1 to 255 characters.');
    const { account: { id: accountId }, keyId: apiKeyId } = request.caller!;
    const now = ctx.clock.now();
    const requestHash = createHash('sha256')
      .update(`${request.method} ${request.url}\n${request.body === undefined ? '' : JSON.stringify(request.body)}`)
      .digest('hex');
    const where = and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key));
    const found = await ctx.db.select().from(idempotencyKeys).where(where).get();
    // a key past its replay window is forgotten; the retention worker deletes the others in batches
    if (found && now - found.createdAt >= IDEMPOTENCY_KEY_TTL_MS) await ctx.db.delete(idempotencyKeys).where(where).run();
    const existing = found && now - found.createdAt < IDEMPOTENCY_KEY_TTL_MS ? found : undefined;
    if (existing) {
      // an answer is for the key that asked: another key of the account (a read-only one) must not get it
      if (existing.apiKeyId !== apiKeyId) throw new ConflictError('This Idempotency-Key was used by another API key of this account.');
      if (existing.requestHash !== requestHash) {
        throw new ConflictError('This Idempotency-Key was already used with a different request.');
      }
      if (existing.responseStatus != null) {
        return reply.code(existing.responseStatus).header('Idempotent-Replayed', 'true')
          .type(existing.responseContentType ?? 'application/json; charset=utf-8').send(existing.responseBody ?? '');
      }
      // what the request created is bound to its key in the same transaction: it is there even if its answer is not
      if (existing.resourcePath !== null) return replayCreated(request, reply, existing.resourcePath);
      if (now - existing.createdAt < IDEMPOTENCY_ABANDONED_MS) {
        throw new ConflictError('A request with this Idempotency-Key is still in progress.');
      }
      await ctx.db.delete(idempotencyKeys).where(where).run();
    }
    // another request (on another daemon of a shared store) may have taken the key since it was looked up
    const taken = await ctx.db.insert(idempotencyKeys).values({ accountId, key, apiKeyId, requestHash, leaseOwner: ctx.daemonId, createdAt: now })
      .onConflictDoNothing().returning({ key: idempotencyKeys.key });
    if (taken.length === 0) throw new ConflictError('A request with this Idempotency-Key is still in progress.');
    request.idempotency = { key, accountId };
  }

  /**
   * Answers a request whose key created a resource before its answer was recorded (its daemon died, or it is still
   * finishing): that resource as it is now, and that answer is what later retries get.
   */
  async function replayCreated(request: FastifyRequest, reply: FastifyReply, path: string) {
    const headers = Object.fromEntries(['authorization', 'cookie'].filter((h) => request.headers[h] !== undefined).map((h) => [h, String(request.headers[h])]));
    const shown = await app.inject({ method: 'GET', url: path, headers });
    if (shown.statusCode !== 200) throw new ConflictError(`The request with this Idempotency-Key created ${path}, which is gone since.`);
    const body = JSON.stringify({ data: (shown.json() as { data: unknown }).data, message: 'Created by an earlier request with this Idempotency-Key' });
    const contentType = 'application/json; charset=utf-8';
    await ctx.db.update(idempotencyKeys).set({ responseStatus: 201, responseBody: body, responseContentType: contentType })
      .where(and(eq(idempotencyKeys.accountId, request.caller!.account.id), eq(idempotencyKeys.key, String(request.headers['idempotency-key'])), isNull(idempotencyKeys.responseStatus))).run();
    return reply.code(201).header('Idempotent-Replayed', 'true').type(contentType).send(body);
  }

  app.addHook('onSend', async (request, reply, payload) => {
    const idem = request.idempotency;
    if (!idem) return payload;
    request.idempotency = undefined;
    const where = and(eq(idempotencyKeys.accountId, idem.accountId), eq(idempotencyKeys.key, idem.key));
    if (reply.statusCode >= 500 || [409, 422, 429].includes(reply.statusCode)) {
      // nothing was done: the client may correct the request or retry with the same key
      await ctx.db.delete(idempotencyKeys).where(where).run();
    } else {
      await ctx.db.update(idempotencyKeys).set({
        responseStatus: reply.statusCode,
        responseBody: typeof payload === 'string' ? payload : payload == null ? '' : String(payload),
        responseContentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
      }).where(where).run();
    }
    return payload;
  });

  app.setErrorHandler((error: FastifyError & { validation?: unknown[]; validationContext?: string }, request, reply) => {
    if (error instanceof AppError) {
      if (error instanceof RateLimitedError) reply.header('Retry-After', error.retryAfterSeconds);
      const errors = 'errors' in error ? (error as { errors: Record<string, string[]> }).errors : undefined;
      return sendError(reply, error.status, error.message, errors);
    }
    if (error instanceof CarrierRefusedError) {
      // the carrier said no to what was asked (a cancel it cannot do now …): the request, not the daemon, failed
      return sendError(reply, 422, error.message, Object.keys(error.errors).length > 0 ? error.errors : { carrier: [error.message] });
    }
    if (error.validation) {
      return sendError(reply, 422, 'The given data was invalid.', fieldErrorsFromAjv(error.validation as never[], error.validationContext ?? 'body'));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(reply, 413, `The request body is larger than ${formatBytes(request.routeOptions.bodyLimit ?? 1024 * 1024)}.`);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendError(reply, 400, 'Content-Type must be application/json.');
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(reply, 400, 'The request body is empty but Content-Type is application/json.');
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return sendError(reply, 400, 'The request body is not valid JSON.');
    }
    if (error instanceof SyntaxError || error.statusCode === 400) {
      return sendError(reply, 400, 'The request body is not valid JSON.');
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, error.statusCode, error.message);
    }
    request.log.error({ err: { message: error.message, stack: error.stack, code: error.code } }, 'unhandled error');
    return sendError(reply, 500, 'Server error.');
  });

  app.setNotFoundHandler((request, reply) => sendError(reply, 404, `No route for ${request.method} ${request.url.split('?')[0]}.`));
}
