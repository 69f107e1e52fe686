import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { onedeliveryAdapter } from './adapter.js';
import { ONEDELIVERY_BASE_URLS } from './client.js';
import { ONEDELIVERY_PRODUCTS, ONEDELIVERY_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { onedeliveryPackageRequest } from './request.js';
import {
  parseCreated, parseRefusal, parseTracking, type OnedeliveryCreateAnswer, type OnedeliveryError, type OnedeliveryPackageDetail,
} from './response.js';
import { onedeliverySettings } from './settings.js';

const mappers: CarrierMappers = {
  createRequest: (shipment, settings) => onedeliveryPackageRequest(shipment, onedeliverySettings.parse(settings)),
  parseCreated: (body) => parseCreated(body as OnedeliveryCreateAnswer),
  parseRefusal: (status, body) => parseRefusal(status, body as OnedeliveryError | undefined),
  parseTracking: (body, asked) => parseTracking(body as OnedeliveryPackageDetail[], asked),
};

/**
 * One by Allegro (formerly WE|DO, earlier IN TIME) — the WE|DO REST API v2, HTTP Basic (API user + API key). Follows
 * the Java client nuty456/WeDoApi (`src/main/java/cz/wedo/api/**`, its README's real answers) and One's REST
 * documentation pages on bridge.intime.cz. One publishes no JSON schema of its requests.
 */
export const provider: ProviderDefinition = {
  code: 'onedelivery',
  name: 'One by Allegro',
  regions: ['CZ', 'SK'],
  baseUrls: ONEDELIVERY_BASE_URLS,
  // No package_count limit is published: 50 is our own cap.
  // returns: a return shipment ("zpětná zásilka", additional_service.reverse_order), collected at the customer's door
  capabilities: { nativeLabelFormats: ['pdf', 'zpl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true, trackingPerShipment: true, returns: true },
  // DELETE /package works until the package is sent for processing: at creation with sendForProcessing (the default),
  // else when its dispatch sends the day's batch
  channelCapabilities: (settings) => (onedeliverySettings.parse(settings).sendForProcessing ? {
    cancel: 'One by Allegro deletes no package once it is sent for processing, and this channel sends each shipment for processing as it '
      + 'is created (settings.sendForProcessing); with sendForProcessing off, a shipment can be cancelled until its dispatch sends it in the day\'s batch',
  } : {}),
  settings: onedeliverySettings.specs,
  docs: [
    'https://github.com/nuty456/WeDoApi',
    'https://bridge.intime.cz/doc/restapi.html',
    'https://bridge.intime.cz/doc/restapi-pup.html',
    'https://bridge.intime.cz/doc/pull.html',
  ],
  adapter: onedeliveryAdapter,
  trackingCodes: ONEDELIVERY_TRACKING,
  products: ONEDELIVERY_PRODUCTS,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createOnedeliveryEmulator),
};
