import type { ProviderDefinition } from '../types.js';
import { posteItalianeSettings } from './settings.js';

/** Poste Italiane — Poste Delivery Business (PDB) REST API, manual v1.9. Docs: https://github.com/mlocati/MLPosteDeliveryExpress */
export const provider: ProviderDefinition = {
  code: 'poste_italiane',
  name: 'Poste Italiane',
  regions: ['IT', 'EU', 'US', 'CA'],
  baseUrls: {
    production: 'https://apiw.gp.posteitaliane.it/gp/internet',
    sandbox: 'https://apid.gp.posteitaliane.it/dev/kindergarden',
  },
  // The API has no waybill cancel. Multi-parcel uses service APT000945 (Multicollo); no documented limit, so 50 is our own cap.
  capabilities: { labelFormats: ['pdf', 'zpl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: false },
  settings: posteItalianeSettings,
  docs: ['https://github.com/mlocati/MLPosteDeliveryExpress', 'https://github.com/smart-dato/post-it-sdk'],
};
