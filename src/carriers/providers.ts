import type { ProviderDefinition } from './types.js';
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
import { provider as packeta } from './packeta/index.js';
import { provider as inpost } from './inpost/index.js';

/** The fifteen provider folders, in the order `GET /v1/providers` lists them: the only file that names them. */
export const PROVIDERS: readonly ProviderDefinition[] = [
  ppl, dhl, dhlPl, dpd, dpdPl, gls, glsPl, spx, mrw, posteItaliane, allegro, baselinker, onedelivery, packeta, inpost,
];
