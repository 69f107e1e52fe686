import type { ServiceContext } from '../../src/services/context.js';
import { EVENT_RECORDED } from '../../src/services/events.js';
import { postWebhook, WEBHOOK_TIMEOUT_MS } from '../../src/services/webhook-http.js';
import {
  claimDueDeliveries, fanOutEvents, forgetIdle, newClaimMemory, nextDeliveryDueAt, recordQueuedAttempt, releaseInterruptedDeliveries, type ClaimedDelivery, type ClaimMemory,
} from '../../src/services/webhook-outbox.js';

export interface DispatcherOptions {
  /** Attempts in flight at once, over all subscriptions, shared fairly between accounts. */
  concurrency?: number;
  /** Attempts beyond `concurrency`, one at a time for each account with none in flight: its next delivery never waits. */
  reservedSlots?: number;
  /** Attempts in flight at once to one subscription: a slow receiver holds only these. */
  perSubscription?: number;
  leaseMs?: number;
  timeoutMs?: number;
  /** Jitter source of the retry schedule, in [0, 1); tests pin it. */
  random?: () => number;
}

/** Longest sleep between looks at the outbox when nothing is due (events written by this process wake it at once). */
const IDLE_POLL_MS = 1000;

/**
 * Delivers the outbox: fans events out to matching subscriptions and POSTs each queued delivery, signed, with
 * bounded concurrency shared fairly between accounts (see claimDueDeliveries). The same shape as JobWorker: `runDue()`
 * for tests on a manual clock, `start()`/`stop()`.
 */
export class WebhookDispatcher {
  readonly name = 'webhook_dispatcher';
  private readonly running = new Set<Promise<void>>();
  private readonly inFlight = new Map<string, number>();
  private readonly memory: ClaimMemory = newClaimMemory();
  private readonly concurrency: number;
  private readonly reservedSlots: number;
  private readonly perSubscription: number;
  private readonly leaseMs: number;
  private readonly timeoutMs: number;
  private readonly random: () => number;
  private timer: NodeJS.Timeout | undefined;
  private active = false;
  private pumpQueued = false;
  /** The last step asked for (never rejects): steps run one after another, after `start`'s release, each claiming what the last left. */
  private stepping: Promise<unknown> = Promise.resolve();
  /** Undispatched events may exist (an event was recorded, a poll came, or the last fan-out batch was full). */
  private eventsWaiting = true;
  private readonly onEvent = () => {
    this.eventsWaiting = true;
    this.wake();
  };

