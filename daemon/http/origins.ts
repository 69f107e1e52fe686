import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';

const WILDCARDS = new Set(['0.0.0.0', '::']);

const isLoopback = (address: string) => address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');

/** `http://127.0.0.1:7420`, `http://[::1]:7420`, `http://localhost` (a default port is left out, as browsers do). */
function originOf(protocol: string, host: string, port: number): string {
  return new URL(`${protocol}://${host.includes(':') ? `[${host}]` : host}:${port}`).origin;
}

/**
 * Where browsers reach this daemon: the admin's public URLs (`--public-url`), the address it listens on (every
 * interface's address for a wildcard bind) and `localhost` for a loopback one. The desk's changes must come from one of
 * these origins and sign-in links point to one; the request's Host header chooses among them, never adds to them.
 */
export class DaemonOrigins {
  private readonly configured: string[];
  private listening: { protocol: string; address: AddressInfo } | undefined;

  constructor(publicUrls: string[]) {
    this.configured = publicUrls.map((url) => new URL(url).origin);
  }

  /** Learns the address the server listens on, once it does. */
  listen(protocol: string, address: AddressInfo): void {
    this.listening = { protocol, address };
  }

  /** Every origin, the public URLs first; a wildcard bind's interfaces are read again each time (addresses change). */
  all(): string[] {
    if (!this.listening) return this.configured;
    const { protocol, address: { address, port } } = this.listening;
    const addresses = WILDCARDS.has(address)
      ? Object.values(networkInterfaces()).flat().filter((i) => i !== undefined && (address === '::' || i.family === 'IPv4')).map((i) => i!.address)
      : [address];
    const hosts = addresses.flatMap((a) => (isLoopback(a) ? [a, 'localhost'] : [a]));
    return [...new Set([...this.configured, ...hosts.map((host) => originOf(protocol, host, port))])];
  }

  includes(origin: string): boolean {
    return this.all().includes(origin);
  }

  /** The origin a link points to: the one the request was sent to (`protocol`, Host) when it is ours, else the first. */
  linkOrigin(protocol: string, host: string): string {
    const all = this.all();
    if (all.length === 0) throw new Error('the daemon is not listening and has no public URL: there is no origin to link to');
    const asked = URL.canParse(`${protocol}://${host}`) ? new URL(`${protocol}://${host}`).origin : undefined;
    return asked !== undefined && all.includes(asked) ? asked : all[0]!;
  }
}
