import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import { systemClock, type Clock } from '../../domain/clock.js';
import { listProviders, PROVIDER_CODES } from '../registry.js';
import { ADVANCE_TARGETS, type AdvanceTarget, type ProviderEmulator } from './contract.js';

export const FAULT_MODES = ['latency', 'error500', 'rate_limit', 'timeout', 'expire_tokens', 'none'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

interface ActiveFault {
  mode: Exclude<FaultMode, 'expire_tokens'>;
  ms?: number;
  /** Calls left to misbehave; null = until the fault is set to none. */
  remaining: number | null;
}

const NO_FAULT: ActiveFault = { mode: 'none', remaining: null };
const DEFAULT_LATENCY_MS = 1000;

export interface StartEmulatorsOptions {
  providers?: string[];
  host?: string;
  port?: number;
  clock?: Clock;
}

export interface RunningEmulators {
  /** `http://HOST:PORT`, where the control endpoints live under `/_emulator/`. */
  url: string;
  /** Base URL per provider code, e.g. `{ ppl: "http://127.0.0.1:7500/ppl" }`. */
  urls: Record<string, string>;
  close(): Promise<void>;
  emulator(code: string): ProviderEmulator;
  /** Calls the provider's emulator has been sent so far (its carrier API, not the control endpoints). */
  calls(code: string): number;
}

/** Starts the chosen carrier emulators on one port, each under `/{code}`. */
export async function startEmulators(options: StartEmulatorsOptions = {}): Promise<RunningEmulators> {
  const known = PROVIDER_CODES;
  const codes = options.providers ?? known;
  const unknown = codes.filter((code) => !known.includes(code));
  if (unknown.length > 0) throw new Error(`no emulator for provider ${unknown.join(', ')} (known: ${known.join(', ')})`);
  const clock = options.clock ?? systemClock;
  const loaders = new Map(listProviders().map((p) => [p.code, p.emulator]));
  const factories = await Promise.all(codes.map((code) => loaders.get(code)!()));
  const emulators = new Map(codes.map((code, i) => [code, factories[i]!({ code, clock })]));
  const faults = new Map<string, ActiveFault>(codes.map((code) => [code, NO_FAULT]));
  const calls = new Map<string, number>(codes.map((code) => [code, 0]));

  const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024, forceCloseConnections: true });
  addBodyParsers(app);
  for (const emulator of emulators.values()) {
    await app.register(async (scope) => {
      scope.addHook('onRequest', (request, reply, done) => {
        calls.set(emulator.code, calls.get(emulator.code)! + 1);
        applyFault(emulator, faults, request, reply, done);
      });
      await scope.register(emulator.routes);
    }, { prefix: `/${emulator.code}` });
  }
  await app.register(controlRoutes(emulators, faults), { prefix: '/_emulator' });
  for (const emulator of emulators.values()) {
    const control = emulator.control;
    if (!control) continue;
    await app.register(async (scope) => {
      answerErrorsInEnvelope(scope);
      await scope.register(control);
    }, { prefix: `/_emulator/${emulator.code}` });
  }

  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 7500 });
  const url = `http://${urlHost(app)}`;
  return {
    url,
    urls: Object.fromEntries(codes.map((code) => [code, `${url}/${code}`])),
    close: () => app.close(),
    emulator: (code) => {
      const emulator = emulators.get(code);
      if (!emulator) throw new Error(`emulator ${code} is not running`);
      return emulator;
    },
    calls: (code) => calls.get(code) ?? 0,
  };
}

/** JSON and vendor JSON types (`application/vnd.….v1+json`; an empty body is no body), form posts as an object, SOAP/XML as a string. */
function addBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  const parseJson = (_request: FastifyRequest, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(Object.assign(new Error(`invalid JSON: ${(err as Error).message}`), { statusCode: 400 }), undefined);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  app.addContentTypeParser(/^application\/[\w.-]+\+json$/, { parseAs: 'string' }, parseJson);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.addContentTypeParser(['text/xml', 'application/xml', 'application/soap+xml'], { parseAs: 'string' }, (_request, body, done) => {
    done(null, String(body));
  });
}

