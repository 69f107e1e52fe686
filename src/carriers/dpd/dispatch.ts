import { bookPickupOnce } from '../book-once.js';
import type { CarrierDispatcher } from '../types.js';
import { DpdClient } from './client.js';
import { dpdPickupRequest } from './request.js';
import { dpdSettings } from './settings.js';

/**
 * DPD at the end of the day: nothing to close (a META-API shipment is DPD's once created) and no document of DPD's
 * (packdesk's hand-over list serves); a courier through `POST /shipping/v1/pickupscheduling` when one is asked for.
 * The META-API has no lookup of pickups (its paths: login, shipment, label, pickupscheduling, colreq), so the courier
 * is booked at most once (bookPickupOnce).
 */
export const dpdDispatcher: CarrierDispatcher = {
  capabilities: { close: false, protocol: false, pickup: true },
  // the META-API cancels nothing, before or after a hand-over
  cancelAfterHandOver: false,
  async handOver(dispatch, settings, ctx) {
    const asked = dispatch.pickup;
    if (!asked) return { carrierRef: null };
    const pickup = await bookPickupOnce(ctx, 'DPD', asked, async () => {
      const reference = await new DpdClient(dpdSettings.parse(settings), ctx).schedulePickup(dpdPickupRequest(dispatch, asked));
      // DPD confirms a reference, not a window: the booked window is the one asked for
      return { confirmation: reference, ...asked };
    });
    return { carrierRef: pickup.confirmation, pickup };
  },
};
