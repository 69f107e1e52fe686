import type { ProviderDefinition } from '../types.js';
import { dhlSettings } from './settings.js';

/** DHL Express — MyDHL API (REST, HTTP Basic). Docs: https://developer.dhl.com/api-reference/dhl-express-mydhl-api */
export const provider: ProviderDefinition = {
  code: 'dhl',
  name: 'DHL Express',
  regions: ['worldwide'],
  baseUrls: {
    production: 'https://express.api.dhl.com/mydhlapi',
    sandbox: 'https://express.api.dhl.com/mydhlapi/test',
  },
  // COD is not a MyDHL schema object but the value-added service 'KB' (karrio DHL Express connector);
  // inferred: whether it is offered depends on lane and account, see GET /products (MyDHL API docs).
  // No shipment cancel endpoint exists (only pickups); MyDHL allows 999 pieces, capped here at 50.
  capabilities: { labelFormats: ['pdf', 'zpl', 'epl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: false },
  settings: dhlSettings,
  docs: [
    'https://developer.dhl.com/api-reference/dhl-express-mydhl-api',
    'https://github.com/karrioapi/karrio/tree/main/modules/connectors/mydhl',
  ],
};
