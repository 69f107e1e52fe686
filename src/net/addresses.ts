import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';

/**
 * The address policy of every outbound connection (webhooks, printers, carriers): link-local and cloud metadata
 * addresses are never reached, in any spelling. Loopback and private LAN addresses stay allowed: printers live on the
 * LAN, carrier emulators and CUPS on 127.0.0.1. Webhooks reach loopback only when the station allows it (LoopbackPolicy).
 */

/**
 * What a connection may do with this machine's loopback: `allowed` (printers, carriers), `refused` (a webhook of a
 * station that does not allow it: any account could read the station's local services through the delivery log), or
 * `required` (a plain-http webhook allowed only because it stays on this machine).
 */
export type LoopbackPolicy = 'allowed' | 'refused' | 'required';

/** Cloud metadata services outside 169.254.0.0/16: Alibaba, Azure's wireserver, Oracle, AWS over IPv6. */
const METADATA_ADDRESSES = new Set(['100.100.100.200', '168.63.129.16', '192.0.0.192', 'fd00:ec2:0:0:0:0:0:254']);
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'instance-data', 'instance-data.ec2.internal']);

const FORBIDDEN_ADDRESS = 'a link-local or metadata address';

/** One part of an inet_aton address: decimal, `0x` hex or `0` octal, as getaddrinfo reads it. */
function loosePart(text: string): number | undefined {
  if (/^0x[0-9a-f]*$/i.test(text)) return text.length === 2 ? 0 : parseInt(text.slice(2), 16);
  if (/^0[0-7]*$/.test(text)) return parseInt(text, 8);
  if (/^[1-9][0-9]*$/.test(text)) return Number(text);
  return undefined;
}

/**
 * An IPv4 address written any way inet_aton accepts it (`2852039166`, `0xa9fea9fe`, `0251.0376.0251.0376`,
 * `169.254.43518`) as a dotted quad; undefined for anything else.
 */
export function looseIPv4(host: string): string | undefined {
  const parts = host.split('.');
  if (parts.length > 4) return undefined;
  const numbers = parts.map(loosePart);
  if (numbers.some((n) => n === undefined)) return undefined;
  const values = numbers as number[];
  const last = values.pop()!;
  if (values.some((n) => n > 255) || last >= 2 ** (8 * (4 - values.length))) return undefined;
  let value = last;
  values.forEach((n, i) => { value += n * 2 ** (8 * (3 - i)); });
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** The sixteen bytes of an IPv6 address (an embedded dotted IPv4 tail included, a zone id dropped). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[0].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 255];
  });
}

/** Where RFC 6052 puts the IPv4 address after a NAT64 prefix of 48, 56 and 64 bits (byte 8 stays zero, so do the bytes after it). */
const NAT64_SHORT_PREFIX_IPV4_BYTES = [[6, 7, 9, 10], [7, 9, 10, 11], [9, 10, 11, 12]];
const LAST_FOUR_BYTES = [12, 13, 14, 15];

const startsWith = (bytes: number[], prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const zeros = (n: number) => Array<number>(n).fill(0);

/**
 * The IPv4 addresses an IPv6 address may carry: IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96 and every prefix
 * length within 64:ff9b:1::/48) and 6to4.
 */
function embeddedIPv4s(bytes: number[]): string[] {
  const at = (positions: number[]) => positions.map((i) => bytes[i]).join('.');
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return [at(LAST_FOUR_BYTES)];
  // ::1 is loopback, not 0.0.0.1
  if (startsWith(bytes, zeros(12))) return bytes.slice(12).some((b, i) => (i === 3 ? b > 1 : b > 0)) ? [at(LAST_FOUR_BYTES)] : [];
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return [at(LAST_FOUR_BYTES)];
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 1])) {
    const shortPrefixes = NAT64_SHORT_PREFIX_IPV4_BYTES.filter((p) => bytes[8] === 0 && bytes.slice(p.at(-1)! + 1).every((b) => b === 0));
    return [...shortPrefixes, LAST_FOUR_BYTES].map(at);
  }
  if (startsWith(bytes, [0x20, 0x02])) return [at([2, 3, 4, 5])];
  return [];
}

/** Why an address is refused: the first two always, the loopback ones as a LoopbackPolicy says. */
export type AddressRefusal = 'link-local or metadata' | 'unspecified' | 'loopback' | 'not loopback';

const REFUSAL_PHRASES: Record<AddressRefusal, string> = {
  'link-local or metadata': FORBIDDEN_ADDRESS, unspecified: 'not an address to connect to', loopback: 'a loopback address', 'not loopback': 'not a loopback address',
};

/** 127.0.0.0/8, ::1 and IPv4-mapped 127.0.0.0/8: addresses that reach this machine itself. */
function isLoopback(version: number, bytes: number[]): boolean {
  if (version === 4) return bytes[0] === 127;
  return startsWith(bytes, zeros(15)) ? bytes[15] === 1 : startsWith(bytes, [...zeros(10), 0xff, 0xff, 127]);
}

function loopbackRefusal(loopback: boolean, policy: LoopbackPolicy): AddressRefusal | undefined {
  if (policy === 'refused' && loopback) return 'loopback';
  return policy === 'required' && !loopback ? 'not loopback' : undefined;
}

