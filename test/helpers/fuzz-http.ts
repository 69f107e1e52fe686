import { request as httpRequest, type Agent } from 'node:http';
import { connect } from 'node:net';
import { CLIENT_SENDABLE_HEADER } from './fuzz-hostile.js';

/** How the fuzz talks to the daemon: Node's HTTP client, and a socket of its own for bytes that client refuses. */

/** What came back: a status and body, or why nothing did. */
export type FuzzAnswer =
  | { status: number; contentType: string; body: Buffer }
  | { error: string };

/**
 * One HTTP exchange. A kept-alive socket the daemon closed just before it was reused fails at once; like browsers,
 * that one is sent again on a new connection, so the failure is not laid at the next request's door.
 */
export async function call(url: URL, agent: Agent, method: string, path: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<FuzzAnswer> {
  if (!Object.values(headers).every((v) => CLIENT_SENDABLE_HEADER.test(v))) return rawExchange(url, method, path, headers, body, timeoutMs);
  const first = await exchange(url, agent, method, path, headers, body, timeoutMs);
  const answer = 'stale' in first ? await exchange(url, agent, method, path, headers, body, timeoutMs) : first;
  return 'stale' in answer ? { error: 'the connection was reset twice' } : answer;
}

/** An answer that never ends by design (the desk's live events): its status and type are the answer, then the client hangs up. */
const isEventStream = (contentType: string | undefined) => /^text\/event-stream\b/i.test(contentType ?? '');

function exchange(url: URL, agent: Agent, method: string, path: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<FuzzAnswer | { stale: true }> {
  return new Promise((resolveAnswer) => {
    let req: ReturnType<typeof httpRequest>;
    try {
      req = httpRequest({ host: url.hostname, port: url.port, method, path, headers, agent, timeout: timeoutMs });
    } catch (err) {
      resolveAnswer({ error: `the client refused to send it: ${(err as Error).message}` });
      return;
    }
    // an answer that keeps trickling never idles: the whole of it must come in time
    const deadline = setTimeout(() => req.destroy(new Error(`no whole answer within ${timeoutMs} ms`)), timeoutMs);
    const resolve = (answer: FuzzAnswer | { stale: true }) => {
      clearTimeout(deadline);
      resolveAnswer(answer);
    };
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    let answered = false;
    const closedUnderIt = (err: NodeJS.ErrnoException) => req.reusedSocket && !answered && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
    req.on('error', (err) => resolve(closedUnderIt(err) ? { stale: true } : { error: err.message }));
    req.on('response', (res) => {
      answered = true;
      if (isEventStream(String(res.headers['content-type']))) {
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type']), body: Buffer.alloc(0) });
        return void req.destroy();
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (err) => resolve({ error: err.message }));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
    });
    req.end(body);
  });
}

/** A chunked body's data (RFC 9112 §7.1); what follows the last chunk is left out. */
function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    const size = lineEnd < 0 ? NaN : parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** An answer read off a socket the daemon closed: status, content type and body, or why it is no HTTP answer. */
export function parseRawAnswer(bytes: Buffer): FuzzAnswer {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return { error: bytes.length === 0 ? 'the daemon closed the connection without an answer' : 'the answer ended in its head' };
  const [statusLine, ...lines] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})\b/.exec(statusLine!)?.[1]);
  if (!status) return { error: `not an HTTP status line: ${JSON.stringify(statusLine)}` };
  const header = (name: string) => lines.find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim();
  const rest = bytes.subarray(headEnd + 4);
  const length = header('content-length');
  const body = /chunked/i.test(header('transfer-encoding') ?? '') ? dechunk(rest) : length !== undefined ? rest.subarray(0, Number(length)) : rest;
  return { status, contentType: header('content-type') ?? '', body };
}

/** Sends bytes Node's HTTP client refuses to send (control bytes in a header) over a socket of its own, and reads the answer. */
function rawExchange(url: URL, method: string, path: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<FuzzAnswer> {
  const all: Record<string, string> = { host: url.host, ...headers, connection: 'close' };
  if (body !== undefined) all['content-length'] = String(Buffer.byteLength(body));
  const head = `${method} ${path} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const deadline = setTimeout(() => socket.destroy(new Error(`no whole answer within ${timeoutMs} ms`)), timeoutMs);
    let failure: Error | undefined;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const sofar = parseRawAnswer(Buffer.concat(chunks));
      if (!('error' in sofar) && isEventStream(sofar.contentType)) socket.destroy();
    });
    // the daemon may answer and close before it read all that was sent: the answer counts, not the broken pipe
    socket.on('error', (err) => { failure = err; });
    socket.on('close', () => {
      clearTimeout(deadline);
      const answer = parseRawAnswer(Buffer.concat(chunks));
      resolve('error' in answer && failure ? { error: failure.message } : answer);
    });
    // not ended: a client that half-closes has its request dropped by Node's server; `connection: close` ends it after the answer
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(body ?? '', 'utf8')]));
  });
}
