import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';

/** One request as the receiver got it. */
export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** performance.now() when it arrived (real time, for latency checks). */
  arrivedAt: number;
  /** The status the receiver answered; null while it has not answered (or never did). */
  answered: number | null;
  /** The sender closed the connection before the receiver answered (it timed out, or gave up). */
  abandoned: boolean;
}

export interface ReceiverReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Real milliseconds to wait before answering. */
  delayMs?: number;
  /** Never answer (the sender times out or dies waiting). */
  hang?: boolean;
}

export type ReplyPolicy = (request: ReceivedWebhook, received: ReceivedWebhook[]) => ReceiverReply;

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** What the receiver answers next; replace it at any time. */
  reply: ReplyPolicy;
  /** Requests to one path (each subscription gets its own path). */
  at(path: string): ReceivedWebhook[];
  /** Resolves once `condition` holds, looked at on every request that arrives and every one the sender abandons. */
  until(condition: (received: ReceivedWebhook[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP server on loopback that records every webhook request and answers as `reply` says (200 by default). */
export async function startWebhookReceiver(reply: ReplyPolicy = () => ({ status: 200, body: 'ok' })): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiting = new Set<() => void>();
  const changed = () => waiting.forEach((look) => look());
  const receiver: WebhookReceiver = {
    url: '', received, reply,
    at: (path) => received.filter((r) => r.path === path),
    until: (condition) => new Promise<void>((resolve) => {
      const look = () => {
        if (!condition(received)) return;
        waiting.delete(look);
        resolve();
      };
      waiting.add(look);
      look();
    }),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      const request: ReceivedWebhook = {
        path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8'), arrivedAt: performance.now(), answered: null, abandoned: false,
      };
      received.push(request);
      res.on('close', () => {
        if (request.answered !== null) return;
        request.abandoned = true;
        changed();
      });
      changed();
      const answer = receiver.reply(request, received);
      if (answer.hang) return;
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '', () => { request.answered = answer.status; });
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

/** The secret as the standardwebhooks verifier takes it: `whsec_…` as is, a plain secret as base64 of its UTF-8 bytes. */
export function verifierSecret(secret: string): string {
  return secret.startsWith('whsec_') ? secret : Buffer.from(secret, 'utf8').toString('base64');
}

/**
 * Verifies a delivery with the reference verifier (npm `standardwebhooks`); throws when it does not verify.
 * `nowMs` is the verifier's "now" for its 5-minute timestamp tolerance (the test's manual clock).
 */
export function verifyWebhook(secret: string, request: ReceivedWebhook, nowMs: number = Date.now()): unknown {
  const realNow = Date.now;
  Date.now = () => nowMs;
  try {
    return new Webhook(verifierSecret(secret)).verify(request.body, request.headers);
  } finally {
    Date.now = realNow;
  }
}
