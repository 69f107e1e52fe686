import { unconfirmedPickup } from '../book-once.js';
import { CarrierRefusedError } from '../errors.js';
import { markedSend } from '../marked-send.js';
import type {
  CarrierContext, CarrierDispatcher, CarrierProgress, ChannelSettings, DispatchedAtCarrier, DispatchForCarrier, PickupRequest,
} from '../types.js';
import { GlsPlClient, GlsPlRefusedError } from './client.js';
import { glsPlSettings } from './settings.js';

/**
 * The end of the day at GLS Poland (ADE Plus WebAPI 2; operations as the classes generated from the ADE WSDL name
 * them, github.com/kerogos/gls-polska src/Soap/AdePickup_Create.php, AdePickup_GetIDs.php, AdePickup_Get.php,
 * AdePickup_GetReceipt.php, AdeCourier_Order.php): the courier for the day when one is asked (adeCourier_Order),
 * the pickup that takes the consignments out of the preparing box and gives GLS their data (adePickup_Create), and
 * its hand-over receipt, the PDF the courier signs (adePickup_GetReceipt).
 */

/** Where a hand-over stands, saved right after each answer of ADE. */
interface GlsPlHandOverProgress {
  /** `sending` from just before adeCourier_Order is sent until ADE's answer is saved as `ordered`. */
  courier?: 'sending' | 'ordered';
  /** markedSend's mark: adePickup_Create may have reached ADE. */
  sendingSince?: number;
  pickupId?: string;
}

/** The receipt with each parcel number as a barcode the courier scans (modes: dbojdo/gls-ade src/Model/PickupReceiptModes.php). */
const RECEIPT_MODE = 'with_barcodes';
/** ADE's clock and ours may differ: a pickup made this long before our first send may still be ours. */
const CLOCK_SKEW_MS = 10 * 60_000;

/** The pickup's description in ADE names the dispatch, so that a run after a lost answer finds the pickup. */
const pickupDescription = (dispatchId: string) => `packdesk ${dispatchId}`;

const parcelCount = (dispatch: DispatchForCarrier) => dispatch.shipments.reduce((n, s) => n + s.parcels.length, 0);

/** The progress as markedSend sees it: its mark, beside the steps already done. */
function besideDone(progress: CarrierProgress, done: GlsPlHandOverProgress): CarrierProgress {
  return { load: () => progress.load(), save: (mark) => progress.save({ ...done, ...mark }) };
}

/**
 * An earlier adePickup_Create got no answer. ADE cannot search pickups by description, but lists the newest 100
 * pickup ids (adePickup_GetIDs) and each pickup's description and time (adePickup_Get): newest first, until the
 * pickups made before the first send. A pickup pushed out of the newest 100 meanwhile would go unfound; ADE then
 * refuses to take the consignments into a second pickup (err_cons_not_found), so nothing is closed twice.
 */
async function findPickup(client: GlsPlClient, desc: string, since: number): Promise<string | undefined> {
  for (const id of await client.pickupIds()) {
    const pickup = await client.pickup(id);
    if (pickup.desc === desc) return id;
    if (pickup.createdAt !== undefined && pickup.createdAt < since - CLOCK_SKEW_MS) return undefined;
  }
  return undefined;
}

/** ADE refused a consignment no longer in the preparing box without saying which: the shipments whose consignments left it. */
async function consignmentsGone(client: GlsPlClient, dispatch: DispatchForCarrier, refusal: GlsPlRefusedError): Promise<Error> {
  const gone: string[] = [];
  for (const s of dispatch.shipments) {
    if (!(await client.inPreparingBox(s.providerShipmentId))) gone.push(`consignment ${s.providerShipmentId} (shipment ${s.reference ?? 'without reference'})`);
  }
  if (gone.length === 0) return refusal;
  const why = 'handed over in another pickup already, or deleted in ADE';
  return new CarrierRefusedError(
    `GLS Poland took nothing: its preparing box does not hold ${gone.join(', ')}: ${why}`,
    { shipment_ids: gone.map((s) => `GLS Poland's preparing box does not hold ${s}: ${why}`) },
  );
}

