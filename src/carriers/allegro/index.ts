import type { ProviderDefinition } from '../types.js';
import { allegroSettings } from './settings.js';

/** Allegro — Wysyłam z Allegro shipment-management REST API (OAuth2 user token). Docs: https://developer.allegro.pl/wza/documentation/ */
export const provider: ProviderDefinition = {
  code: 'allegro',
  name: 'Wysyłam z Allegro',
  regions: ['PL'],
  baseUrls: {
    production: 'https://api.allegro.pl',
    sandbox: 'https://api.allegro.pl.allegrosandbox.pl',
  },
  // Several parcels per shipment only for DPD and WE|DO delivery methods (max 10); others take one parcel.
  capabilities: { labelFormats: ['pdf', 'zpl'], cashOnDelivery: true, multiParcel: true, maxParcels: 10, cancel: true },
  settings: allegroSettings,
  docs: ['https://developer.allegro.pl/wza/documentation/', 'https://developer.allegro.pl/swagger.yaml'],
};
