import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';

/**
 * The address policy of every outbound connection (webhooks, printers, carriers): link-local and cloud metadata
 * addresses are never reached, in any spelling. Loopback and private LAN addresses stay allowed: printers live on the
 * LAN, carrier emulators and CUPS on 127.0.0.1.
 */

/** Cloud metadata services outside 169.254.0.0/16: Alibaba, Azure's wireserver, Oracle, AWS over IPv6. */
const METADATA_ADDRESSES = new Set(['100.100.100.200', '168.63.129.16', '192.0.0.192', 'fd00:ec2:0:0:0:0:0:254']);
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'instance-data', 'instance-data.ec2.internal']);

export const FORBIDDEN_ADDRESS = 'a link-local or metadata address';

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

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number);
    text = text.slice(0, -dotted[1]!.length) + `${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16));
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/** The IPv4 address an IPv6 address carries: mapped, compatible, NAT64 (64:ff9b::/96, 64:ff9b:1::/48) or 6to4. */
function embeddedIPv4(groups: number[]): string | undefined {
  const zeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeroUpTo(5) && (groups[5] === 0xffff || groups[5] === 0) && (groups[6] !== 0 || groups[7]! > 1)) return ipv4Of(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && (groups[2] === 0 || groups[2] === 1)) return ipv4Of(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return ipv4Of(groups[1]!, groups[2]!);
  return undefined;
}

/** Why the daemon never connects to this IP address, or undefined when it may. */
export function forbiddenAddressReason(address: string): string | undefined {
  const version = isIP(address);
  if (version === 4) {
    const [a, b] = address.split('.').map(Number);
    if (a === 169 && b === 254) return `${address} is ${FORBIDDEN_ADDRESS}`;
    if (a === 0) return `${address} is not an address to connect to`;
    return METADATA_ADDRESSES.has(address) ? `${address} is ${FORBIDDEN_ADDRESS}` : undefined;
  }
  if (version === 6) {
    const groups = ipv6Groups(address);
    const inner = embeddedIPv4(groups);
    if (inner) return forbiddenAddressReason(inner) && `${address} is ${FORBIDDEN_ADDRESS}`;
    if ((groups[0]! & 0xffc0) === 0xfe80) return `${address} is ${FORBIDDEN_ADDRESS}`;
    return METADATA_ADDRESSES.has(groups.map((g) => g.toString(16)).join(':')) ? `${address} is ${FORBIDDEN_ADDRESS}` : undefined;
  }
  return undefined;
}

/**
 * Why the daemon never connects to this host (a URL's host: a name, an IP literal in brackets or not, an IPv4 in any
 * inet_aton spelling), or undefined when it may; names are resolved at connect time by `guardedLookup`.
 */
export function hostProblem(host: string): string | undefined {
  const h = host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (METADATA_NAMES.has(h)) return `${host} is ${FORBIDDEN_ADDRESS}`;
  if (isIP(h)) return forbiddenAddressReason(h);
  const loose = looseIPv4(h);
  return loose ? forbiddenAddressReason(loose) && `${host} is ${FORBIDDEN_ADDRESS}` : undefined;
}

/** An address the policy refused, at connect time. */
export class ForbiddenAddressError extends Error {
  readonly code = 'EADDRFORBIDDEN';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type Resolver = (hostname: string, options: LookupOptions & { all: true }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A `lookup` for `net.connect`, `http.request` and agents that refuses every resolved address the policy forbids: the
 * address checked is the address connected to, so a name re-pointed after a check (DNS rebinding) cannot slip through.
 */
export function createGuardedLookup(resolve: Resolver = dnsLookup as unknown as Resolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const named = hostProblem(hostname);
    if (named) return callback(new ForbiddenAddressError(named), []);
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const forbidden = addresses.find((a) => forbiddenAddressReason(a.address));
      if (forbidden) return callback(new ForbiddenAddressError(`${hostname} resolves to ${forbidden.address}, ${FORBIDDEN_ADDRESS}`), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export const guardedLookup = createGuardedLookup();

/**
 * Throws before connecting to a forbidden host. Node does not call `lookup` for IP literals, so a literal is checked
 * here; a name is checked by `guardedLookup` when it resolves.
 */
export function assertConnectable(host: string): void {
  const problem = hostProblem(host);
  if (problem) throw new ForbiddenAddressError(problem);
}
