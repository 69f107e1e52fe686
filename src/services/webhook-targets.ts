import { hostRefusal, isLoopbackLiteral, resolvedHostRefusal, type AddressRefusal, type LoopbackPolicy } from '../net/addresses.js';
import type { ServiceOptions } from './context.js';

/** What the station lets webhooks reach (`--allow-http-webhooks`, `--allow-loopback-webhooks`). */
export type WebhookTargetRules = Pick<ServiceOptions, 'allowHttpWebhooks' | 'allowLoopbackWebhooks'>;

const PLAIN_HTTP = 'must use https (plain http is allowed only to loopback, or when the daemon runs with --allow-http-webhooks)';
const LOOPBACK_SWITCH = '(allowed only when the daemon runs with --allow-loopback-webhooks)';

/** `localhost` and its subdomains (RFC 6761): names meant for this machine, resolved and checked like any other. */
const isLocalhostName = (host: string) => /(^|\.)localhost\.*$/i.test(host);

/**
 * How a webhook's connection treats loopback: refused unless the station allows it (the delivery log shows what a
 * local service answered); required when plain http is allowed only because the target is this machine.
 */
export function loopbackPolicyOf(url: URL, rules: WebhookTargetRules): LoopbackPolicy {
  if (!rules.allowLoopbackWebhooks) return 'refused';
  return url.protocol === 'http:' && !rules.allowHttpWebhooks ? 'required' : 'allowed';
}

function refusalProblem(refusal: AddressRefusal, resolved: boolean): string {
  if (refusal === 'not loopback') return PLAIN_HTTP;
  if (refusal === 'loopback') return `${resolved ? 'resolves to' : 'must not point to'} a loopback address ${LOOPBACK_SWITCH}`;
  return `${resolved ? 'resolves to' : 'must not point to'} a link-local or metadata address`;
}

/**
 * Problems with a webhook URL under the station's rules, or an empty list. `resolve` also checks every address the
 * host name resolves to (at create/update; the guarded lookup checks them again at connect time), `localhost` names
 * included; a name that does not resolve yet is not refused here.
 */
export async function webhookUrlProblems(raw: string, rules: WebhookTargetRules, options: { resolve: boolean }): Promise<string[]> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return ['must be an absolute URL'];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return ['must use https'];
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol === 'http:' && !rules.allowHttpWebhooks) {
    if (!isLocalhostName(host) && !isLoopbackLiteral(host)) return [PLAIN_HTTP];
    if (!rules.allowLoopbackWebhooks) return [refusalProblem('loopback', false)];
  }
  if (url.username || url.password) return ['must not contain credentials'];
  const loopback = loopbackPolicyOf(url, rules);
  const named = hostRefusal(host, loopback);
  if (named) return [refusalProblem(named.refusal, false)];
  // a name not resolvable now is checked again before each delivery
  const resolved = options.resolve ? await resolvedHostRefusal(host, loopback) : undefined;
  return resolved ? [refusalProblem(resolved.refusal, true)] : [];
}
