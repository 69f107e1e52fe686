import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../src/services/context.js';
import { LAG_WINDOW_MS, monitorEventLoopLag } from '../http/event-loop.js';
import { renderReference } from '../http/reference.js';

export interface HealthSource {
  /** Name → state of each background worker. */
  workers(): Record<string, string>;
}

const LagFiguresSchema = Type.Object({
  p50: Type.Number(), p99: Type.Number(), max: Type.Number(),
}, {
  description: `Event-loop lag in ms (how late the daemon ran a timer), sampled every 10 ms: each figure is the larger of the current `
    + `${LAG_WINDOW_MS / 1000} s window's and the previous full window's, so a reading covers the last ${LAG_WINDOW_MS / 1000}–${2 * LAG_WINDOW_MS / 1000} s `
    + '(since start-up at most); zeros before the first sample',
});

const HealthSchema = Type.Object({
  status: Type.String(), version: Type.String(),
  station: Type.String({ description: "The station this daemon serves: its machine's printers and watched folders" }),
  store: Type.String(),
  store_conflicts: Type.Object({
    retried: Type.Integer({ description: 'Transactions rolled back for a conflict with concurrent work (another daemon\'s) and run again, since start-up' }),
    failed: Type.Integer({ description: 'Transactions that still conflicted after their last attempt, since start-up (their request or job failed)' }),
  }),
  workers: Type.Record(Type.String(), Type.String()),
  event_loop: Type.Object({ lag_ms: LagFiguresSchema }),
});

/** Discovery and health: no API key needed. */
export function metaRoutes(ctx: ServiceContext, health: HealthSource, version: string): FastifyPluginAsyncTypebox {
  return async (app) => {
    const lag = monitorEventLoopLag();
    // compiling every route's schemas at start-up blocks the loop once: that is not the lag a reading should show
    app.addHook('onReady', async () => lag.reset());
    app.addHook('onClose', async () => lag.stop());

    app.get('/healthz', {
      config: { public: true },
      schema: {
        tags: ['Discovery'], operationId: 'getHealth', summary: 'Store, worker and event-loop health', security: [],
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    }, async (_request, reply) => {
      let store = 'ok';
      try {
        await ctx.store.get('SELECT 1 AS ok');
      } catch (err) {
        store = `error: ${(err as Error).message}`;
      }
      const ok = store === 'ok';
      return reply.code(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'degraded', version, station: ctx.station, store, store_conflicts: { ...ctx.store.conflicts },
        workers: health.workers(), event_loop: { lag_ms: lag.reading() },
      });
    });

    app.get('/v1/openapi.json', {
      config: { public: true },
      schema: { hide: true },
    }, async () => (app as unknown as FastifyInstance).swagger());

    app.get('/docs', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send(renderReference((app as unknown as FastifyInstance).swagger() as never)));
  };
}
