import { eq } from 'drizzle-orm';
import { shipmentMovesForward, shipmentStatusFromParcels } from '../../domain/tracking.js';
import { parcels, shipments } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { recordEvent } from '../events.js';
import { loadParcels, loadShipmentRow, presentShipment } from '../shipments/records.js';

/**
 * A shipment parcel's tracking status changed: mirror it on the parcel, then move the shipment forward when its
 * parcels say so (SPEC §3.1). Call inside the transaction of the tracking change.
 */
export async function followParcelTracking(ctx: ServiceContext, shipmentId: string, parcelId: string, status: string): Promise<void> {
  await ctx.db.update(parcels).set({ trackingStatus: status }).where(eq(parcels.id, parcelId)).run();
  const shipment = await loadShipmentRow(ctx, shipmentId);
  if (!shipment) return;
  const parcelRows = await loadParcels(ctx, shipmentId);
  const next = shipmentStatusFromParcels(parcelRows.map((p) => p.trackingStatus));
  if (!next || !shipmentMovesForward(shipment.status, next)) return;
  const now = ctx.clock.now();
  await ctx.db.update(shipments).set({ status: next, updatedAt: now }).where(eq(shipments.id, shipmentId)).run();
  const fresh = (await loadShipmentRow(ctx, shipmentId))!;
  await recordEvent(ctx, {
    accountId: shipment.accountId, type: 'shipment.status_changed', resourceName: 'shipment',
    resource: await presentShipment(ctx, fresh, parcelRows), previousStatus: shipment.status,
  });
}
