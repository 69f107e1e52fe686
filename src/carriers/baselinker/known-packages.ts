import { tokenKey } from './request-budget.js';

/**
 * Base.com's package id of each tracking number this process created or read, per API token.
 * getCourierPackagesStatusHistory takes package ids only, and no method finds a package by its number
 * (api.baselinker.com), while packdesk asks to track by number: this memo is the bridge, lost on a restart.
 */
const known = new Map<string, Map<string, number>>();
/** Numbers kept per token; the oldest go first. */
const KEPT = 200_000;

export function rememberPackages(token: string, packages: readonly { number: string; packageId: number }[]): void {
  const key = tokenKey(token);
  let ids = known.get(key);
  if (!ids) known.set(key, (ids = new Map()));
  for (const p of packages) {
    ids.delete(p.number);
    ids.set(p.number, p.packageId);
  }
  for (const oldest of ids.keys()) {
    if (ids.size <= KEPT) break;
    ids.delete(oldest);
  }
}

/** The package ids known for `numbers`; a number missing here is unknown to this process. */
export function packageIdsOf(token: string, numbers: readonly string[]): Record<string, number> {
  const ids = known.get(tokenKey(token));
  return Object.fromEntries(numbers.flatMap((n) => (ids?.has(n) ? [[n, ids.get(n)!]] : [])));
}
