import { performance } from 'node:perf_hooks';
import type { ServiceContext } from '../context.js';
import { loadShipmentRow } from '../shipments/records.js';

export type WaitResult = 'ok' | 'stalled' | 'aborted';

/** How often the store is asked about tracked shipments that sent no notice (deleted or cancelled ones send none). */
const RECHECK_MS = 1000;

/**
 * The shipments of an import whose carrier step has not reported yet. The import keeps only a window of them in
 * flight (so one big file does not queue thousands of carrier calls ahead of the packing desk) and waits for the rest
 * before it writes its result file.
 */
export class CarrierOutcomes {
  private readonly waiting = new Map<string, () => void>();
  private wakeWaiter: (() => void) | undefined;

  constructor(private readonly ctx: ServiceContext, private readonly onSettled: (shipmentId: string) => void) {}

  get size(): number {
    return this.waiting.size;
  }

  /** Follows a shipment until its carrier step reports (created, refused, or an outage with a retry planned). */
  track(shipmentId: string): void {
    if (this.waiting.has(shipmentId)) return;
    const listener = () => this.settle(shipmentId);
    this.waiting.set(shipmentId, listener);
    this.ctx.notices.once(`shipment:${shipmentId}`, listener);
  }

  private settle(shipmentId: string): void {
    const listener = this.waiting.get(shipmentId);
    if (!listener) return;
    this.ctx.notices.off(`shipment:${shipmentId}`, listener);
    this.waiting.delete(shipmentId);
    this.onSettled(shipmentId);
    this.wakeWaiter?.();
  }

  private async recheckStore(): Promise<void> {
    for (const id of [...this.waiting.keys()]) {
      const row = await loadShipmentRow(this.ctx, id);
      if (!row || row.status !== 'pending' || row.failure !== null) this.settle(id);
    }
  }

  /**
   * Waits until fewer than `limit` shipments are in flight. `stalled` when none reported for `stallMs` (the carrier
   * step is not running, or is stuck): the caller goes on without them.
   */
  async waitBelow(limit: number, stallMs: number, signal: AbortSignal): Promise<WaitResult> {
    // a bound on waiting, in real time: the service clock may be a test's hand-moved one
    let lastReport = performance.now();
    while (this.waiting.size >= limit) {
      if (signal.aborted) return 'aborted';
      const before = this.waiting.size;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, RECHECK_MS);
        signal.addEventListener('abort', done, { once: true });
        this.wakeWaiter = done;
        function done() {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        }
      });
      this.wakeWaiter = undefined;
      if (this.waiting.size >= before) await this.recheckStore();
      if (this.waiting.size < before) lastReport = performance.now();
      else if (performance.now() - lastReport >= stallMs) return 'stalled';
    }
    return 'ok';
  }

  /** Stops following everything (the import finished or stopped). */
  dispose(): void {
    for (const [id, listener] of this.waiting) this.ctx.notices.off(`shipment:${id}`, listener);
    this.waiting.clear();
  }
}
