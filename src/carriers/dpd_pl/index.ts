import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { dpdPlAdapter } from './adapter.js';
import { DPD_PL_BASE_URLS } from './client.js';
import { DPD_PL_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { dpdPlCreateRequest } from './request.js';
import { parseCreated, parseRefusal, parseTracking } from './response.js';
import { dpdPlSettings } from './settings.js';

const mappers: CarrierMappers = {
  createRequest: (shipment, settings) => dpdPlCreateRequest(shipment, dpdPlSettings.parse(settings)),
  parseCreated: (body) => parseCreated(String(body)),
  parseRefusal: (status, body) => parseRefusal(status, String(body)),
  parseTracking: (body, asked) => parseTracking(String(body), asked),
};

/**
 * DPD Poland — DPDServices (SOAP): DPDPackageObjServices for waybills, labels, hand-over protocols and courier orders,
 * DPD Info Services for tracking, DPD Polska's point API (mypudo) for DPD Pickup points and lockers.
 * Follows DPD's "DPDServices — customer documentation" 2.87 (with its schema and error-code sheet), and the types
 * generated from the WSDLs in t3ko/dpd-pl-api-php.
 */
export const provider: ProviderDefinition = {
  code: 'dpd_pl',
  name: 'DPD Poland',
  regions: ['PL', 'EU'],
  baseUrls: DPD_PL_BASE_URLS,
  // DPDServices has no cancel operation (customer documentation 2.87 lists none); 50 parcels is our own cap
  // returns: DPD's return label of the outbound waybills (generateDomesticReturnLabelV1, generateReturnLabelV1 abroad)
  capabilities: { nativeLabelFormats: ['pdf', 'zpl', 'epl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: false, returns: true },
  settings: dpdPlSettings.specs,
  docs: [
    'https://dpdservices.dpd.com.pl/DPDPackageObjServicesService/DPDPackageObjServices?WSDL',
    'https://dpdinfoservices.dpd.com.pl/DPDInfoServicesObjEventsService/DPDInfoServicesObjEvents?wsdl',
    'https://github.com/xinyi-cx/logisticsManagement/tree/48970c8c068994a6dc1973c9d8ad3519560f2b12/eg/DPD-Services-dokumentacja-klienta-ENG%202.87',
    'https://github.com/t3ko/dpd-pl-api-php',
    // return labels: DPD Polska's own PrestaShop module (EUPL-1.2), Domain/ReturnLabel/Command/ReturnLabelHandler.php
    'https://github.com/bartekprestashop/chemiaitalia/tree/07b242935852e874f6a19014403e73d6a7dc3699/public_html/modules/dpdshipping',
    // DPD Pickup points: DPD Polska's point API as its own shop modules and answear's client call it
    'https://mypudo.dpd.com.pl/api/pudo/details',
    'https://github.com/answear/dpd-pl-pickup-services-bundle',
  ],
  adapter: dpdPlAdapter,
  trackingCodes: DPD_PL_TRACKING,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createDpdPlEmulator),
};
