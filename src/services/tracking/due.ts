import { and, asc, inArray, isNotNull, isNull, lte, min, notInArray, or, type SQL } from 'drizzle-orm';
import { findProvider } from '../../carriers/registry.js';
import { trackingParcels } from '../../store/schema.js';
import { inTransaction } from '../../store/db.js';
import type { ServiceContext } from '../context.js';
import type { TrackingParcelRow } from './records.js';

/**
 * Claims up to `limit` parcels due for a check (oldest due first) for `leaseMs`; parcels of `skipProviders` stay.
 * A lease that ran out belongs to a poller that died: its parcel is claimed again.
 */
export function claimDueTrackingParcels(ctx: ServiceContext, limit: number, leaseMs: number, skipProviders: readonly string[] = []): TrackingParcelRow[] {
  if (limit <= 0) return [];
  const now = ctx.clock.now();
  const conditions: SQL[] = [
    lte(trackingParcels.nextCheckAt, now),
    or(isNull(trackingParcels.leaseUntil), lte(trackingParcels.leaseUntil, now))!,
  ];
  if (skipProviders.length > 0) conditions.push(notInArray(trackingParcels.provider, [...skipProviders]));
  return inTransaction(ctx.db, () => {
    const due = ctx.db.select({ id: trackingParcels.id }).from(trackingParcels).where(and(...conditions))
      .orderBy(asc(trackingParcels.nextCheckAt)).limit(limit);
    return ctx.db.update(trackingParcels).set({ leaseUntil: now + leaseMs }).where(inArray(trackingParcels.id, due)).returning().all();
  });
}

/** At start-up every lease belongs to a process that is gone (one daemon per data directory). */
export function releaseTrackingLeases(ctx: ServiceContext): number {
  return ctx.db.update(trackingParcels).set({ leaseUntil: null }).where(isNotNull(trackingParcels.leaseUntil)).run().changes;
}

/** The earliest planned check, for the poller to sleep until then. */
export function nextTrackingCheckAt(ctx: ServiceContext): number | undefined {
  return ctx.db.select({ at: min(trackingParcels.nextCheckAt) }).from(trackingParcels).get()?.at ?? undefined;
}

/** Parcels of one channel that one carrier call checks together. */
export interface CarrierBatch {
  provider: string;
  channelId: string;
  parcels: TrackingParcelRow[];
}

/** Groups claimed parcels by channel, in batches as large as the channel's adapter takes in one call. */
export function carrierBatches(rows: readonly TrackingParcelRow[]): CarrierBatch[] {
  const byChannel = new Map<string, TrackingParcelRow[]>();
  for (const row of rows) {
    const list = byChannel.get(row.channelId);
    if (list) list.push(row);
    else byChannel.set(row.channelId, [row]);
  }
  const batches: CarrierBatch[] = [];
  for (const [channelId, list] of byChannel) {
    const provider = list[0]!.provider;
    const size = Math.max(1, findProvider(provider)?.adapter.trackBatchSize ?? 1);
    for (let i = 0; i < list.length; i += size) batches.push({ provider, channelId, parcels: list.slice(i, i + size) });
  }
  return batches;
}
