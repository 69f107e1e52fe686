import type { AddressInfo } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { API_TAGS, documentedRoute } from './http/openapi.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../src/services/context.js';
import { clientError, frameworkError, registerConventions } from './http/conventions.js';
import { DaemonOrigins } from './http/origins.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http/limits.js';
import { requestLoggerWhenUsed } from './http/request-logger.js';
import { createHttpServer, OpenConnections } from './http/server.js';
import { serializerCompiler } from './http/serialization.js';
import { validatorCompiler } from './http/validation.js';
import { deskPageRoutes } from './desk/page.js';
import { deskStreamRoutes, type DeskStreamOptions } from './desk/stream.js';
import { accountRoutes } from './routes/account.js';
import { channelRoutes } from './routes/channels.js';
import { deskRoutes } from './routes/desk.js';
import { importRoutes } from './routes/imports.js';
import { metaRoutes, type HealthSource } from './routes/meta.js';
import { dispatchRoutes } from './routes/dispatches.js';
import { pickupPointRoutes } from './routes/pickup-points.js';
import { stationRoutes } from './routes/stations.js';
import { daemonRoutes } from './routes/daemons.js';
import { printJobRoutes } from './routes/print-jobs.js';
import { printerRoutes } from './routes/printers.js';
import { providerRoutes } from './routes/providers.js';
import { orderRoutes } from './routes/orders.js';
import { shipmentRoutes } from './routes/shipments.js';
import { trackingParcelRoutes } from './routes/tracking-parcels.js';
import { shippingRuleRoutes } from './routes/shipping-rules.js';
import { watchedFolderRoutes } from './routes/watched-folders.js';
import { webhookRoutes } from './routes/webhooks.js';

export const BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  version: string;
  health?: HealthSource;
  /** Serve HTTPS (`--tls-cert`/`--tls-key`). */
  tls?: { cert: Buffer; key: Buffer };
  /** The desk's live events (how often printers are asked, heartbeats). */
  desk?: DeskStreamOptions;
  /** Timeouts, connection and per-address limits; DEFAULT_HTTP_LIMITS for what is not given. */
  http?: Partial<HttpLimits>;
  /** Where people open the daemon besides the address it listens on (`--public-url`, e.g. the station's LAN name). */
  publicUrls?: string[];
}

/** The fastify app serving /v1: conventions first, then one plugin per resource. */
export async function buildApp(ctx: ServiceContext, options: AppOptions): Promise<FastifyInstance> {
  const limits = { ...DEFAULT_HTTP_LIMITS, ...options.http };
  const connections = new OpenConnections(limits.maxConnectionsPerAddress);
  const origins = new DaemonOrigins(options.publicUrls ?? []);
  const app = Fastify({
    // fastify's own lines (e.g. "Server listening at") stay quiet; packdesk logs its own `listening` and request lines
    loggerInstance: ctx.log.child({}, { level: 'warn' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: requestLoggerWhenUsed,
    bodyLimit: BODY_LIMIT,
    serverFactory: (handler) => createHttpServer(handler, limits, connections, options.tls),
    // the conventions answer while draining, in the error envelope
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
    ...(options.tls ? { https: options.tls } : {}),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.server.once('listening', () => origins.listen(options.tls ? 'https' : 'http', app.server.address() as AddressInfo));
  // in-flight requests get a grace period; then shutdown goes on whatever the open connections do
  let forceClose: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    forceClose = setTimeout(() => connections.destroyAll(), limits.shutdownGraceMs).unref();
  });
  app.addHook('onClose', async () => clearTimeout(forceClose));

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'packdesk', version: options.version,
        description: 'The packdesk shipping API: channels, shipments, labels, tracking, webhooks and printing.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'pdk_live_… API key' } } },
      security: [{ bearer: [] }],
      tags: API_TAGS,
    },
    transform: documentedRoute,
  });

  registerConventions(app, ctx, { origins, limits });
  // a request line holds no secret (the path without its query, a status, a time): it skips the redaction other lines get
  const requestLog = ctx.log.child({}, { redact: [] });
  app.addHook('onResponse', (request, reply, done) => {
    const query = request.url.indexOf('?');
    const url = query === -1 ? request.url : request.url.slice(0, query);
    requestLog.info({ req_id: request.id, method: request.method, url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    done();
  });

  await app.register(metaRoutes(ctx, options.health ?? { workers: () => ({}) }, options.version));
  await app.register(accountRoutes);
  await app.register(daemonRoutes(ctx));
  await app.register(stationRoutes(ctx));
  await app.register(providerRoutes(ctx));
  await app.register(channelRoutes(ctx));
  await app.register(shipmentRoutes(ctx));
  await app.register(orderRoutes(ctx));
  await app.register(dispatchRoutes(ctx));
  await app.register(pickupPointRoutes(ctx));
  await app.register(trackingParcelRoutes(ctx));
  await app.register(webhookRoutes(ctx));
  await app.register(printerRoutes(ctx));
  await app.register(printJobRoutes(ctx));
  await app.register(watchedFolderRoutes(ctx));
  await app.register(shippingRuleRoutes(ctx));
  await app.register(importRoutes(ctx));
  await app.register(deskRoutes(ctx, origins));
  await app.register(deskStreamRoutes(ctx, options.desk));
  await app.register(deskPageRoutes());
  await app.ready();
  return app as unknown as FastifyInstance;
}
