import { bookPickupOnce } from '../book-once.js';
import type { CarrierDispatcher } from '../types.js';
import { GlsClient } from './client.js';
import { glsLocalTime } from './dates.js';
import { glsPickupRequest } from './request.js';
import { ACCEPTED_WITHOUT_NUMBER, pickupConfirmation } from './response.js';
import { glsSettings } from './settings.js';

/**
 * MyGLS at the end of the day: nothing to close (GLS holds a parcel's data from PrintLabels on) and no document of
 * GLS's (packdesk's hand-over list serves); a courier through `CreatePickupRequest` when one is asked for, as GLS's
 * WooCommerce plugin books it. MyGLS has no way to list or look up pickup requests (webapix/mygls-sdk and the WSDL
 * stubs have none; the plugin keeps its own history), so the courier is booked at most once (bookPickupOnce).
 */
export const glsDispatcher: CarrierDispatcher = {
  capabilities: { close: false, protocol: false, pickup: true },
  // a pickup request names no parcel, so a dispatch leaves labels PRINTED: DeleteLabels works until GLS scans the parcel (then error 6)
  cancelAfterHandOver: true,
  async handOver(dispatch, settings, ctx) {
    const asked = dispatch.pickup;
    if (!asked) return { carrierRef: null };
    const parsed = glsSettings.parse(settings);
    const pickup = await bookPickupOnce(ctx, 'GLS', asked, async () => {
      const answer = await new GlsClient(parsed, ctx).createPickupRequest(glsPickupRequest(dispatch, asked, parsed));
      const acceptedAt = glsLocalTime(parsed.country).format(ctx.clock.now(), ' ').slice(0, 16);
      // GLS confirms the request, not another window: the booked window is the one asked for
      return { confirmation: pickupConfirmation(answer, acceptedAt), ...asked };
    });
    // only GLS's own request number is the carrier's id of the pickup
    const carrierRef = pickup.confirmation?.startsWith(ACCEPTED_WITHOUT_NUMBER) ? null : pickup.confirmation;
    return { carrierRef, pickup };
  },
};
