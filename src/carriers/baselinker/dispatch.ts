import { bookPickupOnce } from '../book-once.js';
import { warsawTime } from '../local-time.js';
import { stepProgress } from '../step-progress.js';
import type { CarrierDispatcher, PickupRequest } from '../types.js';
import { BaselinkerClient, type BaselinkerPackagesAt, type BaselinkerPickupField } from './client.js';
import { baselinkerSettings } from './settings.js';

/**
 * The end of the day through Base.com: a courier booked for the packages (runRequestParcelPickup, its form from
 * getRequestParcelPickupFields) and the courier's hand-over protocol (getProtocol), as the method pages of
 * https://api.baselinker.com describe them. Base.com has no close: a package is at the courier once createPackage answered.
 */

interface HandOverProgress {
  /** bookPickupOnce's place. */
  pickup?: unknown;
  /** The PDF protocol as Base.com gave it (base64; empty when it gave none), so a later run does not ask again. */
  protocol?: string;
}

/**
 * The pickup form values packdesk knows: `pickup_date` (unix) and `shipments_weight` are the runRequestParcelPickup
 * page's example; the window's ids are inferred (no published list), so only the ids the courier's form has are sent.
 */
function pickupValues(pickup: PickupRequest, weightKg: number): Record<string, string> {
  return {
    pickup_date: String(Math.floor(warsawTime.parse(`${pickup.date} ${pickup.from}:00`)! / 1000)),
    pickup_time_from: pickup.from,
    pickup_time_to: pickup.to,
    shipments_weight: String(Math.round(weightKg * 100) / 100),
  };
}

function formFields(form: readonly BaselinkerPickupField[], values: Record<string, string>): { id: string; value: string }[] {
  return form.filter((f) => Object.hasOwn(values, f.id)).map((f) => ({ id: f.id, value: values[f.id]! }));
}

const handOver: CarrierDispatcher['handOver'] = async (dispatch, settings, ctx) => {
  const parsed = baselinkerSettings.parse(settings);
  const client = new BaselinkerClient(parsed, ctx);
  const numbers = dispatch.shipments.flatMap((s) => s.parcels.map((p) => p.trackingNumber));
  const at: BaselinkerPackagesAt = { courier_code: parsed.courierCode, package_numbers: numbers, ...(parsed.accountId !== undefined ? { account_id: parsed.accountId } : {}) };
  const asked = dispatch.pickup;
  const weightKg = dispatch.shipments.reduce((sum, s) => sum + s.parcels.reduce((w, p) => w + p.weightKg, 0), 0);
  // Base.com offers no method that lists a courier's pickups: a booking whose answer was lost is not made again
  const pickup = asked && await bookPickupOnce(
    { ...ctx, progress: stepProgress(ctx.progress, 'pickup') }, 'Baselinker', asked,
    // Base.com answers only the number: the window is the one asked for
    async (fields) => ({ confirmation: await client.requestPickup(at, fields), ...asked }),
    async () => formFields(await client.pickupFields(parsed.courierCode), pickupValues(asked, weightKg)),
  );

  let protocol = (ctx.progress.load() as HandOverProgress | null)?.protocol;
  if (protocol === undefined) {
    // getProtocol downloads the courier's protocol of the packages: a read, so asking again after a lost answer is safe
    const answer = await client.protocol(at);
    protocol = answer.extension === 'pdf' && answer.protocol ? answer.protocol : '';
    if (!protocol) ctx.log.warn({ extension: answer.extension }, 'Baselinker gave no PDF protocol: packdesk prints its own hand-over list');
    await stepProgress(ctx.progress, 'protocol').save({ protocol });
  }

  return {
    carrierRef: pickup ? pickup.confirmation : null,
    ...(protocol ? { document: Buffer.from(protocol, 'base64') } : {}),
    ...(pickup ? { pickup } : {}),
  };
};

export const baselinkerDispatcher: CarrierDispatcher = {
  // no close: createPackage already registers the package at the courier
  capabilities: { close: false, protocol: true, pickup: true },
  handOver,
  // deleteCourierPackage deletes at the courier "if the courier API allows": the courier's refusal comes back as cancel's
  cancelAfterHandOver: true,
};
