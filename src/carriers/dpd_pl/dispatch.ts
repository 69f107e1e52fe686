import { mergeLabels } from '../../labels/index.js';
import { unconfirmedPickup } from '../book-once.js';
import { CarrierRefusedError } from '../errors.js';
import { warsawTime } from '../local-time.js';
import type {
  CarrierContext, CarrierDispatcher, CarrierParty, CarrierProgress, ChannelSettings, DispatchedAtCarrier, DispatchForCarrier, PickupWindow, ShipmentToDispatch,
} from '../types.js';
import { DpdPlClient, DpdPlServerFault } from './client.js';
import type { DpdPlSessionType } from './codes.js';
import { dpdPlSettings } from './settings.js';

/** One protocol's place: set `sendingSince` before generateProtocolV2, its answer after. */
interface ProtocolStep {
  /** Still set on a later run: DPD may hold a protocol whose answer was lost. */
  sendingSince?: number;
  /** DPD's protocol: later runs ask for its duplicate, never for a new one. */
  documentId?: string;
  /** DPD holds the protocol of a lost answer, and without its id its document cannot be asked for again. */
  lost?: true;
}

interface DpdPlDispatchProgress {
  /** DPD's package ids by the session type of their protocol, once DPD said some are not domestic. */
  sessions?: Partial<Record<DpdPlSessionType, string[]>>;
  protocols?: Partial<Record<DpdPlSessionType, ProtocolStep>>;
  /** The courier order: `sendingSince` before packagesPickupCallV4, DPD's order number and checksum after. */
  pickup?: { sendingSince?: number; orderNumber?: string; checkSum?: string };
}

type Step = { sendingSince?: number };

interface Run {
  client: DpdPlClient;
  dispatch: DispatchForCarrier;
  progress: DpdPlDispatchProgress;
  ctx: CarrierContext & { progress: CarrierProgress };
}

// copies: what was saved never changes with the run's later steps
const save = (run: Run) => run.ctx.progress.save(structuredClone(run.progress) as Record<string, unknown>);

/**
 * Sends one operation whose answer can be lost, marked in `step` first. A refusal or a Fault of DPD's server carried
 * nothing out and clears the mark; any other failure (timeout, dropped connection) leaves it for the next run.
 */
async function marked<T>(run: Run, step: Step, send: () => Promise<T>): Promise<T> {
  step.sendingSince ??= run.ctx.clock.now();
  await save(run);
  try {
    return await send();
  } catch (err) {
    if (err instanceof CarrierRefusedError || err instanceof DpdPlServerFault) {
      delete step.sendingSince;
      await save(run);
    }
    throw err;
  }
}

type ProtocolOutcome = { documentId: string; document: Buffer } | 'lost' | { international: string[] };

/**
 * The protocol of one session type. DPDServices lists no protocols: after a lost answer the protocol is asked for
 * again, and DPD's refusal of parcels that are in a protocol already (ALREADY_ADVICED) says the lost one exists.
 */
async function protocolOf(run: Run, sessionType: DpdPlSessionType, shipments: readonly ShipmentToDispatch[]): Promise<ProtocolOutcome> {
  const steps = (run.progress.protocols ??= {});
  const step = (steps[sessionType] ??= {});
  const { client, dispatch } = run;
  if (step.lost) return 'lost';
  if (step.documentId) {
    const duplicate = await client.generateProtocol(shipments, sessionType, dispatch.sender, step.documentId);
    if (duplicate.state !== 'made') throw new CarrierRefusedError(duplicate.message, duplicate.errors);
    return duplicate;
  }
  const resent = step.sendingSince !== undefined;
  const answer = await marked(run, step, () => client.generateProtocol(shipments, sessionType, dispatch.sender));
  if (answer.state === 'made') {
    steps[sessionType] = { documentId: answer.documentId };
    await save(run);
    return answer;
  }
  if (answer.allInProtocol && resent) {
    steps[sessionType] = { lost: true };
    await save(run);
    run.ctx.log.warn({ dispatchId: dispatch.id, sessionType }, 'DPD Poland holds the protocol of an earlier attempt whose answer was lost; packdesk\'s hand-over list stands in for its document');
    return 'lost';
  }
  delete steps[sessionType];
  await save(run);
  if (answer.otherSessionType.length > 0 && sessionType === 'DOMESTIC' && !run.progress.sessions) return { international: answer.otherSessionType };
  throw new CarrierRefusedError(answer.message, answer.errors);
}

/**
 * One protocol per session type (DPD refuses mixing DOMESTIC and INTERNATIONAL packages). The handed-over shipments
 * do not say their session type, so all are asked for as DOMESTIC first; the packages DPD then names as of another
 * type (INCORRECT_PKGS_FOR_SESSION_TYPE per package, inferred from the package statuses of DPD's schema) get their
 * own INTERNATIONAL protocol.
 */
