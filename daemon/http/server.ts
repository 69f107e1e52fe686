import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { FastifyServerFactoryHandler } from 'fastify';
import type { HttpLimits } from './limits.js';

/** The daemon's open connections by remote address: capped per address, and all closed at once when shutdown cannot wait. */
export class OpenConnections {
  private readonly byAddress = new Map<string, Set<Socket>>();

  constructor(private readonly maxPerAddress: number) {}

  /** Takes a newly accepted connection, or closes it when its address holds the most it may. */
  accept(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    const open = this.byAddress.get(address) ?? new Set<Socket>();
    if (open.size >= this.maxPerAddress) {
      socket.destroy();
      return;
    }
    open.add(socket);
    this.byAddress.set(address, open);
    socket.once('close', () => {
      open.delete(socket);
      if (open.size === 0 && this.byAddress.get(address) === open) this.byAddress.delete(address);
    });
  }

  destroyAll(): void {
    for (const open of this.byAddress.values()) for (const socket of open) socket.destroy();
  }
}

/**
 * The HTTP(S) server of the app: Node's request, header and keep-alive timeouts (fastify leaves the request timeout off,
 * so a stalled body would be held for ever), and every accepted connection counted by `connections`.
 */
export function createHttpServer(
  handler: FastifyServerFactoryHandler, limits: HttpLimits, connections: OpenConnections, tls?: { cert: Buffer; key: Buffer },
): http.Server {
  const options: http.ServerOptions = {
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    connectionsCheckingInterval: limits.connectionsCheckingMs,
  };
  const server = tls ? https.createServer({ ...tls, ...options, handshakeTimeout: limits.headersTimeoutMs }, handler) : http.createServer(options, handler);
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // maxRequestsPerSocket stays off: Node answers a request pipelined past it with a bare 503, outside the error envelope
  // the raw TCP connection, before any TLS handshake: a peer that never completes one is counted and closable too
  server.on('connection', (socket: Socket) => connections.accept(socket));
  return server;
}