function refusalOf(address: string, policy: LoopbackPolicy): AddressRefusal | undefined {
  const version = isIP(address);
  if (version === 4) {
    const bytes = address.split('.').map(Number);
    const [a, b] = bytes;
    if (a === 0) return 'unspecified';
    if ((a === 169 && b === 254) || METADATA_ADDRESSES.has(address)) return 'link-local or metadata';
    return loopbackRefusal(isLoopback(4, bytes), policy);
  }
  if (version !== 6) return undefined;
  const bytes = ipv6Bytes(address);
  if (bytes.every((b) => b === 0)) return 'unspecified';
  // an IPv4 address carried in IPv6 (NAT64, 6to4 …) is refused as that address would be; required loopback is ::1 or mapped
  const carried = embeddedIPv4s(bytes).map((v4) => refusalOf(v4, policy === 'required' ? 'allowed' : policy)).find((r) => r !== undefined);
  if (carried) return carried;
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16));
  const linkLocal = bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80;
  if (linkLocal || METADATA_ADDRESSES.has(groups.join(':'))) return 'link-local or metadata';
  return loopbackRefusal(isLoopback(6, bytes), policy);
}

/** Why the daemon does not connect somewhere, as a kind (for callers that word it their own way) and a sentence. */
export interface HostRefusal {
  refusal: AddressRefusal;
  reason: string;
}

const refused = (refusal: AddressRefusal | undefined, reason: (phrase: string) => string): HostRefusal | undefined =>
  refusal && { refusal, reason: reason(REFUSAL_PHRASES[refusal]) };

/** The IP address a URL's host spells (in brackets or not, an IPv4 in any inet_aton spelling), or undefined for a name. */
function literalAddress(host: string): string | undefined {
  const h = host.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();
  return isIP(h) ? h : looseIPv4(h);
}

/**
 * Why the daemon never connects to this host (a URL's host: a name or an IP literal in any spelling) under a loopback
 * policy, or undefined when it may; names are resolved at connect time by the guarded lookup.
 */
export function hostRefusal(host: string, loopback: LoopbackPolicy = 'allowed'): HostRefusal | undefined {
  const name = host.replace(/\.+$/, '').toLowerCase();
  if (METADATA_NAMES.has(name)) return refused('link-local or metadata', (phrase) => `${host} is ${phrase}`);
  const address = literalAddress(host);
  return address === undefined ? undefined : refused(refusalOf(address, loopback), (phrase) => `${host} is ${phrase}`);
}

/** `hostRefusal`'s sentence: what printers and carriers report. */
export function hostProblem(host: string, loopback: LoopbackPolicy = 'allowed'): string | undefined {
  return hostRefusal(host, loopback)?.reason;
}

/** Whether a URL's host is an IP literal of this machine's loopback, in any spelling (a name is no literal). */
export function isLoopbackLiteral(host: string): boolean {
  const address = literalAddress(host);
  return address !== undefined && refusalOf(address, 'required') === undefined;
}

/** An address the policy refused, at connect time. */
export class ForbiddenAddressError extends Error {
  readonly code = 'EADDRFORBIDDEN';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** Name resolution as `dns.lookup` with `all: true` does it; tests give their own. */
export type Resolver = (hostname: string, options: LookupOptions & { all: true }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;
/** The `lookup` option of `net.connect`, `http.request` and agents. */
export type GuardedLookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

const systemResolver: Resolver = (hostname, options, callback) => dnsLookup(hostname, options, callback);

function resolvedRefusal(hostname: string, addresses: LookupAddress[], loopback: LoopbackPolicy): HostRefusal | undefined {
  for (const { address } of addresses) {
    const refusal = refusalOf(address, loopback);
    if (refusal) return refused(refusal, (phrase) => `${hostname} resolves to ${address}, ${phrase}`);
  }
  return undefined;
}

/**
 * A `lookup` that refuses every resolved address the policy forbids: the address checked is the address connected
 * to, so a name re-pointed after a check (DNS rebinding) cannot slip through.
 */
export function createGuardedLookup(resolve: Resolver = systemResolver, loopback: LoopbackPolicy = 'allowed'): GuardedLookup {
  return (hostname, options, callback) => {
    const named = hostProblem(hostname, loopback);
    if (named) return callback(new ForbiddenAddressError(named), []);
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const problem = resolvedRefusal(hostname, addresses, loopback)?.reason;
      if (problem) return callback(new ForbiddenAddressError(problem), []);
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * Why the daemon never connects to this host, resolving a name now (a save-time check where the caller can wait);
 * a name that does not resolve yet is no problem here, the guarded lookup checks it again at connect time.
 */
export function resolvedHostRefusal(host: string, loopback: LoopbackPolicy = 'allowed', resolve: Resolver = systemResolver): Promise<HostRefusal | undefined> {
  const literal = hostRefusal(host, loopback);
  const bare = host.replace(/^\[|\]$/g, '');
  if (literal || literalAddress(host) !== undefined) return Promise.resolve(literal);
  return new Promise((done) => resolve(bare, { all: true }, (err, addresses) => done(err ? undefined : resolvedRefusal(bare, addresses, loopback))));
}

/**
 * Throws before connecting to a forbidden host. Node does not call `lookup` for IP literals, so a literal is checked
 * here; a name is checked by the guarded lookup when it resolves.
 */
export function assertConnectable(host: string): void {
  const problem = hostProblem(host);
  if (problem) throw new ForbiddenAddressError(problem);
}
