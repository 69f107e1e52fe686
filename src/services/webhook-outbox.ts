import { takeFairShares } from '../domain/fair-shares.js';
import { DISABLE_AFTER_FAILING_MS, retryDelayMs } from '../domain/webhook-retries.js';
import type { TransactionOptions } from '../store/store.js';
import type { ServiceContext } from './context.js';
import { claimsLeftBehind } from './leases.js';
import { finishAttempt, startAttempt } from './webhook-attempts.js';
import type { AttemptResult, WebhookRequest } from './webhook-http.js';
import type { DeliveryRow } from './webhooks.js';

/**
 * The webhook outbox, in three steps that each run in one transaction:
 * fan-out (undispatched events → one `webhook_queue` row per matching subscription), claim (due rows → `delivering`
 * with a lease, plus a `pending` log entry), and record (an attempt's outcome → log, queue row, subscription).
 *
 * Per-resource order: of the undelivered rows of one (subscription, resource), only the earliest is ever due; the
 * others wait with `next_attempt_at = WAITING_FOR_EARLIER` and the next one is made due when it finishes, so a
 * claim never has to look behind a line's head. A delivered row is deleted (its log entries and the event's
 * `dispatched_at` keep the history): the queue holds only work still to do, or given up (`failed`).
 */
export const WAITING_FOR_EARLIER = Number.MAX_SAFE_INTEGER;

/** Events that go only where they are sent explicitly, never to subscriptions by name. */
const NOT_FANNED_OUT = new Set(['webhook.test']);

interface ActiveSubscription {
  id: string;
  account_id: string;
  url: string;
  secret_enc: string;
  events: string;
}

// in a stable order: claims take subscriptions and accounts in turn from it
function activeSubscriptions(ctx: ServiceContext): Promise<ActiveSubscription[]> {
  return ctx.store.all<ActiveSubscription>(`SELECT id, account_id, url, secret_enc, events FROM webhook_subscriptions WHERE status = 'active' ORDER BY id`);
}

export interface FanOutResult {
  /** More events may be waiting: the batch stopped at one of its limits. */
  more: boolean;
  /** Subscriptions that got new deliveries. */
  subscriptions: Set<string>;
}

/**
 * Fan-outs take turns across daemons: each daemon's would otherwise read the same undispatched events and all but one
 * be rolled back. Serializable, as the attempt that finishes a delivery: a line's order holds over several rows (a row
 * waits for the one before it, which the step that finishes it makes due), which no row lock covers.
 */
const FAN_OUT_TURN: TransactionOptions = { inTurn: 'webhook queue' };

/**
 * A claim only moves due rows to `delivering`, and only a line's head is ever due: it reads committed rows, locking
 * those it takes and passing over those another daemon's claim is taking, so the daemons' claims run side by side.
 */
const CLAIM: TransactionOptions = { isolation: 'read committed' };

/** How much one fan-out transaction takes on. */
export interface FanOutLimits {
  events: number;
  /** The batch ends with the event whose deliveries reach this many, however many subscriptions each event has. */
  deliveries: number;
}

/**
 * Moves undispatched events into the delivery queue, in a transaction kept short: deliveries in flight finish
 * beside it (on SQLite a long one is an unbroken chain of statements, during which V8 finds every in-flight
 * delivery's objects alive and starts allocating them straight into its old generation: +60 MB of peak RSS).
 */
