import { hostProblem, resolvedHostProblem } from '../net/addresses.js';

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
  if (hostProblem(host)) return ['must not point to a link-local or metadata address'];
  // a name not resolvable now is checked again before each delivery
  if (options.resolve && !isLoopbackHost(host) && (await resolvedHostProblem(host))) return ['resolves to a link-local or metadata address'];
  return [];
}
