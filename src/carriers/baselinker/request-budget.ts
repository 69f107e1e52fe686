import { createHash } from 'node:crypto';
import { setTimeout as realSleep } from 'node:timers/promises';
import { CarrierTransientError } from '../errors.js';
import type { CarrierContext } from '../types.js';

/**
 * Base.com allows 100 requests a minute per API token, shared by everything that uses the token, and blocks the token
 * for a while beyond that (ERROR_BLOCKED_TOKEN; the figure is in the docs' request information and in integrators'
 * help pages, e.g. pomoc.integratory.pl on ERROR_BLOCKED_TOKEN). Every packdesk call with a token takes a slot here
 * first, so the adapter and the tracking poller together stay under it.
 */
export const BASELINKER_REQUESTS_PER_MINUTE = 100;
const WINDOW_MS = 60_000;
/** A call waits this long at most for a slot; beyond it the caller is told to come back later. */
const LONGEST_WAIT_MS = 10_000;

interface TokenBudget {
  /** Times of the slots taken, oldest first (a waiting call's slot may lie ahead). */
  slots: number[];
  blockedUntil: number;
}

/** Process-wide state is keyed by the token's hash, so that no token is kept in memory as such. */
function tokenKey(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const budgets = new Map<string, TokenBudget>();

function budgetOf(token: string): TokenBudget {
  const key = tokenKey(token);
  let budget = budgets.get(key);
  if (!budget) budgets.set(key, (budget = { slots: [], blockedUntil: 0 }));
  return budget;
}

/** Waits (on `ctx.sleep`) until the token may send one more request, or throws CarrierTransientError with the wait. */
export async function takeRequestSlot(token: string, ctx: Pick<CarrierContext, 'clock' | 'sleep'>): Promise<void> {
  const budget = budgetOf(token);
  const now = ctx.clock.now();
  if (budget.blockedUntil > now) {
    throw new CarrierTransientError('Baselinker has blocked this API token for exceeding its request limit', budget.blockedUntil - now);
  }
  budget.slots = budget.slots.filter((at) => at > now - WINDOW_MS);
  const full = budget.slots.length >= BASELINKER_REQUESTS_PER_MINUTE;
  const at = full ? budget.slots[budget.slots.length - BASELINKER_REQUESTS_PER_MINUTE]! + WINDOW_MS : now;
  const wait = Math.max(0, at - now);
  if (wait > LONGEST_WAIT_MS) {
    throw new CarrierTransientError(`Baselinker's ${BASELINKER_REQUESTS_PER_MINUTE} requests a minute for this API token are spent`, wait);
  }
  budget.slots.push(Math.max(at, budget.slots[budget.slots.length - 1] ?? 0));
  if (wait > 0) await (ctx.sleep ?? realSleep)(wait);
}

/** Base.com blocked the token until `until` (unix ms): no call with it is sent before then. */
export function blockToken(token: string, until: number): void {
  const budget = budgetOf(token);
  budget.blockedUntil = Math.max(budget.blockedUntil, until);
}
