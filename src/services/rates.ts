import { and, asc, eq, isNull } from 'drizzle-orm';
import { FieldErrorCollector, ValidationError, type FieldErrors } from '../domain/errors.js';
import { toMinorUnits } from '../domain/money.js';
import { listPrice } from '../domain/price-list.js';
import { toKilograms, type WeightUnit } from '../domain/units.js';
import { shippingChannels } from '../store/schema.js';
import type { ServiceContext } from './context.js';
import { todayOf, validateCreation, type ShipmentBody } from './shipments/create.js';

/** A shipment body to quote: no channel, or the channels to ask. */
export type QuoteBody = Omit<ShipmentBody, 'shipping_channel_id'> & { shipping_channel_ids?: string[] };

/** What one channel would do with the shipment: its price and where it comes from, or why it cannot carry it. */
export interface Quote {
  shipping_channel_id: string;
  name: string;
  provider: string;
  price: number | null;
  currency: string | null;
  price_source: 'price_list' | null;
  /** Why the channel cannot carry it or price it (null: it can, at `price`). */
  cannot: string | null;
  /** The creation's field errors at this channel, where it cannot carry the shipment. */
  errors: FieldErrors;
}

/**
 * Quotes a shipment at every active channel of the account (or the ones named): each is held to the same checks as
 * a creation through it (countries, customs, COD, parcels, pickup point), side by side, and priced by its price list.
 * One channel's refusal or failure is that channel's answer, never the quote's. Cheapest first, then the unpriced,
 * then those that cannot carry it.
 */
export async function quoteShipment(ctx: ServiceContext, accountId: string, given: QuoteBody, errors: FieldErrorCollector): Promise<Quote[]> {
  const active = await ctx.db.select().from(shippingChannels)
    .where(and(eq(shippingChannels.accountId, accountId), eq(shippingChannels.status, 'active'), isNull(shippingChannels.deletedAt)))
    .orderBy(asc(shippingChannels.createdAt)).all();
  const named = given.shipping_channel_ids;
  named?.forEach((id, i) => {
    if (!active.some((c) => c.id === id)) errors.add(`shipping_channel_ids.${i}`, 'is not an active shipping channel of this account');
  });
  errors.throwIfAny();
  const channels = named ? active.filter((c) => named.includes(c.id)) : active;
  const { shipping_channel_ids: _named, ...body } = given;
  const quotes = await Promise.all(channels.map(async (channel): Promise<Quote> => {
    const quote = { shipping_channel_id: channel.id, name: channel.name, provider: channel.provider, price: null, currency: null, price_source: null, errors: {} };
    try {
      const valid = await validateCreation(ctx, accountId, { ...body, shipping_channel_id: channel.id }, new FieldErrorCollector());
      if (!channel.priceList) return { ...quote, cannot: 'the channel has no price list, and its carrier answers prices only at creation' };
      const priced = listPrice(channel.priceList, pricedShipment(ctx, valid.body));
      if ('cannot' in priced) return { ...quote, cannot: priced.cannot };
      return { ...quote, price: priced.amountMinor / 100, currency: priced.currency, price_source: 'price_list', cannot: null };
    } catch (err) {
      if (err instanceof ValidationError) {
        return { ...quote, cannot: Object.entries(err.errors).map(([path, messages]) => `${path}: ${messages.join('; ')}`).join('; '), errors: err.errors };
      }
      // a carrier asked on the way (its point API) that failed: this channel's answer, not the quote's
      ctx.log.warn({ channel_id: channel.id, err: (err as Error).message }, 'a channel could not be quoted');
      return { ...quote, cannot: `the channel could not be asked: ${(err as Error).message}` };
    }
  }));
  const rank = (q: Quote) => (q.price !== null ? 0 : Object.keys(q.errors).length === 0 ? 1 : 2);
  return quotes.sort((a, b) => rank(a) - rank(b) || (a.price ?? 0) - (b.price ?? 0));
}

/** What a price list reads of a validated creation body. */
function pricedShipment(ctx: ServiceContext, body: ShipmentBody) {
  return {
    countryCode: body.destination_address.country_code,
    parcelWeightsKg: body.parcels.map((p) => toKilograms(p.weight_amount!, (p.weight_unit ?? 'KG') as WeightUnit)),
    cashOnDelivery: body.cash_on_delivery_amount == null ? null : { amountMinor: toMinorUnits(body.cash_on_delivery_amount)!, currency: body.cash_on_delivery_currency ?? '' },
    shippingDate: body.shipping_date ?? todayOf(ctx),
  };
}
