import type { ServiceContext } from './context.js';

/**
 * The claims (jobs, print jobs, tracking checks, webhook deliveries, Idempotency-Keys in use) a starting daemon takes back, as a condition to
 * add to a statement's WHERE; undefined when there are none. Each claim names the daemon that took it (`lease_owner`).
 * On its own store (SQLite) the daemon is the only one, so every claim is a dead predecessor's. On a shared store the
 * claims of the daemon that ran on its data directory before are taken back at once: the directory's lock shows that
 * daemon is gone. Those of other daemons wait until their leases run out: they may be a live daemon's.
 */
export function claimsLeftBehind(ctx: ServiceContext, column = 'lease_owner'): { where: string; params: string[] } | undefined {
  if (!ctx.store.shared) return { where: '', params: [] };
  if (ctx.previousDaemonId === undefined) return undefined;
  return { where: ` AND ${column} = ?`, params: [ctx.previousDaemonId] };
}
