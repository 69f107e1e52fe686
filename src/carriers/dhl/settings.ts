import { defineSettings } from '../define-settings.js';
import { DHL_CHANNEL_PRODUCTS, DHL_INCOTERMS } from './codes.js';

export const dhlSettings = defineSettings({
  apiKey: { type: 'string', required: true, description: 'MyDHL API key (the HTTP Basic user name)' },
  apiSecret: { type: 'string', required: true, secret: true, description: 'MyDHL API secret (the HTTP Basic password)' },
  accountNumber: {
    type: 'string', required: true, description: 'DHL Express shipper account number (accounts[].number with typeCode shipper)',
    // MyDHL OpenAPI: at most 12 characters; DHL's XML Services datatypes.xsd AccountNumber: a positive integer ≥ 100000000
    pattern: { regex: /^\d{9,12}$/, description: '9 to 12 digits' },
  },
  productCode: {
    type: 'string', default: 'P', enum: DHL_CHANNEL_PRODUCTS,
    description: 'DHL Express global product code (P Express Worldwide, U Express Worldwide EU, N Express Domestic, …; GET /products tells which a lane offers); cash on delivery is the value-added service KB on the same product',
  },
  contentDescription: {
    type: 'string', default: 'Goods', description: 'content.description: what the shipments contain (1–70 characters, printed on the waybill)',
    // MyDHL OpenAPI content.description: 1–70 characters matching ^[^\s]
    minLength: 1, maxLength: 70, pattern: { regex: /^\S[\s\S]*$/, description: 'text that does not start with a space' },
  },
  incoterm: { type: 'string', default: 'DAP', enum: DHL_INCOTERMS, description: "content.incoterm of every shipment without a customs declaration (a declaration's own incoterm wins)" },
  paperlessTrade: {
    type: 'boolean', default: false,
    description: 'The account has DHL Paperless Trade: shipments with a customs declaration ask for value-added service WY, and DHL hands their commercial invoice to customs electronically (no printed copies with the parcel)',
  },
});

export type DhlSettings = ReturnType<typeof dhlSettings.parse>;
