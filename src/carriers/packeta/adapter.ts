import { splitLabels } from '../../labels/index.js';
import { mapConcurrently } from '../concurrently.js';
import { CarrierRefusedError } from '../errors.js';
import { searchPickupPoints } from '../point-lists.js';
import type {
  CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, ParcelToTrack, PickupPointService, ShipmentForCarrier,
  TrackResult, ValidationOutcome,
} from '../types.js';
import { PacketaClient, PacketaCredentialsRefused, PacketaRefusedError } from './client.js';
import { PACKETA_CURRENCIES } from './codes.js';
import { packetaClaims, packetaPackets } from './request.js';
import { packetIdOf, parseTracking, type PacketaCreatedPacket } from './response.js';
import { packetaSettings, type PacketaSettings } from './settings.js';

/** Packeta tracks one packet a call and publishes no rate limit: 10 numbers a track call, asked side by side, is our own pace. */
const PACKETA_TRACK_BATCH = 10;

interface PacketaProgress {
  /** The packets Packeta made so far, in parcel order: a later attempt goes on after them. */
  packets?: PacketaCreatedPacket[];
  /** Set before a createPacket and cleared once Packeta answered: still set means its answer was lost. */
  sendingSince?: number;
}

/** What a shipment is at Packeta: its packets (createPacket each), or for a return its Claim Assistant packets. */
function packetsOf(s: ShipmentForCarrier, settings: PacketaSettings, client: PacketaClient) {
  if (s.returnOf) {
    const claims = packetaClaims(s, s.returnOf, settings);
    return { product: 'claim-assistant', homeDelivery: false, count: claims.length, make: (i: number) => client.createPacketClaim(claims[i]!) };
  }
  const { destination, packets } = packetaPackets(s, settings);
  return { product: destination.kind, homeDelivery: destination.kind === 'home-delivery', count: packets.length, make: (i: number) => client.createPacket(packets[i]!) };
}

/**
 * One packet per parcel, each saved in the progress as Packeta makes it, so a retry goes on with the next parcel. A
 * refused packet cancels the shipment's earlier packets: the corrected shipment starts afresh. Packeta can neither
 * find a packet by its `number` nor take an idempotency key: a createPacket whose answer is lost after Packeta stored
 * it is sent again and the first packet stays as data only at Packeta (never labelled); the log names the shipment
 * id, each packet's `number` (a return packet's: the barcode it returns), to find it in Packeta's client section.
 */
