import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { glsAdapter } from './adapter.js';
import { GLS_BASE_URLS } from './client.js';
import { GLS_PRODUCTS, GLS_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { glsPrintLabelsRequest } from './request.js';
import { parseCreated, parseRefusal, parseTracking, type GlsAnswer, type GlsLabelsAnswer, type GlsParcelStatusesAnswer } from './response.js';
import { glsSettings } from './settings.js';

const mappers: CarrierMappers = {
  createRequest: (shipment, settings) => glsPrintLabelsRequest(shipment, glsSettings.parse(settings)),
  parseCreated: (body) => parseCreated(body as GlsLabelsAnswer),
  parseRefusal: (status, body) => parseRefusal(status, body as GlsAnswer | undefined),
  // GetParcelStatuses answers for one number: the adapter reads one answer per asked number, in the order asked
  parseTracking: (body, asked) => parseTracking(body as GlsParcelStatusesAnswer[], asked),
};

/**
 * GLS in Central and South-East Europe — the MyGLS API (ParcelService, JSON over HTTP, user name and SHA-512
 * password digest in every body): PrintLabels, GetPrintedLabels, GetParcelList, DeleteLabels, GetParcelStatuses, and
 * CreatePickupRequest at the end of the day. Follows webapix/mygls-sdk, the ParcelService WSDL's data contracts as
 * generated in RustamKuramshin/mygls-java-clients, GLS's "MyGLS API for system integration", and for the pickup GLS's
 * own WooCommerce plugin ("GLS Shipping for WooCommerce"). ParcelShops and ParcelLockers: the PSD service, with the
 * points found in GLS's public point lists (`/data/deliveryPoints/<country>.json` on map.gls-<country>.com, the lists
 * GLS's map widget reads). Returns: the Pick&ReturnService (PRS), as GLS Czech Republic's "Reverse logistics" page
 * describes it. Customs: MyGLS's Parcel has no customs or invoice members, so packdesk refuses routes across a customs
 * border. Not GLS ShipIT (DE, AT, …).
 */
export const provider: ProviderDefinition = {
  code: 'gls',
  name: 'GLS',
  regions: ['CZ', 'SK', 'HU', 'RO', 'SI', 'HR', 'RS'],
  // the .cz hosts; the `country` setting picks the host of another country (client.ts, glsBaseUrls)
  baseUrls: GLS_BASE_URLS,
  // MyGLS publishes no limit on `Count`: 50 is our own cap (DeleteLabels and GetPrintedLabels take 50 and 99 ids a call).
  capabilities: { nativeLabelFormats: ['pdf', 'zpl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true, returns: true },
  settings: glsSettings.specs,
  docs: [
    'https://github.com/webapix/mygls-sdk',
    'https://github.com/RustamKuramshin/mygls-java-clients',
    'https://api.mygls.hu/',
    'https://api.mygls.ro/docs/MyGLS_API.pdf',
    'https://wordpress.org/plugins/gls-shipping-for-woocommerce/',
    'https://map.gls-czech.com/widget/gls-dpm.js',
    'https://gls-group.com/CZ/en/shipping-solutions/reverse-logistics/',
  ],
  adapter: glsAdapter,
  trackingCodes: GLS_TRACKING,
  products: GLS_PRODUCTS,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createGlsEmulator),
};
