import type { ProviderDefinition } from '../types.js';
import { dpdSettings } from './settings.js';

/** DPD — DPD Group META-API shipping (REST, login → X-DPD-TOKEN). Docs: METAAPI_CUSTOMER_DOCUMENTATION_1_2.pdf + openapi_metaapi_shipping.yaml */
export const provider: ProviderDefinition = {
  code: 'dpd',
  name: 'DPD',
  regions: [
    'DE', 'FR', 'NL', 'GB', 'AT', 'CZ', 'SK', 'HU', 'BG', 'ES', 'PL', 'IT',
    'SI', 'HR', 'PT', 'EE', 'LT', 'LV', 'BE', 'CH', 'RO', 'IE',
  ],
  baseUrls: {
    production: 'https://api.dpdgroup.com/shipping/v1',
    sandbox: 'https://api-preprod.dpsin.dpdgroup.com:8443/shipping/v1',
  },
  // EPL availability depends on the business unit. META-API has no cancel or tracking operation.
  // No documented parcel limit per shipment: 50 is our own cap.
  capabilities: { labelFormats: ['pdf', 'zpl', 'epl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: false },
  settings: dpdSettings,
  docs: ['https://github.com/karrioapi/karrio/tree/main/modules/connectors/dpd_meta/vendor'],
};
