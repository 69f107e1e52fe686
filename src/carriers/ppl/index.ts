import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { pplAdapter } from './adapter.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { PPL_BASE_URLS } from './client.js';
import { PPL_PRODUCTS, PPL_TRACKING } from './codes.js';
import { pplBatchRequest } from './request.js';
import { parseBatchStatus, parseProblem, parseTrackedShipments, type PplTrackedShipment, type ProblemDetails } from './response.js';
import { pplSettings } from './settings.js';

const mappers: CarrierMappers = {
  createRequest: (shipment, settings) => pplBatchRequest(shipment, pplSettings.parse(settings)),
  parseCreated: (body, shipment) => parseBatchStatus(body as Parameters<typeof parseBatchStatus>[0], shipment.id),
  parseRefusal: (status, body) => parseProblem((body ?? {}) as ProblemDetails, status),
  parseTracking: (body, asked) => parseTrackedShipments(body as PplTrackedShipment[], asked),
};

/** PPL CZ — CPL API ("MyAPI2"), REST + OAuth2 client credentials. Docs: https://ppl-cpl-api-en.apidog.io */
export const provider: ProviderDefinition = {
  code: 'ppl',
  name: 'PPL',
  regions: ['CZ', 'SK'],
  baseUrls: PPL_BASE_URLS,
  capabilities: { nativeLabelFormats: ['pdf', 'zpl'], cashOnDelivery: true, multiParcel: true, maxParcels: 20, cancel: true, returns: true },
  settings: pplSettings.specs,
  docs: ['https://ppl-cpl-api-en.apidog.io', 'https://github.com/bohemicastudio/ppl-myapi'],
  adapter: pplAdapter,
  trackingCodes: PPL_TRACKING,
  products: PPL_PRODUCTS,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createPplEmulator),
};