/** Runs before the provider's handler, so a faulted call never creates anything. */
function applyFault(
  emulator: ProviderEmulator, faults: Map<string, ActiveFault>,
  request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void,
): void {
  const fault = faults.get(emulator.code) ?? NO_FAULT;
  if (fault.mode === 'none') return done();
  if (fault.remaining !== null) {
    const remaining = fault.remaining - 1;
    faults.set(emulator.code, remaining > 0 ? { ...fault, remaining } : NO_FAULT);
  }
  const path = request.url.split('?')[0]!.slice(emulator.code.length + 1) || '/';
  switch (fault.mode) {
    case 'latency':
      setTimeout(done, fault.ms);
      return;
    case 'error500':
      sendFault(emulator, reply, 500, path);
      return;
    case 'rate_limit':
      reply.header('Retry-After', '1');
      sendFault(emulator, reply, 429, path);
      return;
    case 'timeout':
      holdUnanswered(request, fault.ms);
      return;
  }
}

function sendFault(emulator: ProviderEmulator, reply: FastifyReply, status: 429 | 500, path: string): void {
  const carrierShaped = emulator.faultResponse?.(status, path);
  const body = carrierShaped ?? {
    contentType: 'application/problem+json',
    body: JSON.stringify({
      type: 'about:blank', status, instance: path,
      title: status === 429 ? 'Too Many Requests' : 'Internal Server Error',
      detail: status === 429 ? 'Rate limit exceeded, retry later (emulated fault)' : 'Internal server error (emulated fault)',
    }),
  };
  void reply.code(status).type(body.contentType).send(body.body);
}

/** Never answers; with `ms`, drops the connection after that long, like a gateway that gave up. */
function holdUnanswered(request: FastifyRequest, ms: number | undefined): void {
  if (ms === undefined) return;
  const socket = request.raw.socket;
  const timer = setTimeout(() => socket.destroy(), ms);
  socket.once('close', () => clearTimeout(timer));
}

interface ProviderParams { provider: string }

/** The error envelope of packdesk's API, which the control endpoints answer too: `{message, errors: {field: [...]}}`. */
interface ErrorEnvelope {
  message: string;
  errors?: Record<string, string[]>;
}

const envelope = (message: string, errors?: Record<string, string[]>): ErrorEnvelope => (errors ? { message, errors } : { message });

/** One error of the schema validator (ajv) as fastify hands it over. */
interface SchemaError {
  instancePath?: string;
  params?: { missingProperty?: string; allowedValues?: unknown[] };
  message?: string;
}

/** Schema errors of a control request as field errors: `{"to": ["must be equal to one of the allowed values"]}`. */
function fieldErrors(validation: SchemaError[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const e of validation) {
    const path = [...(e.instancePath ?? '').split('/').filter(Boolean), ...(e.params?.missingProperty ? [e.params.missingProperty] : [])].join('.') || 'body';
    const message = e.params?.allowedValues ? `must be one of ${e.params.allowedValues.join(', ')}` : e.message ?? 'is invalid';
    (errors[path] ??= []).push(message);
  }
  return errors;
}

/**
 * Control endpoints answer every error in the envelope: thrown ones and schema errors through the error handler, and a
 * carrier's own control routes that answer `{error: "..."}` rewritten before they are sent.
 */
function answerErrorsInEnvelope(scope: FastifyInstance): void {
  scope.setErrorHandler((err: Error & { statusCode?: number; validation?: SchemaError[] }, _request, reply) => {
    if (err.validation) return reply.code(err.statusCode ?? 400).send(envelope('The given data was invalid.', fieldErrors(err.validation)));
    return reply.code(err.statusCode && err.statusCode < 500 ? err.statusCode : 500).send(envelope(err.message));
  });
  scope.addHook('preSerialization', async (_request, reply, payload: unknown) => {
    if (reply.statusCode < 400 || typeof payload !== 'object' || payload === null || 'message' in payload) return payload;
    const { error } = payload as { error?: unknown };
    return typeof error === 'string' ? envelope(error) : payload;
  });
}

