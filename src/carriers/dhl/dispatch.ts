import { bookPickupOnce } from '../book-once.js';
import { CarrierTransientError } from '../errors.js';
import type {
  CarrierContext, CarrierDispatcher, CarrierProgress, ChannelSettings, DispatchedAtCarrier, DispatchForCarrier,
} from '../types.js';
import { DhlClient } from './client.js';
import { dhlPickupRequest } from './request.js';
import { dhlSettings } from './settings.js';

/**
 * The end of the day at DHL Express (MyDHL API): nothing to close and no hand-over document of DHL's (the waybills
 * are DHL's data from `POST /shipments` on; packdesk prints its own hand-over list); a courier comes when booked with
 * `POST /pickups` (https://developer.dhl.com/api-reference/dhl-express-mydhl-api, MyDHL OpenAPI 3.1.1).
 */

/**
 * Books the courier once. MyDHL cannot look a pickup up (its pickup paths are POST, PATCH and DELETE, all but the
 * first by the confirmation number), so after a request whose answer was lost it is not asked for again
 * (bookPickupOnce): the dispatch's courier stays unconfirmed, saying what to check at DHL.
 */
async function handOver(
  dispatch: DispatchForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<DispatchedAtCarrier> {
  const asked = dispatch.pickup;
  if (!asked) return { carrierRef: null };
  const pickup = await bookPickupOnce(ctx, 'DHL Express', asked, async () => {
    const parsed = dhlSettings.parse(settings);
    const body = await new DhlClient(parsed, ctx).createPickup(dhlPickupRequest(dispatch, asked, parsed), dispatch.id);
    const confirmation = body.dispatchConfirmationNumbers?.find(Boolean);
    // an answer without the number leaves the mark: whether DHL booked is unknown
    if (!confirmation) throw new CarrierTransientError('DHL Express answered the pickup request without a dispatch confirmation number');
    return { confirmation, date: body.nextPickupDate ?? asked.date, from: asked.from, to: asked.to };
  });
  return { carrierRef: pickup.confirmation, pickup };
}

export const dhlDispatcher: CarrierDispatcher = {
  capabilities: { close: false, protocol: false, pickup: true },
  handOver,
  // MyDHL has no shipment cancel at all (the provider's capability); a booked pickup only has DELETE /pickups/{number}
  cancelAfterHandOver: false,
};
