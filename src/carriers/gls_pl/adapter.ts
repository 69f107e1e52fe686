import { markedSend } from '../marked-send.js';
import { searchPickupPoints } from '../point-lists.js';
import type {
  CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, ParcelToTrack, PickupPoint, PickupPointQuery, PickupPointService,
  ShipmentForCarrier, TrackResult,
} from '../types.js';
import { glsPlProduct } from './codes.js';
import { GlsPlClient, GlsPlCredentialsRefused } from './client.js';
import { glsPlDispatcher } from './dispatch.js';
import { glsPlConsign, glsPlServiceOf } from './request.js';
import { labelsInParcelOrder, parseTrackingAnswer, type GlsPlParcelLabel } from './response.js';
import { glsPlSettings } from './settings.js';

interface GlsPlProgress {
  /** Set before the consignment is inserted: if no id follows, the insert may have reached ADE. */
  sendingSince?: number;
  consignId?: string;
  /** A return's labels, kept before its own pickup takes the consignment (and the labels ADE serves) out of the box. */
  returnLabels?: GlsPlParcelLabel[];
}

/**
 * An earlier insert got no answer. ADE cannot search by reference, but it lists the preparing box's newest 100
 * consignment ids, and each consignment keeps our shipment id in `notes`: the consignment is looked for there.
 * Only a consignment pushed out of the newest 100 by other inserts in the meantime would be inserted twice.
 */
async function findInserted(client: GlsPlClient, shipmentId: string): Promise<string | undefined> {
  for (const id of await client.consignIds()) {
    if ((await client.consign(id)).notes === shipmentId) return id;
  }
  return undefined;
}

async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  const parsed = glsPlSettings.parse(settings);
  const consign = glsPlConsign(s, parsed);
  const client = new GlsPlClient(parsed, ctx);
  const progress = (ctx.progress.load() ?? {}) as GlsPlProgress;
  let consignId = progress.consignId;
  if (!consignId) {
    if (progress.sendingSince !== undefined) consignId = await findInserted(client, s.id);
    consignId ??= await markedSend(ctx, undefined, () => client.insert(consign));
    await ctx.progress.save({ consignId } satisfies GlsPlProgress);
  }
  let parcels = progress.returnLabels;
  if (!parcels) {
    // Fetching the labels numbers the parcels; the consignment then lists the numbers in our parcel order.
    const labels = await client.labels(consignId, s.labelFormat);
    const { numbers } = await client.consign(consignId);
    parcels = labelsInParcelOrder(labels, numbers, s.parcels.length);
  }
  if (s.returnOf) await handOverReturn(client, s, consignId, parcels, ctx, progress.returnLabels !== undefined);
  return {
    providerShipmentId: consignId,
    product: glsPlProduct(glsPlServiceOf(s, parsed), s.cashOnDelivery !== null),
    parcels: parcels.map((p) => ({ trackingNumber: p.number, label: Buffer.from(p.labelBase64, 'base64') })),
  };
}

/**
 * A return waits for no end-of-day dispatch, but GLS receives a consignment only when a pickup (adePickup_Create)
 * takes it out of the preparing box: a return gets its own pickup at once. Its labels are kept first, as ADE serves a
 * preparing-box consignment's labels only while it is there; resumed, a return already out of the box was handed over.
 */
async function handOverReturn(
  client: GlsPlClient, s: ShipmentForCarrier, consignId: string, labels: GlsPlParcelLabel[], ctx: { progress: CarrierProgress }, resumed: boolean,
): Promise<void> {
  if (!resumed) await ctx.progress.save({ consignId, returnLabels: labels } satisfies GlsPlProgress);
  else if (!(await client.inPreparingBox(consignId))) return;
  await client.createPickup([consignId], `return ${s.id}`);
}

/**
 * ADE's search: by post code (adeParcelShop_SearchByZip, ADE's order); by city or near coordinates ADE has no search,
 * so the country's list (adeParcelShop_GetByCountry) is searched here, as GLS's other point lists are.
 */
async function searchPoints(query: PickupPointQuery, settings: ChannelSettings, ctx: CarrierContext): Promise<PickupPoint[]> {
  if (query.type && query.type !== 'parcelshop') return [];
  const client = new GlsPlClient(glsPlSettings.parse(settings), ctx);
  if (!query.near && !query.city) {
    if (!query.postalCode?.trim()) return [];
    return (await client.parcelShopsByZip(query.countryCode, query.postalCode.trim())).slice(0, query.limit);
  }
  return searchPickupPoints(await client.parcelShopsOfCountry(query.countryCode), query);
}

async function findPoint(id: string, settings: ChannelSettings, ctx: CarrierContext): Promise<PickupPoint | undefined> {
  return new GlsPlClient(glsPlSettings.parse(settings), ctx).parcelShop(id);
}

/** GLS ParcelShops, named by `srv_sds.id` beside the `sds` flag; found through ADE under the channel's login. */
const glsPlPickupPoints: PickupPointService = {
  types: ['parcelshop'],
  finder: { search: searchPoints, find: findPoint },
};

/** GLS Track & Trace answers one reference a call. */
async function track(parcels: readonly ParcelToTrack[], settings: ChannelSettings, ctx: CarrierContext): Promise<TrackResult[]> {
  const numbers = parcels.map((p) => p.trackingNumber);
  const client = new GlsPlClient(glsPlSettings.parse(settings), ctx);
  const results: TrackResult[] = [];
  for (const n of numbers) results.push(...parseTrackingAnswer(await client.track(n), [n]));
  return results;
}

export const glsPlAdapter: CarrierAdapter = {
  pickupPoints: glsPlPickupPoints,

  async validate(settings, ctx) {
    try {
      await new GlsPlClient(glsPlSettings.parse(settings), ctx).checkCredentials();
      return { ok: true };
    } catch (err) {
      if (err instanceof GlsPlCredentialsRefused) return { ok: false, message: err.message, errors: err.errors };
      throw err;
    }
  },

  createShipment,

  dispatch: glsPlDispatcher,

  // Possible while the consignment is in the preparing box, until the dispatch's pickup (adePickup_Create) takes it.
  async cancel(shipment, settings, ctx) {
    await new GlsPlClient(glsPlSettings.parse(settings), ctx).deleteConsign(shipment.providerShipmentId);
  },

  track,
  trackBatchSize: 1,

  trackingUrl: (n) => `https://gls-group.com/PL/pl/sledzenie-paczek/?match=${encodeURIComponent(n)}`,
  // GLS parcel numbers: 11 digits, the last a check digit (12 in some GLS countries).
  trackingNumberPattern: /^\d{11,12}$/,
};
