import type { ProviderDefinition } from '../types.js';
import { onedeliverySettings } from './settings.js';

/** One by Allegro (formerly WE|DO) — WE|DO REST API v2 (HTTP Basic). Docs: https://bridge.intime.cz/doc/restapi.html */
export const provider: ProviderDefinition = {
  code: 'onedelivery',
  name: 'One by Allegro',
  regions: ['CZ', 'SK'],
  baseUrls: {
    production: 'https://api.wedo.cz/v2',
    sandbox: 'https://api.test.wedo.cz/v2',
  },
  // Cancel (DELETE /package/{order_number}) works only before the shipment is sent in a batch.
  // No documented `package_count` limit: 50 is our own cap.
  capabilities: { labelFormats: ['pdf', 'zpl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true },
  settings: onedeliverySettings,
  docs: ['https://bridge.intime.cz/doc/restapi.html', 'https://github.com/nuty456/WeDoApi'],
};
