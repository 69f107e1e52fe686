import { splitLabels } from '../../labels/index.js';
import { markedSend } from '../marked-send.js';
import type {
  CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, ParcelToTrack, ShipmentForCarrier, TrackResult,
} from '../types.js';
import { DpdClient, DpdCredentialsRefused } from './client.js';
import { dpdDispatcher } from './dispatch.js';
import { dpdLabelQuery, dpdShipmentRequest } from './request.js';
import { parseCreatedShipment, parseTrackingAnswers } from './response.js';
import { dpdSettings } from './settings.js';

/** ParcelLifeCycleService answers one parcel number a call; packdesk asks for a few at a time. */
const DPD_TRACK_BATCH = 10;

interface DpdProgress {
  /** Set before the shipment is sent, cleared when DPD refuses it. */
  sendingSince?: number;
}

async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  const parsed = dpdSettings.parse(settings);
  const request = dpdShipmentRequest(s, parsed);
  const client = new DpdClient(parsed, ctx);
  // The META-API offers no idempotency key and no search by reference, so a send whose answer was lost (timeout,
  // dropped connection, 5xx after DPD stored it) is sent anew: the first shipment stays unused at DPD.
  const earlier = ctx.progress.load() as DpdProgress | null;
  if (earlier?.sendingSince !== undefined) {
    ctx.log.warn({ shipmentId: s.id, since: earlier.sendingSince }, 'an earlier send of this shipment to DPD got no answer: it may have left an unused shipment');
  }
  const body = await markedSend(ctx, undefined, () => client.createShipment(request, dpdLabelQuery(s.labelFormat, parsed)));
  const created = parseCreatedShipment(body, s.parcels.length);
  // One document holds every parcel's label, in parcel order.
  const labels = await splitLabels(s.labelFormat, Buffer.from(created.labelBase64, 'base64'), created.parcelIds.length);
  return {
    providerShipmentId: created.shipmentId,
    product: request[0]!.shipmentInfos.productCode,
    parcels: created.parcelIds.map((trackingNumber, i) => ({ trackingNumber, label: labels[i]! })),
  };
}

async function track(parcels: readonly ParcelToTrack[], settings: ChannelSettings, ctx: CarrierContext): Promise<TrackResult[]> {
  const client = new DpdClient(dpdSettings.parse(settings), ctx);
  const numbers = parcels.map((p) => p.trackingNumber);
  const answers: Record<string, string> = {};
  for (const n of numbers) {
    const xml = await client.trackingData(n);
    if (xml !== undefined) answers[n] = xml;
  }
  return parseTrackingAnswers(answers, numbers);
}

export const dpdAdapter: CarrierAdapter = {
  /**
   * DPD Pickup parcel shops: Parcel to Shop (337, 338) with `receiver.pudoId` (META-API OpenAPI `Receiver.pudoId`,
   * "ID number of PUDO point (parcel shop, …)"). No finder: the META-API's Pickup Shop Search is not published.
   */
  pickupPoints: { types: ['parcelshop'] },

  async validate(settings, ctx) {
    try {
      await new DpdClient(dpdSettings.parse(settings), ctx).checkCredentials();
      return { ok: true };
    } catch (err) {
      if (err instanceof DpdCredentialsRefused) return { ok: false, message: err.message, errors: err.errors };
      throw err;
    }
  },

  createShipment,
  dispatch: dpdDispatcher,
  track,
  trackBatchSize: DPD_TRACK_BATCH,

  // DPD Group's tracking page (karrio dpd_meta, providers/dpd_meta/utils.py tracking_url).
  trackingUrl: (n) => `https://www.dpdgroup.com/tracking?parcelNumber=${encodeURIComponent(n)}`,
  // A parcel number has 14 digits, the first four the sending depot (META-API examples: 05308877770438).
  trackingNumberPattern: /^\d{14}$/,
};
