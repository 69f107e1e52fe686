import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../src/services/context.js';
import { listDaemons, presentDaemon, SEEN_WITHIN_MS } from '../../src/services/daemons.js';
import { Envelope, errorResponses, Timestamp } from '../http/schemas.js';

const DaemonSchema = Type.Object({
  id: Type.String(),
  station: Type.String({ description: "The station the daemon serves: its machine's printers and watched folders" }),
  host: Type.String(),
  pid: Type.Integer(),
  version: Type.String(),
  started_at: Timestamp,
  seen_at: Timestamp,
});

export function daemonRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/v1/daemons', {
      schema: {
        tags: ['Stations'], summary: `The daemons working on this store, seen in the last ${SEEN_WITHIN_MS / 1000} s (by station)`,
        response: { 200: Envelope(Type.Array(DaemonSchema)), ...errorResponses(401, 429) },
      },
    }, async () => ({ data: (await listDaemons(ctx)).map(presentDaemon), message: 'Daemons retrieved' }));
  };
}
