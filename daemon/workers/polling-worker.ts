import type { ServiceContext } from '../../src/services/context.js';

/** Longest sleep between looks at the store when nothing is due (work queued by this process wakes it at once). */
export const IDLE_POLL_MS = 1000;

/**
 * How a worker whose claims carry leases moves them on: every third of a lease while it is at them, so a long carrier
 * call or print keeps its claim, and the claims of a daemon killed mid-work run out within one lease for another
 * daemon (or this one, restarted) to take.
 */
export interface LeaseRenewal {
  leaseMs: number;
  renew(ids: string[], until: number): Promise<void>;
}

/**
 * The loop every background worker shares: claim due work from the store, run it with bounded concurrency, sleep until
 * the next due time. `runDue()` runs everything due now (tests drive it with a manual clock); `start()` keeps running.
 * Subclasses say how to claim and start work (`claimAndStart`, starting each piece with `track`) and when work is due next.
 */
export abstract class PollingWorker {
  protected readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private active = false;
  /** The look at the store under way, started by `wake`. */
  private looking: Promise<void> | undefined;
  /** A wake came while a look was under way (which may have read the store already): another look follows it. */
  private lookAgain = false;
  /** Claims run one after another (after `resume`), so each sees the work the one before it started. */
  private turn: Promise<unknown> = Promise.resolve();
  /** Ids of the claims in flight, whose leases are renewed (with `leases`). */
  private readonly held = new Set<string>();
  private renewals: NodeJS.Timeout | undefined;

  constructor(protected readonly ctx: ServiceContext, readonly name: string, private readonly leases?: LeaseRenewal) {}

  get state(): string {
    return this.active ? `running (${this.running.size} in flight)` : 'stopped';
  }

  /** Claims what fits and starts it with `track`; returns (or resolves to) how many pieces of work started. */
  protected abstract claimAndStart(): number | Promise<number>;

  /** When the next piece of work comes due, if any is waiting. */
  protected abstract nextDueAt(): number | undefined | Promise<number | undefined>;

  /** Called once by `start()`, before anything is claimed, e.g. to release claims a previous run left behind. */
  protected resume(): void | Promise<void> {}

  /** Runs a piece of work in the background; the worker looks for more once it ends. */
  protected track(work: Promise<void>): void {
    const tracked: Promise<void> = work.finally(() => {
      this.running.delete(tracked);
      this.wake();
    });
    this.running.add(tracked);
  }

  /** `track` for work on claims: their leases are renewed until it ends. */
  protected trackHeld(ids: readonly string[], work: () => Promise<void>): void {
    for (const id of ids) this.held.add(id);
    this.track(work().finally(() => {
      for (const id of ids) this.held.delete(id);
    }));
  }

  private renewHeld(): void {
    if (!this.leases || this.held.size === 0) return;
    this.leases.renew([...this.held], this.ctx.clock.now() + this.leases.leaseMs)
      .catch((err: unknown) => this.ctx.log.warn({ err, worker: this.name }, 'could not renew the leases of work in flight'));
  }

  private claimInTurn(): Promise<number> {
    const claim = this.turn.then(() => this.claimAndStart());
    this.turn = claim.catch(() => undefined); // the claim's own caller hears of its failure
    return claim;
  }

  /** Runs every piece of work due now, and what becomes due while doing so, until none is left. */
  async runDue(): Promise<void> {
    for (;;) {
      await this.claimInTurn();
      if (this.running.size === 0) return;
      await Promise.race(this.running);
    }
  }

  start(): void {
    this.turn = this.turn.then(() => this.resume())
      .catch((err: unknown) => this.ctx.log.error({ err, worker: this.name }, 'worker could not resume the work of a previous run'));
    this.active = true;
    if (this.leases) this.renewals = setInterval(() => this.renewHeld(), this.leases.leaseMs / 3).unref();
    this.wake();
  }

  /** Looks at the store now (called when work was queued and whenever a piece of work ended). */
  wake(): void {
    if (!this.active) return;
    if (this.looking) {
      this.lookAgain = true;
      return;
    }
    this.looking = this.look().finally(() => {
      this.looking = undefined;
    });
  }

  /** Claims what is due, then sleeps until the next due time (at most IDLE_POLL_MS); never fails. */
  private async look(): Promise<void> {
    do {
      this.lookAgain = false;
      try {
        await this.claimInTurn();
      } catch (err) {
        this.ctx.log.error({ err, worker: this.name }, 'worker could not claim work');
      }
      if (!this.active) return;
      clearTimeout(this.timer);
      let due: number | undefined;
      try {
        due = await this.nextDueAt();
      } catch (err) {
        this.ctx.log.error({ err, worker: this.name }, 'worker could not read when work comes due');
      }
      if (!this.active) return;
      const wait = due === undefined ? IDLE_POLL_MS : Math.min(IDLE_POLL_MS, Math.max(10, due - this.ctx.clock.now()));
      this.timer = setTimeout(() => this.wake(), wait);
      this.timer.unref();
    } while (this.lookAgain);
  }

  /** Stops claiming and waits for the work in flight. */
  async stop(): Promise<void> {
    this.active = false;
    clearTimeout(this.timer);
    clearInterval(this.renewals);
    await this.looking;
    await Promise.allSettled([...this.running]);
  }
}
