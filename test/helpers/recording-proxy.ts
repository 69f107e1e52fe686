import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call that passed through the proxy to the carrier. */
export interface RecordedCall {
  method: string;
  /** Without the query. */
  path: string;
}

/** Sits between the daemon and an emulator, forwarding every call and recording it, so a test can count what a carrier was asked. */
export interface RecordingProxy {
  url: string;
  calls: RecordedCall[];
  close(): Promise<void>;
}

export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const calls: RecordedCall[] = [];
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    calls.push({ method: req.method ?? 'GET', path: url.split('?')[0]! });
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
