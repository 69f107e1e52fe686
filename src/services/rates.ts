import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { FieldErrorCollector, ValidationError, type FieldErrors } from '../domain/errors.js';
import { listTransitDays } from '../domain/price-list.js';
import type { ShipmentForCarrier } from '../carriers/types.js';
import { shippingChannels } from '../store/schema.js';
import type { ServiceContext } from './context.js';
import { shipmentForCarrier } from './shipments/carrier-step.js';
import { creationColumns, parcelRows, validateCreation, type ShipmentBody, type ValidShipment } from './shipments/create.js';
import { carrierRate, listPriceOf } from './shipments/pricing.js';
import type { ShipmentRow } from './shipments/records.js';

/** A shipment body to quote: no channel, or the channels to ask. */
export type QuoteBody = Omit<ShipmentBody, 'shipping_channel_id'> & { shipping_channel_ids?: string[] };

/** What one channel would do with the shipment: its price and where it comes from, or why it cannot carry it. */
export interface Quote {
  shipping_channel_id: string;
  name: string;
  provider: string;
  price: number | null;
  currency: string | null;
  /** The carrier's rate API, or the channel's price list. */
  price_source: 'carrier' | 'price_list' | null;
  /** Working days on the way: the carrier's, else the price list zone's; null where neither says. */
  transit_days: number | null;
  /** The carrier's estimated delivery (ISO 8601 date or date-time), where it gives one. */
  estimated_delivery: string | null;
  /** Why the channel cannot carry it or price it (null: it can, at `price`). */
  cannot: string | null;
  /** The carrier's rate API failed (5xx, timeout, refusal) and nothing else priced the shipment: `cannot` says why. */
  failed: boolean;
  /** Why the carrier's rate API did not answer, where the price list priced the shipment instead (else null). */
  carrier_error: string | null;
  /** The creation's field errors at this channel, where it cannot carry the shipment. */
  errors: FieldErrors;
}

type ChannelRow = typeof shippingChannels.$inferSelect;

/**
 * Quotes a shipment at every active channel of the account (or the ones named): each is held to the same checks as
 * a creation through it (countries, customs, COD, parcels, pickup point), side by side, and priced by its carrier's
 * rate API where the adapter has one, else (or when the carrier fails) by its price list. Carriers are asked in
 * parallel, each call bounded by the carrier timeout; one channel's refusal or failure is that channel's answer, never
 * the quote's. Cheapest first, then the unpriced, then those that cannot carry it.
 */
export async function quoteShipment(ctx: ServiceContext, accountId: string, given: QuoteBody, errors: FieldErrorCollector): Promise<Quote[]> {
  const active = await activeChannels(ctx, accountId);
  const named = given.shipping_channel_ids;
  named?.forEach((id, i) => {
    if (!active.some((c) => c.id === id)) errors.add(`shipping_channel_ids.${i}`, 'is not an active shipping channel of this account');
  });
  errors.throwIfAny();
  const channels = named ? active.filter((c) => named.includes(c.id)) : active;
  const { shipping_channel_ids: _named, ...body } = given;
  return quoteAtChannels(ctx, accountId, channels, body);
}

/** The account's active channels, oldest first; those of `ids` only, where given. */
export function activeChannels(ctx: ServiceContext, accountId: string, ids?: string[]): Promise<ChannelRow[]> {
  return ctx.db.select().from(shippingChannels)
    .where(and(eq(shippingChannels.accountId, accountId), eq(shippingChannels.status, 'active'), isNull(shippingChannels.deletedAt), ids ? inArray(shippingChannels.id, ids) : undefined))
    .orderBy(asc(shippingChannels.createdAt)).all();
}

/** The quotes of these channels side by side, ranked. */
export async function quoteAtChannels(ctx: ServiceContext, accountId: string, channels: ChannelRow[], body: Omit<QuoteBody, 'shipping_channel_ids'>): Promise<Quote[]> {
  const quotes = await Promise.all(channels.map((channel) => quoteAtChannel(ctx, accountId, channel, body)));
  const rank = (q: Quote) => (q.price !== null ? 0 : Object.keys(q.errors).length === 0 ? 1 : 2);
  // prices of different currencies are not compared (packdesk keeps no exchange rates): the cheapest first within each
  return quotes.sort((a, b) => rank(a) - rank(b) || (a.currency ?? '').localeCompare(b.currency ?? '') || (a.price ?? 0) - (b.price ?? 0));
}

/** One channel's answer: the creation's checks, then its carrier's rate, else (or when the carrier fails) its price list. */
async function quoteAtChannel(ctx: ServiceContext, accountId: string, channel: ChannelRow, body: Omit<QuoteBody, 'shipping_channel_ids'>): Promise<Quote> {
  const quote: Quote = {
    shipping_channel_id: channel.id, name: channel.name, provider: channel.provider, price: null, currency: null, price_source: null,
    transit_days: null, estimated_delivery: null, cannot: null, failed: false, carrier_error: null, errors: {},
  };
  let valid: ValidShipment;
  try {
    valid = await validateCreation(ctx, accountId, { ...body, shipping_channel_id: channel.id }, new FieldErrorCollector());
  } catch (err) {
    if (err instanceof ValidationError) return { ...quote, cannot: cannotCarry(err.errors), errors: err.errors };
    // a carrier asked on the way (its point API) that failed: this channel's answer, not the quote's
    ctx.log.warn({ channel_id: channel.id, err: (err as Error).message }, 'a channel could not be quoted');
    return { ...quote, cannot: `the channel could not be asked: ${(err as Error).message}` };
  }
  const country = valid.body.destination_address.country_code;
  const listTransit = channel.priceList ? listTransitDays(channel.priceList, country) : null;
  const shipment = await quotedShipment(ctx, valid);
  const asked = valid.provider.adapter.rate ? await carrierRate(ctx, channel, shipment) : null;
  if (asked && 'refused' in asked) return { ...quote, cannot: cannotCarry(asked.refused), errors: asked.refused };
  if (asked && 'rate' in asked) {
    const { rate } = asked;
    return {
      ...quote, price: rate.amountMinor / 100, currency: rate.currency, price_source: 'carrier',
      transit_days: rate.transitDays ?? listTransit, estimated_delivery: rate.estimatedDelivery ?? null,
    };
  }
  const carrierError = asked ? `${valid.provider.name} did not answer a price: ${asked.error}` : null;
  const listed = channel.priceList ? listPriceOf(channel.priceList, shipment) : null;
  if (listed && !('cannot' in listed)) {
    return { ...quote, price: listed.amountMinor / 100, currency: listed.currency, price_source: 'price_list', transit_days: listTransit, carrier_error: carrierError };
  }
  if (carrierError) return { ...quote, cannot: carrierError, failed: true, carrier_error: carrierError };
  return { ...quote, cannot: listed ? listed.cannot : 'the channel has no price list, and its carrier answers prices only at creation' };
}

/** A creation's field errors as one line. */
function cannotCarry(errors: FieldErrors): string {
  return Object.entries(errors).map(([path, messages]) => `${path}: ${messages.join('; ')}`).join('; ');
}

/** The shipment as the adapter would get it at creation, stored nowhere. */
async function quotedShipment(ctx: ServiceContext, { provider, body }: ValidShipment): Promise<ShipmentForCarrier> {
  const row = { ...(await creationColumns(ctx, body, provider.code)), id: 'quote', referenceNumber: body.reference_number ?? null, labelComment: body.label_comment ?? null };
  return shipmentForCarrier(row as ShipmentRow, parcelRows(ctx, row.id, body.parcels));
}
