import { CarrierRefusedError } from './errors.js';
import type { ProviderDefinition } from './types.js';

/** Where a channel's calls go: its `baseUrl` override (an emulator, a proxy), else the declared sandbox or production URL. */
export function resolveBaseUrl(provider: Pick<ProviderDefinition, 'name' | 'baseUrls'>, settings: { sandboxMode: boolean; baseUrl?: string }): string {
  if (settings.baseUrl) return settings.baseUrl;
  if (!settings.sandboxMode) return provider.baseUrls.production;
  if (provider.baseUrls.sandbox) return provider.baseUrls.sandbox;
  throw new CarrierRefusedError(`${provider.name} has no sandbox`, { 'settings.sandboxMode': [`${provider.name} has no sandbox; set baseUrl instead`] });
}
