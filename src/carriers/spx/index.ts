import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { spxAdapter } from './adapter.js';
import { SPX_BASE_URLS } from './client.js';
import { SPX_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { spxCreateRequest } from './request.js';
import { parseCreated, parseRefusal, parseTracking, type SpxCreateAnswer, type SpxEnvelope, type SpxTrackAnswer } from './response.js';
import { spxSettings } from './settings.js';

const mappers: CarrierMappers = {
  createRequest: (shipment, settings) => spxCreateRequest(shipment, spxSettings.parse(settings)),
  parseCreated: (body) => parseCreated(body as SpxEnvelope<SpxCreateAnswer>),
  parseRefusal: (status, body) => parseRefusal(status, body as SpxEnvelope<unknown> | undefined),
  parseTracking: (body, asked) => parseTracking(body as SpxEnvelope<SpxTrackAnswer>, asked),
};

/**
 * SP Express (formerly Świat Przesyłek) — REST API at api.sp.express, JSON POSTs under /V1, HTTP Basic login + API
 * key. Follows the carrier's own SDK, sp-express/php-sdk (its README, `src/`, and `docs/` on branch tech/v-1-1).
 */
export const provider: ProviderDefinition = {
  code: 'spx',
  name: 'SP Express',
  regions: ['PL', 'EU'],
  baseUrls: SPX_BASE_URLS,
  // One order copies one package description `options.number` times; 50 is our own cap (the API's limit, error 1460, is unpublished).
  capabilities: { nativeLabelFormats: ['pdf'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true },
  settings: spxSettings.specs,
  docs: [
    'https://github.com/sp-express/php-sdk',
    'https://github.com/sp-express/php-sdk/blob/tech/v-1-1/docs/index.md',
    'https://github.com/sp-express/php-sdk/blob/tech/v-1-1/docs/statuses.md',
  ],
  adapter: spxAdapter,
  trackingCodes: SPX_TRACKING,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createSpxEmulator),
};
