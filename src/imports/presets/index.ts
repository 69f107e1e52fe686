import { baselinker } from './baselinker.js';
import { moneyS3 } from './money-s3.js';
import { pohoda } from './pohoda.js';
import { prestashop } from './prestashop.js';
import { shoptet } from './shoptet.js';
import type { MappingPreset } from './types.js';
import { woocommerce } from './woocommerce.js';

/** The exports of shops and ERPs packdesk reads by name, each in a file of its own that cites its source. */
export const PRESETS: readonly MappingPreset[] = [shoptet, woocommerce, prestashop, baselinker, pohoda, moneyS3];
