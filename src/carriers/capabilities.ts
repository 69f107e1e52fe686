import type { CapabilitiesWithdrawn, ChannelSettings, ProviderCapabilities, ProviderDefinition } from './types.js';

/** What a channel can do: its provider's capabilities less those its settings take away, with the reason for each that is off. */
export interface ChannelCapabilities extends ProviderCapabilities {
  unavailableBecause: CapabilitiesWithdrawn;
}

/**
 * The one rule for what a channel can do, read by the cancel service, the channel and provider views, and through
 * them the CLI and the desk. `settings` as stored; `{}` gives what a new channel gets with the provider's defaults.
 */
export function channelCapabilities(provider: ProviderDefinition, settings: ChannelSettings): ChannelCapabilities {
  const withdrawn = provider.channelCapabilities?.(settings) ?? {};
  const cancelUnavailable = provider.capabilities.cancel ? withdrawn.cancel : `${provider.name} cannot cancel shipments through its API`;
  return {
    ...provider.capabilities,
    cancel: cancelUnavailable === undefined,
    unavailableBecause: cancelUnavailable === undefined ? {} : { cancel: cancelUnavailable },
  };
}