export function fanOutEvents(ctx: ServiceContext, limits: FanOutLimits = { events: 500, deliveries: 1000 }): Promise<FanOutResult> {
  return ctx.store.transaction(async () => {
    const pending = await ctx.store.all<{ id: string; account_id: string; type: string; resource_type: string; resource_id: string }>(
      `SELECT id, account_id, type, resource_type, resource_id FROM events
      WHERE dispatched_at IS NULL ORDER BY created_at, rowid LIMIT ?`, limits.events);
    const touched = new Set<string>();
    if (pending.length === 0) return { more: false, subscriptions: touched };
    const byAccount = new Map<string, { id: string; events: Set<string> }[]>();
    for (const s of await activeSubscriptions(ctx)) {
      const list = byAccount.get(s.account_id) ?? [];
      list.push({ id: s.id, events: new Set(JSON.parse(s.events) as string[]) });
      byAccount.set(s.account_id, list);
    }
    const now = ctx.clock.now();
    let seq = (await ctx.store.get<{ seq: number }>('SELECT coalesce(max(seq), 0) AS seq FROM webhook_queue'))!.seq;
    const lineBusy = `SELECT 1 FROM webhook_queue WHERE subscription_id = ? AND resource_key = ?
      AND status IN ('pending', 'delivering') LIMIT 1`;
    const insert = `INSERT INTO webhook_queue (id, seq, subscription_id, event_id, resource_key, status, attempts,
      next_attempt_at, lease_until, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, NULL, ?, ?)
      ON CONFLICT (subscription_id, event_id) DO NOTHING`;
    const dispatched: string[] = [];
    let queued = 0;
    for (const event of pending) {
      if (!NOT_FANNED_OUT.has(event.type)) {
        const resourceKey = `${event.resource_type}:${event.resource_id}`;
        for (const sub of byAccount.get(event.account_id) ?? []) {
          if (!sub.events.has(event.type) && !sub.events.has('*')) continue;
          const dueAt = (await ctx.store.get(lineBusy, sub.id, resourceKey)) ? WAITING_FOR_EARLIER : now;
          await ctx.store.run(insert, ctx.ids('job'), ++seq, sub.id, event.id, resourceKey, dueAt, now, now);
          touched.add(sub.id);
          queued++;
        }
      }
      dispatched.push(event.id);
      if (queued >= limits.deliveries) break;
    }
    const ids = ctx.store.sql.inList(dispatched);
    await ctx.store.run(`UPDATE events SET dispatched_at = ? WHERE id ${ids.sql}`, now, ids.param);
    return { more: dispatched.length < pending.length || pending.length === limits.events, subscriptions: touched };
  }, FAN_OUT_TURN);
}

/** A queued delivery claimed for one attempt. */
export interface ClaimedDelivery {
  queueId: string;
  subscriptionId: string;
  resourceKey: string;
  attempt: number;
  log: DeliveryRow;
  request: WebhookRequest;
}

/** What the claimer remembers between claims (in memory: the queue rows stay the truth). */
export interface ClaimMemory {
  /** Per subscription: nothing of it is due before this time. Forget it (`forgetIdle`) when the subscription's queue changes. */
  idleUntil: Map<string, number>;
  /** How many times an idleness was forgotten: a claim that read the queue before one learns no idleness from it. */
  forgotten: number;
  /** Per subscription: the resource line claimed last; the next claim starts after it, so every resource gets its turn. */
  cursor: Map<string, string>;
  /** Which account, and which of its subscriptions, is asked first next time, so ties favour none of them. */
  turn: number;
}

export function newClaimMemory(): ClaimMemory {
  return { idleUntil: new Map(), forgotten: 0, cursor: new Map(), turn: 0 };
}

/** This process changed the subscription's queue (an attempt ended, a fan-out queued): its next claim looks again. */
export function forgetIdle(memory: ClaimMemory, subscriptionId: string): void {
  memory.idleUntil.delete(subscriptionId);
  memory.forgotten++;
}

/**
 * How long a pick that came up short is trusted. The daemons sharing a store change each other's queues without a word
 * (another daemon's attempt makes the next of a line due), so an idleness is believed for a second at most.
 */
export const IDLE_TRUSTED_MS = 1000;

export interface ClaimLimits {
  /** Attempts this process runs at once, shared fairly between accounts. */
  concurrency: number;
  /** Attempts beyond `concurrency`, one at a time for each account that has none in flight. */
  reservedSlots: number;
  perSubscription: number;
  /** Attempts this process already has in flight, by subscription. */
  inFlight: ReadonlyMap<string, number>;
  leaseMs: number;
  memory: ClaimMemory;
}

/**
 * Picks due heads of one subscription's resource lines, round robin from its cursor, through the
 * (subscription, resource, seq) index: each scan stops at the slots it may fill, and the work is proportional to what
 * this subscription has due, never to another's backlog. A pick that comes up short tells when the subscription's
 * next delivery is due (`idleUntil`); `cursor` is the line picked last, `after` the one the claim before picked last.
 * `chosen` are the rows this claim already picked for the subscription: they are still due until the claim updates
 * them, and are passed over.
 */
