import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Credentials the emulators refuse, as the carrier refuses wrong ones (SPEC §5): any value starting with `bad`. */
export function isBadCredential(...values: (string | undefined)[]): boolean {
  return values.some((v) => v !== undefined && v.startsWith('bad'));
}

/** The user and password of an `Authorization: Basic …` header. */
export function basicCredentials(header: string | undefined): { user: string; password: string } | undefined {
  const encoded = /^Basic\s+(\S+)$/i.exec(header ?? '')?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The token of an `Authorization: Bearer …` header. */
export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
}

/** Routes declared with `{ config: { anonymous: true } }` (token requests, public info) skip the caller check. */
export const ANONYMOUS = { config: { anonymous: true } } as const;

/**
 * Every route of `app` but the anonymous ones needs a caller that `identify` accepts; `identify` answers a refusal
 * itself, in the carrier's shape, and returns undefined. Returns how a handler reads the caller of its request.
 */
export function requireCaller(
  app: FastifyInstance,
  identify: (request: FastifyRequest, reply: FastifyReply) => string | undefined | Promise<string | undefined>,
): (request: FastifyRequest) => string {
  const callers = new WeakMap<FastifyRequest, string>();
  app.addHook('onRequest', async (request, reply) => {
    if ((request.routeOptions.config as { anonymous?: boolean }).anonymous) return;
    const caller = await identify(request, reply);
    if (caller === undefined) return reply; // refused and answered: the route does not run
    callers.set(request, caller);
  });
  return (request) => {
    const caller = callers.get(request);
    if (caller === undefined) throw new Error('route has no authenticated caller');
    return caller;
  };
}
