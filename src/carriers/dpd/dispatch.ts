import { CarrierRefusedError, CarrierTransientError } from '../errors.js';
import type { CarrierDispatcher, DispatchedAtCarrier } from '../types.js';
import { DpdClient } from './client.js';
import { dpdPickupRequest } from './request.js';
import { dpdSettings } from './settings.js';

/** The courier booking's place: `sendingSince` before pickupscheduling, DPD's pickup reference once it answered. */
interface DpdDispatchProgress {
  pickup?: { sendingSince?: number; reference?: string };
}

/** DPD answered 429 or a 5xx with nothing booked; a timeout, a dropped connection or the business unit's 408 says nothing. */
const answeredWithoutBooking = (err: unknown) =>
  err instanceof CarrierRefusedError || (err instanceof CarrierTransientError && / answered HTTP (?:429|5\d\d)$/.test(err.message));

/**
 * DPD at the end of the day: nothing to close (a META-API shipment is DPD's once created) and no document of DPD's
 * (packdesk's hand-over list serves); a courier through `POST /shipping/v1/pickupscheduling` when one is asked for.
 * The META-API has no lookup of pickups (its paths: login, shipment, label, pickupscheduling, colreq): after a lost
 * answer nothing tells whether DPD booked it, so it is never asked for twice and the log says to check with DPD.
 */
export const dpdDispatcher: CarrierDispatcher = {
  capabilities: { close: false, protocol: false, pickup: true },
  // the META-API cancels nothing, before or after a hand-over
  cancelAfterHandOver: false,
  async handOver(dispatch, settings, ctx) {
    const asked = dispatch.pickup;
    if (!asked) return { carrierRef: null };
    const progress = (ctx.progress.load() ?? {}) as DpdDispatchProgress;
    const booked = (reference: string): DispatchedAtCarrier => ({ carrierRef: reference, pickup: { confirmation: reference, ...asked } });
    if (progress.pickup?.reference) return booked(progress.pickup.reference);
    if (progress.pickup?.sendingSince !== undefined) {
      ctx.log.warn({ dispatchId: dispatch.id, pickup: asked }, 'the answer to the DPD courier booking was lost and DPD cannot be asked for it: check the booking with DPD');
      return { carrierRef: null };
    }
    const client = new DpdClient(dpdSettings.parse(settings), ctx);
    await ctx.progress.save({ pickup: { sendingSince: ctx.clock.now() } } satisfies DpdDispatchProgress);
    let reference: string;
    try {
      reference = await client.schedulePickup(dpdPickupRequest(dispatch, asked));
    } catch (err) {
      if (answeredWithoutBooking(err)) await ctx.progress.save({});
      throw err;
    }
    await ctx.progress.save({ pickup: { reference } } satisfies DpdDispatchProgress);
    // DPD confirms a reference, not a window: the booked window is the one asked for
    return booked(reference);
  },
};
