import { randomUUID } from 'node:crypto';
import { CarrierRefusedError, CarrierTransientError } from '../errors.js';
import type {
  CarrierContext, CarrierDispatcher, CarrierParty, CarrierProgress, ChannelSettings, DispatchForCarrier, PickupRequest, PickupWindow, ShipmentToDispatch,
} from '../types.js';
import { AllegroClient } from './client.js';
import { runCommand } from './commands.js';
import { addressOf, type AllegroPickupCommand, type AllegroPickupTime } from './request.js';
import { HAND_OVER_REFUSAL, parseRefusal, PICKUP_WINDOWS_REFUSAL, type AllegroPickupProposals, type RefusalSubject } from './response.js';
import { allegroSettings } from './settings.js';

/** An Allegro shipment id is a UUID; a packdesk shipment of several Allegro shipments keeps their ids joined by this. */
export const SHIPMENT_ID_SEPARATOR = ',';

interface BookedPickup {
  confirmation: string;
  date: string;
  from: string;
  to: string;
}

interface AllegroDispatchProgress {
  /** Saved before the pickup command is sent: an attempt that finds it asks Allegro for that command instead of sending another. */
  pickupCommand?: { commandId: string; pickupTime: Required<AllegroPickupTime>; pickupDateProposalId?: string };
  pickup?: BookedPickup;
}

type Slot = { pickupTime: Required<AllegroPickupTime>; pickupDateProposalId?: string };

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const overlap = (a: PickupRequest, t: Required<AllegroPickupTime>) => Math.min(minutes(a.to), minutes(t.maxTime)) - Math.max(minutes(a.from), minutes(t.minTime));

/** The pickup times every shipment's proposals offer (one courier comes for all of them), in the first one's order. */
function commonPickupTimes(answers: readonly AllegroPickupProposals[]): Required<AllegroPickupTime>[] {
  const proposals = answers.flatMap((a) => a.proposals ?? []);
  const timesOf = (p: (typeof proposals)[number]) => (p.pickupTimes ?? []).filter((t): t is Required<AllegroPickupTime> => Boolean(t.minTime && t.maxTime));
  const same = (a: Required<AllegroPickupTime>, b: Required<AllegroPickupTime>) => a.date === b.date && a.minTime === b.minTime && a.maxTime === b.maxTime;
  return proposals.length === 0 ? [] : timesOf(proposals[0]!).filter((t) => proposals.every((p) => timesOf(p).some((u) => same(t, u))));
}

/**
 * The slot on the asked day that every shipment's proposals offer and that overlaps the asked window most, with the
 * deprecated `proposalItems` id of the same slot, which `PickupCreateRequestDto` still lists as required.
 */
function chosenSlot(answers: AllegroPickupProposals[], asked: PickupRequest): Slot {
  const proposals = answers.flatMap((a) => a.proposals ?? []);
  const common = commonPickupTimes(answers);
  const best = common.filter((t) => t.date === asked.date && overlap(asked, t) > 0).sort((a, b) => overlap(asked, b) - overlap(asked, a))[0];
  if (!best) {
    const offered = common.map((t) => `${t.date} ${t.minTime}–${t.maxTime}`).join(', ') || 'none';
    const message = `Allegro offers no pickup of these shipments on ${asked.date} between ${asked.from} and ${asked.to} (offered: ${offered})`;
    throw new CarrierRefusedError(message, { 'pickup.date': [`Allegro: ${message}`] });
  }
  // PickupDateProposalDto.name reads "2023-07-12 10:00-13:00" (OpenAPI example): the item of the chosen slot
  const item = proposals[0]!.proposalItems?.find((i) => i.name === `${best.date} ${best.minTime}-${best.maxTime}`);
  return { pickupTime: best, ...(item ? { pickupDateProposalId: item.id } : {}) };
}

/** Shipments one pickup-proposals request takes (PickupProposalsRequestDto.shipmentIds: 1 to 100). */
const PROPOSALS_MAX_SHIPMENTS = 100;

/** The pickup proposals for the shipments on `readyDate`, asked 100 shipments at a time. */
async function proposalsOf(
  client: AllegroClient, shipmentIds: readonly string[], readyDate: string, address: ReturnType<typeof addressOf>, refusal?: RefusalSubject,
): Promise<AllegroPickupProposals[]> {
  const answers: AllegroPickupProposals[] = [];
  for (let i = 0; i < shipmentIds.length; i += PROPOSALS_MAX_SHIPMENTS) {
    answers.push(...await client.pickupProposals({ shipmentIds: shipmentIds.slice(i, i + PROPOSALS_MAX_SHIPMENTS), readyDate, address }, refusal));
  }
  return answers;
}

/**
 * The courier, booked with one pickup command whose id is saved before it is posted: a later attempt asks Allegro for
 * that command (a 404 means it never arrived, and it is sent again with the same id), so Allegro books it once.
 */
