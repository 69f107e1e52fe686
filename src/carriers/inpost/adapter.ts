import { splitLabels } from '../../labels/index.js';
import { mapConcurrently } from '../concurrently.js';
import { CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { markedSend } from '../marked-send.js';
import { pollUntil } from '../poll.js';
import type {
  CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, ParcelToTrack, ShipmentForCarrier, TrackResult, ValidationOutcome,
} from '../types.js';
import { INPOST_PAGE, InpostClient, InpostCredentialsRefused, InpostRefusedError } from './client.js';
import { inpostDispatcher } from './dispatch.js';
import { inpostPickupPoints } from './points.js';
import { inpostCalculateRequest, inpostShipmentRequest } from './request.js';
import { isBought, parseCalculatedPrice, parseCreated, parseTracking, type InpostShipment, type InpostTracking } from './response.js';
import { inpostSettings } from './settings.js';

/** ShipX buys the label within about a second (sandbox); polled quickly at first. */
const PURCHASE_POLL = { delaysMs: [50, 100, 200, 400, 800, 1000], deadlineMs: 60_000 };
/** How far before an unanswered send the organization's list is searched, for clocks that disagree. */
const SEARCH_MARGIN_MS = 15 * 60_000;
/** Pages of INPOST_PAGE shipments searched at most for a lost answer's shipment: beyond them the search gives up rather than send again. */
const SEARCH_PAGES = 20;
/** One tracking number a ShipX call: 10 a track call, side by side, is our own pace (ShipX publishes no rate limit). */
const INPOST_TRACK_BATCH = 10;

interface InpostProgress {
  /** markedSend's mark: set before the POST, cleared by its answer; still set means the answer was lost. */
  sendingSince?: number;
  /** The shipment ShipX made: a later attempt only waits for its label. */
  shipmentId?: string;
}

/**
 * The shipment a lost answer made, by our id in its `reference`: ShipX has no idempotency key and no reference filter
 * (18153512), so the organization's shipments created since the send are read oldest first, to their end. A search
 * that cannot be finished sends nothing.
 */
async function findSent(client: InpostClient, reference: string, since: number): Promise<InpostShipment | undefined> {
  let seen = 0;
  for (let page = 1; page <= SEARCH_PAGES; page++) {
    const answer = await client.shipmentsCreatedSince(since - SEARCH_MARGIN_MS, page);
    const items = answer.items ?? [];
    const found = items.find((s) => s.reference === reference);
    if (found) return found;
    seen += items.length;
    if (items.length < INPOST_PAGE || (answer.count !== undefined && seen >= answer.count)) return undefined;
  }
  throw new CarrierTransientError(`InPost lists more than ${SEARCH_PAGES * INPOST_PAGE} shipments since the unanswered send: not sending again before the search ends`);
}

/** Waits for ShipX to buy the label: `confirmed` (or later) with a number a parcel; a shipment withdrawn meanwhile is refused. */
async function bought(client: InpostClient, id: string, ctx: CarrierContext): Promise<InpostShipment> {
  return pollUntil(ctx, { ...PURCHASE_POLL, stillWaiting: `InPost has not bought the label of shipment ${id} yet` }, async () => {
    const shipment = await client.shipment(id);
    if (!shipment) throw new CarrierRefusedError(`InPost no longer knows shipment ${id}`);
    if (shipment.status === 'canceled') throw new CarrierRefusedError(`InPost shipment ${id} was cancelled before its label was bought`);
    return isBought(shipment) && parseCreated(shipment).trackingNumbers.length > 0 ? shipment : undefined;
  });
}

/**
 * Exactly once: the POST is marked in the progress first and the shipment's id saved from its answer; a retry after a
 * lost answer finds the shipment by our id in `reference` before sending again. The window left is a shipment ShipX made
 * but does not list yet (its list lags the POST by seconds), shorter than packdesk's first retry. Then the label once
 * bought: one document of every parcel, cut into one label each.
 */
async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  const parsed = inpostSettings.parse(settings);
  const request = inpostShipmentRequest(s, parsed);
  const client = new InpostClient(parsed, ctx);
  const progress = (ctx.progress.load() ?? {}) as InpostProgress;
  let id = progress.shipmentId;
  if (!id && progress.sendingSince !== undefined) id = (await findSent(client, request.reference, progress.sendingSince))?.id?.toString();
  if (!id) {
    const answer = await markedSend(ctx, progress.sendingSince, () => client.createShipment(request));
    if (answer.id === undefined) throw new CarrierTransientError('InPost answered the shipment without its id');
    id = String(answer.id);
  }
  await ctx.progress.save({ shipmentId: id } satisfies InpostProgress);
  const created = parseCreated(await bought(client, id, ctx));
  if (created.trackingNumbers.length !== s.parcels.length) {
    throw new CarrierRefusedError(`InPost numbered ${created.trackingNumbers.length} parcels of ${s.parcels.length} in shipment ${id}`);
  }
  const document = await client.label(id, s.labelFormat, parsed.labelType);
  const labels = created.trackingNumbers.length === 1 ? [document] : await splitLabels(s.labelFormat, document, created.trackingNumbers.length);
  return {
    providerShipmentId: id,
    product: created.service ?? request.service,
    parcels: created.trackingNumbers.map((trackingNumber, i) => ({ trackingNumber, label: labels[i]! })),
  };
}

/** One `GET /v1/tracking/{number}` a parcel, side by side. */
async function track(parcels: readonly ParcelToTrack[], settings: ChannelSettings, ctx: CarrierContext): Promise<TrackResult[]> {
  const asked = parcels.map((p) => p.trackingNumber);
  const client = new InpostClient(inpostSettings.parse(settings), ctx);
  const found = await mapConcurrently(asked, (n) => client.tracking(n));
  return parseTracking(found.filter((t): t is InpostTracking => t !== undefined), asked);
}

export const inpostAdapter: CarrierAdapter = {
  pickupPoints: inpostPickupPoints,

  /** The organization itself: its read needs the token and the organization id to belong together. */
  async validate(settings, ctx): Promise<ValidationOutcome> {
    try {
      await new InpostClient(inpostSettings.parse(settings), ctx).organizationDetails();
      return { ok: true };
    } catch (err) {
      if (err instanceof InpostRefusedError && err.status === 404) {
        return { ok: false, message: 'InPost has no such organization', errors: { 'settings.organizationId': ['InPost has no organization of this id'] } };
      }
      if (!(err instanceof InpostCredentialsRefused)) throw err;
      const refused = [`refused by InPost: ${err.reason}`];
      // 401: the token; 403: a token of another organization
      return { ok: false, message: err.message, errors: err.status === 401 ? { 'settings.apiToken': refused } : { 'settings.organizationId': refused, 'settings.apiToken': refused } };
    }
  },

  createShipment,
  // ShipX's price calculation of the shipment as creation would send it; ShipX tells no transit time
  async rate(s, settings, ctx) {
    const parsed = inpostSettings.parse(settings);
    const request = inpostCalculateRequest(s, parsed);
    const shipment = request.shipments[0]!;
    const price = parseCalculatedPrice(await new InpostClient(parsed, ctx).calculatePrices(request), shipment.id);
    return { ...price, product: shipment.service };
  },
  track,
  trackBatchSize: INPOST_TRACK_BATCH,
  dispatch: inpostDispatcher,

  trackingUrl: (n) => `https://inpost.pl/sledzenie-przesylek?number=${encodeURIComponent(n)}`,
  // 24 digits (ShipX's examples: 630000328531876219900746, 622111081631876319900026)
  trackingNumberPattern: /^\d{24}$/,
};
