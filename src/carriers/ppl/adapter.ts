import { splitLabels } from '../../labels/index.js';
import { CarrierRefusedError } from '../errors.js';
import { pollUntil } from '../poll.js';
import type {
  CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, PickupPointService, ShipmentForCarrier,
} from '../types.js';
import { accessPointLookup, accessPointSearch, pickupPointOf, pickupPointsOf } from './access-points.js';
import { PplClient, PplCredentialsRefused } from './client.js';
import { pplDispatcher } from './dispatch.js';
import { pplBatchRequest } from './request.js';
import { parseBatchStatus, parseTrackedShipments } from './response.js';
import { pplSettings } from './settings.js';

/** PPL imports a batch asynchronously: poll its state, quickly at first (clients poll every 0.5–1.5 s). */
const BATCH_POLL = { delaysMs: [20, 50, 100, 200, 400, 800, 1000], deadlineMs: 60_000 };
/** `GET /shipment` takes at most 100 shipment numbers per call. */
const PPL_TRACK_BATCH = 100;

interface PplProgress {
  /** Set before the batch is sent: if no batch id follows, the send may have reached PPL before a crash. */
  submittingSince?: number;
  batchId?: string;
}

/**
 * An earlier attempt recorded that it was sending but not which batch it got: it may have reached PPL. Cancel what
 * PPL holds under our reference, so the shipment exists at PPL once, then send anew.
 */
async function voidUnrecordedAttempt(client: PplClient, referenceId: string): Promise<void> {
  const found = await client.shipments({ customerReference: referenceId });
  const masters = new Set(found.filter((s) => s.shipmentState !== 'Canceled').map((s) => s.shipmentNumber));
  for (const number of masters) await client.cancel(number).catch(() => undefined);
}

async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  const parsed = pplSettings.parse(settings);
  const request = pplBatchRequest(s, parsed);
  const client = new PplClient(parsed, ctx);
  const progress = (ctx.progress.load() ?? {}) as PplProgress;
  let batchId = progress.batchId;
  if (!batchId) {
    if (progress.submittingSince !== undefined) await voidUnrecordedAttempt(client, s.id);
    await ctx.progress.save({ submittingSince: ctx.clock.now() });
    batchId = await client.submitBatch(request);
    await ctx.progress.save({ batchId });
  }
  const outcome = await pollUntil(ctx, { ...BATCH_POLL, stillWaiting: `PPL batch ${batchId} is still being imported` }, async () => {
    const status = parseBatchStatus(await client.batchStatus(batchId), s.id);
    return status.state === 'processing' ? undefined : status;
  });
  if (outcome.state === 'error') throw new CarrierRefusedError(`PPL refused the shipment: ${outcome.message}`);
  const numbers = outcome.trackingNumbers;
  if (numbers.length !== s.parcels.length) {
    throw new CarrierRefusedError(`PPL returned ${numbers.length} parcel numbers for ${s.parcels.length} parcels`);
  }
  // one download for every parcel's label, cut into one each; it lists the set master first, as the batch status does (inferred)
  const document = await client.label(outcome.labelDocumentUrl);
  const labels = numbers.length === 1 ? [document] : await splitLabels(s.labelFormat, document, numbers.length);
  return {
    providerShipmentId: numbers[0]!,
    product: request.shipments[0]!.productType,
    parcels: numbers.map((trackingNumber, i) => ({ trackingNumber, label: labels[i]! })),
  };
}

/** PPL's point API takes the channel's token, like every CPL API call but /info. */
function pointClient(settings: ChannelSettings, ctx: CarrierContext): PplClient {
  return new PplClient(pplSettings.parse(settings), ctx);
}

/** Delivery to PPL's ParcelShops and to its and Alza's parcel boxes, found with `GET /accessPoint`. */
const pplPickupPoints: PickupPointService = {
  types: ['parcelshop', 'locker'],
  finder: {
    async search(query, settings, ctx) {
      const params = accessPointSearch(query);
      return params ? pickupPointsOf(await pointClient(settings, ctx).accessPoints(params), query) : [];
    },
    async find(id, settings, ctx) {
      const found = await pointClient(settings, ctx).accessPoints(accessPointLookup(id));
      return found.map(pickupPointOf).find((p) => p?.id === id);
    },
  },
};

export const pplAdapter: CarrierAdapter = {
  pickupPoints: pplPickupPoints,
  async validate(settings, ctx) {
    try {
      await new PplClient(pplSettings.parse(settings), ctx).checkCredentials();
      return { ok: true };
    } catch (err) {
      if (err instanceof PplCredentialsRefused) return { ok: false, message: err.message, errors: err.errors };
      throw err;
    }
  },

  createShipment,
  dispatch: pplDispatcher,

  async cancel(shipment, settings, ctx) {
    await new PplClient(pplSettings.parse(settings), ctx).cancel(shipment.providerShipmentId);
  },

  async track(parcels, settings, ctx) {
    const trackingNumbers = parcels.map((p) => p.trackingNumber);
    const client = new PplClient(pplSettings.parse(settings), ctx);
    const results = [];
    for (let i = 0; i < trackingNumbers.length; i += PPL_TRACK_BATCH) {
      const asked = trackingNumbers.slice(i, i + PPL_TRACK_BATCH);
      results.push(...parseTrackedShipments(await client.shipments({ shipmentNumbers: asked }), asked));
    }
    return results;
  },
  trackBatchSize: PPL_TRACK_BATCH,

  trackingUrl: (n) => `https://www.ppl.cz/vyhledat-zasilku?shipmentId=${encodeURIComponent(n)}`,
  // PPL parcel numbers have 11 digits (CPL API shipment examples).
  trackingNumberPattern: /^\d{11}$/,
};
