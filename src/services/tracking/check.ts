import { eq, inArray } from 'drizzle-orm';
import { CarrierCredentialsRefusedError } from '../../carriers/errors.js';
import { findProvider } from '../../carriers/registry.js';
import type { ParcelToTrack, TrackingEventFromCarrier, TrackResult } from '../../carriers/types.js';
import {
  MOVING_TRACKING_STATUSES, nextCheckAfter, pollingContinues, stableFraction, statusOfUnknownCode, type TrackingStatus,
} from '../../domain/tracking.js';
import { parcels, shipments, shippingChannels, trackingParcels } from '../../store/schema.js';
import { channelSettings, recordChannelRefusal } from '../channel-records.js';
import { carrierContext } from '../channels.js';
import type { ServiceContext } from '../context.js';
import { loadTrackingParcelRow, recordTrackingEvent, type TrackingParcelRow } from './records.js';
import { followParcelTracking } from './shipment-status.js';

/** A channel whose adapter cannot track: a permanent failure of every check on it. */
export class TrackingUnsupportedError extends Error {}

/** Each parcel with what the store kept of it at creation for its carrier's tracking (shipped elsewhere: the number alone). */
async function parcelsToTrack(ctx: ServiceContext, rows: readonly TrackingParcelRow[]): Promise<ParcelToTrack[]> {
  const parcelIds = rows.flatMap((r) => (r.parcelId ? [r.parcelId] : []));
  const kept = parcelIds.length === 0 ? [] : await ctx.db
    .select({ id: parcels.id, carrierRef: parcels.carrierRef, providerShipmentId: shipments.providerShipmentId })
    .from(parcels).innerJoin(shipments, eq(shipments.id, parcels.shipmentId)).where(inArray(parcels.id, parcelIds)).all();
  const byParcel = new Map(kept.map((k) => [k.id, k]));
  return rows.map((r) => {
    const k = r.parcelId ? byParcel.get(r.parcelId) : undefined;
    return {
      trackingNumber: r.trackingNumber,
      ...(k?.carrierRef ? { carrierRef: k.carrierRef } : {}),
      ...(k?.providerShipmentId ? { providerShipmentId: k.providerShipmentId } : {}),
    };
  });
}

/**
 * Asks the channel's carrier about some of its parcels in one call (≤ the adapter's batch size). A refusal of the
 * channel's credentials is the channel's, not the parcels': the channel turns `error` with the reason, and it is thrown.
 */
export async function askCarrier(ctx: ServiceContext, channelId: string, rows: readonly TrackingParcelRow[]): Promise<TrackResult[]> {
  const channel = await ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, channelId)).get();
  if (!channel) throw new TrackingUnsupportedError(`channel ${channelId} does not exist`);
  try {
    return await findProvider(channel.provider)!.adapter.track(await parcelsToTrack(ctx, rows), channelSettings(ctx, channel), carrierContext(ctx, channel));
  } catch (err) {
    if (err instanceof CarrierCredentialsRefusedError) await recordChannelRefusal(ctx, channel.id, err);
    throw err;
  }
}

// An unknown code is logged once per provider and code for the life of the process.
const loggedUnknownCodes = new Set<string>();

function statusOf(ctx: ServiceContext, provider: string, event: TrackingEventFromCarrier, alreadyMoving: boolean): TrackingStatus {
  if (event.status) return event.status;
  const key = `${provider}\u0000${event.code}`;
  if (!loggedUnknownCodes.has(key)) {
    loggedUnknownCodes.add(key);
    ctx.log.warn({ provider, code: event.code, text: event.text }, 'unknown carrier tracking code: mapped by the moving/not-moving rule');
  }
  return statusOfUnknownCode(alreadyMoving);
}

/** Stored events of a parcel, as `code@time` keys, so a re-read event is neither stored nor counted again. */
async function storedEventKeys(ctx: ServiceContext, trackingParcelId: string): Promise<Set<string>> {
  const rows = await ctx.store.all<{ code: string; at: number }>('SELECT carrier_code AS code, occurred_at AS at FROM tracking_updates WHERE tracking_parcel_id = ?',
    trackingParcelId);
  return new Set(rows.map((r) => `${r.code}@${r.at}`));
}

