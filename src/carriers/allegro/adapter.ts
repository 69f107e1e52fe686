import { randomUUID } from 'node:crypto';
import { splitLabels } from '../../labels/index.js';
import { mapConcurrently } from '../concurrently.js';
import { AuthorizationRequiredError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import type {
  CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, PickupPoint, PickupPointService, ShipmentForCarrier, ValidationOutcome,
} from '../types.js';
import { AllegroAppRefused, checkApplicationCredentials } from './authorization.js';
import { AllegroClient } from './client.js';
import { cancelShipments, runCommand } from './commands.js';
import { allegroDispatcher, SHIPMENT_ID_SEPARATOR } from './dispatch.js';
import { pickupPointOf, pointCarrierOf, searchAllegroPoints } from './points.js';
import { allegroCreateCommand, allegroLabelRequest, labelFormatOf, parcelGroups } from './request.js';
import { deliveryServiceFor, parseCreatedShipment, parseRefusal, parseTracking, type AllegroDeliveryService } from './response.js';
import { allegroSettings, type AllegroSettings } from './settings.js';

/** `GET /order/carriers/{carrierId}/tracking` takes at most 20 waybills (OpenAPI `maxItems: 20`). */
const ALLEGRO_TRACK_BATCH = 20;
/** How long a channel's delivery service (its carrier, COD limits) is trusted before it is read again. */
const SERVICE_CACHE_MS = 3_600_000;

const services = new Map<string, { service: AllegroDeliveryService; until: number }>();
/** Allegro answers its whole point list at once: kept per channel and carrier for an hour, searched here. */
const POINT_LIST_MS = 3_600_000;
const pointLists = new Map<string, { points: PickupPoint[]; until: number }>();

/** One create command per group of parcels, and the Allegro shipment it made once it succeeded. */
interface PlannedCommand {
  commandId: string;
  shipmentId?: string;
}

interface AllegroProgress {
  /** Saved before the first command is sent: an attempt that finds them asks Allegro for them before sending. */
  commands?: PlannedCommand[];
  sendingSince?: number;
}

function notListed(settings: AllegroSettings): CarrierRefusedError {
  const what = `delivery method ${settings.deliveryMethodId}${settings.credentialsId ? ` with agreement ${settings.credentialsId}` : ''}`;
  const key = settings.credentialsId ? 'settings.credentialsId' : 'settings.deliveryMethodId';
  return new CarrierRefusedError(`Allegro lists no ${what} for this seller`, { [key]: [`Allegro: the seller's delivery services have no ${what}`] });
}

/** The channel's delivery service from the seller's list, kept per channel for an hour (`fresh`: read it now). */
async function deliveryService(client: AllegroClient, settings: AllegroSettings, ctx: CarrierContext, fresh = false): Promise<AllegroDeliveryService> {
  const key = `${ctx.channelId}:${settings.deliveryMethodId}:${settings.credentialsId ?? ''}`;
  const cached = services.get(key);
  if (cached && cached.until > ctx.clock.now() && !fresh) return cached.service;
  const service = deliveryServiceFor(await client.deliveryServices(), settings.deliveryMethodId, settings.credentialsId);
  if (!service) throw notListed(settings);
  services.set(key, { service, until: ctx.clock.now() + SERVICE_CACHE_MS });
  return service;
}

/** The label file of all the shipments, cut into one label per parcel (kept whole when there is one parcel). */
async function labelsOf(client: AllegroClient, s: ShipmentForCarrier, settings: AllegroSettings, shipmentIds: readonly string[]): Promise<Uint8Array[]> {
  const format = labelFormatOf(s);
  const document = await client.labels(allegroLabelRequest(shipmentIds, format, settings));
  return s.parcels.length === 1 ? [document] : splitLabels(s.labelFormat, document, s.parcels.length);
}

/**
 * One create command per group of parcels, each with our own command id saved in the shipment's progress before the
 * POST: an attempt after a lost answer asks Allegro for the same command (a 404 means it never arrived, and it is
 * sent again with the same id). So each group is created once at Allegro, whatever the faults.
 */
async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  const parsed = allegroSettings.parse(settings);
  labelFormatOf(s); // an EPL shipment is refused before anything is sent
  const client = new AllegroClient(parsed, ctx);
  const groups = parcelGroups(s, await deliveryService(client, parsed, ctx));
  const earlier = (ctx.progress.load() ?? {}) as AllegroProgress;
  const resumed = earlier.commands?.length === groups.length;
  const commands: PlannedCommand[] = resumed ? earlier.commands! : groups.map(() => ({ commandId: randomUUID() }));
  const sendingSince = earlier.sendingSince ?? ctx.clock.now();
  const save = () => ctx.progress.save({ commands, sendingSince });
  await save();
  for (const [g, parcelIndexes] of groups.entries()) {
    const planned = commands[g]!;
    if (planned.shipmentId) continue;
    const command = allegroCreateCommand(s, parsed, { commandId: planned.commandId, parcelIndexes });
    try {
      const status = await runCommand(ctx, {
        what: `shipment ${s.id}`, known: resumed,
        read: () => client.createStatus(command.commandId),
        send: () => client.createCommand(command, parcelIndexes),
      });
      if (status.status === 'ERROR') {
        const { message, errors } = parseRefusal(200, status, parcelIndexes);
        throw new CarrierRefusedError(message, errors);
      }
      if (!status.shipmentId) throw new CarrierTransientError(`Allegro finished command ${command.commandId} without a shipment id`);
      planned.shipmentId = status.shipmentId;
      await save();
    } catch (err) {
      if (err instanceof CarrierRefusedError && !(err instanceof AuthorizationRequiredError)) {
        // what Allegro took before the refusal is cancelled, and the fixed shipment gets new commands
        const taken = commands.flatMap((c) => (c.shipmentId ? [c.shipmentId] : []));
        await cancelShipments(client, ctx, taken).catch(() => undefined);
        await ctx.progress.save({});
      }
      throw err;
    }
  }
  const created = commands.map((c) => c.shipmentId!);
  const trackingNumbers: string[] = [];
  const answers = await mapConcurrently(created, async (id) => parseCreatedShipment(await client.shipment(id)));
  for (const [g, id] of created.entries()) {
    const answer = answers[g]!;
    if (answer.state === 'waiting') throw new CarrierTransientError(`Allegro has not given shipment ${id} its waybills yet`);
    if (answer.trackingNumbers.length !== groups[g]!.length) {
      throw new CarrierTransientError(`Allegro shipment ${id} has ${answer.trackingNumbers.length} waybills for ${groups[g]!.length} parcels`);
    }
    groups[g]!.forEach((parcel, i) => (trackingNumbers[parcel] = answer.trackingNumbers[i]!));
  }
  const labels = await labelsOf(client, s, parsed, created);
  await ctx.progress.save({});
  return {
    providerShipmentId: created.join(SHIPMENT_ID_SEPARATOR),
    product: parsed.deliveryMethodId,
    parcels: trackingNumbers.map((trackingNumber, i) => ({ trackingNumber, label: labels[i]! })),
  };
}