  constructor(private readonly ctx: ServiceContext, options: DispatcherOptions = {}) {
    this.concurrency = options.concurrency ?? 64;
    this.reservedSlots = options.reservedSlots ?? 8;
    this.perSubscription = options.perSubscription ?? 4;
    this.leaseMs = options.leaseMs ?? 4 * (options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
    this.timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    this.random = options.random ?? Math.random;
  }

  get state(): string {
    return this.active ? `running (${this.running.size} in flight)` : 'stopped';
  }

  private async attempt(claimed: ClaimedDelivery): Promise<void> {
    const result = await postWebhook(claimed.request, { targets: this.ctx.options, timeoutMs: this.timeoutMs, now: this.ctx.clock.now() });
    const outcome = await recordQueuedAttempt(this.ctx, claimed, result, this.random);
    if (result.ok && !this.ctx.log.isLevelEnabled('debug')) return;
    const fields = { webhook_subscription_id: claimed.subscriptionId, event_id: claimed.log.eventId, attempt: claimed.attempt, outcome };
    if (result.ok) this.ctx.log.debug({ ...fields, ms: result.durationMs }, 'webhook delivered');
    else this.ctx.log.info({ ...fields, status: result.responseStatus, error: result.errorMessage }, 'webhook attempt failed');
  }

  private launch(claimed: ClaimedDelivery): void {
    const sub = claimed.subscriptionId;
    this.inFlight.set(sub, (this.inFlight.get(sub) ?? 0) + 1);
    const tracked: Promise<void> = this.attempt(claimed)
      .catch((err: unknown) => this.ctx.log.error({ err, queue_id: claimed.queueId }, 'webhook attempt could not be recorded; its lease will expire'))
      .finally(() => {
        this.running.delete(tracked);
        forgetIdle(this.memory, sub); // its queue changed: a retry time, or the next event of the resource is due
        const n = (this.inFlight.get(sub) ?? 1) - 1;
        if (n > 0) this.inFlight.set(sub, n);
        else this.inFlight.delete(sub);
        this.wake();
      });
    this.running.add(tracked);
  }

  /** One fan-out batch, then claims what fits in the free slots; returns whether more fan-out is waiting. */
  private step(): Promise<boolean> {
    const run = this.stepping.then(() => this.stepNow());
    this.stepping = run.catch(() => undefined);
    return run;
  }

  private async stepNow(): Promise<boolean> {
    if (this.eventsWaiting) {
      // cleared first, so an event recorded during the fan-out asks for another one
      this.eventsWaiting = false;
      const fanOut = await fanOutEvents(this.ctx).catch((err: unknown) => {
        this.eventsWaiting = true;
        throw err;
      });
      for (const sub of fanOut.subscriptions) forgetIdle(this.memory, sub);
      if (fanOut.more) this.eventsWaiting = true;
    }
    const claimed = await claimDueDeliveries(this.ctx, {
      concurrency: this.concurrency, reservedSlots: this.reservedSlots, perSubscription: this.perSubscription, inFlight: this.inFlight,
      leaseMs: this.leaseMs, memory: this.memory,
    });
    for (const c of claimed) this.launch(c);
    return this.eventsWaiting;
  }

  /** Delivers everything due now, and what becomes due while doing so, until nothing is left (tests, manual clock). */
  async runDue(): Promise<void> {
    for (;;) {
      this.eventsWaiting = true;
      while (await this.step());
      if (this.running.size === 0) return;
      await Promise.race(this.running);
    }
  }

  start(): void {
    // before anything is claimed: steps wait their turn behind it
    this.stepping = this.stepping.then(async () => {
      const released = await releaseInterruptedDeliveries(this.ctx);
      if (released > 0) this.ctx.log.info({ deliveries: released }, 'resuming webhook deliveries of a previous run');
    }).catch((err: unknown) => this.ctx.log.error({ err }, 'webhook dispatcher could not resume the deliveries of a previous run'));
    this.active = true;
    this.ctx.notices.on(EVENT_RECORDED, this.onEvent);
    this.wake();
  }

  /** Looks at the outbox soon; calls within one turn of the event loop share one look. */
  wake(): void {
    if (!this.active || this.pumpQueued) return;
    this.pumpQueued = true;
    setImmediate(() => {
      this.pumpQueued = false;
      if (this.active) void this.pump();
    });
  }

  /** One step, then sleeps until the next delivery is due (or steps again at once while fan-out waits); never rejects. */
  private async pump(): Promise<void> {
    let more = false;
    let due: number | undefined;
    try {
      more = await this.step();
      if (!more) due = await nextDeliveryDueAt(this.ctx);
    } catch (err) {
      this.ctx.log.error({ err }, 'webhook dispatcher step failed');
    }
    if (!this.active) return;
    if (more) return this.wake();
    clearTimeout(this.timer);
    const wait = due === undefined ? IDLE_POLL_MS : Math.min(IDLE_POLL_MS, Math.max(10, due - this.ctx.clock.now()));
    this.timer = setTimeout(this.onEvent, wait); // also finds events written by other processes
    this.timer.unref();
  }

  /** Stops claiming and waits for attempts in flight (each ends within its timeout). */
  async stop(): Promise<void> {
    this.active = false;
    this.ctx.notices.off(EVENT_RECORDED, this.onEvent);
    clearTimeout(this.timer);
    await this.stepping; // a step under way may still start attempts
    await Promise.allSettled([...this.running]);
  }
}
