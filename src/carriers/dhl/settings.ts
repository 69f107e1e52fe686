import { defineSettings } from '../define-settings.js';
import { DHL_CHANNEL_PRODUCTS, DHL_INCOTERMS } from './codes.js';

export const dhlSettings = defineSettings({
  apiKey: { type: 'string', required: true, description: 'MyDHL API key (the HTTP Basic user name)' },
  apiSecret: { type: 'string', required: true, secret: true, description: 'MyDHL API secret (the HTTP Basic password)' },
  accountNumber: { type: 'string', required: true, description: 'DHL Express shipper account number (accounts[].number with typeCode shipper)' },
  productCode: {
    type: 'string', default: 'P', enum: DHL_CHANNEL_PRODUCTS,
    description: 'DHL Express global product code (P Express Worldwide, U Express Worldwide EU, N Express Domestic, …; GET /products tells which a lane offers); cash on delivery is the value-added service KB on the same product',
  },
  contentDescription: { type: 'string', default: 'Goods', description: 'content.description: what the shipments contain (1–70 characters, printed on the waybill)' },
  incoterm: { type: 'string', default: 'DAP', enum: DHL_INCOTERMS, description: 'content.incoterm of every shipment' },
});

export type DhlSettings = ReturnType<typeof dhlSettings.parse>;
