import type { ProviderDefinition } from '../types.js';
import { spxSettings } from './settings.js';

/** SP Express (formerly Świat Przesyłek) — sp.express REST API, paths under /V1. Docs: https://github.com/sp-express/php-sdk */
export const provider: ProviderDefinition = {
  code: 'spx',
  name: 'SP Express',
  regions: ['PL'],
  // No separate sandbox host is published; test accounts are, by inference, served by the same host (sp-express/php-sdk).
  baseUrls: { production: 'https://api.sp.express' },
  // Multi-parcel is inferred: `options.number` appears to be the parcel count (sp-express/php-sdk error codes 1460/1480);
  // no documented limit, so 50 is our own cap. COD (`options.cod`) is accepted on PL→PL routes only.
  capabilities: { labelFormats: ['pdf'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true },
  settings: spxSettings,
  docs: ['https://github.com/sp-express/php-sdk'],
};
