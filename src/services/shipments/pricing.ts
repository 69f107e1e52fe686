import { listPrice, type ListPrice, type PriceList } from '../../domain/price-list.js';
import type { FieldErrors } from '../../domain/errors.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError } from '../../carriers/errors.js';
import { findProvider } from '../../carriers/registry.js';
import type { CarrierRate, ShipmentForCarrier } from '../../carriers/types.js';
import type { shippingChannels } from '../../store/schema.js';
import { channelSettings } from '../channel-records.js';
import { carrierContext } from '../channels.js';
import type { ServiceContext } from '../context.js';

/** A shipment's price by its channel's price list, read from the shipment as its carrier gets it (quoted or created). */
export function listPriceOf(list: PriceList, s: ShipmentForCarrier): ListPrice {
  return listPrice(list, {
    countryCode: s.recipient.countryCode, parcelWeightsKg: s.parcels.map((p) => p.weightKg), cashOnDelivery: s.cashOnDelivery, shippingDate: s.shippingDate,
  });
}

/**
 * The channel's carrier's rate for the shipment (its adapter must have `rate`); its refusal of the shipment's fields
 * (the route, a parcel), as a creation's would be; or why it gave no price (5xx, timeout, credentials, no price),
 * logged without the channel's secrets.
 */
export async function carrierRate(
  ctx: ServiceContext, channel: typeof shippingChannels.$inferSelect, s: ShipmentForCarrier,
): Promise<{ rate: CarrierRate } | { refused: FieldErrors } | { error: string }> {
  try {
    return { rate: await findProvider(channel.provider)!.adapter.rate!(s, channelSettings(ctx, channel), carrierContext(ctx, channel)) };
  } catch (err) {
    const onFields = err instanceof CarrierRefusedError && !(err instanceof CarrierCredentialsRefusedError) && Object.keys(err.errors).length > 0;
    if (onFields) return { refused: (err as CarrierRefusedError).errors };
    ctx.log.warn({ channel_id: channel.id, err: (err as Error).message }, "a channel's carrier did not answer a price");
    return { error: (err as Error).message };
  }
}
