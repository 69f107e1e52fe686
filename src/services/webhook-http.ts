import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { parseRetryAfter } from '../domain/webhook-retries.js';
import { createGuardedLookup, type LoopbackPolicy } from '../net/addresses.js';
import { loopbackPolicyOf, webhookUrlProblems, type WebhookTargetRules } from './webhook-targets.js';

/** Time limit of one delivery attempt (SPEC §4). */
export const WEBHOOK_TIMEOUT_MS = 15_000;
/** How much of a receiver's answer the delivery log keeps. */
export const RESPONSE_BODY_LIMIT = 4096;

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface AttemptResult {
  /** 2xx. */
  ok: boolean;
  responseStatus: number | null;
  /** The first 4 KiB of the answer. */
  responseBody: string | null;
  durationMs: number;
  errorMessage: string | null;
  /** From `Retry-After` on 429/503. */
  retryAfterMs: number | null;
  /** 410: the receiver wants no more deliveries. */
  gone: boolean;
}

export interface PostOptions {
  /** What the station lets webhooks reach: its ServiceOptions. */
  targets: WebhookTargetRules;
  timeoutMs?: number;
  /** The injected clock's now, for `Retry-After` given as a date. */
  now: number;
}

interface Agents {
  'http:': HttpAgent;
  'https:': HttpsAgent;
}

function agentsWith(loopback: LoopbackPolicy): Agents {
  const lookup = createGuardedLookup(undefined, loopback);
  return {
    'http:': new HttpAgent({ keepAlive: true, lookup } as ConstructorParameters<typeof HttpAgent>[0]),
    'https:': new HttpsAgent({ keepAlive: true, lookup } as ConstructorParameters<typeof HttpsAgent>[0]),
  };
}

// Keep-alive connections per receiver; node:http rather than fetch, which allocated ~6× more per request here.
// A pair per loopback policy, so a connection opened under one policy is never reused under another.
const agentsByPolicy: Record<LoopbackPolicy, Agents> = { allowed: agentsWith('allowed'), refused: agentsWith('refused'), required: agentsWith('required') };

interface RawResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** POSTs and reads at most RESPONSE_BODY_LIMIT bytes of the answer (a longer one is cut off and its connection dropped). */
function send(url: URL, request: WebhookRequest, agents: Agents, timeoutMs: number): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const isHttps = url.protocol === 'https:';
    const req = (isHttps ? httpsRequest : httpRequest)(url, {
      method: 'POST', agent: agents[isHttps ? 'https:' : 'http:'],
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8') });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_BODY_LIMIT) {
          res.destroy();
          finish();
        }
      });
      res.on('end', finish);
      res.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timed out'), { name: 'TimeoutError' })), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    req.end(request.body);
  });
}

function failure(errorMessage: string, durationMs = 0): AttemptResult {
  return { ok: false, responseStatus: null, responseBody: null, durationMs, errorMessage, retryAfterMs: null, gone: false };
}

function describeError(err: unknown, timeoutMs: number): string {
  const e = err as NodeJS.ErrnoException;
  if (e.name === 'TimeoutError') return `timed out after ${timeoutMs / 1000} s`;
  if (e.code === 'EADDRFORBIDDEN') return `not sent: ${e.message}`;
  return e.message || e.code || String(err);
}

/**
 * One POST of a signed payload. The URL's rules are checked again first, and every address the host resolves to
 * at connect time (a name may have been re-pointed at a link-local or metadata address, or at loopback, since the
 * subscription was saved). Redirects are not followed: a 3xx is a failed attempt. Never throws: every outcome is an
 * AttemptResult.
 */
export async function postWebhook(request: WebhookRequest, options: PostOptions): Promise<AttemptResult> {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const problems = await webhookUrlProblems(request.url, options.targets, { resolve: false });
  if (problems.length > 0) return failure(`not sent: the url ${problems.join('; ')}`);
  const url = new URL(request.url);
  const started = performance.now();
  try {
    const res = await send(url, request, agentsByPolicy[loopbackPolicyOf(url, options.targets)], timeoutMs);
    const durationMs = Math.round(performance.now() - started);
    const ok = res.status >= 200 && res.status < 300;
    const retryAfterHeader = res.headers['retry-after'];
    const retryAfterMs = res.status === 429 || res.status === 503 ? parseRetryAfter(retryAfterHeader, options.now) : null;
    let errorMessage: string | null = null;
    if (res.status >= 300 && res.status < 400) errorMessage = `HTTP ${res.status}: redirect to ${res.headers.location ?? '?'} not followed`;
    else if (!ok) errorMessage = `HTTP ${res.status}`;
    return { ok, responseStatus: res.status, responseBody: res.body, durationMs, errorMessage, retryAfterMs, gone: res.status === 410 };
  } catch (err) {
    return failure(describeError(err, timeoutMs), Math.round(performance.now() - started));
  }
}
