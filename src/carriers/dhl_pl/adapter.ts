import { splitLabels } from '../../labels/index.js';
import { CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { markedSend } from '../marked-send.js';
import { warsawTime } from '../local-time.js';
import type {
  CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, ParcelToTrack, ShipmentForCarrier, TrackResult, ValidationOutcome,
} from '../types.js';
import { DhlPlClient, DhlPlCredentialsRefused, LABELS_DATA_BATCH } from './client.js';
import { DHL_PL_LABEL_TYPES } from './codes.js';
import { dhlPlDispatcher } from './dispatch.js';
import { dhlPlPoints } from './points.js';
import { dhlPostalCode, productFor } from './request.js';
import { dhlPlSettings } from './settings.js';

interface DhlPlProgress {
  /** Set before createShipments and cleared once DHL answered: still set means the answer was lost. */
  sendingSince?: number;
  /** DHL's waybill once created: a later attempt only fetches its pieces and labels. */
  shipmentId?: string;
}

const day = (ms: number) => warsawTime.format(ms).slice(0, 10);

/** DHL24 publishes no rate limit: 10 parcels a track call, one getTrackAndTraceInfo per shipment among them, is our own pace. */
const DHL_PL_TRACK_BATCH = 10;

/** getMyShipments answers 100 shipments a page (DHL24 getMyShipments.html: `offset` pages through the rest). */
const PAGE = 100;

/**
 * The shipment an earlier attempt created, found by our id in its `reference`: getMyShipments lists the account's
 * shipments of those days, getLabelsData reads the references of those going to our recipient's postal code.
 */
async function findByReference(client: DhlPlClient, s: ShipmentForCarrier, since: number, now: number): Promise<string | undefined> {
  const postalCode = dhlPostalCode(s.recipient.postalCode);
  for (let offset = 0; ; offset += PAGE) {
    const page = await client.myShipments(day(since), day(now), offset);
    const candidates = page.filter((p) => !p.receiverPostalCode || dhlPostalCode(p.receiverPostalCode) === postalCode).map((p) => p.shipmentId);
    for (let i = 0; i < candidates.length; i += LABELS_DATA_BATCH) {
      const found = (await client.labelsData(candidates.slice(i, i + LABELS_DATA_BATCH))).find((d) => d.reference === s.id);
      if (found) return found.shipmentId;
    }
    if (page.length < PAGE) return undefined;
  }
}

/**
 * Exactly once: createShipments takes no idempotency key, but our shipment id travels as the shipment's `reference`;
 * after a lost answer the account's shipments since the first try are searched for it before creating again.
 * DHL numbers the shipment (the 11-digit waybill) and each piece (getPieceId: JJD… package numbers, printed as the
 * piece's barcode on the BLP label): each parcel's tracking number is its piece number, and it is tracked by its
 * shipment's waybill, the number getTrackAndTraceInfo documents. getLabels gives one document with a label per piece,
 * cut into one per parcel. A shipment to a DHL point is created with createShipment (product SP and the point's
 * number), a return with createShipmentReturn (ZK or ZC, its label in the answer), then numbered, labelled and found
 * again the same way.
 */
async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  const parsed = dhlPlSettings.parse(settings);
  if (!(s.labelFormat in DHL_PL_LABEL_TYPES)) {
    throw new CarrierRefusedError(`DHL Parcel Poland prints no ${s.labelFormat.toUpperCase()} labels`, { label_format: ['DHL Parcel Poland prints labels as pdf or zpl'] });
  }
  const client = new DhlPlClient(parsed, ctx);
  const progress = (ctx.progress.load() ?? {}) as DhlPlProgress;
  let shipmentId = progress.shipmentId;
  if (shipmentId === undefined && progress.sendingSince !== undefined) {
    shipmentId = await findByReference(client, s, progress.sendingSince, ctx.clock.now());
    if (shipmentId !== undefined) await ctx.progress.save({ shipmentId } satisfies DhlPlProgress);
  }
  let answered: Buffer | undefined;
  if (shipmentId === undefined) {
    const created = await markedSend(ctx, progress.sendingSince, () => client.create(s));
    if (created.state === 'refused') {
      await ctx.progress.save({});
      throw new CarrierRefusedError(created.message, created.errors);
    }
    shipmentId = created.shipmentId;
    answered = created.label;
    await ctx.progress.save({ shipmentId } satisfies DhlPlProgress);
  }
  const pieces = await client.pieceIds(shipmentId);
  if (pieces.length !== s.parcels.length) {
    throw new CarrierTransientError(`DHL Parcel Poland lists ${pieces.length} pieces of shipment ${shipmentId} for ${s.parcels.length} parcels`);
  }
  // a return's label comes in createShipmentReturn's answer; after a lost answer getLabels prints it as any shipment's (inferred)
  const document = answered ?? await client.labels(shipmentId, s.labelFormat);
  if (!document) throw new CarrierTransientError(`DHL Parcel Poland gave no label for shipment ${shipmentId} yet`);
  const labels = await splitLabels(s.labelFormat, document, pieces.length);
  return { providerShipmentId: shipmentId, product: productFor(s, parsed), parcels: pieces.map((trackingNumber, i) => ({ trackingNumber, label: labels[i]! })) };
}

