import type { FieldErrors } from '../domain/errors.js';
import { hostProblem } from '../net/addresses.js';
import type { ChannelSettings, ProviderDefinition, SettingSpec } from './types.js';
import { settingsSchema } from './registry.js';

/** What secret setting values look like in every response. */
export const MASK = '••••••••';

/** Each provider's patterns, compiled once (they come from the provider definitions, a fixed set). */
const patterns = new Map<string, RegExp>();

/** A string against the carrier's format: its length limits and pattern. */
function stringFormatError(spec: SettingSpec, value: string): string | undefined {
  const length = [...value].length;
  const characters = (n: number) => `${n} character${n === 1 ? '' : 's'}`;
  if (spec.minLength !== undefined && length < spec.minLength) return `must be at least ${characters(spec.minLength)}`;
  if (spec.maxLength !== undefined && length > spec.maxLength) return `must be at most ${characters(spec.maxLength)}`;
  if (spec.pattern === undefined) return undefined;
  let regex = patterns.get(spec.pattern);
  if (!regex) patterns.set(spec.pattern, regex = new RegExp(spec.pattern));
  return regex.test(value) ? undefined : `must be ${spec.patternDescription ?? `a match of ${spec.pattern}`}`;
}

/** A number against the carrier's limits. */
function rangeError(spec: SettingSpec, value: number): string | undefined {
  if (spec.minimum !== undefined && value < spec.minimum) return `must be at least ${spec.minimum}`;
  if (spec.maximum !== undefined && value > spec.maximum) return `must be at most ${spec.maximum}`;
  return undefined;
}

function valueError(spec: SettingSpec, value: unknown): string | undefined {
  switch (spec.type) {
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      if (spec.required && value.trim() === '') return 'must not be empty';
      if (spec.enum && !spec.enum.includes(value)) return `must be one of ${spec.enum.join(', ')}`;
      return stringFormatError(spec, value);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'integer':
      return Number.isInteger(value) ? rangeError(spec, value as number) : 'must be an integer';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? rangeError(spec, value) : 'must be a number';
  }
}

/** A carrier base URL (an emulator, a proxy): http(s), and never a link-local or metadata address. */
function baseUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an absolute http or https URL';
  if (url.username || url.password) return 'must not contain credentials';
  return hostProblem(url.hostname) ? 'must not point to a link-local or metadata address' : undefined;
}

/**
 * Checks `input` against the provider's settings schema and returns the settings to store.
 * With `stored`, `input` is a partial update merged key by key; a masked secret sent back keeps the stored value.
 * Field paths are `settings.<key>`; every problem is reported.
 */
export function resolveSettings(
  provider: ProviderDefinition,
  input: unknown,
  stored?: ChannelSettings,
  /** Settings entered so far (to list a setting's options): required keys may still be missing. */
  partial = false,
): { settings: ChannelSettings; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const add = (key: string, message: string) => (errors[`settings.${key}`] ??= []).push(message);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { settings: {}, errors: { settings: ['must be an object'] } };
  }
  const schema = settingsSchema(provider);
  const specs = new Map(schema.map((s) => [s.key, s]));
  const merged: ChannelSettings = { ...(stored ?? {}) };
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const spec = specs.get(key);
    if (!spec) {
      add(key, `is not a setting of provider ${provider.code}`);
      continue;
    }
    if (value === null) {
      if (spec.required) add(key, 'is required');
      else delete merged[key];
      continue;
    }
    if (spec.secret && value === MASK) {
      if (stored?.[key] === undefined) add(key, 'is masked; send the real value');
      continue; // the stored secret stays
    }
    const problem = valueError(spec, value) ?? (key === 'baseUrl' ? baseUrlProblem(value as string) : undefined);
    if (problem) add(key, problem);
    else merged[key] = value as string | number | boolean;
  }
  for (const spec of schema) {
    if (!partial && spec.required && merged[spec.key] === undefined && !errors[`settings.${spec.key}`]) add(spec.key, 'is required');
  }
  return { settings: merged, errors };
}

/** Settings as shown to API clients: secret values masked. */
export function maskSettings(provider: ProviderDefinition | undefined, settings: ChannelSettings): ChannelSettings {
  const secretKeys = new Set(provider ? settingsSchema(provider).filter((s) => s.secret).map((s) => s.key) : Object.keys(settings));
  const out: ChannelSettings = {};
  for (const [key, value] of Object.entries(settings)) out[key] = secretKeys.has(key) ? MASK : value;
  return out;
}