async function storeEvent(ctx: ServiceContext, trackingParcelId: string, status: TrackingStatus, e: TrackingEventFromCarrier, now: number): Promise<void> {
  await ctx.store.run(`INSERT INTO tracking_updates (id, tracking_parcel_id, status, carrier_code, carrier_text, location, description, occurred_at, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  ctx.ids('trackingUpdate'), trackingParcelId, status, e.code, e.text, e.location, e.description, e.occurredAt, now);
}

/** The status the carrier's answer gives the parcel; new events are stored on the way. */
async function statusFromResult(ctx: ServiceContext, row: TrackingParcelRow, result: TrackResult, now: number): Promise<string> {
  const stored = await storedEventKeys(ctx, row.id);
  // a number the carrier forgets after it knew it keeps its status (a glitch, not news)
  if (!result.found) return stored.size === 0 ? 'not_recognized' : row.status;
  let moving = MOVING_TRACKING_STATUSES.has(row.status as TrackingStatus);
  let latest: TrackingStatus | undefined;
  for (const event of result.events) {
    const status = statusOf(ctx, row.provider, event, moving);
    moving ||= MOVING_TRACKING_STATUSES.has(status);
    latest = status;
    if (!stored.has(`${event.code}@${event.occurredAt}`)) await storeEvent(ctx, row.id, status, event, now);
  }
  return latest ?? (row.status === 'not_recognized' ? 'created' : row.status);
}

/** One successful check of one parcel: store its news, count the check, schedule the next, fire events. */
async function recordCheck(ctx: ServiceContext, row: TrackingParcelRow, result: TrackResult, now: number): Promise<void> {
  const status = await statusFromResult(ctx, row, result, now);
  const checksDone = row.checksDone + 1;
  // a parcel stopped while it was being checked (deleted, shipment untracked) stays stopped
  const nextCheckAt = row.nextCheckAt !== null && pollingContinues(status, checksDone, row.maxChecks)
    ? nextCheckAfter(row.id, now, row.checkDelayHours) : null;
  await ctx.store.run(`UPDATE tracking_parcels SET status = ?, checks_done = ?, last_checked_at = ?, next_check_at = ?, lease_until = NULL,
    updated_at = ? WHERE id = ?`, status, checksDone, now, nextCheckAt, now, row.id);
  if (status === row.status) return;
  const fresh = { ...row, status, checksDone, lastCheckedAt: now, nextCheckAt, leaseUntil: null, updatedAt: now };
  await recordTrackingEvent(ctx, fresh, 'tracking_parcel.status_changed', row.status);
  if (row.shipmentId && row.parcelId) await followParcelTracking(ctx, row.shipmentId, row.parcelId, status);
}

/** Records the carrier's answers for checked parcels in one transaction; parcels gone meanwhile are skipped. */
export async function recordTrackResults(ctx: ServiceContext, trackingParcelIds: readonly string[], results: readonly TrackResult[]): Promise<void> {
  const now = ctx.clock.now();
  const byNumber = new Map(results.map((r) => [r.trackingNumber, r]));
  await ctx.store.transaction(async () => {
    for (const id of trackingParcelIds) {
      const row = await loadTrackingParcelRow(ctx, id);
      if (!row) continue;
      await recordCheck(ctx, row, byNumber.get(row.trackingNumber) ?? { trackingNumber: row.trackingNumber, found: false }, now);
    }
  });
}

/** Parcels the carrier gave no answer on: each waits its usual delay, and a `counted` check counts toward `max_checks`. */
async function checkAgainLater(ctx: ServiceContext, trackingParcelIds: readonly string[], counted: boolean): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.transaction(async () => {
    for (const id of trackingParcelIds) {
      const row = await loadTrackingParcelRow(ctx, id);
      if (!row) continue;
      const checksDone = row.checksDone + (counted ? 1 : 0);
      const nextCheckAt = row.nextCheckAt !== null && pollingContinues(row.status, checksDone, row.maxChecks)
        ? nextCheckAfter(row.id, now, row.checkDelayHours) : null;
      await ctx.db.update(trackingParcels).set({ checksDone, nextCheckAt, leaseUntil: null, updatedAt: now, ...(counted ? { lastCheckedAt: now } : {}) })
        .where(eq(trackingParcels.id, id)).run();
    }
  });
}

/**
 * The carrier refused the check for good (not an outage): it counts as a check, so a parcel that can never be read
 * stops after `max_checks`; its status stays.
 */
export function recordFailedChecks(ctx: ServiceContext, trackingParcelIds: readonly string[]): Promise<void> {
  return checkAgainLater(ctx, trackingParcelIds, true);
}

/** The carrier refused the channel's credentials: not a check of the parcels, which keep their status and wait their usual delay. */
export function deferChecks(ctx: ServiceContext, trackingParcelIds: readonly string[]): Promise<void> {
  return checkAgainLater(ctx, trackingParcelIds, false);
}

/** Spread of postponed checks after the carrier's backoff ends, so they do not all return at once. */
const POSTPONE_SPREAD_MS = 5_000;

/** The carrier was unavailable (429, 5xx, unreachable): not a check; try again after `untilMs`. */
export async function postponeChecks(ctx: ServiceContext, trackingParcelIds: readonly string[], untilMs: number): Promise<void> {
  await ctx.store.transaction(async () => {
    for (const id of trackingParcelIds) {
      // a parcel stopped meanwhile (next_check_at null) stays stopped
      await ctx.store.run(`UPDATE tracking_parcels SET next_check_at = CASE WHEN next_check_at IS NULL THEN NULL ELSE CAST(? AS bigint) END, lease_until = NULL
        WHERE id = ?`, untilMs + Math.floor(stableFraction(id) * POSTPONE_SPREAD_MS), id);
    }
  });
}
