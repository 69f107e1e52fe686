import type { ProviderDefinition } from '../types.js';
import { dhlPlSettings } from './settings.js';

/** DHL Parcel Poland — DHL24 WebAPI v2 (SOAP). Docs: https://dhl24.com.pl/en/webapi2/doc/info/createShipments.html */
export const provider: ProviderDefinition = {
  code: 'dhl_pl',
  name: 'DHL Parcel Poland',
  regions: ['PL'],
  baseUrls: {
    production: 'https://dhl24.com.pl/webapi2/provider/service.html?ws=1',
    sandbox: 'https://sandbox.dhl24.com.pl/webapi2/provider/service.html?ws=1',
  },
  // getLabels offers PDF (LP, BLP, LBLP) and ZPL (ZBLP, ZBLP300) only; no EPL is inferred from that list (DHL24 WebAPI2 docs).
  // No documented piece limit per shipment: 50 is our own cap.
  capabilities: { labelFormats: ['pdf', 'zpl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true },
  settings: dhlPlSettings,
  docs: [
    'https://dhl24.com.pl/en/webapi2/doc/info/createShipments.html',
    'https://github.com/karrioapi/karrio/tree/main/modules/connectors/dhl_poland',
  ],
};
