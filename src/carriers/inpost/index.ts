import type { CarrierMappers, DemoStory, ProviderDefinition } from '../types.js';
import { inpostAdapter } from './adapter.js';
import { INPOST_BASE_URLS } from './client.js';
import { INPOST_PRODUCTS, INPOST_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { inpostShipmentRequest } from './request.js';
import { parseCreated, parseRefusal, parseTracking, type InpostError, type InpostShipment, type InpostTracking } from './response.js';
import { inpostSettings } from './settings.js';

const mappers: CarrierMappers = {
  createRequest: (shipment, settings) => inpostShipmentRequest(shipment, inpostSettings.parse(settings)),
  parseCreated: (body) => parseCreated(body as InpostShipment),
  parseRefusal: (status, body) => parseRefusal(status, body as InpostError | undefined),
  parseTracking: (body, asked) => parseTracking(body as InpostTracking[], asked),
};

/**
 * InPost (Poland) — the ShipX REST API, the organization's API token as a Bearer. Follows ShipX's documentation
 * (dokumentacja-inpost.atlassian.net, space PL "API ShipX": shipments 11731061, search 18153512, cancellation 18153504,
 * statuses 18153478, form validation 18153492, dispatch orders 18153482, return labels 18153511) and the SDKs and plugins
 * that call it: InPost's own Magento plugin InPost-Magento/smartmage_inpost (returns),
 * michalbiarda/shipx-php-sdk (its methods' paths and filters, its models' fields) and moku-systems/inpost-shipx
 * (status, point and tracking types). InPost publishes no schema of its requests (no OpenAPI, no JSON Schema).
 */
export const provider: ProviderDefinition = {
  code: 'inpost',
  name: 'InPost',
  regions: ['PL'],
  baseUrls: INPOST_BASE_URLS,
  // ShipX's label call prints PDF, ZPL and EPL; a locker shipment holds one parcel, 20 a courier shipment is our own cap
  // returns: `is_return` on inpost_courier_standard, the customer's labelled parcel handed in at a PaczkoPunkt (`pop`)
  capabilities: { nativeLabelFormats: ['pdf', 'zpl', 'epl'], cashOnDelivery: true, multiParcel: true, maxParcels: 20, cancel: false, returns: true },
  settings: inpostSettings.specs,
  docs: [
    'https://dokumentacja-inpost.atlassian.net/wiki/spaces/PL/pages/622754/API+ShipX',
    'https://dokumentacja-inpost.atlassian.net/wiki/spaces/PL/pages/11731061',
    'https://dokumentacja-inpost.atlassian.net/wiki/spaces/PL/pages/18153511',
    'https://dokumentacja-inpost.atlassian.net/wiki/spaces/PL/pages/18153492/Form+validation',
    'https://dokumentacja-inpost.atlassian.net/wiki/spaces/PL/pages/18153512/Shipment+search+and+sorting',
    'https://dokumentacja-inpost.atlassian.net/wiki/spaces/PL/pages/18153478/Statuses',
    'https://dokumentacja-inpost.atlassian.net/wiki/spaces/PL/pages/18153482/Dispatch+Order',
    'https://github.com/michalbiarda/shipx-php-sdk',
    'https://github.com/moku-systems/inpost-shipx',
  ],
  adapter: inpostAdapter,
  trackingCodes: INPOST_TRACKING,
  products: INPOST_PRODUCTS,
  mappers,
  // JSON widens the price's source to a string
  demo: demo as DemoStory,
  emulator: () => import('./emulator.js').then((m) => m.createInpostEmulator),
};
