import type { ProviderDefinition } from '../types.js';
import { glsSettings } from './settings.js';

/** GLS (CZ, SK, HU, RO, SI, HR, RS) — MyGLS ParcelService JSON API. Docs: "MyGLS API for system integration", https://github.com/webapix/mygls-sdk */
export const provider: ProviderDefinition = {
  code: 'gls',
  name: 'GLS',
  regions: ['CZ', 'SK', 'HU', 'RO', 'SI', 'HR', 'RS'],
  // The host's top-level domain follows the `countryDomain` setting; the .cz hosts are listed here.
  baseUrls: {
    production: 'https://api.mygls.cz/ParcelService.svc/json',
    sandbox: 'https://api.test.mygls.cz/ParcelService.svc/json',
  },
  // No documented parcel limit (`Count`) per shipment: 50 is our own cap. Cancel (DeleteLabels) works before hand-over.
  capabilities: { labelFormats: ['pdf', 'zpl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true },
  settings: glsSettings,
  docs: ['https://github.com/webapix/mygls-sdk', 'https://github.com/luca-saggese/node-mygls'],
};
