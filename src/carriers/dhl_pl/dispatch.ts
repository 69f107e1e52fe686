import { mergeLabels } from '../../labels/index.js';
import { CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { warsawTime } from '../local-time.js';
import { markedSend } from '../marked-send.js';
import type {
  CarrierContext, CarrierDispatcher, CarrierParty, CarrierProgress, ChannelSettings, DispatchedAtCarrier, DispatchForCarrier, PickupRequest, PickupWindow,
} from '../types.js';
import { DhlPlClient, LABELS_DATA_BATCH } from './client.js';
import type { DhlPlLabelsData } from './response.js';
import { dhlPlSettings } from './settings.js';

/**
 * The end of the day at DHL Parcel Poland (DHL24 WebAPI2): createShipments has already given DHL each shipment's
 * data, so there is nothing to close; the courier comes for the shipments booked with bookCourier
 * (https://dhl24.com.pl/en/webapi2/doc/info/bookCourier.html), and the courier signs DHL's PNP report
 * (getPnp.html: "Potwierdzenie Nadania Przesyłek", the report of customers who print BLP labels, as packdesk does).
 */

type ConfirmedPickup = NonNullable<DispatchedAtCarrier['pickup']>;

interface DhlPlDispatchProgress {
  /** Set before bookCourier and left until DHL's order is saved: still set means its answer may have been lost. */
  sendingSince?: number;
  /** DHL's courier order for the dispatch's shipments, saved as soon as DHL answered. */
  pickup?: ConfirmedPickup;
}

/** What DHL holds of each shipment (order, sending day), asked LABELS_DATA_BATCH shipments a call. */
async function labelsDataOf(client: DhlPlClient, shipmentIds: readonly string[]): Promise<DhlPlLabelsData[]> {
  const found: DhlPlLabelsData[] = [];
  for (let i = 0; i < shipmentIds.length; i += LABELS_DATA_BATCH) found.push(...await client.labelsData(shipmentIds.slice(i, i + LABELS_DATA_BATCH)));
  return found;
}

/** The one courier order DHL notes on every shipment, with the day and hours it holds (the asked ones where it tells none). */
function bookedOrder(data: readonly DhlPlLabelsData[], shipmentIds: readonly string[], asked: PickupRequest): ConfirmedPickup | undefined {
  const held = shipmentIds.map((id) => data.find((d) => d.shipmentId === id));
  const orders = new Set(held.map((d) => d?.dispatchNotificationNumber));
  const [order] = orders;
  if (orders.size !== 1 || !order) return undefined;
  const first = held[0]!;
  return { confirmation: order, date: first.shipmentDate ?? asked.date, from: first.shipmentStartHour ?? asked.from, to: first.shipmentEndHour ?? asked.to };
}

/**
 * One courier order for the dispatch's shipments. bookCourier takes no idempotency key, but DHL notes the order on
 * each shipment it covers (getLabelsData's `dispatchNotificationNumber`): after a booking whose answer was lost, the
 * shipments are read first, and an order found on all of them is the one booked. A shipment booked by someone else
 * is left to DHL, which refuses to book it again.
 */
async function courierFor(
  client: DhlPlClient, shipmentIds: readonly string[], asked: PickupRequest, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<ConfirmedPickup> {
  const progress = (ctx.progress.load() ?? {}) as DhlPlDispatchProgress;
  if (progress.pickup) return progress.pickup;
  if (progress.sendingSince !== undefined) {
    const found = bookedOrder(await labelsDataOf(client, shipmentIds), shipmentIds, asked);
    if (found) {
      await ctx.progress.save({ pickup: found } satisfies DhlPlDispatchProgress);
      return found;
    }
  }
  const orders = await markedSend(ctx, progress.sendingSince, () => client.bookCourier(shipmentIds, asked));
  // the mark stays: the next attempt reads the shipments for the order DHL may have made
  if (orders.length === 0) throw new CarrierTransientError('DHL Parcel Poland answered the courier booking without an order number');
  const pickup = { confirmation: orders.join(', '), ...asked };
  await ctx.progress.save({ pickup } satisfies DhlPlDispatchProgress);
  return pickup;
}

/**
 * DHL's PNP report of each day the dispatch's shipments are sent on, as DHL holds them after the booking (one report
 * a day, of every shipment of the account sent that day). getPnp only reads: asking again makes no second document.
 */
async function pnpReport(client: DhlPlClient, shipmentIds: readonly string[], today: string): Promise<Uint8Array> {
  const data = await labelsDataOf(client, shipmentIds);
  const unknown = shipmentIds.filter((id) => !data.some((d) => d.shipmentId === id));
  if (unknown.length > 0) {
    const reason = `DHL Parcel Poland does not know shipment ${unknown.join(', ')} (deleted at DHL?)`;
    throw new CarrierRefusedError(reason, { shipment_ids: [reason] });
  }
  const days = [...new Set(data.map((d) => d.shipmentDate ?? today))].sort();
  const reports: Uint8Array[] = [];
  for (const day of days) {
    const report = await client.pnp(day);
    if (!report) throw new CarrierTransientError(`DHL Parcel Poland gave no PNP report of ${day} yet`);
    reports.push(report);
  }
  return reports.length === 1 ? reports[0]! : (await mergeLabels('pdf', reports)).content;
}

async function handOver(
  dispatch: DispatchForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<DispatchedAtCarrier> {
  const client = new DhlPlClient(dhlPlSettings.parse(settings), ctx);
  const shipmentIds = dispatch.shipments.map((s) => s.providerShipmentId);
  const pickup = dispatch.pickup ? await courierFor(client, shipmentIds, dispatch.pickup, ctx) : undefined;
  const document = await pnpReport(client, shipmentIds, warsawTime.format(ctx.clock.now()).slice(0, 10));
  return { carrierRef: pickup?.confirmation ?? null, document, ...(pickup ? { pickup } : {}) };
}

/**
 * The courier's window on `date` at the sender's post code: getPostalCodeServices gives the earliest and the latest
 * hour DHL collects in, one window, or none that day. Pallets (CM, Connect Plus pallet) are freight collected in DHL's
 * DR hours; every other product carries parcels up to 31.5 kg, collected in its EX hours. The hours are DHL's Warsaw
 * time, which bookCourier is given the asked window in too.
 */
async function pickupWindows(query: { date: string; sender: CarrierParty }, settings: ChannelSettings, ctx: CarrierContext): Promise<PickupWindow[]> {
  const parsed = dhlPlSettings.parse(settings);
  const answer = await new DhlPlClient(parsed, ctx).postalCodeServices(query.sender.postalCode, query.date, parsed.product === 'CM' ? 'dr' : 'ex');
  if (answer.state === 'refused') throw new CarrierRefusedError(answer.message, answer.errors);
  return answer.hours ? [{ date: query.date, ...answer.hours }] : [];
}

export const dhlPlDispatcher: CarrierDispatcher = {
  capabilities: { close: false, protocol: true, pickup: true },
  handOver,
  pickupWindows,
  // deleteShipments deletes a shipment "unless you have booked a courier to collect it" (deleteShipments.html)
  cancelAfterHandOver: false,
};
