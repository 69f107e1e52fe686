import { PROVIDERS } from './providers.js';
import type { LabelFormat } from '../domain/labels.js';
import type { ProviderCapabilities, ProviderDefinition, SettingSpec } from './types.js';

/** Settings every provider has, whatever its carrier. */
export const COMMON_SETTINGS: readonly SettingSpec[] = [
  { key: 'sandboxMode', type: 'boolean', required: false, secret: false, default: false, description: "Use the carrier's sandbox/test environment" },
  { key: 'baseUrl', type: 'string', required: false, secret: false, description: "Override the carrier's API base URL (e.g. a local emulator)" },
];

/**
 * What a provider lacks (empty when complete): checked once at start-up, so a provider loaded without its adapter or
 * emulator (the types require them, a cast does not) stops the daemon rather than a shipment.
 */
export function missingParts(p: ProviderDefinition): string[] {
  if (!p.adapter) return ['adapter'];
  const missing: string[] = [];
  for (const fn of ['validate', 'createShipment', 'trackingUrl', 'track'] as const) if (typeof p.adapter[fn] !== 'function') missing.push(`adapter.${fn}`);
  if (p.capabilities.cancel !== (typeof p.adapter.cancel === 'function')) missing.push(p.capabilities.cancel ? 'adapter.cancel' : 'capabilities.cancel: false');
  if (!p.mappers) missing.push('mappers');
  if (!p.trackingCodes) missing.push('trackingCodes');
  if (!p.emulator) missing.push('emulator');
  if (!p.demo) missing.push('demo');
  if (p.docs.length === 0) missing.push('docs');
  return missing;
}

function checked(providers: readonly ProviderDefinition[]): readonly ProviderDefinition[] {
  for (const p of providers) {
    const missing = missingParts(p);
    if (missing.length > 0) throw new Error(`provider ${p.code} is incomplete: it lacks ${missing.join(', ')}`);
  }
  return providers;
}

const ALL = checked(PROVIDERS);
const BY_CODE = new Map(ALL.map((p) => [p.code, p]));

export function listProviders(): readonly ProviderDefinition[] {
  return ALL;
}

export function findProvider(code: string): ProviderDefinition | undefined {
  return BY_CODE.get(code);
}

export const PROVIDER_CODES: readonly string[] = ALL.map((p) => p.code);

/** The provider's own settings followed by the common ones. */
export function settingsSchema(provider: ProviderDefinition): readonly SettingSpec[] {
  return [...provider.settings, ...COMMON_SETTINGS];
}

/**
 * The format to ask the carrier for: the requested one where the carrier has it, else the one that converts best —
 * PDF for a thermal label (vector shapes and the carrier's fonts), a thermal label for a PDF.
 */
export function carrierLabelFormat(caps: ProviderCapabilities, requested: LabelFormat): LabelFormat {
  const native = caps.nativeLabelFormats;
  if (native.includes(requested)) return requested;
  const preference: LabelFormat[] = requested === 'pdf' ? ['zpl', 'epl'] : ['pdf', requested === 'zpl' ? 'epl' : 'zpl'];
  return preference.find((format) => native.includes(format)) ?? native[0]!;
}
