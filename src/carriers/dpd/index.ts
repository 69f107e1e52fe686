import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { dpdAdapter } from './adapter.js';
import { DPD_BASE_URLS } from './client.js';
import { DPD_BU_CODES, DPD_PRODUCTS, DPD_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { dpdShipmentRequest } from './request.js';
import { parseCreatedShipment, parseDpdErrors, parseTrackingAnswers, type DpdCreatedBody } from './response.js';
import { dpdSettings } from './settings.js';

const mappers: CarrierMappers = {
  createRequest: (shipment, settings) => dpdShipmentRequest(shipment, dpdSettings.parse(settings)),
  parseCreated: (body, shipment) => parseCreatedShipment(body as DpdCreatedBody, shipment.parcels.length),
  parseRefusal: (status, body) => parseDpdErrors(body, status),
  parseTracking: (body, asked) => parseTrackingAnswers((body ?? {}) as Record<string, string>, asked),
};

/** The countries of DPD's business units (X-DPD-BUCODE). */
const BU_COUNTRIES: Record<(typeof DPD_BU_CODES)[number], string> = {
  '001': 'DE', '002': 'FR', '010': 'NL', '011': 'GB', '014': 'AT', '015': 'CZ', '016': 'SK', '017': 'HU', '018': 'BG', '020': 'ES',
  '021': 'PL', '023': 'IT', '026': 'SI', '028': 'HR', '030': 'PT', '031': 'EE', '032': 'LT', '033': 'LV', '034': 'BE', '036': 'CH',
  '038': 'FR', '041': 'RO', '046': 'IE',
};

/**
 * DPD — DPD Group META-API (REST; login → X-DPD-TOKEN, then Bearer): create with one label document for all parcels,
 * customs data in `international`, returns as 2C Return (332); tracking through DPD's ParcelLifeCycleService (SOAP)
 * with the same login; no cancel.
 */
export const provider: ProviderDefinition = {
  code: 'dpd',
  name: 'DPD',
  regions: [...new Set(Object.values(BU_COUNTRIES))],
  baseUrls: DPD_BASE_URLS,
  // The META-API has no cancel; it documents no parcel limit a shipment (numberOfParcels has 3 digits): 50 is packdesk's.
  // Customs: `Shipment.international` with one `interInvoiceLines` entry an item; returns: product 332 (2C Return).
  capabilities: {
    nativeLabelFormats: ['pdf', 'zpl', 'epl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: false, customs: true, returns: true,
  },
  settings: dpdSettings.specs,
  docs: [
    'https://github.com/karrioapi/karrio/blob/main/modules/connectors/dpd_meta/vendor/openapi_metaapi_shipping.yaml',
    'https://github.com/karrioapi/karrio/blob/main/modules/connectors/dpd_meta/vendor/meta-api-docs.json',
    'https://github.com/karrioapi/karrio/blob/main/modules/connectors/dpd_meta/vendor/METAAPI_CUSTOMER_DOCUMENTATION_1_2.pdf',
    'https://github.com/karrioapi/karrio/blob/main/modules/connectors/dpd/schemas/ParcelLifecycleServiceV20.xsd',
    'https://github.com/karrioapi/karrio/tree/main/modules/connectors/dpd_meta',
    'https://github.com/karrioapi/karrio/tree/main/modules/connectors/dpd',
  ],
  adapter: dpdAdapter,
  trackingCodes: DPD_TRACKING,
  products: DPD_PRODUCTS,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createDpdEmulator),
};
