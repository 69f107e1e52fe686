import { splitLabels } from '../../labels/index.js';
import { CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { markedSend } from '../marked-send.js';
import { searchPickupPoints } from '../point-lists.js';
import type {
  CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, PickupPointService, ShipmentForCarrier, ValidationOutcome,
} from '../types.js';
import { GLS_COUNTRIES, GLS_POINT_TYPES, GLS_TRACKING, glsStatusCode, type GlsCountry } from './codes.js';
import { GlsClient, GlsCredentialsRefused, GlsRefusedError, glsPointList } from './client.js';
import { glsDispatcher } from './dispatch.js';
import { glsPrintLabelsRequest, glsProductOf } from './request.js';
import { labelDocument, NOT_PRINTED, parseCreated, parseTracking, type GlsCreated, type GlsLabelsAnswer } from './response.js';
import { glsSettings } from './settings.js';

/** GetParcelStatuses takes one parcel number a call. */
const GLS_TRACK_BATCH = 1;
/** How far around a lost PrintLabels call GetParcelList looks for it (clocks of packdesk and GLS differ a little). */
const SEARCH_MARGIN_MS = 10 * 60_000;

interface GlsProgress {
  /** Set before PrintLabels and cleared once GLS answered: still set means the answer was lost. */
  sendingSince?: number;
}

/** Our parcels with GLS's numbers and each one's label, cut from GLS's one document for the call. */
async function createdFrom(s: ShipmentForCarrier, client: GlsClient, created: GlsCreated, answer: GlsLabelsAnswer): Promise<CreatedAtCarrier> {
  const ids = created.parcels.map((p) => p.parcelId);
  if (created.parcels.length !== s.parcels.length) {
    await client.deleteLabels(ids.slice(0, 1)).catch(() => undefined);
    throw new CarrierRefusedError(`GLS numbered ${created.parcels.length} packages for ${s.parcels.length} parcels`);
  }
  const document = labelDocument(answer);
  if (!document) throw new CarrierTransientError('GLS created the parcels without their labels');
  const labels = await splitLabels(s.labelFormat, document, s.parcels.length);
  return {
    providerShipmentId: String(ids[0]),
    product: glsProductOf(s),
    parcels: created.parcels.map((p, i) => ({ trackingNumber: p.trackingNumber, label: labels[i]! })),
  };
}

/**
 * A PrintLabels call whose answer was lost may have created the parcels: GetParcelList over the time of that call
 * finds them by our shipment id in ClientReference, and GetPrintedLabels prints them again.
 */
async function findEarlier(s: ShipmentForCarrier, client: GlsClient, since: number, now: number, typeOfPrinter: string): Promise<CreatedAtCarrier | undefined> {
  const list = parseCreated(await client.parcelsPrintedBetween(since - SEARCH_MARGIN_MS, now + SEARCH_MARGIN_MS));
  const ours = list.parcels.filter((p) => p.clientReference === s.id);
  if (ours.length === 0) return undefined;
  const labels = await client.printedLabels(ours.map((p) => p.parcelId), typeOfPrinter);
  return createdFrom(s, client, { parcels: ours, labelDocumentBytes: 0 }, labels);
}

async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  const parsed = glsSettings.parse(settings);
  const request = glsPrintLabelsRequest(s, parsed);
  const client = new GlsClient(parsed, ctx);
  const since = (ctx.progress.load() as GlsProgress | null)?.sendingSince;
  if (since !== undefined) {
    const earlier = await findEarlier(s, client, since, ctx.clock.now(), request.TypeOfPrinter);
    if (earlier) {
      await ctx.progress.save({});
      return earlier;
    }
  }
  const answer = await markedSend(ctx, since, () => client.printLabels(request));
  await ctx.progress.save({});
  return createdFrom(s, client, parseCreated(answer), answer);
}

/** A parcel whose label was deleted before still shows only its data-sent status; one GLS has moved shows more. */
async function deletedBefore(client: GlsClient, parcelNumber: string | undefined): Promise<boolean> {
  if (parcelNumber === undefined) return false;
  const [result] = parseTracking([await client.parcelStatuses(parcelNumber)], [parcelNumber]);
  return result?.found === true && result.events.every((e) => glsStatusCode(e.code) === GLS_TRACKING.created);
}

function glsCountryOf(countryCode: string): GlsCountry | undefined {
  return GLS_COUNTRIES.find((c) => c === countryCode.toLowerCase());
}

/** The countries whose list may hold a point: the one its id starts with first (`CZ…`, `RO…`); Hungarian ids carry none. */
function countriesOfPointId(id: string): GlsCountry[] {
  const named = glsCountryOf(id.slice(0, 2));
  return named ? [named, ...GLS_COUNTRIES.filter((c) => c !== named)] : [...GLS_COUNTRIES];
}

/**
 * GLS ParcelShops and ParcelLockers (the PSD service) in the MyGLS countries, found in GLS's public point lists:
 * no channel needed. A list is a whole country, so a point is found by reading the lists its id may be in.
 */
const glsPickupPoints: PickupPointService = {
  types: Object.values(GLS_POINT_TYPES),
  finder: {
    async search(query, settings, ctx) {
      const country = glsCountryOf(query.countryCode);
      return country ? searchPickupPoints(await glsPointList(country, settings, ctx), query) : [];
    },
    async find(id, settings, ctx) {
      for (const country of countriesOfPointId(id)) {
        const found = (await glsPointList(country, settings, ctx)).find((p) => p.id === id);
        if (found) return found;
      }
      return undefined;
    },
  },
};

export const glsAdapter: CarrierAdapter = {
  pickupPoints: glsPickupPoints,

  async validate(settings, ctx): Promise<ValidationOutcome> {
    const parsed = glsSettings.parse(settings);
    try {
      await new GlsClient(parsed, ctx).checkCredentials(ctx.clock.now());
      return { ok: true };
    } catch (err) {
      if (!(err instanceof GlsCredentialsRefused)) throw err;
      const refused = [`refused by GLS: ${err.reason}`];
      // 14 "User not exists" is about the user name; -1 "Unauthorized." may be either
      const errors: Record<string, string[]> = err.code === 14 ? { 'settings.username': refused } : { 'settings.username': refused, 'settings.password': refused };
      return { ok: false, message: err.message, errors };
    }
  },

  createShipment,

  dispatch: glsDispatcher,

  /** DeleteLabels with the first package's ParcelId deletes the whole shipment, before GLS takes it over. */
  async cancel(shipment, settings, ctx) {
    const client = new GlsClient(glsSettings.parse(settings), ctx);
    try {
      await client.deleteLabels([Number(shipment.providerShipmentId)]);
    } catch (err) {
      // a retried cancel meets error 6 as well as a parcel GLS already carries: its statuses tell them apart
      if (!(err instanceof GlsRefusedError) || err.code !== NOT_PRINTED || !(await deletedBefore(client, shipment.trackingNumbers[0]))) throw err;
    }
  },

  async track(parcels, settings, ctx) {
    const trackingNumbers = parcels.map((p) => p.trackingNumber);
    const client = new GlsClient(glsSettings.parse(settings), ctx);
    const answers = [];
    for (const n of trackingNumbers) answers.push(await client.parcelStatuses(n));
    return parseTracking(answers, trackingNumbers);
  },
  trackBatchSize: GLS_TRACK_BATCH,

  trackingUrl: (n) => `https://gls-group.eu/EU/en/parcel-tracking?match=${encodeURIComponent(n)}`,
  // MyGLS parcel numbers are 10 to 14 digits depending on the country (GetParcelStatuses takes them as a long).
  trackingNumberPattern: /^\d{10,14}$/,
};
