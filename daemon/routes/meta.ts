import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../src/services/context.js';
import { renderReference } from '../http/reference.js';

export interface HealthSource {
  /** Name → state of each background worker. */
  workers(): Record<string, string>;
}

/** Discovery and health: no API key needed. */
export function metaRoutes(ctx: ServiceContext, health: HealthSource, version: string): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/healthz', {
      config: { public: true },
      schema: {
        tags: ['Discovery'], summary: 'Store and worker health', security: [],
        response: {
          200: Type.Object({ status: Type.String(), version: Type.String(), store: Type.String(), workers: Type.Record(Type.String(), Type.String()) }),
          503: Type.Object({ status: Type.String(), version: Type.String(), store: Type.String(), workers: Type.Record(Type.String(), Type.String()) }),
        },
      },
    }, async (_request, reply) => {
      let store = 'ok';
      try {
        ctx.db.$client.prepare('SELECT 1').get();
      } catch (err) {
        store = `error: ${(err as Error).message}`;
      }
      const ok = store === 'ok';
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', version, store, workers: health.workers() });
    });

    app.get('/v1/openapi.json', {
      config: { public: true },
      schema: { hide: true },
    }, async () => (app as unknown as FastifyInstance).swagger());

    app.get('/docs', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send(renderReference((app as unknown as FastifyInstance).swagger() as never)));
  };
}
