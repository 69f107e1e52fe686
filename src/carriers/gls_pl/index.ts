import type { ProviderDefinition } from '../types.js';
import { glsPlSettings } from './settings.js';

/** GLS Poland — ADE Plus WebAPI (SOAP, ade_webapi2). Docs: WSDL at the production URL + "?wsdl", https://github.com/kerogos/gls-polska */
export const provider: ProviderDefinition = {
  code: 'gls_pl',
  name: 'GLS Poland',
  regions: ['PL'],
  // SOAP endpoints; each serves its WSDL at the same address with "?wsdl".
  baseUrls: {
    production: 'https://adeplus.gls-poland.com/adeplus/pm1/ade_webapi2.php',
    sandbox: 'https://ade-test.gls-poland.com/adeplus/pm1/ade_webapi2.php',
  },
  // Cancel = adePreparingBox_DeleteConsign; that it only works before adePickup_Create is inferred
  // (ADE Plus WebAPI clients kerogos/gls-polska, sylapi/courier-gls). No documented parcel limit: 50 is our own cap.
  capabilities: { labelFormats: ['pdf', 'zpl', 'epl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true },
  settings: glsPlSettings,
  docs: [
    'https://adeplus.gls-poland.com/adeplus/pm1/ade_webapi2.php?wsdl',
    'https://github.com/kerogos/gls-polska',
    'https://github.com/sylapi/courier-gls',
  ],
};