async function pickDue(ctx: ServiceContext, subscriptionId: string, slots: number, now: number, after: string, chosen: ReadonlySet<string>) {
  const byOrder = ctx.store.dialect === 'sqlite' ? ' INDEXED BY webhook_queue_order' : '';
  const picked: string[] = [];
  let cursor: string | undefined;
  for (const part of ['>', '<=']) {
    const rows = await ctx.store.all<{ id: string; resource_key: string }>(`SELECT id, resource_key FROM webhook_queue${byOrder}
      WHERE subscription_id = ? AND resource_key ${part} ? AND status = 'pending' AND next_attempt_at <= ? ORDER BY resource_key, seq LIMIT ?${ctx.store.sql.skipLocked}`,
    subscriptionId, after, now, slots - picked.length + chosen.size);
    for (const row of rows) {
      if (chosen.has(row.id) || picked.length === slots) continue;
      picked.push(row.id);
      cursor = row.resource_key;
    }
    if (picked.length === slots) return { picked, cursor };
  }
  const next = await ctx.store.get<{ at: number | null }>(`SELECT min(next_attempt_at) AS at FROM webhook_queue
    WHERE subscription_id = ? AND status = 'pending' AND next_attempt_at > ? AND next_attempt_at < ?`, subscriptionId, now, WAITING_FOR_EARLIER);
  return { picked, cursor, idleUntil: Math.min(next?.at ?? Infinity, now + IDLE_TRUSTED_MS) };
}

/** An account's active subscriptions and the attempts this process has in flight for them. */
interface AccountTurn {
  subs: ActiveSubscription[];
  inFlight: number;
}

/** The accounts of the active subscriptions, starting at `turn`, so ties in the fair shares favour none of them. */
function accountsInTurn(subs: ActiveSubscription[], inFlight: ReadonlyMap<string, number>, turn: number): AccountTurn[] {
  const byAccount = new Map<string, AccountTurn>();
  for (const sub of subs) {
    const account = byAccount.get(sub.account_id) ?? { subs: [], inFlight: 0 };
    account.subs.push(sub);
    account.inFlight += inFlight.get(sub.id) ?? 0;
    byAccount.set(sub.account_id, account);
  }
  const accounts = [...byAccount.values()];
  const first = turn % accounts.length;
  return [...accounts.slice(first), ...accounts.slice(0, first)];
}

/**
 * Claims due deliveries of active subscriptions. The `concurrency` slots are shared max-min fair between accounts
 * (an account alone may take them all, and a freed slot goes to the account with fewest in flight); an account with
 * none in flight also gets one of the `reservedSlots`, so its next delivery starts at once even while receivers that
 * never answer hold every shared slot. At most `perSubscription` are in flight for any one subscription. A
 * `delivering` row whose lease ran out belongs to a process that died and is claimed again. What the claim learnt goes
 * into `memory` once it commits: an attempt rolled back for a conflict must not leave a subscription marked idle.
 */
