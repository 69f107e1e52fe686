import { CarrierRefusedError } from '../errors.js';
import { warsawTime } from '../local-time.js';
import type { CarrierDispatcher, DispatchedAtCarrier, DispatchForCarrier, PickupRequest } from '../types.js';
import { BaselinkerClient, type BaselinkerPackagesAt, type BaselinkerPickupField } from './client.js';
import { baselinkerSettings } from './settings.js';

/**
 * The end of the day through Base.com: a courier booked for the packages (runRequestParcelPickup, its form from
 * getRequestParcelPickupFields) and the courier's hand-over protocol (getProtocol), as the method pages of
 * https://api.baselinker.com describe them. Base.com has no close: a package is at the courier once createPackage answered.
 */

interface PickupBooked {
  confirmation: string;
  date: string;
  from: string;
  to: string;
}

interface HandOverProgress {
  /** Set before runRequestParcelPickup and kept if its answer was lost: Base.com may have booked the courier. */
  pickupSendingSince?: number;
  pickup?: PickupBooked;
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

/**
 * Base.com offers no method that lists a courier's pickups or tells whether a package has one: after a lost answer to
 * runRequestParcelPickup it cannot be found, and asking again could book a second courier, so a person checks.
 */
function pickupMayBeBooked(numbers: readonly string[]): CarrierRefusedError {
  const reason = 'Baselinker may have booked the courier already (its answer to the pickup request was lost) and offers no way to look the pickup up';
  return new CarrierRefusedError(reason, {
    pickup: [`${reason}: check the courier's pickups for parcels ${numbers.join(', ')} in the Base.com panel before booking another`],
  });
}

const handOver: CarrierDispatcher['handOver'] = async (dispatch, settings, ctx) => {
  const parsed = baselinkerSettings.parse(settings);
  const client = new BaselinkerClient(parsed, ctx);
  const numbers = dispatch.shipments.flatMap((s) => s.parcels.map((p) => p.trackingNumber));
  const at: BaselinkerPackagesAt = { courier_code: parsed.courierCode, package_numbers: numbers, ...(parsed.accountId !== undefined ? { account_id: parsed.accountId } : {}) };
  let saved = (ctx.progress.load() ?? {}) as HandOverProgress;
  const save = async (next: HandOverProgress) => {
    saved = next;
    await ctx.progress.save({ ...next });
  };

  if (dispatch.pickup && !saved.pickup) {
    if (saved.pickupSendingSince !== undefined) throw pickupMayBeBooked(numbers);
    const weightKg = dispatch.shipments.reduce((sum, s) => sum + s.parcels.reduce((w, p) => w + p.weightKg, 0), 0);
    const fields = formFields(await client.pickupFields(parsed.courierCode), pickupValues(dispatch.pickup, weightKg));
    await save({ ...saved, pickupSendingSince: ctx.clock.now() });
    let confirmation: string;
    try {
      confirmation = await client.requestPickup(at, fields);
    } catch (err) {
      // a refusal booked nothing; any other failure may have, and keeps the mark
      if (err instanceof CarrierRefusedError) await save({ ...saved, pickupSendingSince: undefined });
      throw err;
    }
    // Base.com answers only the number: the window is the one asked for
    await save({ ...saved, pickupSendingSince: undefined, pickup: { confirmation, ...dispatch.pickup } });
  }

  if (saved.protocol === undefined) {
    // getProtocol downloads the courier's protocol of the packages: a read, so asking again after a lost answer is safe
    const answer = await client.protocol(at);
    const pdf = answer.extension === 'pdf' && answer.protocol ? answer.protocol : '';
    if (!pdf) ctx.log.warn({ extension: answer.extension }, 'Baselinker gave no PDF protocol: packdesk prints its own hand-over list');
    await save({ ...saved, protocol: pdf });
  }

  return {
    carrierRef: saved.pickup?.confirmation ?? null,
    ...(saved.protocol ? { document: Buffer.from(saved.protocol, 'base64') } : {}),
    ...(saved.pickup ? { pickup: saved.pickup } : {}),
  };
};

export const baselinkerDispatcher: CarrierDispatcher = {
  // no close: createPackage already registers the package at the courier
  capabilities: { close: false, protocol: true, pickup: true },
  handOver,
  // deleteCourierPackage deletes at the courier "if the courier API allows": the courier's refusal comes back as cancel's
  cancelAfterHandOver: true,
};