async function createShipment(
  s: ShipmentForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<CreatedAtCarrier> {
  const parsed = packetaSettings.parse(settings);
  const client = new PacketaClient(parsed, ctx);
  const { product, homeDelivery, count, make } = packetsOf(s, parsed, client);
  const progress = (ctx.progress.load() ?? {}) as PacketaProgress;
  const made = [...(progress.packets ?? [])];
  if (progress.sendingSince !== undefined) {
    ctx.log.warn({ shipmentId: s.id, packet: made.length + 1 }, 'an earlier packet of this shipment got no answer: Packeta may hold that packet twice (under its number)');
  }
  for (let i = made.length; i < count; i++) {
    await ctx.progress.save({ packets: made, sendingSince: ctx.clock.now() } satisfies PacketaProgress);
    try {
      made.push(await make(i));
    } catch (err) {
      if (err instanceof CarrierRefusedError) {
        for (const packet of made) await client.cancelPacket(packet.id).catch(() => undefined);
        await ctx.progress.save({});
      }
      throw err;
    }
    await ctx.progress.save({ packets: made } satisfies PacketaProgress);
  }
  const labels = await labelsOf(client, made, homeDelivery, s.labelFormat === 'zpl' ? 'zpl' : 'pdf');
  return {
    providerShipmentId: made[0]!.id,
    product,
    parcels: made.map((p, i) => ({ trackingNumber: p.barcode, label: labels[i]!, carrierRef: p.id })),
  };
}

/**
 * Each packet's label, in packet order. A packet a partner carrier delivers to the door prints that carrier's label
 * (packetCourierNumber, then packetCourierLabelPdf/Zpl with its number), as Packeta's own plugin prints "carrier
 * labels" for home delivery (Zasilkovna/WooCommerce `Module/Labels/CarrierLabelService.php`); the others print
 * Packeta's: one packetsLabelsPdf document cut per packet, or packetLabelZpl each.
 */
async function labelsOf(client: PacketaClient, packets: readonly PacketaCreatedPacket[], homeDelivery: boolean, format: 'pdf' | 'zpl'): Promise<Buffer[]> {
  const courierNumbers = homeDelivery ? await mapConcurrently(packets, (p) => client.courierNumber(p.id)) : packets.map(() => undefined);
  const own = packets.filter((_, i) => courierNumbers[i] === undefined).map((p) => p.id);
  const ownLabels = own.length === 0 ? [] : format === 'zpl' ? await mapConcurrently(own, (id) => client.labelZpl(id)) : await splitLabels('pdf', await client.labelsPdf(own), own.length);
  return mapConcurrently(packets, async (p, i) => {
    const courierNumber = courierNumbers[i];
    return courierNumber === undefined ? ownLabels[own.indexOf(p.id)]! : client.courierLabel(p.id, courierNumber, format);
  });
}

async function track(parcels: readonly ParcelToTrack[], settings: ChannelSettings, ctx: CarrierContext): Promise<TrackResult[]> {
  const client = new PacketaClient(packetaSettings.parse(settings), ctx);
  const answers = await mapConcurrently(parcels, (p) => client.tracking(p.carrierRef ?? packetIdOf(p.trackingNumber)));
  return parseTracking(Object.fromEntries(parcels.map((p, i) => [p.trackingNumber, answers[i]])), parcels.map((p) => p.trackingNumber));
}

/** The countries of Packeta's own points (the point feed holds others' too, which packdesk does not offer). */
const POINT_COUNTRIES = Object.keys(PACKETA_CURRENCIES);

/** Packeta's pickup points (`parcelshop`) and boxes such as Z-BOX (`locker`), searched in its point feed. */
const packetaPickupPoints: PickupPointService = {
  types: ['parcelshop', 'locker'],
  finder: {
    async search(query, settings, ctx) {
      if (!POINT_COUNTRIES.includes(query.countryCode)) return [];
      const points = (await PacketaClient.points(settings, ctx)).filter((p) => p.address.countryCode === query.countryCode);
      return searchPickupPoints(points, query);
    },
    async find(id, settings, ctx) {
      return (await PacketaClient.points(settings, ctx)).find((p) => p.id === id.trim());
    },
  },
};

export const packetaAdapter: CarrierAdapter = {
  pickupPoints: packetaPickupPoints,

  /** senderGetReturnRouting of the channel's sender: checks the API password and the sender indication at once. */
  async validate(settings, ctx): Promise<ValidationOutcome> {
    const parsed = packetaSettings.parse(settings);
    try {
      await new PacketaClient(parsed, ctx).returnRouting(parsed.eshop);
      return { ok: true };
    } catch (err) {
      if (err instanceof PacketaCredentialsRefused) return { ok: false, message: err.message, errors: { 'settings.apiPassword': [`refused by Packeta: ${err.reason}`] } };
      if (err instanceof PacketaRefusedError && err.fault === 'SenderNotExists') {
        return { ok: false, message: `Packeta knows no sender ${parsed.eshop}`, errors: { 'settings.eshop': ['not a sender of this Packeta account (client section → senders)'] } };
      }
      throw err;
    }
  },

  createShipment,

  /** cancelPacket of each packet; Packeta cancels a packet until it is handed over (CancelNotAllowedFault after). */
  async cancel(shipment, settings, ctx) {
    const client = new PacketaClient(packetaSettings.parse(settings), ctx);
    for (const n of shipment.trackingNumbers) await client.cancelPacket(packetIdOf(n));
  },

  track,
  trackBatchSize: PACKETA_TRACK_BATCH,

  // Packeta's public tracking page takes the barcode or the packet id
  trackingUrl: (n) => `https://tracking.packeta.com/en/?id=${encodeURIComponent(n)}`,
  // `Z` and the packet's ten-digit id (Packeta's barcodes, as its labels and answers show them)
  trackingNumberPattern: /^Z\d{10}$/,
};
