import { channelCapabilities } from '../carriers/capabilities.js';
import type { ChannelSettings, ProviderDefinition } from '../carriers/types.js';
import { LABEL_FORMATS, type LabelFormat } from '../domain/labels.js';

/** What a channel with these settings can do, as the API shows it; `{}` gives a provider's, with its default settings. */
export function presentCapabilities(provider: ProviderDefinition, settings: ChannelSettings) {
  const c = channelCapabilities(provider, settings);
  return {
    label_sources: Object.fromEntries(LABEL_FORMATS.map((f) => [f, c.nativeLabelFormats.includes(f) ? 'carrier' : 'converted'])) as Record<LabelFormat, 'carrier' | 'converted'>,
    cash_on_delivery: c.cashOnDelivery, multi_parcel: c.multiParcel, max_parcels: c.maxParcels, cancel: c.cancel,
    tracking_per_shipment: c.trackingPerShipment === true,
    unavailable_because: { ...c.unavailableBecause },
  };
}
