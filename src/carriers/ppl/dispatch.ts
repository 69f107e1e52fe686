import { CarrierRefusedError } from '../errors.js';
import { pollUntil } from '../poll.js';
import type { CarrierDispatcher, DispatchForCarrier, PickupRequest } from '../types.js';
import { PplClient } from './client.js';
import { pplAddress } from './request.js';
import { pplSettings } from './settings.js';

/** Order batches import asynchronously like shipment batches (ppl-cpl-api-en.apidog.io get-order-status-13601482e0). */
const ORDER_POLL = { delaysMs: [20, 50, 100, 200, 400, 800, 1000], deadlineMs: 60_000 };

interface PplDispatchProgress {
  /** Set before the order is sent: without a batch id after it, the order may have reached PPL. */
  orderingSince?: number;
  batchId?: string;
  pickup?: { confirmation: string; date: string; from: string; to: string };
}

/** `POST /order/batch` body (create-an-order-13601481e0): a CollectionOrder picks up at the customer's registered address. */
export function pplPickupOrderRequest(dispatch: DispatchForCarrier, pickup: PickupRequest) {
  const parcels = dispatch.shipments.reduce((sum, s) => sum + s.parcels.length, 0);
  return {
    orders: [{
      orderType: 'CollectionOrder', referenceId: dispatch.id, customerReference: dispatch.id, shipmentCount: parcels,
      sendDate: pickup.date, sendTimeFrom: pickup.from, sendTimeTo: pickup.to,
      email: dispatch.sender.email, sender: pplAddress(dispatch.sender),
    }],
  };
}
export type PplOrderRequest = ReturnType<typeof pplPickupOrderRequest>;

/**
 * PPL needs no close (the shipment batch is the hand-over) and has no protocol; it only books the courier. An order
 * carries a parcel count, not shipment numbers, so PPL cannot tell an unknown parcel.
 */
export const pplDispatcher: CarrierDispatcher = {
  capabilities: { close: false, protocol: false, pickup: true },
  // PPL cancels a shipment until the courier picks it up (order-cancel-13601483e0; shipment cancel unchanged by orders).
  cancelAfterHandOver: true,

  async handOver(dispatch, settings, ctx) {
    const pickup = dispatch.pickup;
    if (!pickup) return { carrierRef: null };
    const progress = (ctx.progress.load() ?? {}) as PplDispatchProgress;
    if (progress.pickup) return { carrierRef: progress.pickup.confirmation, pickup: progress.pickup };
    const client = new PplClient(pplSettings.parse(settings), ctx);
    const confirmed = async (orderNumber: string) => {
      const booked = { confirmation: orderNumber, ...pickup };
      await ctx.progress.save({ pickup: booked });
      return { carrierRef: orderNumber, pickup: booked };
    };
    let batchId = progress.batchId;
    if (!batchId) {
      // an earlier send without an answer may have placed the order: find it by our reference rather than order twice
      if (progress.orderingSince !== undefined) {
        const placed = await client.orderNumberByReference(dispatch.id);
        if (placed) return confirmed(placed);
      }
      await ctx.progress.save({ orderingSince: ctx.clock.now() });
      batchId = await client.submitOrderBatch(pplPickupOrderRequest(dispatch, pickup));
      await ctx.progress.save({ batchId });
    }
    const item = await pollUntil(ctx, { ...ORDER_POLL, stillWaiting: `PPL order batch ${batchId} is still being imported` }, async () => {
      const status = await client.orderBatchStatus(batchId);
      const mine = status.items?.find((i) => i.referenceId === dispatch.id);
      return mine && mine.importState !== 'InProcess' ? mine : undefined;
    });
    if (item.importState !== 'Complete') {
      await ctx.progress.save({});
      throw new CarrierRefusedError(`PPL refused the pickup order: ${item.errorMessage ?? item.importState}`, { pickup: [`PPL: ${item.errorMessage ?? item.importState}`] });
    }
    // the batch status names no order number: PPL's order list by our reference gives it (order-tracking-13601480e0)
    const orderNumber = await client.orderNumberByReference(dispatch.id);
    if (!orderNumber) throw new CarrierRefusedError(`PPL imported pickup order ${dispatch.id} but lists no order for it`);
    return confirmed(orderNumber);
  },
};
