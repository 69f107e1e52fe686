import type { ProviderDefinition, SettingSpec } from './types.js';
import { provider as ppl } from './ppl/index.js';
import { provider as dhl } from './dhl/index.js';
import { provider as dhlPl } from './dhl_pl/index.js';
import { provider as dpd } from './dpd/index.js';
import { provider as dpdPl } from './dpd_pl/index.js';
import { provider as gls } from './gls/index.js';
import { provider as glsPl } from './gls_pl/index.js';
import { provider as spx } from './spx/index.js';
import { provider as mrw } from './mrw/index.js';
import { provider as posteItaliane } from './poste_italiane/index.js';
import { provider as allegro } from './allegro/index.js';
import { provider as baselinker } from './baselinker/index.js';
import { provider as onedelivery } from './onedelivery/index.js';

/** Settings every provider has, whatever its carrier. */
export const COMMON_SETTINGS: readonly SettingSpec[] = [
  { key: 'sandboxMode', type: 'boolean', required: false, secret: false, default: false, description: "Use the carrier's sandbox/test environment" },
  { key: 'baseUrl', type: 'string', required: false, secret: false, description: "Override the carrier's API base URL (e.g. a local emulator)" },
];

const ALL: readonly ProviderDefinition[] = [
  ppl, dhl, dhlPl, dpd, dpdPl, gls, glsPl, spx, mrw, posteItaliane, allegro, baselinker, onedelivery,
];

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