async function protocols(run: Run): Promise<{ carrierRef: string | null; document?: Uint8Array }> {
  const all = run.dispatch.shipments;
  if (all.length === 0) return { carrierRef: null };
  const ids = all.map((s) => s.providerShipmentId);
  const made: { documentId: string; document: Buffer }[] = [];
  for (const [sessionType, held] of Object.entries(run.progress.sessions ?? { DOMESTIC: ids }) as [DpdPlSessionType, string[]][]) {
    const outcome = await protocolOf(run, sessionType, all.filter((s) => held.includes(s.providerShipmentId)));
    if (outcome === 'lost') continue;
    if ('international' in outcome) {
      const domestic = ids.filter((id) => !outcome.international.includes(id));
      run.progress.sessions = domestic.length > 0 ? { DOMESTIC: domestic, INTERNATIONAL: outcome.international } : { INTERNATIONAL: outcome.international };
      await save(run);
      // once: with the sessions known, a package of the wrong type is a refusal
      return protocols(run);
    }
    made.push(outcome);
  }
  if (made.length === 0) return { carrierRef: null };
  const document = made.length === 1 ? made[0]!.document : (await mergeLabels('pdf', made.map((m) => m.document))).content;
  return { carrierRef: made.map((m) => m.documentId).join(', '), document };
}

/**
 * The courier, booked once. DPDServices has no lookup of courier orders (packagesPickupCall V1–V4 and
 * getCourierOrderAvailabilityV1 are all it offers): after a lost answer nothing tells whether DPD booked it, so it is
 * never asked for twice; the hand-over's courier then stays unconfirmed, saying to check with DPD.
 */
async function courier(run: Run): Promise<DispatchedAtCarrier['pickup']> {
  const { dispatch } = run;
  const asked = dispatch.pickup;
  if (!asked) return undefined;
  const step = (run.progress.pickup ??= {});
  if (step.orderNumber) return { confirmation: step.orderNumber, ...asked };
  if (step.sendingSince !== undefined) return unconfirmedPickup(run.ctx, 'DPD Poland', asked);
  const answer = await marked(run, step, () => run.client.packagesPickupCall(asked, dispatch.sender, dispatch.shipments));
  if (answer.state === 'refused') {
    delete run.progress.pickup;
    await save(run);
    throw new CarrierRefusedError(answer.message, answer.errors);
  }
  run.progress.pickup = { orderNumber: answer.orderNumber, checkSum: answer.checkSum };
  await save(run);
  // DPD confirms an order, not a window: the booked window is the one asked for
  return { confirmation: answer.orderNumber, ...asked };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Saturday or Sunday: DPD Polska's own shop module lets no courier be ordered for them ("Weekends can not be chosen"). */
const isWeekend = (date: string) => [0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay());

/**
 * The courier's windows on `date` at the sender's place: getCourierOrderAvailabilityV1's ranges, each one window. DPD
 * takes no day, so the day is ours to apply, as DPD Polska's own shop modules do: a past day is refused and a weekend
 * has none (dpdpoland `DpdPolandArrangePickUpController::validate`), and a range stays only while its order can still
 * reach DPD `offset` minutes before it starts (dpdshipping's pickup form: "Zlecenie zamówienia możliwe do" the start
 * less the offset). Hours are DPD's Warsaw time, which handOver writes the asked window in too.
 */
async function pickupWindows(query: { date: string; sender: CarrierParty }, settings: ChannelSettings, ctx: CarrierContext): Promise<PickupWindow[]> {
  const { date, sender } = query;
  const now = ctx.clock.now();
  const today = warsawTime.format(now).slice(0, 10);
  if (!DAY.test(date) || warsawTime.parse(`${date} 12:00:00`) === undefined) {
    throw new CarrierRefusedError(`DPD Poland cannot read the day ${date}: it must be YYYY-MM-DD`, { date: ['DPD Poland: must be a day, YYYY-MM-DD'] });
  }
  if (date < today) {
    const reason = `${date} is in the past: DPD's courier comes on ${today} at the earliest`;
    throw new CarrierRefusedError(`DPD Poland sends no courier on a past day: ${reason}`, { date: [`DPD Poland: ${reason}`] });
  }
  const answer = await new DpdPlClient(dpdPlSettings.parse(settings), ctx).courierOrderAvailability(sender);
  if (answer.state === 'refused') throw new CarrierRefusedError(answer.message, answer.errors);
  if (isWeekend(date)) return [];
  return answer.ranges
    .filter((r) => warsawTime.parse(`${date} ${r.from}:00`)! - r.offsetMinutes * 60_000 >= now)
    .map((r) => ({ date, from: r.from, to: r.to }));
}

/**
 * DPD Poland at the end of the day: the courier (packagesPickupCallV4) when one is asked for, then the hand-over
 * protocol (generateProtocolV2). The courier goes first: its refusals (a day or window DPD does not serve) are the
 * common ones, and then nothing is made at DPD, whereas a protocol once made cannot be made again for its parcels.
 */
export const dpdPlDispatcher: CarrierDispatcher = {
  capabilities: { close: false, protocol: true, pickup: true },
  // DPDServices cancels nothing (customer documentation 2.87 lists no such operation)
  cancelAfterHandOver: false,
  async handOver(dispatch, settings, ctx) {
    const run: Run = { client: new DpdPlClient(dpdPlSettings.parse(settings), ctx), dispatch, ctx, progress: structuredClone(ctx.progress.load() ?? {}) as DpdPlDispatchProgress };
    const pickup = await courier(run);
    const { carrierRef, document } = await protocols(run);
    return { carrierRef, ...(document ? { document } : {}), ...(pickup ? { pickup } : {}) };
  },
  pickupWindows,
};
