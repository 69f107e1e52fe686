import { mapConcurrently } from '../concurrently.js';
import { CarrierRefusedError } from '../errors.js';
import { markedSend } from '../marked-send.js';
import type {
  CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, PickupPoint, PickupPointQuery, ShipmentForCarrier, ValidationOutcome,
} from '../types.js';
import { PosteClient, PosteCredentialsRefused } from './client.js';
import { deliveryPointSearches, deliveryPointsOf, nearestFirst } from './delivery-points.js';
import { posteItalianeDispatcher } from './dispatch.js';
import { posteCreateRequest } from './request.js';
import { parseCreated, parseTracking } from './response.js';
import { posteItalianeSettings } from './settings.js';

/** The tracking call takes one waybill number (mlocati/MLPosteDeliveryExpress `Library/Tracking/Submitter.cs`). */
const POSTE_TRACK_BATCH = 1;

interface PosteProgress {
  /** Set before the create call and cleared once Poste answered: still set means the answer was lost. */
  sendingSince?: number;
  /** The waybills Poste created, kept until their labels are downloaded, so a failed download never creates again. */
  waybills?: { trackingNumber: string; downloadUrl: string }[];
}

/**
 * Poste Delivery Business can neither find a waybill by our `clientReferenceId` nor take an idempotency key, and has
 * no cancel: a create call whose answer is lost after Poste took it (a timeout, a dropped connection, a 5xx) is sent
 * again and Poste holds the waybill twice. The log names our id to look for in Poste's portal when that may have happened.
 */
async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  const parsed = posteItalianeSettings.parse(settings);
  const request = posteCreateRequest(s, parsed);
  const client = new PosteClient(parsed, ctx);
  const progress = (ctx.progress.load() ?? {}) as PosteProgress;
  let waybills = progress.waybills;
  if (!waybills) {
    if (progress.sendingSince !== undefined) {
      ctx.log.warn({ shipmentId: s.id }, 'an earlier Poste Italiane create call got no answer: Poste may hold this waybill twice');
    }
    waybills = await markedSend(ctx, undefined, async () => parseCreated(await client.createWaybills(request)).parcels);
    await ctx.progress.save({ waybills } satisfies PosteProgress);
  }
  if (waybills.length !== s.parcels.length || waybills.some((w) => !w.trackingNumber || !w.downloadUrl)) {
    await ctx.progress.save({});
    throw new CarrierRefusedError(`Poste Italiane returned ${waybills.length} waybills with labels for ${s.parcels.length} parcels`);
  }
  const parcels = await mapConcurrently(waybills, async (w) => ({ trackingNumber: w.trackingNumber, label: await client.label(w.downloadUrl) }));
  return { providerShipmentId: parcels[0]!.trackingNumber, product: parsed.product, parcels };
}

/**
 * Poste searches its points by CAP and point type only, with the channel's session: a query without a CAP finds
 * nothing here, coordinates only order what the CAP found. Poste has no look-up of one point by its code, hence no `find`.
 */
async function searchDeliveryPoints(query: PickupPointQuery, settings: ChannelSettings | null, ctx: CarrierContext): Promise<PickupPoint[]> {
  const searches = deliveryPointSearches(query);
  if (searches.length === 0) return [];
  const client = new PosteClient(posteItalianeSettings.parse(settings ?? {}), ctx);
  const found = await mapConcurrently(searches, async ({ type, zipCode, serviceType }) => {
    const points = deliveryPointsOf(await client.deliveryPoints(zipCode, serviceType), type);
    if (!points) throw new CarrierRefusedError(`Poste Italiane refused the point search for CAP ${zipCode}`, { postal_code: [`Poste Italiane: no point search for CAP ${zipCode}`] });
    return points;
  });
  return nearestFirst(found.flat(), query);
}

export const posteItalianeAdapter: CarrierAdapter = {
  async validate(settings, ctx): Promise<ValidationOutcome> {
    try {
      await new PosteClient(posteItalianeSettings.parse(settings), ctx).checkCredentials();
      return { ok: true };
    } catch (err) {
      if (!(err instanceof PosteCredentialsRefused)) throw err;
      const refused = [`refused by Poste Italiane: ${err.reason}`];
      return { ok: false, message: err.message, errors: { 'settings.clientId': refused, 'settings.secretId': refused } };
    }
  },

  createShipment,
  dispatch: posteItalianeDispatcher,
  pickupPoints: { types: ['parcelshop', 'locker', 'post_office'], finder: { search: searchDeliveryPoints } },

  async track(parcels, settings, ctx) {
    const trackingNumbers = parcels.map((p) => p.trackingNumber);
    const client = new PosteClient(posteItalianeSettings.parse(settings), ctx);
    const results = [];
    for (const n of trackingNumbers) results.push(...parseTracking(await client.track(n), [n]));
    return results;
  },
  trackBatchSize: POSTE_TRACK_BATCH,

  // Poste's public "Cerca spedizioni" page (https://www.poste.it/cerca/index.html)
  trackingUrl: (n) => `https://www.poste.it/cerca/index.html#/risultati-spedizioni/${encodeURIComponent(n)}`,
  // LdV codes have 7, 13 or 18 "digits", stickers 9 (Tracking/Response/Shipment.cs); letters are let through, being unconfirmed either way
  trackingNumberPattern: /^(?:[0-9A-Z]{7}|[0-9A-Z]{9}|[0-9A-Z]{13}|[0-9A-Z]{18})$/,
};