export const dhlPlAdapter: CarrierAdapter = {
  pickupPoints: dhlPlPoints,

  async validate(settings, ctx): Promise<ValidationOutcome> {
    try {
      await new DhlPlClient(dhlPlSettings.parse(settings), ctx).checkCredentials(day(ctx.clock.now()));
      return { ok: true };
    } catch (err) {
      if (!(err instanceof DhlPlCredentialsRefused)) throw err;
      const refused = [`refused by DHL Parcel Poland: ${err.reason}`];
      return { ok: false, message: err.message, errors: { 'settings.username': refused, 'settings.password': refused } };
    }
  },

  createShipment,
  dispatch: dhlPlDispatcher,

  // deleteShipments removes a shipment until a courier is booked for it (deleteShipments.html)
  async cancel({ providerShipmentId }, settings, ctx) {
    const [result] = await new DhlPlClient(dhlPlSettings.parse(settings), ctx).deleteShipments([providerShipmentId]);
    if (!result?.deleted) {
      const reason = result?.error ?? 'no answer for the shipment';
      throw new CarrierRefusedError(`DHL Parcel Poland did not delete shipment ${providerShipmentId}: ${reason}`, { shipment: [`DHL Parcel Poland: ${reason}`] });
    }
  },

  // getTrackAndTraceInfo takes one shipment's number a call: our parcels by their waybill, a number from elsewhere as given
  async track(parcels, settings, ctx) {
    const client = new DhlPlClient(dhlPlSettings.parse(settings), ctx);
    const shipmentOf = (p: ParcelToTrack) => p.providerShipmentId ?? p.trackingNumber;
    const results: TrackResult[] = [];
    for (const shipmentId of new Set(parcels.map(shipmentOf))) {
      results.push(...await client.track({ shipmentId, trackingNumbers: parcels.filter((p) => shipmentOf(p) === shipmentId).map((p) => p.trackingNumber) }));
    }
    return results;
  },
  trackBatchSize: DHL_PL_TRACK_BATCH,

  // DHL's public tracking page for DHL Parcel Poland numbers (karrio dhl_poland utils.py `tracking_url`)
  trackingUrl: (n) => `https://www.dhl.com/pl-en/home/tracking/tracking-parcel.html?submit=1&tracking-id=${encodeURIComponent(n)}`,
  // piece numbers as getPieceId gives them (JJD and 24 digits: JJD000030138709000000094699), or a shipment's 11-digit waybill
  trackingNumberPattern: /^(?:JJD\d{24}|\d{11})$/,
};
