import { splitLabels } from '../../labels/index.js';
import { mapConcurrently } from '../concurrently.js';
import { CarrierRefusedError } from '../errors.js';
import { markedSend } from '../marked-send.js';
import type {
  CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, ParcelToTrack, ShipmentForCarrier, TrackResult, ValidationOutcome,
} from '../types.js';
import { OnedeliveryClient, OnedeliveryCredentialsRefused, OnedeliveryRefusedError } from './client.js';
import { onedeliveryDispatcher } from './dispatch.js';
import { onedeliveryPackageRequest } from './request.js';
import {
  orderNumberOf, parseCreated, parseTracking, returnRefusalErrors, type OnedeliveryCreated, type OnedeliveryPackageDetail,
} from './response.js';
import { onedeliverySettings } from './settings.js';

/** One answers one package a call (`GET /package/{order_number}`) and publishes no rate limit: 10 numbers a track call is our own pace. */
const ONEDELIVERY_TRACK_BATCH = 10;
/** How far before an unanswered send the package list is searched, for clocks that disagree. */
const SEARCH_MARGIN_MS = 60 * 60_000;

interface OnedeliveryProgress {
  /** Set before `POST /package` and cleared once One answered: still set means the answer was lost. */
  sendingSince?: number;
  /** The package once One made it: a later attempt only fetches its labels. */
  created?: OnedeliveryCreated;
}

/**
 * After a lost answer, the package One may have made is looked for by our reference in `GET /package` (its
 * `reference_number`), among those created since the send, and its parcels read from its detail.
 */
async function findSent(client: OnedeliveryClient, reference: string, since: number): Promise<OnedeliveryCreated | undefined> {
  const listed = (await client.packagesCreatedAfter(since - SEARCH_MARGIN_MS)).filter((p) => p.reference_number === reference && p.order_number);
  const found = listed.at(-1);
  const detail = found ? await client.packageDetail(found.order_number!) : undefined;
  return detail ? parseCreated(detail) : undefined;
}

/** A return's package keeps the outbound's sides (request.ts), so One's refusal of it lands on our parties swapped. */
function asReturnRefusal(err: unknown): unknown {
  return err instanceof OnedeliveryRefusedError ? new OnedeliveryRefusedError(err.message, returnRefusalErrors(err.errors), err.status) : err;
}

/**
 * Exactly once: our id is the package's reference number, and a retry after a lost answer finds the package by it
 * before sending again. The window left is a package One made but does not list yet. Labels come as one document for
 * the whole package, cut into one label per parcel.
 */
async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  const parsed = onedeliverySettings.parse(settings);
  const request = onedeliveryPackageRequest(s, parsed);
  const format = s.labelFormat === 'zpl' ? 'zpl' : 'pdf';
  const client = new OnedeliveryClient(parsed, ctx);
  const progress = (ctx.progress.load() ?? {}) as OnedeliveryProgress;
  let created = progress.created;
  if (!created && progress.sendingSince !== undefined) created = await findSent(client, request.reference_number, progress.sendingSince);
  // a return waits for no end-of-day batch: it is sent for processing as it is made, or One's courier never collects it
  const send = () => client.createPackage(request, parsed.sendForProcessing || s.returnOf !== null).catch((err: unknown) => { throw s.returnOf ? asReturnRefusal(err) : err; });
  created ??= parseCreated(await markedSend(ctx, progress.sendingSince, send));
  await ctx.progress.save({ created } satisfies OnedeliveryProgress);
  if (created.barcodes.length !== s.parcels.length) {
    await client.deletePackage(created.orderNumber).catch(() => undefined);
    await ctx.progress.save({});
    throw new CarrierRefusedError(`One by Allegro numbered ${created.barcodes.length} parcels of ${s.parcels.length} in package ${created.orderNumber}`);
  }
  const labels = await splitLabels(format, await client.labels(created.orderNumber, format), s.parcels.length);
  return {
    providerShipmentId: created.orderNumber,
    product: created.productCode ?? request.product ?? null,
    parcels: created.barcodes.map((trackingNumber, i) => ({ trackingNumber, label: labels[i]! })),
    // One states the price in CZK, and 0 while it has none (nuty456/WeDoApi README)
    ...(created.deliveryPrice ? { totalPrice: { amountMinor: Math.round(created.deliveryPrice * 100), currency: 'CZK' } } : {}),
  };
}

/** Parcels of one package share one call; the packages' calls run side by side (One publishes no rate limit). */
async function track(parcels: readonly ParcelToTrack[], settings: ChannelSettings, ctx: CarrierContext): Promise<TrackResult[]> {
  const trackingNumbers = parcels.map((p) => p.trackingNumber);
  const client = new OnedeliveryClient(onedeliverySettings.parse(settings), ctx);
  const details = await mapConcurrently([...new Set(trackingNumbers.map(orderNumberOf))], (orderNumber) => client.packageDetail(orderNumber));
  return parseTracking(details.filter((d): d is OnedeliveryPackageDetail => d !== undefined), trackingNumbers);
}

export const onedeliveryAdapter: CarrierAdapter = {
  /**
   * WEDO POINT pickup places (product PUP, `pup_branch`: bridge.intime.cz/doc/restapi-pup.html). No finder: One's list
   * (`GET /distribution-point`) has no published answer shape, and its box product is unpublished, so no lockers.
   */
  pickupPoints: { types: ['parcelshop'] },

  /** The account's pickup places: a cheap authenticated read that also checks the pickup place setting. */
  async validate(settings, ctx): Promise<ValidationOutcome> {
    const parsed = onedeliverySettings.parse(settings);
    try {
      const places = await new OnedeliveryClient(parsed, ctx).pickupPlaces();
      const code = parsed.pickupPlaceCode;
      if (code && !places.some((p) => p.code === code)) {
        return { ok: false, message: `One by Allegro has no pickup place ${code} for these credentials`, errors: { 'settings.pickupPlaceCode': [`not one of this account's pickup places (${places.map((p) => p.code).join(', ')})`] } };
      }
      return { ok: true };
    } catch (err) {
      if (!(err instanceof OnedeliveryCredentialsRefused)) throw err;
      const refused = [`refused by One by Allegro: ${err.reason}`];
      return { ok: false, message: err.message, errors: { 'settings.apiUser': refused, 'settings.apiKey': refused } };
    }
  },

  createShipment,

  /** One deletes a package only until it is sent for processing; after that its refusal says why. */
  async cancel(shipment, settings, ctx) {
    await new OnedeliveryClient(onedeliverySettings.parse(settings), ctx).deletePackage(shipment.providerShipmentId);
  },

  track,
  trackBatchSize: ONEDELIVERY_TRACK_BATCH,
  dispatch: onedeliveryDispatcher,

  async settingOptions(key, settings, ctx) {
    if (key !== 'pickupPlaceCode') return undefined;
    const places = await new OnedeliveryClient(onedeliverySettings.parse(settings), ctx).pickupPlaces();
    return places.flatMap((p) => (p.code ? [{ value: p.code, name: p.name ? `${p.name} (${p.type ?? 'pickup place'})` : p.code }] : []));
  },

  // One's public tracking page (www.wedo.cz/sledovani-zasilky) takes the number as `code`
  trackingUrl: (n) => `https://www.wedo.cz/sledovani-zasilky?code=${encodeURIComponent(n)}`,
  // a parcel's barcode (`46FS00000012*001001`) or a package's order number (`46F00000012`), nuty456/WeDoApi README
  trackingNumberPattern: /^[0-9A-Z]{3}(?:[A-Z]\d{8}\*\d{6}|\d{8})$/,
};