async function createPickup(
  client: GlsPlClient, dispatch: DispatchForCarrier, ctx: Pick<CarrierContext, 'clock'> & { progress: CarrierProgress }, since: number | undefined,
): Promise<string> {
  try {
    return await markedSend(ctx, since, () => client.createPickup(dispatch.shipments.map((s) => s.providerShipmentId), pickupDescription(dispatch.id)));
  } catch (err) {
    if (err instanceof GlsPlRefusedError && err.fault.code === 'err_cons_not_found') throw await consignmentsGone(client, dispatch, err);
    throw err;
  }
}

/**
 * adeCourier_Order, at most once. ADE answers it with true or false only and lists no courier orders, so an order
 * whose answer was lost cannot be looked up: it is not sent again, and the dispatch's courier stays unconfirmed.
 * It comes before the pickup, so that a courier ADE refuses (a past day) leaves the consignments in the preparing box.
 */
async function orderCourier(
  client: GlsPlClient, dispatch: DispatchForCarrier, pickup: PickupRequest,
  progress: GlsPlHandOverProgress, save: (next: GlsPlHandOverProgress) => Promise<void>,
): Promise<'ordered' | 'unknown'> {
  if (progress.courier === 'ordered') return 'ordered';
  if (progress.courier === 'sending') return 'unknown';
  const { courier: _unsent, ...rest } = progress;
  await save({ ...rest, courier: 'sending' });
  const ordered = await client.orderCourier(parcelCount(dispatch), pickup.date).catch(async (err: unknown) => {
    if (!(err instanceof CarrierRefusedError)) throw err;
    await save(rest);
    if (err instanceof GlsPlRefusedError) throw new CarrierRefusedError(`GLS Poland refused a courier for ${pickup.date}: ${err.fault.reason} (${err.fault.code})`, err.errors);
    throw err;
  });
  if (!ordered) {
    await save(rest);
    throw new CarrierRefusedError(`GLS Poland did not take the courier order for ${pickup.date}`, { 'pickup.date': [`GLS Poland took no courier order for ${pickup.date}`] });
  }
  await save({ ...rest, courier: 'ordered' });
  return 'ordered';
}

async function handOver(
  dispatch: DispatchForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<DispatchedAtCarrier> {
  const client = new GlsPlClient(glsPlSettings.parse(settings), ctx);
  let progress = (ctx.progress.load() ?? {}) as GlsPlHandOverProgress;
  const save = async (next: GlsPlHandOverProgress) => {
    await ctx.progress.save({ ...next });
    progress = next;
  };
  const courier = dispatch.pickup && await orderCourier(client, dispatch, dispatch.pickup, progress, save);

  let pickupId = progress.pickupId;
  if (!pickupId) {
    const done: GlsPlHandOverProgress = progress.courier ? { courier: progress.courier } : {};
    if (progress.sendingSince !== undefined) pickupId = await findPickup(client, pickupDescription(dispatch.id), progress.sendingSince);
    pickupId ??= await createPickup(client, dispatch, { clock: ctx.clock, progress: besideDone(ctx.progress, done) }, progress.sendingSince);
    await save({ ...done, pickupId });
  }
  // the receipt is read again on every run: it is the pickup's, the same each time, and needs no place in progress
  const document = await client.receipt(pickupId, RECEIPT_MODE);
  if (!dispatch.pickup) return { carrierRef: pickupId, document };
  // ADE confirms a courier order with `true` alone and takes no hours: the pickup's number stands for the confirmation
  const pickup = courier === 'ordered' ? { confirmation: pickupId, ...dispatch.pickup } : unconfirmedPickup(ctx, 'GLS Poland', dispatch.pickup);
  return { carrierRef: pickupId, document, pickup };
}

export const glsPlDispatcher: CarrierDispatcher = {
  capabilities: { close: true, protocol: true, pickup: true },
  handOver,
  // ADE deletes consignments from the preparing box only (adePreparingBox_DeleteConsign); a pickup has no delete
  cancelAfterHandOver: false,
};
