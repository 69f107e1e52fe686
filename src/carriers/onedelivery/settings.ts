import { defineSettings } from '../define-settings.js';

/** One by Allegro (WE|DO) API credentials and options (nuty456/WeDoApi `WeDoApi.Builder`, `RequesterBase.addHeaders`). */
export const onedeliverySettings = defineSettings({
  apiUser: { type: 'string', required: true, description: 'One by Allegro (WE|DO) API user (HTTP Basic user name), issued by One\'s sales' },
  apiKey: { type: 'string', required: true, secret: true, description: 'One by Allegro (WE|DO) API key (HTTP Basic password)' },
  pickupPlaceCode: {
    type: 'string', listed: true,
    description: 'Pickup place the parcels leave from (X-WEDO-PickupPlaceCode, e.g. N96726, as GET /pickup-place lists it); the account\'s own when empty',
  },
  product: { type: 'string', description: 'One product code for new shipments (e.g. M-24-CZ), from the list One\'s sales gives the account; One chooses one when empty' },
  sendForProcessing: {
    type: 'boolean', default: true,
    description: 'Send each shipment for processing as it is created (X-WEDO-Auto-Complete: a batch of its own), so One picks it up; '
      + 'a shipment sent for processing can no longer be cancelled. Off: shipments wait at One until their dispatch sends them in one batch '
      + '(POST /batch, with its pickup protocol) and can be cancelled until then',
  },
  declaredValue: { type: 'number', description: 'Declared value of a shipment in CZK (value); without it a COD shipment declares its COD amount, others 0' },
});

export type OnedeliverySettings = ReturnType<typeof onedeliverySettings.parse>;
