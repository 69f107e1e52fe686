import type { ServiceContext } from '../../src/services/context.js';

/** Longest sleep between looks at the store when nothing is due (work queued by this process wakes it at once). */
export const IDLE_POLL_MS = 1000;

/**
 * The loop every background worker shares: claim due work from the store, run it with bounded concurrency, sleep until
 * the next due time. `runDue()` runs everything due now (tests drive it with a manual clock); `start()` keeps running.
 * Subclasses say how to claim and start work (`claimAndStart`, starting each piece with `track`) and when work is due next.
 */
export abstract class PollingWorker {
  protected readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private active = false;
  private pumping = false;

  constructor(protected readonly ctx: ServiceContext, readonly name: string) {}

  get state(): string {
    return this.active ? `running (${this.running.size} in flight)` : 'stopped';
  }

  /** Claims what fits and starts it with `track`; returns how many pieces of work started. */
  protected abstract claimAndStart(): number;

  /** When the next piece of work comes due, if any is waiting. */
  protected abstract nextDueAt(): number | undefined;

  /** Called once by `start()`, e.g. to release claims a previous run left behind. */
  protected resume(): void {}

  /** Runs a piece of work in the background; the worker looks for more once it ends. */
  protected track(work: Promise<void>): void {
    const tracked: Promise<void> = work.finally(() => {
      this.running.delete(tracked);
      this.wake();
    });
    this.running.add(tracked);
  }

  /** Runs every piece of work due now, and what becomes due while doing so, until none is left. */
  async runDue(): Promise<void> {
    for (;;) {
      this.claimAndStart();
      if (this.running.size === 0) return;
      await Promise.race(this.running);
    }
  }

  start(): void {
    this.resume();
    this.active = true;
    this.wake();
  }

  /** Looks at the store now (called when work was queued and whenever a piece of work ended). */
  wake(): void {
    if (!this.active || this.pumping) return;
    this.pumping = true;
    try {
      this.claimAndStart();
    } catch (err) {
      this.ctx.log.error({ err, worker: this.name }, 'worker could not claim work');
    } finally {
      this.pumping = false;
    }
    clearTimeout(this.timer);
    const due = this.nextDueAt();
    const wait = due === undefined ? IDLE_POLL_MS : Math.min(IDLE_POLL_MS, Math.max(10, due - this.ctx.clock.now()));
    this.timer = setTimeout(() => this.wake(), wait);
    this.timer.unref();
  }

  /** Stops claiming and waits for the work in flight. */
  async stop(): Promise<void> {
    this.active = false;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.running]);
  }
}