async function bookPickup(
  client: AllegroClient, dispatch: DispatchForCarrier, shipmentIds: string[], progress: AllegroDispatchProgress, ctx: CarrierContext & { progress: CarrierProgress },
): Promise<BookedPickup> {
  if (progress.pickup) return progress.pickup;
  const save = () => ctx.progress.save(structuredClone(progress) as Record<string, unknown>);
  const address = addressOf(dispatch.sender);
  const known = progress.pickupCommand !== undefined;
  if (!progress.pickupCommand) {
    const slot = chosenSlot(await proposalsOf(client, shipmentIds, dispatch.pickup!.date, address), dispatch.pickup!);
    progress.pickupCommand = { commandId: randomUUID(), ...slot };
    await save();
  }
  const planned = progress.pickupCommand;
  const command: AllegroPickupCommand = {
    commandId: planned.commandId,
    input: { shipmentIds, ...(planned.pickupDateProposalId ? { pickupDateProposalId: planned.pickupDateProposalId } : {}), pickupTime: planned.pickupTime, address },
  };
  const status = await runCommand(ctx, {
    what: `the pickup of dispatch ${dispatch.id}`, known,
    read: () => client.pickupStatus(planned.commandId),
    send: () => client.pickupCommand(command),
  });
  if (status.status === 'ERROR') {
    // a refused command booked nothing: the fixed dispatch gets a new command
    delete progress.pickupCommand;
    await save();
    const { message, errors } = parseRefusal(200, status, undefined, HAND_OVER_REFUSAL);
    throw new CarrierRefusedError(message, errors);
  }
  const confirmation = status.carrierPickupId ?? status.pickupId;
  if (!confirmation) throw new CarrierTransientError(`Allegro finished pickup command ${planned.commandId} without a pickup id`);
  const { date, minTime, maxTime } = planned.pickupTime;
  progress.pickup = { confirmation, date, from: minTime, to: maxTime };
  delete progress.pickupCommand;
  await save();
  return progress.pickup;
}


/**
 * The courier's windows on `date` for the shipments at the sender's address: the pickup times (PickupTimeDto `date`,
 * `minTime`, `maxTime`) that the proposals offer every shipment on that day, each one window, as handOver books them.
 * Allegro proposes times for shipments only (`shipmentIds` is required), so the query must name them. The times are
 * the Polish carriers' Warsaw time, which handOver gives the asked window to Allegro in too.
 */
async function pickupWindows(
  query: { date: string; sender: CarrierParty; shipments: readonly ShipmentToDispatch[] }, settings: ChannelSettings, ctx: CarrierContext,
): Promise<PickupWindow[]> {
  const shipmentIds = query.shipments.flatMap((s) => s.providerShipmentId.split(SHIPMENT_ID_SEPARATOR));
  if (shipmentIds.length === 0) {
    const reason = 'Allegro proposes pickup times for created shipments only, and none was given';
    throw new CarrierRefusedError(reason, { shipment_ids: [`Allegro: ${reason}`] });
  }
  const answers = await proposalsOf(new AllegroClient(allegroSettings.parse(settings), ctx), shipmentIds, query.date, addressOf(query.sender), PICKUP_WINDOWS_REFUSAL);
  return commonPickupTimes(answers).filter((t) => t.date === query.date).map((t) => ({ date: t.date, from: t.minTime, to: t.maxTime }));
}

/**
 * The end of the day through "Wysyłam z Allegro": the courier booked with a pickup command when the dispatch asks for
 * one, then the carrier's protocol. Allegro has nothing to close: a created shipment is ready to be handed over.
 * `POST /shipment-management/protocol` only reads the carrier's protocol (scope `allegro:api:shipments:read`), so a
 * later attempt reads it again rather than storing the PDF in the progress.
 */
export const allegroDispatcher: CarrierDispatcher = {
  capabilities: { close: false, protocol: true, pickup: true },
  // inferred: the OpenAPI does not say; a cancel-command for a shipment the courier has taken is not expected to succeed
  cancelAfterHandOver: false,
  async handOver(dispatch, settings, ctx) {
    const client = new AllegroClient(allegroSettings.parse(settings), ctx);
    const progress = structuredClone(ctx.progress.load() ?? {}) as AllegroDispatchProgress;
    const shipmentIds = dispatch.shipments.flatMap((s) => s.providerShipmentId.split(SHIPMENT_ID_SEPARATOR));
    const pickup = dispatch.pickup ? await bookPickup(client, dispatch, shipmentIds, progress, ctx) : undefined;
    const document = await client.protocol(shipmentIds);
    return { carrierRef: pickup?.confirmation ?? null, ...(document ? { document } : {}), ...(pickup ? { pickup } : {}) };
  },
  pickupWindows,
};
