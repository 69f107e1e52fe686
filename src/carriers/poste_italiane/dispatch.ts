import { CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { markedSend } from '../marked-send.js';
import type { BookedPickup, CarrierDispatcher } from '../types.js';
import { PosteClient } from './client.js';
import {
  findOurBooking, pickupFilter, pickupRefusal, postePickupRequest, REPORT_NOTHING_FOUND, slotWindow,
  type PosteFoundPickup, type PostePickupAnswer, type PostePickupItem,
} from './pickup.js';
import { posteItalianeSettings } from './settings.js';

interface PosteDispatchProgress {
  /** markedSend's mark, set before the booking is sent: still set without `pickup`, the answer was lost. */
  sendingSince?: number;
  pickup?: BookedPickup;
}

/** The booking's answer → its id, or Poste's refusal; an answer that says neither leaves the outcome unknown. */
function bookingIdOf(answer: PostePickupAnswer, item: PostePickupItem): string {
  const outcome = answer.result?.item?.[0];
  if (outcome?.result === 'OK' && answer.bookingId) return answer.bookingId;
  if (outcome?.result === 'KO') throw pickupRefusal(outcome.errorCode ?? '', outcome.errorDescription ?? '', item);
  throw new CarrierTransientError('Poste Italiane answered the pickup booking without an outcome and a booking id');
}

/** Our booking of an earlier send whose answer was lost, from the pickup report; undefined when Poste holds none. */
async function bookedEarlier(client: PosteClient, item: PostePickupItem, since: number): Promise<PosteFoundPickup | undefined> {
  const report = await client.pickupReport(pickupFilter(item, since));
  if (report.result !== 'OK') {
    if (report.errorCode === REPORT_NOTHING_FOUND) return undefined;
    const said = `${report.errorDescription || 'no reason given'} (error ${report.errorCode || 'without a code'})`;
    throw new CarrierRefusedError(`Poste Italiane refused to list the pickups booked since the lost answer: ${said}`, { pickup: [`Poste Italiane: ${said}`] });
  }
  return findOurBooking(report.pickup?.item ?? [], item);
}

/**
 * Poste Delivery Business at the end of the day: no close (a waybill is Poste's once created) and no document of
 * Poste's (packdesk's hand-over list serves); a courier booked with `parcel/pickup` when one is asked for. A booking
 * whose answer was lost is looked up in `parcel/pickupReport` before booking again.
 */
export const posteItalianeDispatcher: CarrierDispatcher = {
  capabilities: { close: false, protocol: false, pickup: true },
  // Poste Delivery Business cancels no waybill, before or after a hand-over
  cancelAfterHandOver: false,

  async handOver(dispatch, settings, ctx) {
    const asked = dispatch.pickup;
    if (!asked) return { carrierRef: null };
    const progress = (ctx.progress.load() ?? {}) as PosteDispatchProgress;
    if (progress.pickup) return { carrierRef: progress.pickup.confirmation, pickup: progress.pickup };
    const parsed = posteItalianeSettings.parse(settings);
    if (!parsed.pickupProvince) {
      const message = 'Poste Italiane needs the province of the pickup address to book a courier: set the channel\'s pickupProvince (e.g. RM)';
      throw new CarrierRefusedError(message, { shipping_channel_id: [message] });
    }
    const request = postePickupRequest(dispatch, asked, parsed.pickupProvince);
    const item = request.pickup.item[0]!;
    const client = new PosteClient(parsed, ctx);
    const booked = async (bookingId: string) => {
      // Poste confirms a slot, not the asked window: the booking shows the slot's hours
      const pickup: BookedPickup = { confirmation: bookingId, date: asked.date, ...slotWindow(item.timeSlot) };
      await ctx.progress.save({ pickup } satisfies PosteDispatchProgress);
      return { carrierRef: bookingId, pickup };
    };
    if (progress.sendingSince !== undefined) {
      const found = await bookedEarlier(client, item, progress.sendingSince);
      if (found) {
        ctx.log.info({ dispatch_id: dispatch.id, bookingId: found.bookingId }, 'Poste Italiane holds the pickup booked by an earlier attempt whose answer was lost: kept, not booked again');
        return booked(found.bookingId!);
      }
    }
    return booked(await markedSend(ctx, progress.sendingSince, async () => bookingIdOf(await client.bookPickup(request), item)));
  },
};
