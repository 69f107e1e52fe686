import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Logger } from 'pino';
import { assertConnectable, createGuardedLookup, ForbiddenAddressError, type Resolver } from '../net/addresses.js';
import { CarrierRefusedError, CarrierTransientError } from './errors.js';

export const DEFAULT_CARRIER_TIMEOUT_MS = 30_000;
/** The largest carrier answer read: labels of a 50-parcel shipment as base64 PDFs stay well under it. */
export const MAX_CARRIER_ANSWER_BYTES = 32 * 1024 * 1024;

/** The carrier's answer grew past `MAX_CARRIER_ANSWER_BYTES`: the connection was closed without reading the rest. */
class AnswerTooLargeError extends Error {
  constructor() {
    super(`answered with more than ${MAX_CARRIER_ANSWER_BYTES / 1024 / 1024} MiB`);
  }
}

/** Field names whose values never reach a trace (JSON keys, form fields, XML elements). */
const SECRET_FIELDS = /^(client_?secret|secret(Id)?|password|user_password|pass|session|auth_?token|api_?key|apiSecret|token|access_token|refresh_token|device_code|authorization)$/i;

export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text
    .replace(/("([A-Za-z_]+)"\s*:\s*)"[^"]*"/g, (m, head: string, key: string) => (SECRET_FIELDS.test(key) ? `${head}"[redacted]"` : m))
    .replace(/\b([A-Za-z_]+)=([^&\s]*)/g, (m, key: string) => (SECRET_FIELDS.test(key) ? `${key}=[redacted]` : m))
    .replace(/<([A-Za-z:_]+)>([^<]*)<\/\1>/g, (m, tag: string) => (SECRET_FIELDS.test(tag.split(':').pop()!) ? `<${tag}>[redacted]</${tag}>` : m));
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

export interface CarrierRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams;
  timeoutMs?: number;
  /** SOAP services send their faults as HTTP 500 with an XML envelope: return those for reading, not as outages. */
  soapFaults?: boolean;
}

export interface CarrierResponse {
  status: number;
  headers: Headers;
  body: Buffer;
  text(): string;
  json<T>(): T;
}

interface Agents {
  http: HttpAgent;
  https: HttpsAgent;
}

export type CarrierFetch = (log: Logger, provider: string, req: CarrierRequest, secrets?: readonly string[]) => Promise<CarrierResponse>;

/** node:http with keep-alive agents: a carrier call costs a fraction of what `fetch` costs per request. */
function send(agents: Agents, req: CarrierRequest, timeoutMs: number): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const url = new URL(req.url);
  const body = req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : req.body.toString();
  const headers: Record<string, string> = { ...req.headers };
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    assertConnectable(url.hostname);
    const call = request(url, { method: req.method, headers, agent: url.protocol === 'https:' ? agents.https : agents.http }, (res) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const tooLarge = () => {
        reject(new AnswerTooLargeError());
        call.destroy();
      };
      if (Number(res.headers['content-length']) > MAX_CARRIER_ANSWER_BYTES) return tooLarge();
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_CARRIER_ANSWER_BYTES) return tooLarge();
        chunks.push(chunk);
      });
      res.on('end', () => {
        const responseHeaders = new Headers();
        for (const [key, value] of Object.entries(res.headers)) {
          if (value !== undefined) responseHeaders.set(key, Array.isArray(value) ? value.join(', ') : value);
        }
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    call.setTimeout(timeoutMs, () => call.destroy(Object.assign(new Error(`timed out after ${timeoutMs} ms`), { name: 'TimeoutError' })));
    call.on('error', reject);
    call.end(body);
  });
}

/**
 * Carrier calls whose host names resolve through `resolve` (the system's by default): every address is checked
 * against the outbound address policy when it is connected to, and a forbidden one fails the call as
 * CarrierRefusedError on `settings.baseUrl` (the channel's setting that points there) before anything is sent.
 */
export function createCarrierFetch(resolve?: Resolver): CarrierFetch {
  // no socket cap per carrier: the workers' pools bound the calls in flight, and a cap would queue a larger pool's calls
  const agentOptions = { keepAlive: true, lookup: createGuardedLookup(resolve) } as ConstructorParameters<typeof HttpAgent>[0];
  const agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };
  return (log, provider, req, secrets = []) => fetchFromCarrier(agents, log, provider, req, secrets);
}

/**
 * One HTTP call to a carrier with a timeout. Network errors, timeouts, 429 and 5xx become CarrierTransientError
 * (with the carrier's Retry-After); other statuses are returned for the adapter to read. Each call leaves a
 * redacted trace at debug level.
 */
export const carrierFetch = createCarrierFetch();

async function fetchFromCarrier(agents: Agents, log: Logger, provider: string, req: CarrierRequest, secrets: readonly string[]): Promise<CarrierResponse> {
  const started = Date.now();
  const timeoutMs = req.timeoutMs ?? DEFAULT_CARRIER_TIMEOUT_MS;
  const trace = { provider, method: req.method, url: redactText(req.url, secrets) };
  let res: { status: number; headers: Headers; body: Buffer };
  try {
    res = await send(agents, req, timeoutMs);
  } catch (err) {
    if (err instanceof ForbiddenAddressError) throw new CarrierRefusedError(`${provider} not called: ${err.message}`, { 'settings.baseUrl': [err.message] });
    if (err instanceof AnswerTooLargeError) {
      log.warn({ ...trace, ms: Date.now() - started }, `carrier ${err.message}`);
      throw new CarrierTransientError(`${provider} ${err.message}`);
    }
    const reason = (err as Error).name === 'TimeoutError' ? (err as Error).message : ((err as { code?: string }).code ?? (err as Error).message);
    log.debug({ ...trace, ms: Date.now() - started, error: reason }, 'carrier call failed');
    throw new CarrierTransientError(`${provider} is unreachable (${reason})`);
  }
  const { body } = res;
  const response: CarrierResponse = {
    status: res.status, headers: res.headers, body,
    text: () => body.toString('utf8'),
    json: <T>() => {
      try {
        return JSON.parse(body.toString('utf8')) as T;
      } catch {
        // a carrier's broken answer is the carrier's fault, never to be taken for a broken request to packdesk
        throw new CarrierTransientError(`${provider} answered HTTP ${res.status} with a body that is not JSON`);
      }
    },
  };
  if (log.isLevelEnabled('debug')) {
    const isText = /json|xml|text|problem/.test(res.headers.get('content-type') ?? '');
    log.debug({
      ...trace, status: res.status, ms: Date.now() - started,
      request: typeof req.body === 'string' ? redactText(req.body.slice(0, 4096), secrets) : req.body ? redactText(req.body.toString(), secrets) : undefined,
      response: isText ? redactText(response.text().slice(0, 4096), secrets) : `${body.length} bytes`,
    }, 'carrier call');
  }
  const soapFault = req.soapFaults === true && res.status === 500 && /xml/.test(res.headers.get('content-type') ?? '');
  if (res.status === 429 || (res.status >= 500 && !soapFault)) {
    throw new CarrierTransientError(`${provider} answered HTTP ${res.status}`, retryAfterMs(res.headers.get('retry-after')), res.status);
  }
  return response;
}

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Resolves a Location header (absolute or relative to the API base) to an absolute URL. */
export function resolveLocation(base: string, location: string): string {
  return new URL(location, base.endsWith('/') ? base : `${base}/`).toString();
}

/** Joins an API base URL and a path without doubling slashes. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
