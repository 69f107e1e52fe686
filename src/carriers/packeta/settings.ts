import { defineSettings } from '../define-settings.js';

/** Packeta API credentials and options (the WSDL's `apiPassword` and `eshop`; the point feed's API key). */
export const packetaSettings = defineSettings({
  apiPassword: {
    type: 'string', required: true, secret: true,
    description: 'Packeta API password (client section → API settings: 32 hexadecimal characters), sent as apiPassword in every call; '
      + 'its first 16 characters are the API key the pickup point feed is downloaded with',
  },
  eshop: {
    type: 'string', required: true, maxLength: 64,
    description: 'Sender indication (eshop) as the client section names the sender; labels and returns go to it',
  },
  homeDeliveryCarrierId: {
    type: 'string',
    description: 'addressId of the carrier that delivers to the door (carrier.json of the point feed); empty: Packeta Home in CZ (106) and SK (131)',
    pattern: { regex: /^\d{1,9}$/, description: 'a carrier id of Packeta\'s carrier feed (digits)' },
  },
  declaredValue: {
    type: 'number', minimum: 0,
    description: 'Declared value of a shipment (value, on its first packet) in the currency of the destination country; without it a COD shipment declares its COD amount, others 1',
  },
});

export type PacketaSettings = ReturnType<typeof packetaSettings.parse>;
