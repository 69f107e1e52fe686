import type { ServiceContext } from '../../src/services/context.js';
import { nextDailyDispatchAt, runDailyDispatches } from '../../src/services/dispatch-clock.js';
import { PollingWorker } from './polling-worker.js';

/** Makes each channel's daily dispatch at its `dispatch_at`, in the station's time zone (src/services/dispatch-clock.ts). */
export class DispatchClockWorker extends PollingWorker {
  constructor(ctx: ServiceContext) {
    super(ctx, 'dispatch_clock');
  }

  protected async claimAndStart(): Promise<number> {
    if (this.running.size > 0) return 0;
    const due = await nextDailyDispatchAt(this.ctx);
    if (due === undefined || due > this.ctx.clock.now()) return 0;
    this.track(runDailyDispatches(this.ctx).then(
      (made) => { if (made.length > 0) this.ctx.log.info({ dispatch_ids: made }, 'daily dispatches made'); },
      (err: unknown) => this.ctx.log.error({ err }, 'daily dispatches failed'),
    ));
    return 1;
  }

  protected nextDueAt(): Promise<number | undefined> {
    return nextDailyDispatchAt(this.ctx);
  }
}
