import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { allegroAdapter } from './adapter.js';
import { allegroAuthorization } from './authorization.js';
import { ALLEGRO_BASE_URLS } from './client.js';
import { ALLEGRO_MAX_PACKAGES, ALLEGRO_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { allegroCreateCommand, commandIdFor } from './request.js';
import { parseCreatedShipment, parseRefusal, parseTracking, type AllegroShipment, type AllegroTrackingAnswer } from './response.js';
import { allegroSettings } from './settings.js';

const mappers: CarrierMappers = {
  // a shipment on a multi-parcel delivery method, all parcels in one command; the adapter draws each command id at random
  createRequest: (shipment, settings) => allegroCreateCommand(shipment, allegroSettings.parse(settings), {
    commandId: commandIdFor(`fixture:${shipment.id}`), parcelIndexes: shipment.parcels.map((_, i) => i),
  }),
  parseCreated: (body) => parseCreatedShipment(body as AllegroShipment),
  parseRefusal: (status, body) => parseRefusal(status, body as Parameters<typeof parseRefusal>[1]),
  parseTracking: (body, asked) => parseTracking((body ?? {}) as AllegroTrackingAnswer, asked),
};

/**
 * Allegro — "Wysyłam z Allegro" (Ship with Allegro) shipment management of the Allegro REST API: OAuth2 user tokens
 * from the device flow, asynchronous create and cancel commands, labels, and parcel tracking per carrier.
 */
export const provider: ProviderDefinition = {
  code: 'allegro',
  name: 'Allegro',
  regions: ['PL'],
  baseUrls: ALLEGRO_BASE_URLS,
  // Several parcels per shipment only on DPD and WE|DO delivery methods (at most 10); others get one shipment per parcel.
  capabilities: { nativeLabelFormats: ['pdf', 'zpl'], cashOnDelivery: true, multiParcel: true, maxParcels: ALLEGRO_MAX_PACKAGES, cancel: true },
  settings: allegroSettings.specs,
  docs: [
    'https://developer.allegro.pl/swagger.yaml',
    'https://github.com/em411/allegro-php-api/blob/main/resources/spec.yaml',
    'https://developer.allegro.pl/tutorials/jak-zarzadzac-przesylkami-przez-wysylam-z-allegro-LRVjK7K21sY',
    'https://developer.allegro.pl/tutorials/uwierzytelnianie-i-autoryzacja-zlq9e75GdIR',
    'https://www.rfc-editor.org/rfc/rfc8628',
  ],
  adapter: allegroAdapter,
  trackingCodes: ALLEGRO_TRACKING,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createAllegroEmulator),
  userAuthorization: allegroAuthorization,
};