async function validate(settings: ChannelSettings, ctx: CarrierContext): Promise<ValidationOutcome> {
  const parsed = allegroSettings.parse(settings);
  try {
    await checkApplicationCredentials(parsed, ctx);
    await deliveryService(new AllegroClient(parsed, ctx), parsed, ctx, true);
    return { ok: true };
  } catch (err) {
    if (err instanceof AllegroAppRefused) return { ok: false, message: err.message, errors: err.errors };
    if (err instanceof CarrierRefusedError && !(err instanceof AuthorizationRequiredError)) return { ok: false, message: err.message, errors: err.errors };
    throw err;
  }
}

/** The points of the channel's carrier from Allegro's list; none where the list holds no points of that carrier. */
async function channelPoints(settings: ChannelSettings, ctx: CarrierContext): Promise<PickupPoint[]> {
  const parsed = allegroSettings.parse(settings);
  const client = new AllegroClient(parsed, ctx);
  const carrier = pointCarrierOf((await deliveryService(client, parsed, ctx)).carrierId);
  if (!carrier) return [];
  const key = `${ctx.channelId}:${carrier}`;
  const cached = pointLists.get(key);
  if (cached && cached.until > ctx.clock.now()) return cached.points;
  const points = ((await client.pickupDropOffPoints(carrier)).points ?? []).map(pickupPointOf).filter((p): p is PickupPoint => p !== undefined);
  pointLists.set(key, { points, until: ctx.clock.now() + POINT_LIST_MS });
  return points;
}

/**
 * Delivery to points where the channel's delivery method goes to one (`receiver.point`). The search reads Allegro's
 * own point list; there is no `find`: the list holds no InPost or other networks' points that Allegro's methods also
 * deliver to, so a point missing from it may still be right, and Allegro checks it at creation.
 */
const allegroPickupPoints: PickupPointService = {
  types: ['parcelshop', 'locker'],
  finder: {
    search: async (query, settings, ctx) => searchAllegroPoints(await channelPoints(settings, ctx), query),
  },
};

export const allegroAdapter: CarrierAdapter = {
  pickupPoints: allegroPickupPoints,
  validate,
  createShipment,
  dispatch: allegroDispatcher,

  async cancel(shipment, settings, ctx) {
    const client = new AllegroClient(allegroSettings.parse(settings), ctx);
    await cancelShipments(client, ctx, shipment.providerShipmentId.split(SHIPMENT_ID_SEPARATOR));
  },

  // The carrier comes from the channel's delivery method: Allegro's tracking is asked per carrier.
  async track(parcels, settings, ctx) {
    const trackingNumbers = parcels.map((p) => p.trackingNumber);
    const parsed = allegroSettings.parse(settings);
    const client = new AllegroClient(parsed, ctx);
    const { carrierId } = await deliveryService(client, parsed, ctx);
    const results = [];
    for (let i = 0; i < trackingNumbers.length; i += ALLEGRO_TRACK_BATCH) {
      const asked = trackingNumbers.slice(i, i + ALLEGRO_TRACK_BATCH);
      results.push(...parseTracking(await client.tracking(carrierId, asked), asked));
    }
    return results;
  },
  trackBatchSize: ALLEGRO_TRACK_BATCH,

  /** The seller's delivery methods and agreements, once a person has authorised the channel. */
  // Allegro's parcel tracking page, as Allegro's seller tools link it; the API documents no page of its own.
  trackingUrl: (n) => `https://allegro.pl/allegrodelivery/sledzenie-paczki?numer=${encodeURIComponent(n)}`,
  // Waybills are the carriers' own (DPD 1019374227038U, Allegro One A004YN40V2, AD-1239134), at most 64 characters.
  trackingNumberPattern: /^[A-Z0-9][A-Z0-9-]{4,63}$/i,
};
