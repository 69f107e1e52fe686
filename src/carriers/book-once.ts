import { CarrierRefusedError, CarrierTransientError } from './errors.js';
import type { BookedPickup, CarrierContext, CarrierProgress, PickupRequest } from './types.js';

/** A refusal, a 429 or a 5xx: the carrier answered and booked nothing; a timeout or a dropped connection says nothing. */
export const answeredWithoutBooking = (err: unknown): boolean =>
  err instanceof CarrierRefusedError || (err instanceof CarrierTransientError && err.carrierStatus !== undefined);

/** The booking's place: `sendingSince` while its answer is awaited, the carrier's booking once it answered. */
interface BookOnceProgress {
  pickup?: { sendingSince?: number; booked?: BookedPickup };
}

/** A booking whose answer was lost at a carrier that cannot be asked for it: not confirmed, with what to check. */
export function unconfirmedPickup(ctx: Pick<CarrierContext, 'log'>, carrier: string, asked: PickupRequest): BookedPickup {
  const note = `the answer to the courier booking was lost and ${carrier} cannot be asked for it: check with ${carrier} whether the courier for ${asked.date} ${asked.from}–${asked.to} is booked before booking one again`;
  ctx.log.warn({ pickup: asked }, note);
  return { confirmation: null, ...asked, note };
}

/**
 * Books a courier at a carrier that offers no way to look a booking up, at most once: the send is marked in the
 * dispatch's progress first, and a later run that finds the mark without an answer (the answer was lost, or the
 * daemon died waiting) asks nothing again. It answers the booking unconfirmed instead, with what to check.
 */
export async function bookPickupOnce<Prepared = undefined>(
  ctx: CarrierContext & { progress: CarrierProgress },
  carrier: string,
  asked: PickupRequest,
  book: (prepared: Prepared) => Promise<BookedPickup>,
  /** Reads what the booking needs (a form, a slot) before the send is marked: its failure leaves nothing that may be booked. */
  prepare?: () => Promise<Prepared>,
): Promise<BookedPickup> {
  const progress = (ctx.progress.load() ?? {}) as BookOnceProgress;
  if (progress.pickup?.booked) return progress.pickup.booked;
  if (progress.pickup?.sendingSince !== undefined) return unconfirmedPickup(ctx, carrier, asked);
  const prepared = (await prepare?.()) as Prepared;
  await ctx.progress.save({ pickup: { sendingSince: ctx.clock.now() } } satisfies BookOnceProgress);
  let booked: BookedPickup;
  try {
    booked = await book(prepared);
  } catch (err) {
    if (answeredWithoutBooking(err)) await ctx.progress.save({});
    throw err;
  }
  await ctx.progress.save({ pickup: { booked } } satisfies BookOnceProgress);
  return booked;
}
