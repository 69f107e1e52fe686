import { CarrierRefusedError } from '../errors.js';
import { markedSend } from '../marked-send.js';
import type {
  CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, ParcelToTrack, PickupPointService, ShipmentForCarrier, TrackResult,
} from '../types.js';
import { DhlClient } from './client.js';
import { dhlDispatcher } from './dispatch.js';
import { DHL_POINT_TYPES, pickupPointOf, SERVICE_POINT_ID, servicePointLookup, servicePointSearch } from './points.js';
import { dhlRateRequest, dhlShipmentRequest } from './request.js';
import { dhlFieldPath, dhlReturnFieldPath, parseCreatedShipment, parseRates, parseTrackedShipments } from './response.js';
import { dhlSettings } from './settings.js';

/** `GET /tracking` takes at most 200 waybill numbers and 200 piece numbers a call (MyDHL OpenAPI 3.1.1). */
const DHL_TRACK_BATCH = 200;
const AWB = /^\d{10}$/;

interface DhlProgress {
  /** Set before the shipment is sent, cleared when DHL refuses it. */
  sendingSince?: number;
}

async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  const parsed = dhlSettings.parse(settings);
  const request = dhlShipmentRequest(s, parsed);
  const client = new DhlClient(parsed, ctx);
  // MyDHL can neither void a waybill nor hand out its transport labels again, so a send whose answer was lost
  // (timeout, dropped connection, 5xx after DHL stored it) is sent anew: the first AWB stays unused and unbilled at
  // DHL, findable by GET /tracking?shipmentReference=<our id>.
  const earlier = ctx.progress.load() as DhlProgress | null;
  if (earlier?.sendingSince !== undefined) {
    ctx.log.warn({ shipmentId: s.id, since: earlier.sendingSince }, 'an earlier send of this shipment to DHL Express got no answer: it may have left an unused waybill');
  }
  const body = await markedSend(ctx, undefined, () => client.createShipment(request, s.id, s.returnOf ? dhlReturnFieldPath : dhlFieldPath));
  const created = parseCreatedShipment(body, s.parcels.length);
  return {
    providerShipmentId: created.shipmentTrackingNumber,
    product: request.productCode,
    parcels: created.pieces.map((p) => ({ trackingNumber: p.trackingNumber, label: Buffer.from(p.labelBase64, 'base64') })),
    ...(created.documents ? { documents: created.documents.map((d) => ({ type: d.type, content: Buffer.from(d.contentBase64, 'base64') })) } : {}),
    ...(created.charge ? { totalPrice: { amountMinor: Math.round(created.charge.amount * 100), currency: created.charge.currency } } : {}),
  };
}

/** Waybill numbers and piece ids go in separate parameters, so each kind is asked for in its own call. */
async function track(parcels: readonly ParcelToTrack[], settings: ChannelSettings, ctx: CarrierContext): Promise<TrackResult[]> {
  const numbers = parcels.map((p) => p.trackingNumber);
  const client = new DhlClient(dhlSettings.parse(settings), ctx);
  const results: TrackResult[] = [];
  for (const [kind, asked] of [['shipmentTrackingNumbers', numbers.filter((n) => AWB.test(n))], ['pieceTrackingNumbers', numbers.filter((n) => !AWB.test(n))]] as const) {
    for (let i = 0; i < asked.length; i += DHL_TRACK_BATCH) {
      const batch = asked.slice(i, i + DHL_TRACK_BATCH);
      results.push(...parseTrackedShipments(await client.track({ [kind]: batch }), batch));
    }
  }
  return results;
}

/**
 * DHL Express Service Points (shops, DHL's counters, 24/7 lockers), found with MyDHL's `GET /servicepoints` through the
 * channel's credentials; a shipment goes there with On Demand Delivery `servicepoint` (request.ts).
 */
const dhlPickupPoints: PickupPointService = {
  types: [...new Set(Object.values(DHL_POINT_TYPES))],
  finder: {
    async search(query, settings, ctx) {
      const found = await new DhlClient(dhlSettings.parse(settings), ctx).servicePoints(servicePointSearch(query));
      return found.flatMap((p) => pickupPointOf(p) ?? []).filter((p) => !query.type || p.type === query.type).slice(0, query.limit);
    },
    async find(id, settings, ctx) {
      const wanted = id.trim().toUpperCase();
      if (!SERVICE_POINT_ID.test(wanted)) return undefined;
      const found = await new DhlClient(dhlSettings.parse(settings), ctx).servicePoints(servicePointLookup(wanted));
      return found.flatMap((p) => pickupPointOf(p) ?? []).find((p) => p.id === wanted);
    },
  },
};

export const dhlAdapter: CarrierAdapter = {
  pickupPoints: dhlPickupPoints,

  async validate(settings, ctx) {
    try {
      const parsed = dhlSettings.parse(settings);
      await new DhlClient(parsed, ctx).checkAccount(parsed.accountNumber);
      return { ok: true };
    } catch (err) {
      if (err instanceof CarrierRefusedError) return { ok: false, message: err.message, errors: err.errors };
      throw err;
    }
  },

  createShipment,
  // MyDHL `POST /rates` with the shipment's pieces, for the channel's account and product
  async rate(s, settings, ctx) {
    const parsed = dhlSettings.parse(settings);
    return parseRates(await new DhlClient(parsed, ctx).rates(dhlRateRequest(s, parsed)), parsed.productCode);
  },
  dispatch: dhlDispatcher,
  track,
  trackBatchSize: DHL_TRACK_BATCH,

  trackingUrl: (n) => `https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=${encodeURIComponent(n)}`,
  // A waybill (AWB) has 10 digits, the last the first nine mod 7; a piece id is JD + 18 digits (MyDHL OpenAPI examples).
  trackingNumberPattern: /^(\d{10}|JD\d{18})$/,
};
