import { markedSend } from '../marked-send.js';
import { stepProgress } from '../step-progress.js';
import type { BookedPickup, CarrierContext, CarrierDispatcher, CarrierProgress, ChannelSettings, DispatchedAtCarrier, DispatchForCarrier } from '../types.js';
import { InpostClient } from './client.js';
import { inpostDispatchOrderRequest } from './request.js';
import type { InpostDispatchOrder } from './response.js';
import { inpostSettings } from './settings.js';

/**
 * The end of the day at InPost: shipments sent with `sending_method: dispatch_order` wait until a dispatch order
 * (`POST /v1/organizations/{id}/dispatch_orders`, "DispatchOrders allow ordering courier to collect shipments from the
 * client", dokumentacja-inpost 18153482) names them; its printout is the courier's hand-over document. A channel
 * whose parcels are handed in at a PaczkoPunkt or a branch orders a courier only when the dispatch asks for one.
 */

const NAME = 'InPost';

interface InpostHandOverProgress {
  /** markedSend's mark: the dispatch order may have reached ShipX. */
  sendingSince?: number;
  /** The dispatch order ShipX made. */
  order?: string;
}

/** A dispatch order an unanswered send made: ShipX lists the organization's orders by a shipment they hold (`shipment_id`). */
async function findOrdered(client: InpostClient, dispatch: DispatchForCarrier): Promise<InpostDispatchOrder | undefined> {
  const first = dispatch.shipments[0]!.providerShipmentId;
  const orders = await client.dispatchOrdersOf(first);
  return orders.filter((o) => o.status !== 'canceled' && o.id !== undefined).at(-1);
}

async function orderOnce(client: InpostClient, dispatch: DispatchForCarrier, ctx: CarrierContext & { progress: CarrierProgress }): Promise<string> {
  const saved = (ctx.progress.load() ?? {}) as InpostHandOverProgress;
  if (saved.order) return saved.order;
  const found = saved.sendingSince !== undefined ? await findOrdered(client, dispatch) : undefined;
  const order = found ?? await markedSend({ clock: ctx.clock, progress: stepProgress(ctx.progress, 'sendingSince') }, saved.sendingSince, () => (
    client.createDispatchOrder(inpostDispatchOrderRequest(dispatch))
  ));
  const id = String(order.id ?? '');
  const { sendingSince: _answered, ...others } = (ctx.progress.load() ?? {}) as InpostHandOverProgress;
  await ctx.progress.save({ ...others, order: id } satisfies InpostHandOverProgress);
  return id;
}

async function handOver(dispatch: DispatchForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress }): Promise<DispatchedAtCarrier> {
  const parsed = inpostSettings.parse(settings);
  const asked = dispatch.pickup;
  if (parsed.sendingMethod !== 'dispatch_order' && !asked) return { carrierRef: null };
  const client = new InpostClient(parsed, ctx);
  const order = await orderOnce(client, dispatch, ctx);
  const pickup: BookedPickup | undefined = asked ? {
    confirmation: order, ...asked,
    note: `${NAME} takes no day or window for a courier: dispatch order ${order} asks its courier to come on the next round, with the wished window as its comment`,
  } : undefined;
  return { carrierRef: order, document: await client.dispatchOrderPrintout(order), ...(pickup ? { pickup } : {}) };
}

export const inpostDispatcher: CarrierDispatcher = {
  // without a dispatch order, shipments sent by dispatch_order never leave: it is the close and the courier at once
  capabilities: { close: true, protocol: true, pickup: true },
  handOver,
  // ShipX cancels no shipment once its label is bought (DELETE /v1/shipments/{id}: created or offers_prepared only, 18153504)
  cancelAfterHandOver: false,
};
