import { CarrierCredentialsRefusedError, CarrierUnavailableError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { TrackResult } from '../../src/carriers/types.js';
import type { ServiceContext } from '../../src/services/context.js';
import { askCarrier, deferChecks, postponeChecks, recordFailedChecks, recordTrackResults } from '../../src/services/tracking/check.js';
import {
  carrierBatches, claimDueTrackingParcels, nextTrackingCheckAt, releaseTrackingLeases, renewTrackingLeases, type CarrierBatch,
} from '../../src/services/tracking/due.js';
import { PollingWorker } from './polling-worker.js';
import { ProviderBackoff, ProviderLanes, type BackoffOptions } from './provider-limits.js';

export interface TrackingPollerOptions {
  /** Carrier calls in flight at once per provider. */
  concurrencyPerProvider: number;
  /** Parcels claimed from the store at a time. */
  claimSize: number;
  /** How long a claim lasts before another poller may take the parcel (the holder is presumed dead); renewed while held. */
  leaseMs: number;
  /** Wait after a 429/5xx/outage before the provider is called again (doubling while it keeps failing). */
  backoff: BackoffOptions;
}

export const DEFAULT_TRACKING_POLLER_OPTIONS: TrackingPollerOptions = {
  concurrencyPerProvider: 4, claimSize: 500, leaseMs: 60_000, backoff: { baseMs: 2_000, capMs: 5 * 60_000 },
};

/**
 * Checks tracking parcels when they come due: claims them with a lease, asks each carrier about up to its batch
 * size of numbers per call with a per-provider limit of calls in flight, and backs a provider off when it answers
 * 429/5xx. `runDue()` checks everything due now (tests drive it with a manual clock); `start()` keeps polling.
 */
export class TrackingPoller extends PollingWorker {
  private readonly lanes: ProviderLanes;
  private readonly backoff: ProviderBackoff;
  /** Parcels claimed but not yet recorded, per provider: a provider with enough waiting gets no more claims. */
  private readonly claimedByProvider = new Map<string, number>();

  constructor(ctx: ServiceContext, private readonly options: TrackingPollerOptions = DEFAULT_TRACKING_POLLER_OPTIONS) {
    super(ctx, 'tracking_poller', { leaseMs: options.leaseMs, renew: (ids, until) => renewTrackingLeases(ctx, ids, until) });
    this.lanes = new ProviderLanes(options.concurrencyPerProvider);
    this.backoff = new ProviderBackoff(ctx.clock, options.backoff);
  }

  /** Providers that take no new parcels now: backing off, or with two rounds of calls already claimed. */
  private providersToSkip(): string[] {
    const full = [...this.claimedByProvider].filter(([provider, claimed]) => {
      const batch = findProvider(provider)?.adapter.trackBatchSize ?? 1;
      return claimed >= this.options.concurrencyPerProvider * batch * 2;
    }).map(([provider]) => provider);
    return [...new Set([...this.backoff.blockedProviders(), ...full])];
  }

  protected async claimAndStart(): Promise<number> {
    const rows = await claimDueTrackingParcels(this.ctx, this.options.claimSize, this.options.leaseMs, this.providersToSkip());
    for (const batch of carrierBatches(rows)) this.startBatch(batch);
    return rows.length;
  }

  private startBatch(batch: CarrierBatch): void {
    const count = batch.parcels.length;
    this.claimedByProvider.set(batch.provider, (this.claimedByProvider.get(batch.provider) ?? 0) + count);
    this.trackHeld(batch.parcels.map((p) => p.id), () => this.lanes.run(batch.provider, () => this.checkBatch(batch))
      .catch((err: Error) => this.ctx.log.error({ err, provider: batch.provider, channel_id: batch.channelId }, 'tracking check could not be recorded'))
      .finally(() => {
        const left = (this.claimedByProvider.get(batch.provider) ?? count) - count;
        if (left > 0) this.claimedByProvider.set(batch.provider, left);
        else this.claimedByProvider.delete(batch.provider);
      }));
  }

  /**
   * One carrier call for a batch; an outage postpones the batch and a refusal of the channel's credentials defers it
   * (neither is a check), any other refusal counts as a check.
   */
  private async checkBatch(batch: CarrierBatch): Promise<void> {
    const ids = batch.parcels.map((p) => p.id);
    const blockedUntil = this.backoff.blockedUntil(batch.provider);
    if (blockedUntil !== undefined) {
      await postponeChecks(this.ctx, ids, blockedUntil);
      return;
    }
    let results: TrackResult[];
    try {
      results = await askCarrier(this.ctx, batch.channelId, batch.parcels);
    } catch (err) {
      const context = { provider: batch.provider, channel_id: batch.channelId, parcels: ids.length, error: (err as Error).message };
      if (err instanceof CarrierUnavailableError) {
        const until = this.backoff.failed(batch.provider, (err as { retryAfterMs?: number }).retryAfterMs);
        this.ctx.log.warn({ ...context, retry_at: new Date(until).toISOString() }, 'carrier unavailable for tracking; backing off');
        await postponeChecks(this.ctx, ids, until);
      } else if (err instanceof CarrierCredentialsRefusedError) {
        this.ctx.log.warn(context, 'tracking refused: the carrier refused the channel\'s credentials');
        await deferChecks(this.ctx, ids);
      } else {
        this.ctx.log.warn(context, 'tracking check refused by the carrier');
        await recordFailedChecks(this.ctx, ids);
      }
      return;
    }
    this.backoff.succeeded(batch.provider);
    await recordTrackResults(this.ctx, ids, results);
  }

  protected async nextDueAt(): Promise<number | undefined> {
    return this.running.size > 0 ? undefined : nextTrackingCheckAt(this.ctx);
  }

  protected override async resume(): Promise<void> {
    const released = await releaseTrackingLeases(this.ctx);
    if (released > 0) this.ctx.log.info({ parcels: released }, 'resuming tracking checks of a previous run');
  }
}
