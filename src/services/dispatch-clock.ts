import { and, eq, isNotNull, isNull, ne, or } from 'drizzle-orm';
import { ValidationError } from '../domain/errors.js';
import { shippingChannels } from '../store/schema.js';
import type { ServiceContext } from './context.js';
import { createDispatch, stationClock, waitingForDispatch } from './dispatches.js';

/** `dispatch_at` on the local day `date` as Unix ms. */
function instantOf(date: string, at: string): number {
  return stationClock().parse(`${date} ${at}:00`)!;
}

/** The local day after `date`. */
function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + 24 * 3600_000).toISOString().slice(0, 10);
}

/**
 * Makes the day's dispatch of every channel whose `dispatch_at` has come and that had none by the clock today. The
 * day is claimed in the channel's row first (one daemon makes it, however many look); a channel with nothing waiting
 * makes none. Returns the dispatches made.
 */
export async function runDailyDispatches(ctx: ServiceContext): Promise<string[]> {
  const now = ctx.clock.now();
  const [today, time] = stationClock().format(now, ' ').split(' ') as [string, string];
  const due = await ctx.db.select().from(shippingChannels).where(and(isNotNull(shippingChannels.dispatchAt), isNull(shippingChannels.deletedAt),
    or(isNull(shippingChannels.autoDispatchedOn), ne(shippingChannels.autoDispatchedOn, today)))).all();
  const made: string[] = [];
  for (const channel of due.filter((c) => c.dispatchAt! <= time.slice(0, 5))) {
    const claimed = await ctx.db.update(shippingChannels).set({ autoDispatchedOn: today })
      .where(and(eq(shippingChannels.id, channel.id), or(isNull(shippingChannels.autoDispatchedOn), ne(shippingChannels.autoDispatchedOn, today))))
      .returning({ id: shippingChannels.id });
    if (claimed.length === 0) continue;
    const waiting = (await waitingForDispatch(ctx, channel.accountId)).some((w) => w.shipping_channel_id === channel.id);
    if (!waiting) continue;
    try {
      made.push((await createDispatch(ctx, channel.accountId, { shipping_channel_id: channel.id })).id);
    } catch (err) {
      // the packer closed the day by hand in between: nothing is left for the clock
      if (!(err instanceof ValidationError)) throw err;
      ctx.log.info({ channel_id: channel.id, errors: err.errors }, 'daily dispatch found nothing to hand over');
    }
  }
  return made;
}

/** When the next daily dispatch comes due: today's time of a channel not yet dispatched today, else tomorrow's. */
export async function nextDailyDispatchAt(ctx: ServiceContext): Promise<number | undefined> {
  const channels = await ctx.db.select({ dispatchAt: shippingChannels.dispatchAt, autoDispatchedOn: shippingChannels.autoDispatchedOn }).from(shippingChannels)
    .where(and(isNotNull(shippingChannels.dispatchAt), isNull(shippingChannels.deletedAt))).all();
  const today = stationClock().format(ctx.clock.now(), ' ').slice(0, 10);
  const times = channels.map((c) => instantOf(c.autoDispatchedOn === today ? nextDay(today) : today, c.dispatchAt!));
  return times.length === 0 ? undefined : Math.min(...times);
}
