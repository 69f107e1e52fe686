import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Link-local and cloud metadata addresses a webhook must never reach (SSRF). */
export function isForbiddenAddress(address: string): boolean {
  const v = isIP(address);
  if (v === 4) {
    const [a, b] = address.split('.').map(Number);
    return (a === 169 && b === 254) || address === '100.100.100.200' || a === 0;
  }
  if (v === 6) {
    const lower = address.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    if (mapped) return isForbiddenAddress(mapped[1]!);
    return /^fe[89ab][0-9a-f]:/.test(lower) || lower.startsWith('fd00:ec2::');
  }
  return false;
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * Problems with a webhook URL, or an empty list. `resolve` also checks every address the host name resolves to
 * (done at create/update and again at delivery time); a name that does not resolve yet is not refused here.
 */
export async function webhookUrlProblems(raw: string, options: { allowHttp: boolean; resolve: boolean }): Promise<string[]> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return ['must be an absolute URL'];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return ['must use https'];
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol === 'http:' && !options.allowHttp && !isLoopbackHost(host)) {
    return ['must use https (plain http is allowed only to loopback, or when the daemon runs with --allow-http-webhooks)'];
  }
  if (url.username || url.password) return ['must not contain credentials'];
  if (isForbiddenAddress(host) || host === 'metadata.google.internal') return ['must not point to a link-local or metadata address'];
  if (options.resolve && !isIP(host) && !isLoopbackHost(host)) {
    try {
      const addresses = await lookup(host, { all: true });
      if (addresses.some((a) => isForbiddenAddress(a.address))) return ['resolves to a link-local or metadata address'];
    } catch {
      // not resolvable now: checked again before each delivery
    }
  }
  return [];
}
