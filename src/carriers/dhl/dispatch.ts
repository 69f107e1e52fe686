import { CarrierTransientError } from '../errors.js';
import { markedSend } from '../marked-send.js';
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

type ConfirmedPickup = NonNullable<DispatchedAtCarrier['pickup']>;

interface DhlDispatchProgress {
  /** Set before `POST /pickups` and left until DHL's confirmation is saved: still set means its answer may have been lost. */
  sendingSince?: number;
  pickup?: ConfirmedPickup;
}

/**
 * Books the courier once. MyDHL cannot look a pickup up (its pickup paths are POST, PATCH and DELETE, all but the
 * first by the confirmation number), so after a request whose answer was lost the pickup is asked for again: DHL
 * consolidates pickups of one address and day, which its PATCH and DELETE descriptions name ("subject to entire
 * consolidated pickup"), so the repeat joins the courier already coming instead of sending another (inferred).
 */
async function handOver(
  dispatch: DispatchForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<DispatchedAtCarrier> {
  const asked = dispatch.pickup;
  if (!asked) return { carrierRef: null };
  const progress = (ctx.progress.load() ?? {}) as DhlDispatchProgress;
  if (progress.pickup) return { carrierRef: progress.pickup.confirmation, pickup: progress.pickup };
  if (progress.sendingSince !== undefined) {
    ctx.log.warn(
      { dispatchId: dispatch.id, since: progress.sendingSince },
      'an earlier pickup request to DHL Express got no answer: asking again, which DHL consolidates into the same pickup',
    );
  }
  const parsed = dhlSettings.parse(settings);
  const request = dhlPickupRequest(dispatch, asked, parsed);
  const body = await markedSend(ctx, progress.sendingSince, () => new DhlClient(parsed, ctx).createPickup(request, dispatch.id));
  const confirmation = body.dispatchConfirmationNumbers?.find(Boolean);
  // the mark stays: the next attempt asks again, into the same consolidated pickup
  if (!confirmation) throw new CarrierTransientError('DHL Express answered the pickup request without a dispatch confirmation number');
  const pickup = { confirmation, date: body.nextPickupDate ?? asked.date, from: asked.from, to: asked.to };
  await ctx.progress.save({ pickup } satisfies DhlDispatchProgress);
  return { carrierRef: confirmation, pickup };
}

export const dhlDispatcher: CarrierDispatcher = {
  capabilities: { close: false, protocol: false, pickup: true },
  handOver,
  // MyDHL has no shipment cancel at all (the provider's capability); a booked pickup only has DELETE /pickups/{number}
  cancelAfterHandOver: false,
};
