import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { findProvider } from '../../carriers/registry.js';
import type { Contact } from '../../domain/shipment-input.js';
import { DEFAULT_CHECK_DELAY_HOURS, DEFAULT_MAX_CHECKS, nextCheckAfter, pollingContinues, TERMINAL_TRACKING_STATUSES, type TrackingStatus } from '../../domain/tracking.js';
import { parcels, trackingParcels } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { loadParcels, loadShipmentRow } from '../shipments/records.js';
import { recordTrackingEvent, type TrackingParcelRow } from './records.js';

/** Shipment statuses at which a shipment's parcels are tracked. */
const TRACKED_SHIPMENT_STATUSES: ReadonlySet<string> = new Set(['created', 'shipped']);

function recipientName(contact: Contact): string | null {
  const person = [contact.first_name, contact.last_name].filter(Boolean).join(' ');
  return person || contact.company_name || null;
}

/**
 * Starts tracking every parcel of a created shipment that has `enable_tracking` (and a carrier that can track):
 * one internal tracking parcel per parcel, first checked after the usual delay. Call inside the transaction that
 * marks the shipment created. Parcels already tracked are left as they are.
 */
export async function trackShipmentParcels(ctx: ServiceContext, shipmentId: string): Promise<void> {
  const shipment = await loadShipmentRow(ctx, shipmentId);
  if (!shipment || !shipment.enableTracking || !TRACKED_SHIPMENT_STATUSES.has(shipment.status)) return;
  const adapter = findProvider(shipment.provider)!.adapter;
  const recipient = shipment.recipientContact as Contact;
  const now = ctx.clock.now();
  for (const parcel of await loadParcels(ctx, shipmentId)) {
    if (!parcel.trackingNumber) continue;
    const id = ctx.ids('trackingParcel');
    const inserted = await ctx.db.insert(trackingParcels).values({
      id, accountId: shipment.accountId, channelId: shipment.channelId, provider: shipment.provider, shipmentId, parcelId: parcel.id,
      trackingNumber: parcel.trackingNumber, origin: 'shipment', status: parcel.trackingStatus ?? 'created',
      recipientName: recipientName(recipient), recipientEmail: recipient.email_address ?? null, recipientPhone: recipient.phone_number ?? null,
      checkDelayHours: DEFAULT_CHECK_DELAY_HOURS, maxChecks: DEFAULT_MAX_CHECKS, checksDone: 0,
      // the label was printed a moment ago: the carrier has nothing to tell before the usual delay
      nextCheckAt: nextCheckAfter(id, now, DEFAULT_CHECK_DELAY_HOURS), lastCheckedAt: null, leaseUntil: null,
      externalData: {}, trackingUrl: adapter.trackingUrl(parcel.trackingNumber), createdAt: now, updatedAt: now,
    }).onConflictDoNothing().returning().get();
    if (inserted) await recordTrackingEvent(ctx, inserted, 'tracking_parcel.created');
    else ctx.log.warn({ shipment_id: shipmentId, tracking_number: parcel.trackingNumber }, 'parcel number already tracked on this channel');
  }
}

function shipmentTrackingParcels(ctx: ServiceContext, shipmentId: string): Promise<TrackingParcelRow[]> {
  return ctx.db.select().from(trackingParcels).where(eq(trackingParcels.shipmentId, shipmentId)).all();
}

/** The shipment was cancelled: its parcels are cancelled too and no longer polled. Call inside that transaction. */
export async function cancelShipmentTracking(ctx: ServiceContext, shipmentId: string): Promise<void> {
  const now = ctx.clock.now();
  for (const row of await shipmentTrackingParcels(ctx, shipmentId)) {
    if (TERMINAL_TRACKING_STATUSES.has(row.status as TrackingStatus)) continue;
    await ctx.db.update(trackingParcels).set({ status: 'cancelled', nextCheckAt: null, leaseUntil: null, updatedAt: now })
      .where(eq(trackingParcels.id, row.id)).run();
    if (row.parcelId) await ctx.db.update(parcels).set({ trackingStatus: 'cancelled' }).where(eq(parcels.id, row.parcelId)).run();
    await recordTrackingEvent(ctx, { ...row, status: 'cancelled', nextCheckAt: null, leaseUntil: null, updatedAt: now }, 'tracking_parcel.status_changed', row.status);
  }
}

/** `enable_tracking` changed on a shipment: stop polling its parcels, or (re)start it. Call inside that transaction. */
export async function setShipmentTracking(ctx: ServiceContext, shipmentId: string, enabled: boolean): Promise<void> {
  const now = ctx.clock.now();
  if (!enabled) {
    await ctx.db.update(trackingParcels).set({ nextCheckAt: null, updatedAt: now })
      .where(and(eq(trackingParcels.shipmentId, shipmentId), isNotNull(trackingParcels.nextCheckAt))).run();
    return;
  }
  await trackShipmentParcels(ctx, shipmentId);
  const shipment = await loadShipmentRow(ctx, shipmentId);
  if (!shipment || !TRACKED_SHIPMENT_STATUSES.has(shipment.status)) return;
  const resumable = (await shipmentTrackingParcels(ctx, shipmentId))
    .filter((row) => row.nextCheckAt === null && pollingContinues(row.status, row.checksDone, row.maxChecks))
    .map((row) => row.id);
  if (resumable.length === 0) return;
  await ctx.db.update(trackingParcels).set({ nextCheckAt: now, updatedAt: now })
    .where(and(inArray(trackingParcels.id, resumable), isNull(trackingParcels.nextCheckAt))).run();
}

/** Whether a tracking parcel may be polled as far as its shipment is concerned (external ones always may). */
export async function shipmentAllowsPolling(ctx: ServiceContext, row: TrackingParcelRow): Promise<boolean> {
  if (!row.shipmentId) return true;
  const shipment = await loadShipmentRow(ctx, row.shipmentId);
  return shipment !== undefined && shipment.enableTracking && shipment.status !== 'cancelled';
}
