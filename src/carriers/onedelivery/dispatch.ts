import { bookPickupOnce } from '../book-once.js';
import { mapConcurrently } from '../concurrently.js';
import { CarrierRefusedError } from '../errors.js';
import { markedSend } from '../marked-send.js';
import { stepProgress } from '../step-progress.js';
import type { CarrierContext, CarrierDispatcher, CarrierProgress, ChannelSettings, DispatchedAtCarrier, DispatchForCarrier, ShipmentToDispatch } from '../types.js';
import { OnedeliveryClient } from './client.js';
import { parseBatch, parsePickup } from './response.js';
import { onedeliverySettings } from './settings.js';

/**
 * The end of the day at One by Allegro (WE|DO REST API v2; nuty456/WeDoApi `WeDoApi.java` and README,
 * bridge.intime.cz/doc/restapi.html): a package reaches One's courier only once it is sent for processing in a batch
 * ("dávka"). A channel with `sendForProcessing` sends each package in a batch of its own as it is created
 * (X-WEDO-Auto-Complete); otherwise the dispatch sends the packages still waiting in one `POST /batch`, whose pickup
 * protocol (`GET /batch/{number}/manifest.pdf`, "svozový protokol") is the document. A courier is ordered with
 * `POST /pickup` when the dispatch asks for one.
 */

const NAME = 'One by Allegro';

/** Where a hand-over stands, saved right after each answer of One. */
interface OnedeliveryHandOverProgress {
  /** markedSend's mark: `POST /batch` may have reached One. */
  sendingSince?: number;
  /** Every package of the dispatch is sent for processing; `batch` is ours when it holds them all, so its protocol is the document. */
  closed?: { batch: string | null; protocol: boolean };
  /** bookPickupOnce's place. */
  pickup?: unknown;
}

const named = (s: ShipmentToDispatch) => `package ${s.providerShipmentId} (shipment ${s.reference ?? 'without reference'})`;

/**
 * The dispatch's packages One still holds unsent, read before anything is booked or sent: One lists them
 * (`GET /package?sent=0`); any other package must be One's already, sent at creation or by an earlier batch, and one
 * One does not know (deleted at One) is refused by name.
 */
async function unsentOf(client: OnedeliveryClient, dispatch: DispatchForCarrier): Promise<ShipmentToDispatch[]> {
  const waiting = new Set((await client.unsentPackages()).map((p) => p.order_number));
  const others = dispatch.shipments.filter((s) => !waiting.has(s.providerShipmentId));
  const known = await mapConcurrently(others, async (s) => (await client.packageDetail(s.providerShipmentId)) !== undefined);
  const unknown = others.filter((_, i) => !known[i]).map(named);
  if (unknown.length > 0) {
    const why = `${NAME} does not know ${unknown.join(', ')}: deleted at One?`;
    throw new CarrierRefusedError(why, { shipment_ids: [why] });
  }
  return dispatch.shipments.filter((s) => waiting.has(s.providerShipmentId));
}

/**
 * `POST /batch` of the unsent packages, at most once: the send is marked first, and every run reads what One still
 * holds unsent before sending, so a package the lost answer's batch took is never sent again. That batch's number
 * is lost with its answer (One lists no batches and names none on a package), so its protocol stays in One's app.
 */
async function close(
  client: OnedeliveryClient, dispatch: DispatchForCarrier, unsent: ShipmentToDispatch[], ctx: CarrierContext & { progress: CarrierProgress },
): Promise<NonNullable<OnedeliveryHandOverProgress['closed']>> {
  const { sendingSince } = (ctx.progress.load() ?? {}) as OnedeliveryHandOverProgress;
  if (unsent.length === 0) {
    if (sendingSince !== undefined) ctx.log.warn({ dispatch_id: dispatch.id }, `${NAME} sent the packages in a batch whose answer was lost: its protocol is in One's app, packdesk's hand-over list serves`);
    // every package was sent already (at creation each in a batch of its own, whose number One never answered): no protocol of One's covers them
    return { batch: null, protocol: false };
  }
  const articles = unsent.map((s) => s.providerShipmentId);
  const answer = await markedSend({ clock: ctx.clock, progress: stepProgress(ctx.progress, 'sendingSince') }, sendingSince, () => client.createBatch({ articles }));
  const batch = parseBatch(answer, articles);
  if (batch.notTaken.length > 0) {
    // nothing is kept of a batch One took only a part of: a retry reads what is still unsent and sends that
    await stepProgress(ctx.progress, 'sendingSince').save({});
    const why = `${NAME} did not send ${batch.notTaken.map((n) => `package ${n.orderNumber} (code ${n.code ?? 'none'})`).join(', ')} for processing`;
    throw new CarrierRefusedError(why, { shipment_ids: [why] });
  }
  return { batch: batch.number, protocol: unsent.length === dispatch.shipments.length };
}

/**
 * Reads first (an unknown package books nothing), then the courier (a day One refuses leaves the packages unsent,
 * so still cancellable), then the batch, then its protocol, read again on every run: it is the batch's, the same each time.
 */
async function handOver(
  dispatch: DispatchForCarrier, settings: ChannelSettings, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<DispatchedAtCarrier> {
  const client = new OnedeliveryClient(onedeliverySettings.parse(settings), ctx);
  const saved = () => (ctx.progress.load() ?? {}) as OnedeliveryHandOverProgress;
  const unsent = saved().closed ? [] : await unsentOf(client, dispatch);

  const asked = dispatch.pickup;
  // One lists no pickups (WeDoApi has `orderPickup` only), so a booking whose answer was lost is not made again
  const pickup = asked ? await bookPickupOnce({ ...ctx, progress: stepProgress(ctx.progress, 'pickup') }, NAME, asked, async () => (
    parsePickup(await client.orderPickup({ pickup_date: asked.date }), asked)
  )) : undefined;

  let closed = saved().closed;
  if (!closed) {
    closed = await close(client, dispatch, unsent, ctx);
    const { sendingSince: _sent, ...others } = saved();
    await ctx.progress.save({ ...others, closed });
  }
  const document = closed.protocol && closed.batch ? await client.batchManifest(closed.batch) : undefined;
  return { carrierRef: closed.batch ?? pickup?.confirmation ?? null, ...(document ? { document } : {}), ...(pickup ? { pickup } : {}) };
}

export const onedeliveryDispatcher: CarrierDispatcher = {
  capabilities: { close: true, protocol: true, pickup: true },
  handOver,
  // DELETE /package works only until the package is sent for processing (WeDoApi README: "Zruší zásilku, která ještě nebyla odeslána ke zpracování")
  cancelAfterHandOver: false,
};
