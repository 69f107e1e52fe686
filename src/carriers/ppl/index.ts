import type { ProviderDefinition } from '../types.js';
import { pplAdapter } from './adapter.js';
import { pplSettings } from './settings.js';

/** PPL CZ — CPL API ("MyAPI2"), REST + OAuth2 client credentials. Docs: https://ppl-cpl-api-en.apidog.io */
export const provider: ProviderDefinition = {
  code: 'ppl',
  name: 'PPL',
  regions: ['CZ', 'SK'],
  baseUrls: {
    production: 'https://api.dhl.com/ecs/ppl/myapi2',
    sandbox: 'https://api-dev.dhl.com/ecs/ppl/myapi2',
  },
  capabilities: { labelFormats: ['pdf', 'zpl'], cashOnDelivery: true, multiParcel: true, maxParcels: 20, cancel: true },
  settings: pplSettings,
  docs: ['https://ppl-cpl-api-en.apidog.io', 'https://github.com/bohemicastudio/ppl-myapi'],
  adapter: pplAdapter,
};
