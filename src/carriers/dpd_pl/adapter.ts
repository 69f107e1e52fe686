import { splitLabels } from '../../labels/index.js';
import { CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { markedSend } from '../marked-send.js';
import type { CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, ShipmentForCarrier, ValidationOutcome } from '../types.js';
import { DpdPlClient, DpdPlCredentialsRefused } from './client.js';
import { dpdPlDispatcher } from './dispatch.js';
import { dpdPlPickupPoints } from './points.js';
import { sessionTypeOfShipment, type DpdPackageLookup } from './request.js';
import { parseTrackingBody, type DpdPlLabels } from './response.js';
import { dpdPlSettings } from './settings.js';

interface DpdPlProgress {
  /** Set before generatePackagesNumbersV4 and cleared once DPD answered: still set means the answer was lost. */
  sendingSince?: number;
  /** DPD's package once created: a later attempt only fetches its labels. */
  packageId?: string;
}

/**
 * Exactly once: our shipment id is the package's `reference`, DPD's unique search key. After a lost answer the
 * labels are first asked for by that reference (found: the package exists, use it); a create that DPD refuses as
 * DUPLICATED_PACKAGE_REFERENCE is answered the same way. Labels come as one document, cut into one per parcel.
 */
async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  const client = new DpdPlClient(dpdPlSettings.parse(settings), ctx);
  if (s.returnOf) return createReturn(s, s.returnOf, client);
  const sessionType = sessionTypeOfShipment(s);
  const progress = (ctx.progress.load() ?? {}) as DpdPlProgress;
  let lookup: DpdPackageLookup | undefined = progress.packageId !== undefined ? { packageId: progress.packageId }
    : progress.sendingSince !== undefined ? { reference: s.id } : undefined;
  let labels: DpdPlLabels | undefined = lookup ? await client.generateSpedLabels(lookup, sessionType, s.labelFormat) : undefined;
  let waybills: string[] | undefined;
  if (!labels || labels.state === 'not_found') {
    const created = await markedSend(ctx, undefined, () => client.generatePackagesNumbers(s));
    if (created.state === 'refused') {
      await ctx.progress.save({});
      throw new CarrierRefusedError(created.message, created.errors);
    }
    if (created.state === 'created') {
      await ctx.progress.save({ packageId: created.packageId } satisfies DpdPlProgress);
      waybills = created.waybills;
    }
    lookup = created.state === 'created' ? { packageId: created.packageId } : { reference: s.id };
    labels = await client.generateSpedLabels(lookup, sessionType, s.labelFormat);
  }
  if (labels.state === 'not_found') throw new CarrierTransientError(`DPD Poland does not find package ${JSON.stringify(lookup)} yet`);
  if (labels.state === 'refused') throw new CarrierRefusedError(labels.message, { label_format: [labels.message] });
  const numbers = waybills ?? labels.waybills;
  if (numbers.length !== s.parcels.length || numbers.some((n) => !labels.waybills.includes(n))) {
    throw new CarrierRefusedError(`DPD Poland answered ${labels.waybills.length} waybills for ${s.parcels.length} parcels`, { parcels: ['DPD Poland: the package does not hold one waybill per parcel'] });
  }
  const parts = await splitLabels(s.labelFormat, labels.document, labels.waybills.length);
  return {
    providerShipmentId: labels.packageId,
    product: sessionType,
    parcels: numbers.map((trackingNumber) => ({ trackingNumber, label: parts[labels.waybills.indexOf(trackingNumber)]! })),
  };
}

/**
 * A return is DPD's return label of the outbound waybills: one call, its answer the return's waybills and their
 * label document, cut into one per parcel. DPD documents no lookup of a return label: a retry asks for it again.
 */
async function createReturn(s: ShipmentForCarrier, returnOf: NonNullable<ShipmentForCarrier['returnOf']>, client: DpdPlClient): Promise<CreatedAtCarrier> {
  const made = await client.generateReturnLabel(s, returnOf);
  if (made.state === 'refused') throw new CarrierRefusedError(made.message, made.errors);
  if (made.waybills.length !== s.parcels.length) {
    throw new CarrierRefusedError(`DPD Poland answered ${made.waybills.length} return waybills for ${s.parcels.length} parcels`, { parcels: ['DPD Poland: the return label does not hold one waybill per parcel'] });
  }
  const parts = await splitLabels(s.labelFormat, made.document, made.waybills.length);
  return {
    providerShipmentId: made.packageId,
    product: `${sessionTypeOfShipment(s)}_RETURN`,
    parcels: made.waybills.map((trackingNumber, i) => ({ trackingNumber, label: parts[i]! })),
  };
}

export const dpdPlAdapter: CarrierAdapter = {
  pickupPoints: dpdPlPickupPoints,

  async validate(settings, ctx): Promise<ValidationOutcome> {
    try {
      await new DpdPlClient(dpdPlSettings.parse(settings), ctx).checkCredentials();
      return { ok: true };
    } catch (err) {
      if (!(err instanceof DpdPlCredentialsRefused)) throw err;
      const refused = [`refused by DPD Poland: ${err.reason}`];
      return { ok: false, message: err.message, errors: { 'settings.login': refused, 'settings.password': refused, 'settings.masterFid': refused } };
    }
  },

  createShipment,

  dispatch: dpdPlDispatcher,

  // getEventsForWaybillV1 takes one waybill per call
  async track(parcels, settings, ctx) {
    const trackingNumbers = parcels.map((p) => p.trackingNumber);
    const client = new DpdPlClient(dpdPlSettings.parse(settings), ctx);
    const results = [];
    for (const n of trackingNumbers) results.push(...parseTrackingBody(await client.eventsForWaybill(n), [n]));
    return results;
  },

  // DPD Poland's public tracking page; the address is inferred from public integrations that read it
  trackingUrl: (n) => `https://tracktrace.dpd.com.pl/parcelDetails?typ=1&p1=${encodeURIComponent(n)}`,
  // 13 digits and a check character: 0000001052539S, 13039600210032 (customer documentation 2.87 examples)
  trackingNumberPattern: /^\d{13}[0-9A-Z]$/,
};
