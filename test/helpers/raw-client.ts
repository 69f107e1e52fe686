import { connect, type Socket } from 'node:net';

/** A client on a raw socket (from `localAddress`, any of 127.0.0.0/8): what it got, and when the connection closed. */
export interface RawClient {
  socket: Socket;
  /** Resolves once `text` has arrived. */
  receives(text: string): Promise<void>;
  /** Resolves with everything received once the daemon (or the client) closed the connection. */
  closed: Promise<string>;
}

export function rawClient(url: string, localAddress = '127.0.0.1'): Promise<RawClient> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress });
    let received = '';
    const waiting: { text: string; done: () => void }[] = [];
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      for (const w of waiting.filter((w) => received.includes(w.text))) {
        waiting.splice(waiting.indexOf(w), 1);
        w.done();
      }
    });
    const closed = new Promise<string>((done) => socket.once('close', () => done(received)));
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject).on('error', () => {}); // a reset is one way the daemon closes a connection
      resolve({
        socket, closed,
        receives: (text) => new Promise((done) => (received.includes(text) ? done() : waiting.push({ text, done }))),
      });
    });
  });
}

/** The last HTTP answer in `raw`: status, headers (lower-case names) and body. */
export function lastAnswer(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const at = raw.lastIndexOf('HTTP/1.1 ');
  const [head = '', body = ''] = raw.slice(at).split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}
