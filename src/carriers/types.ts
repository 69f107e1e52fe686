/** What every carrier provider declares, and the adapter interface each one implements. */

export type LabelFormat = 'pdf' | 'zpl' | 'epl';
export const LABEL_FORMATS: readonly LabelFormat[] = ['pdf', 'zpl', 'epl'];

/** One key of a channel's `settings` object. Keys are camelCase. */
export interface SettingSpec {
  key: string;
  type: 'string' | 'boolean' | 'integer' | 'number';
  required: boolean;
  /** Secret values are encrypted at rest and never returned unmasked. */
  secret: boolean;
  description: string;
  default?: string | number | boolean;
  /** Allowed values, for string settings that are code lists (e.g. a product code). */
  enum?: readonly string[];
}

export interface ProviderCapabilities {
  labelFormats: readonly LabelFormat[];
  cashOnDelivery: boolean;
  multiParcel: boolean;
  maxParcels: number;
  cancel: boolean;
}

/** Settings after validation: plain values keyed by setting key. */
export type ChannelSettings = Record<string, string | number | boolean>;

export type ValidationOutcome =
  | { ok: true }
  | { ok: false; message: string; errors?: Record<string, string[]> };

/** The I/O side of a provider. Later capabilities (create, cancel, track) extend it. */
export interface CarrierAdapter {
  /** Log in / fetch a token / make a cheap authenticated read with the channel's credentials. */
  validate(settings: ChannelSettings, ctx: CarrierContext): Promise<ValidationOutcome>;
}

export interface CarrierContext {
  /** Stable key for per-channel caches (OAuth tokens). */
  channelId: string;
  signal?: AbortSignal;
}

export interface ProviderDefinition {
  code: string;
  name: string;
  regions: readonly string[];
  /** Production and sandbox base URLs; `baseUrl` in settings overrides both. */
  baseUrls: { production: string; sandbox?: string };
  capabilities: ProviderCapabilities;
  /** Provider-specific settings; `sandboxMode` and `baseUrl` are added for every provider. */
  settings: readonly SettingSpec[];
  /** Public documentation the provider's code follows. */
  docs: readonly string[];
  adapter?: CarrierAdapter;
}
