import type { ProviderDefinition } from '../types.js';
import { dpdPlSettings } from './settings.js';

/** DPD Poland — DPDServices DPDPackageObjServices (SOAP). Docs: WSDL at the production URL + "?WSDL", https://github.com/t3ko/dpd-pl-api-php */
export const provider: ProviderDefinition = {
  code: 'dpd_pl',
  name: 'DPD Poland',
  regions: ['PL'],
  // SOAP endpoints; each serves its WSDL at the same address with "?WSDL".
  baseUrls: {
    production: 'https://dpdservices.dpd.com.pl/DPDPackageObjServicesService/DPDPackageObjServices',
    sandbox: 'https://dpdservicesdemo.dpd.com.pl/DPDPackageObjServicesService/DPDPackageObjServices',
  },
  // DPDServices has no cancel operation; packages never handed over are, by inference, not billed (DPDServices clients, t3ko/dpd-pl-api-php).
  // No documented parcel limit per package: 50 is our own cap.
  capabilities: { labelFormats: ['pdf', 'zpl', 'epl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: false },
  settings: dpdPlSettings,
  docs: [
    'https://dpdservices.dpd.com.pl/DPDPackageObjServicesService/DPDPackageObjServices?WSDL',
    'https://github.com/t3ko/dpd-pl-api-php',
  ],
};