export async function claimDueDeliveries(ctx: ServiceContext, limits: ClaimLimits): Promise<ClaimedDelivery[]> {
  let running = 0;
  for (const n of limits.inFlight.values()) running += n;
  if (running >= limits.concurrency + limits.reservedSlots) return [];
  // most wakes find nothing to claim (another daemon's dispatcher took it, or an attempt ended with nothing behind it):
  // one indexed look answers them without opening a claim's transaction
  const anyDue = await ctx.store.get(`SELECT 1 AS due FROM webhook_queue WHERE status IN ('pending', 'delivering') AND next_attempt_at <= ? LIMIT 1`, ctx.clock.now());
  if (!anyDue) return [];
  const { memory } = limits;
  return ctx.store.transaction(async () => {
    const now = ctx.clock.now();
    const subs = await activeSubscriptions(ctx);
    if (subs.length === 0) return [];
    const byId = new Map(subs.map((s) => [s.id, s]));
    const taken = new Map(limits.inFlight);
    const expired = new Map<string, string[]>();
    for (const row of await ctx.store.all<{ id: string; subscription_id: string }>(
      `SELECT id, subscription_id FROM webhook_queue WHERE status = 'delivering' AND next_attempt_at <= ?${ctx.store.sql.skipLocked}`, now)) {
      expired.set(row.subscription_id, [...(expired.get(row.subscription_id) ?? []), row.id]);
    }
    const turn = (memory.turn + 1) % subs.length;
    // an attempt of this process that ends while this claim runs makes the next of its line due, maybe after this read it
    const forgotten = memory.forgotten;
    const learnt: (() => void)[] = [() => { memory.turn = turn; }];
    ctx.store.afterCommit(() => learnt.forEach((learn) => learn()));
    const picked: string[] = [];
    // a subscription asked again in a later round of the fair shares finds its rows picked in an earlier one still due
    const chosenFor = new Map<string, Set<string>>();
    // up to `wanted` due deliveries of one account, from its subscriptions in turn; expired leases first
    const pickFor = async (account: AccountTurn, wanted: number): Promise<number> => {
      let got = 0;
      for (let i = 0; i < account.subs.length && got < wanted; i++) {
        const sub = account.subs[(turn + i) % account.subs.length]!;
        const slots = Math.min(limits.perSubscription - (taken.get(sub.id) ?? 0), wanted - got);
        if (slots <= 0) continue;
        const ids = expired.get(sub.id)?.splice(0, slots) ?? [];
        if (ids.length < slots && (memory.idleUntil.get(sub.id) ?? -Infinity) <= now) {
          let chosen = chosenFor.get(sub.id);
          if (!chosen) chosenFor.set(sub.id, (chosen = new Set()));
          const due = await pickDue(ctx, sub.id, slots - ids.length, now, memory.cursor.get(sub.id) ?? '', chosen);
          for (const id of due.picked) chosen.add(id);
          ids.push(...due.picked);
          learnt.push(() => {
            if (due.cursor !== undefined) memory.cursor.set(sub.id, due.cursor);
            if (due.idleUntil !== undefined && memory.forgotten === forgotten) memory.idleUntil.set(sub.id, due.idleUntil);
          });
        }
        taken.set(sub.id, (taken.get(sub.id) ?? 0) + ids.length);
        picked.push(...ids);
        got += ids.length;
      }
      account.inFlight += got;
      return got;
    };
    // an account that takes less than its share has nothing more due; the others share what it left
    const waiting = await takeFairShares(accountsInTurn(subs, limits.inFlight, turn), limits.concurrency - running, (a) => a.inFlight, pickFor);
    let reserved = limits.concurrency + limits.reservedSlots - running - picked.length;
    for (const account of waiting) {
      if (reserved <= 0) break;
      if (account.inFlight === 0) reserved -= await pickFor(account, 1);
    }
    const claim = `UPDATE webhook_queue SET status = 'delivering', attempts = attempts + 1, lease_until = ?, lease_owner = ?,
      next_attempt_at = ?, updated_at = ? WHERE id = ? RETURNING subscription_id, event_id, resource_key, attempts`;
    const eventOf = 'SELECT id, type, payload FROM events WHERE id = ?';
    const claimed: ClaimedDelivery[] = [];
    for (const queueId of picked) {
      // the lease's end doubles as the due time, so an expired lease shows in the due index
      const row = (await ctx.store.get<{ subscription_id: string; event_id: string; resource_key: string; attempts: number }>(
        claim, now + limits.leaseMs, ctx.daemonId, now + limits.leaseMs, now, queueId))!;
      const sub = byId.get(row.subscription_id)!;
      const event = (await ctx.store.get<{ id: string; type: string; payload: string }>(eventOf, row.event_id))!;
      const { log, request } = await startAttempt(ctx, { subscriptionId: sub.id, url: sub.url, secretEnc: sub.secret_enc }, event, row.attempts);
      claimed.push({ queueId, subscriptionId: sub.id, resourceKey: row.resource_key, attempt: row.attempts, log, request });
    }
    return claimed;
  }, CLAIM);
}

/** The earliest future time a queued delivery becomes due (to sleep until then), if any. */
export async function nextDeliveryDueAt(ctx: ServiceContext): Promise<number | undefined> {
  const row = (await ctx.store.get<{ at: number | null }>(`SELECT min(next_attempt_at) AS at FROM webhook_queue WHERE status = 'pending'
    AND next_attempt_at > ? AND next_attempt_at < ?`, ctx.clock.now(), WAITING_FOR_EARLIER))!;
  return row.at ?? undefined;
}

/** Makes the next waiting delivery of the same (subscription, resource) due, once the one before it finished. */
async function releaseNextInLine(ctx: ServiceContext, subscriptionId: string, resourceKey: string, now: number): Promise<void> {
  await ctx.store.run(`UPDATE webhook_queue SET next_attempt_at = ?, updated_at = ? WHERE id = (
      SELECT id FROM webhook_queue WHERE subscription_id = ? AND resource_key = ? AND status = 'pending' ORDER BY seq LIMIT 1
    ) AND next_attempt_at = ?`, now, now, subscriptionId, resourceKey, WAITING_FOR_EARLIER);
}

export type QueuedOutcome = 'delivered' | 'retry' | 'failed' | 'dropped';

/**
 * Records one attempt of a queued delivery in one transaction: its log entry, its queue row (gone when delivered,
 * rescheduled, or `failed` after the schedule), and the subscription's health — a 410, or 5 days of nothing but
 * failures, disables it and fails everything it still had queued.
 */