function controlRoutes(emulators: Map<string, ProviderEmulator>, faults: Map<string, ActiveFault>): FastifyPluginAsync {
  const provider = { type: 'object', required: ['provider'], properties: { provider: { type: 'string' } } } as const;
  const lookup = (request: FastifyRequest<{ Params: ProviderParams }>, reply: FastifyReply): ProviderEmulator | undefined => {
    const emulator = emulators.get(request.params.provider);
    if (!emulator) {
      const running = `no emulator for provider ${request.params.provider} is running`;
      void reply.code(404).send(envelope(running, { provider: [`must be one of ${[...emulators.keys()].join(', ')}`] }));
    }
    return emulator;
  };
  const showFault = (code: string) => {
    const fault = faults.get(code) ?? NO_FAULT;
    return { provider: code, mode: fault.mode, ms: fault.ms ?? null, count: fault.remaining };
  };

  return async (app) => {
    answerErrorsInEnvelope(app);
    app.setNotFoundHandler((request, reply) => {
      void reply.code(404).send(envelope(`no control endpoint ${request.method} ${request.url.split('?')[0]}`));
    });

    app.get('/', async () => ({ providers: [...emulators.keys()] }));

    app.post<{ Params: ProviderParams & { tracking_number: string }; Body: { to?: AdvanceTarget } | undefined }>(
      '/:provider/parcels/:tracking_number/advance',
      {
        schema: {
          params: { ...provider, required: ['provider', 'tracking_number'], properties: { ...provider.properties, tracking_number: { type: 'string' } } },
          body: { type: ['object', 'null'], additionalProperties: false, properties: { to: { type: 'string', enum: ADVANCE_TARGETS } } },
        },
      },
      async (request, reply) => {
        const emulator = lookup(request, reply);
        if (!emulator) return reply;
        const outcome = emulator.advance(request.params.tracking_number, request.body?.to);
        const trackingNumber = request.params.tracking_number;
        if (outcome.kind === 'unknown_parcel') {
          return reply.code(404).send(envelope(`unknown parcel ${trackingNumber}`, { tracking_number: [`is not a parcel the ${emulator.code} emulator created`] }));
        }
        if (outcome.kind === 'cannot_advance') return reply.code(409).send(envelope(outcome.reason));
        return { provider: emulator.code, trackingNumber: request.params.tracking_number, events: outcome.events };
      },
    );

    app.post<{ Params: ProviderParams; Body: { mode: FaultMode; ms?: number; count?: number } }>(
      '/:provider/faults',
      {
        schema: {
          params: provider,
          body: {
            type: 'object', required: ['mode'], additionalProperties: false,
            properties: { mode: { type: 'string', enum: FAULT_MODES }, ms: { type: 'integer', minimum: 0 }, count: { type: 'integer', minimum: 1 } },
          },
        },
      },
      async (request, reply) => {
        const emulator = lookup(request, reply);
        if (!emulator) return reply;
        const { mode, ms, count } = request.body;
        // Token expiry happens at once; it does not replace the active fault.
        if (mode === 'expire_tokens') emulator.expireTokens();
        else faults.set(emulator.code, mode === 'none' ? NO_FAULT : { mode, ms: ms ?? (mode === 'latency' ? DEFAULT_LATENCY_MS : undefined), remaining: count ?? null });
        return showFault(emulator.code);
      },
    );

    app.get<{ Params: ProviderParams }>('/:provider/faults', { schema: { params: provider } }, async (request, reply) => {
      const emulator = lookup(request, reply);
      return emulator ? showFault(emulator.code) : reply;
    });

    app.get<{ Params: ProviderParams }>('/:provider/shipments', { schema: { params: provider } }, async (request, reply) => {
      const emulator = lookup(request, reply);
      return emulator ? { shipments: emulator.shipments() } : reply;
    });

    app.post<{ Params: ProviderParams }>('/:provider/reset', { schema: { params: provider } }, async (request, reply) => {
      const emulator = lookup(request, reply);
      if (!emulator) return reply;
      emulator.reset();
      faults.set(emulator.code, NO_FAULT);
      return { provider: emulator.code, reset: true };
    });
  };
}

/** `host:port` clients can dial: a wildcard bind is reached over loopback; IPv6 literals get brackets. */
function urlHost(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('emulator server is not listening on TCP');
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return `${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}
