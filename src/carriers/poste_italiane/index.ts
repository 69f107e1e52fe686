import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { posteItalianeAdapter } from './adapter.js';
import { POSTE_BASE_URLS } from './client.js';
import { POSTE_PRODUCTS, POSTE_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { posteCreateRequest } from './request.js';
import { parseCreated, parseRefusal, parseTracking, type PosteCreateAnswer, type PosteGatewayError, type PosteTrackAnswer } from './response.js';
import { posteItalianeSettings } from './settings.js';

const mappers: CarrierMappers = {
  createRequest: (shipment, settings) => posteCreateRequest(shipment, posteItalianeSettings.parse(settings)),
  parseCreated: (body) => parseCreated(body as PosteCreateAnswer),
  parseRefusal: (status, body) => parseRefusal(status, body as (PosteCreateAnswer & PosteGatewayError) | undefined),
  parseTracking: (body, asked) => parseTracking((body ?? {}) as PosteTrackAnswer, asked),
};

/**
 * Poste Italiane — Poste Delivery Business (PDB) REST API: a session from `POST user/sessions`, the `POSTE_ClientID`
 * header, waybills with signed label links, tracking by waybill, a courier booking at hand-over. Poste publishes no
 * OpenAPI; this follows the client that runs against its sandbox, mlocati/MLPosteDeliveryExpress, and
 * smart-dato/post-it-sdk (manual v1.9).
 */
export const provider: ProviderDefinition = {
  code: 'poste_italiane',
  name: 'Poste Italiane',
  regions: ['IT'],
  baseUrls: POSTE_BASE_URLS,
  // Several parcels are one waybill with Multicollo (APT000945), one waybill code each; 50 is our own cap. No waybill cancel exists.
  capabilities: { nativeLabelFormats: ['pdf', 'zpl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: false },
  settings: posteItalianeSettings.specs,
  docs: [
    'https://github.com/mlocati/MLPosteDeliveryExpress',
    'https://github.com/mlocati/MLPosteDeliveryExpress/blob/main/Library/Service/JsonHttpClient.cs',
    'https://github.com/mlocati/MLPosteDeliveryExpress/tree/main/Library/Waybill',
    'https://github.com/mlocati/MLPosteDeliveryExpress/tree/main/Library/Tracking',
    'https://github.com/mlocati/MLPosteDeliveryExpress/tree/main/Library/PickupBooking',
    'https://github.com/mlocati/MLPosteDeliveryExpress/tree/main/Library/DeliveryPoint',
    'https://github.com/mlocati/MLPosteDeliveryExpress/blob/main/Library/Waybill/Request/WaybillData.cs',
    'https://github.com/smart-dato/post-it-sdk',
    'https://github.com/smart-dato/post-it-sdk/blob/main/src/Requests/BookPickupRequest.php',
    'https://www.mypostedeliverybusiness.it/offertaunica/',
  ],
  adapter: posteItalianeAdapter,
  trackingCodes: POSTE_TRACKING,
  products: POSTE_PRODUCTS,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createPosteItalianeEmulator),
};
