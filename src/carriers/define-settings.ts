import type { ChannelSettings, SettingSpec } from './types.js';

/** One setting as a provider declares it; `required` and `secret` default to false. */
export interface SettingDefinition {
  type: SettingSpec['type'];
  required?: boolean;
  secret?: boolean;
  description: string;
  default?: string | number | boolean;
  enum?: readonly string[];
  listed?: boolean;
  /** The carrier's format of a string value: the whole value matches `regex` (no flags); `description` completes "must be …". */
  pattern?: { regex: RegExp; description: string };
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

type ValueOf<D extends SettingDefinition> =
  D['enum'] extends readonly (infer E)[] ? E : D['type'] extends 'string' ? string : D['type'] extends 'boolean' ? boolean : number;
type Present<S> = { [K in keyof S]: S[K] extends { required: true } | { default: string | number | boolean } ? K : never }[keyof S];

/** A provider's settings as its client reads them: typed, defaults applied, plus the settings every provider has. */
export type ParsedSettings<S extends Record<string, SettingDefinition>> =
  { [K in Present<S>]: ValueOf<S[K]> } & { [K in Exclude<keyof S, Present<S>>]?: ValueOf<S[K]> } & { sandboxMode: boolean; baseUrl?: string };

export interface ProviderSettings<S extends Record<string, SettingDefinition>> {
  /** What `GET /v1/providers` shows and `resolveSettings` checks. */
  specs: readonly SettingSpec[];
  /** Stored (already validated) settings → typed values with defaults. */
  parse(settings: ChannelSettings): ParsedSettings<S>;
}

/**
 * Declares a provider's settings once: the schema the API checks and a typed `parse()` for its client, so no code
 * reads `settings.x` as an untyped value.
 */
export function defineSettings<const S extends Record<string, SettingDefinition>>(definitions: S): ProviderSettings<S> {
  const specs = Object.entries(definitions).map(([key, d]): SettingSpec => ({
    key, type: d.type, required: d.required ?? false, secret: d.secret ?? false, description: d.description,
    ...(d.default !== undefined ? { default: d.default } : {}), ...(d.enum ? { enum: d.enum } : {}),
    ...(d.listed ? { listed: true } : {}),
    ...(d.pattern ? { pattern: d.pattern.regex.source, patternDescription: d.pattern.description } : {}),
    ...(d.minLength !== undefined ? { minLength: d.minLength } : {}), ...(d.maxLength !== undefined ? { maxLength: d.maxLength } : {}),
    ...(d.minimum !== undefined ? { minimum: d.minimum } : {}), ...(d.maximum !== undefined ? { maximum: d.maximum } : {}),
  }));
  return {
    specs,
    parse(settings) {
      const out: Record<string, string | number | boolean> = { sandboxMode: settings.sandboxMode === true };
      if (typeof settings.baseUrl === 'string') out.baseUrl = settings.baseUrl;
      for (const spec of specs) {
        const value = settings[spec.key] ?? spec.default;
        if (value !== undefined) out[spec.key] = value;
      }
      return out as ParsedSettings<S>;
    },
  };
}
