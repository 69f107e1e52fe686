import { createServer, request as httpRequest, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP server a test puts in front of the emulators. It keeps idle connections as long as the emulators (Fastify's
 * 72 s, not node's 5 s), whose keep-alive hint it passes on with their answers: a daemon would otherwise reuse a
 * connection this server had already closed, and a test that held the event loop for seconds (a barcode scan, a label
 * drawn) met ECONNRESET on its next carrier call.
 */
export function emulatorProxy(handler: RequestListener): Server {
  const server = createServer(handler);
  server.keepAliveTimeout = 72_000;
  return server;
}

/** One call that passed through the proxy to the carrier. */
export interface RecordedCall {
  method: string;
  /** Without the query. */
  path: string;
  /** The SOAPAction header, unquoted: SOAP 1.1 carriers send every operation to one path and name it there. */
  soapAction?: string;
  /** The request's body, when the proxy records bodies: SOAP services with an empty SOAPAction name the operation only there. */
  body?: string;
}

/** Sits between the daemon and an emulator, forwarding every call and recording it, so a test can count what a carrier was asked. */
export interface RecordingProxy {
  url: string;
  calls: RecordedCall[];
  close(): Promise<void>;
}

/** `failing`: calls whose path it matches get a 500 from the proxy and never reach the carrier (an outage of one operation). */
export async function recordingProxy(target: string, options: { bodies?: boolean; failing?: RegExp } = {}): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const calls: RecordedCall[] = [];
  const server = emulatorProxy((req, res) => {
    const url = req.url ?? '/';
    const soapAction = req.headers.soapaction;
    const call: RecordedCall = { method: req.method ?? 'GET', path: url.split('?')[0]!, ...(typeof soapAction === 'string' ? { soapAction: soapAction.replace(/^"|"$/g, '') } : {}) };
    calls.push(call);
    if (options.bodies) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => { call.body = Buffer.concat(chunks).toString('utf8'); });
    }
    if (options.failing?.test(call.path)) {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal_server_error"}');
      return;
    }
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
