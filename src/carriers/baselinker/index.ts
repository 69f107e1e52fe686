import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { baselinkerAdapter } from './adapter.js';
import { BASELINKER_BASE_URLS } from './client.js';
import { BASELINKER_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { baselinkerCreateRequests } from './request.js';
import { parseCreated, parseRefusal, parseTracking, type BaselinkerAnswer, type BaselinkerCreateAnswers, type BaselinkerTrackingBody } from './response.js';
import { baselinkerSettings } from './settings.js';

const mappers: CarrierMappers = {
  createRequest: (shipment, settings) => baselinkerCreateRequests(shipment, baselinkerSettings.parse(settings)),
  parseCreated: (body) => parseCreated(body as BaselinkerCreateAnswers),
  parseRefusal: (status, body) => parseRefusal(status, body as BaselinkerAnswer | undefined),
  parseTracking: (body, asked) => parseTracking(body as BaselinkerTrackingBody, asked),
};

/**
 * Baselinker (Base.com) — the connector API: form POSTs of `method` and JSON `parameters` to connector.php with the
 * `X-BLToken` header. A shipment is a Base.com order (addOrder) with one courier package per parcel (createPackage),
 * labels by getLabel, tracking by getCourierPackagesStatusHistory, cancel by deleteCourierPackage. Follows the
 * official method pages and the typed client s0rus/baselinker-js.
 */
export const provider: ProviderDefinition = {
  code: 'baselinker',
  name: 'Baselinker',
  regions: ['PL', 'EU'],
  baseUrls: BASELINKER_BASE_URLS,
  // Formats, COD and cancel at the courier depend on the channel's courier; these are the emulated courier's (dhl).
  // No package limit is published: 50 is our own cap (each parcel costs two of the token's 100 calls a minute).
  capabilities: { nativeLabelFormats: ['pdf', 'zpl', 'epl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true },
  settings: baselinkerSettings.specs,
  docs: [
    'https://api.baselinker.com/?method=addOrder',
    'https://api.baselinker.com/?method=getOrders',
    'https://api.baselinker.com/?method=deleteOrders',
    'https://api.baselinker.com/?method=createPackage',
    'https://api.baselinker.com/?method=getCourierFields',
    'https://api.baselinker.com/?method=getLabel',
    'https://api.baselinker.com/?method=getOrderPackages',
    'https://api.baselinker.com/?method=getCourierPackagesStatusHistory',
    'https://api.baselinker.com/?method=deleteCourierPackage',
    'https://api.baselinker.com/?method=getRequestParcelPickupFields',
    'https://api.baselinker.com/?method=runRequestParcelPickup',
    'https://api.baselinker.com/?method=getProtocol',
    'https://github.com/s0rus/baselinker-js',
  ],
  adapter: baselinkerAdapter,
  trackingCodes: BASELINKER_TRACKING,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createBaselinkerEmulator),
  // a creation takes three or more of the token's 100 calls a minute (request-budget.ts): one at a time spends them
  creationLimits: { perChannel: 1 },
};