export function recordQueuedAttempt(ctx: ServiceContext, claimed: ClaimedDelivery, result: AttemptResult, random: () => number): Promise<QueuedOutcome> {
  return ctx.store.transaction(async (): Promise<QueuedOutcome> => {
    const now = ctx.clock.now();
    const sub = await ctx.store.get<{ status: string; failing_since: number | null }>(
      'SELECT status, failing_since FROM webhook_subscriptions WHERE id = ?', claimed.subscriptionId);
    if (!sub) return 'dropped'; // deleted meanwhile: its queue and logs went with it
    const queue = (sql: string, ...args: unknown[]) => ctx.store.run(sql, ...args);
    if (result.ok) {
      await finishAttempt(ctx, claimed.log, result, null);
      await queue('DELETE FROM webhook_queue WHERE id = ?', claimed.queueId);
      await releaseNextInLine(ctx, claimed.subscriptionId, claimed.resourceKey, now);
      if (sub.failing_since !== null) await queue('UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = ?', claimed.subscriptionId);
      return 'delivered';
    }
    const failingSince = sub.failing_since ?? now;
    const disableBecause = result.gone ? 'the receiver answered 410 Gone'
      : now - failingSince >= DISABLE_AFTER_FAILING_MS ? 'deliveries failed for 5 days' : null;
    const delay = disableBecause || sub.status === 'disabled' ? undefined : retryDelayMs(claimed.attempt, random, result.retryAfterMs);
    if (delay !== undefined) {
      await finishAttempt(ctx, claimed.log, result, now + delay);
      await queue(`UPDATE webhook_queue SET status = 'pending', next_attempt_at = ?, lease_until = NULL, updated_at = ? WHERE id = ?`, now + delay, now, claimed.queueId);
    } else {
      const note = disableBecause ? `subscription disabled: ${disableBecause}` : sub.status === 'disabled' ? 'subscription disabled' : 'no attempts left';
      await finishAttempt(ctx, claimed.log, result, null, note);
      await queue(`UPDATE webhook_queue SET status = 'failed', lease_until = NULL, updated_at = ? WHERE id = ?`, now, claimed.queueId);
      await releaseNextInLine(ctx, claimed.subscriptionId, claimed.resourceKey, now);
    }
    if (sub.failing_since === null) await queue('UPDATE webhook_subscriptions SET failing_since = ? WHERE id = ?', now, claimed.subscriptionId);
    if (disableBecause) {
      await queue(`UPDATE webhook_subscriptions SET status = 'disabled', updated_at = ? WHERE id = ?`, now, claimed.subscriptionId);
      await queue(`UPDATE webhook_queue SET status = 'failed', lease_until = NULL, updated_at = ? WHERE subscription_id = ? AND status = 'pending'`, now, claimed.subscriptionId);
      ctx.log.warn({ webhook_subscription_id: claimed.subscriptionId, reason: disableBecause }, 'webhook subscription disabled');
    }
    return delay !== undefined ? 'retry' : 'failed';
  });
}

/**
 * At start-up the `delivering` rows a gone daemon left (see claimsLeftBehind): their attempts are logged as interrupted
 * and the deliveries are due again at once. On its own store the daemon's one-off sends (test, redeliver) are too.
 */
export async function releaseInterruptedDeliveries(ctx: ServiceContext): Promise<number> {
  const left = claimsLeftBehind(ctx);
  const leftInQueue = claimsLeftBehind(ctx, 'q.lease_owner');
  if (!left || !leftInQueue) return 0;
  return ctx.store.transaction(async () => {
    const now = ctx.clock.now();
    const queued = `EXISTS (SELECT 1 FROM webhook_queue q WHERE q.subscription_id = webhook_deliveries.subscription_id
      AND q.event_id = webhook_deliveries.event_id AND q.status = 'delivering'${leftInQueue.where})`;
    // a queued delivery is due again now; a one-off send is not retried
    await ctx.store.run(`UPDATE webhook_deliveries SET status = 'failed', error_message = 'interrupted: the daemon stopped during this attempt',
      next_retry_at = CASE WHEN ${queued} THEN CAST(? AS bigint) END WHERE status = 'pending'${ctx.store.shared ? ` AND ${queued}` : ''}`,
    ...leftInQueue.params, now, ...(ctx.store.shared ? leftInQueue.params : []));
    return ctx.store.run(`UPDATE webhook_queue SET status = 'pending', next_attempt_at = ?, lease_until = NULL, updated_at = ?
      WHERE status = 'delivering'${left.where}`, now, now, ...left.params);
  });
}
