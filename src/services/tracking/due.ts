import { and, asc, inArray, isNotNull, min } from 'drizzle-orm';
import { findProvider } from '../../carriers/registry.js';
import { trackingParcels } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { claimsLeftBehind } from '../leases.js';
import type { TrackingParcelRow } from './records.js';

/**
 * Claims up to `limit` parcels due for a check (oldest due first) for `leaseMs`, in one statement; parcels of
 * `skipProviders` stay. A lease that ran out belongs to a poller that died: its parcel is claimed again. Daemons
 * sharing a store pass over each other's claims.
 */
export async function claimDueTrackingParcels(ctx: ServiceContext, limit: number, leaseMs: number, skipProviders: readonly string[] = []): Promise<TrackingParcelRow[]> {
  if (limit <= 0) return [];
  const now = ctx.clock.now();
  const skipped = skipProviders.length > 0 ? `AND provider NOT IN (${skipProviders.map(() => '?').join(', ')})` : '';
  const claimed = await ctx.store.all<{ id: string }>(`UPDATE tracking_parcels SET lease_until = ?, lease_owner = ? WHERE id IN (
    SELECT id FROM tracking_parcels WHERE next_check_at <= ? AND (lease_until IS NULL OR lease_until <= ?) ${skipped}
    ORDER BY next_check_at LIMIT ?${ctx.store.sql.skipLocked}) RETURNING id`, now + leaseMs, ctx.daemonId, now, now, ...skipProviders, limit);
  if (claimed.length === 0) return [];
  return ctx.db.select().from(trackingParcels).where(inArray(trackingParcels.id, claimed.map((c) => c.id)))
    .orderBy(asc(trackingParcels.nextCheckAt)).all();
}

/** Moves the leases of parcels a poller is still checking on to `until`. */
export async function renewTrackingLeases(ctx: ServiceContext, ids: readonly string[], until: number): Promise<void> {
  await ctx.db.update(trackingParcels).set({ leaseUntil: until }).where(and(isNotNull(trackingParcels.leaseUntil), inArray(trackingParcels.id, [...ids]))).run();
}

/** At start-up the checks a gone daemon left (see claimsLeftBehind) are due again at once. */
export async function releaseTrackingLeases(ctx: ServiceContext): Promise<number> {
  const left = claimsLeftBehind(ctx);
  if (!left) return 0;
  return ctx.store.run(`UPDATE tracking_parcels SET lease_until = NULL WHERE lease_until IS NOT NULL${left.where}`, ...left.params);
}

/** The earliest planned check, for the poller to sleep until then. */
export async function nextTrackingCheckAt(ctx: ServiceContext): Promise<number | undefined> {
  return (await ctx.db.select({ at: min(trackingParcels.nextCheckAt) }).from(trackingParcels).get())?.at ?? undefined;
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
