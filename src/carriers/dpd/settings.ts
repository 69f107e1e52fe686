import { defineSettings } from '../define-settings.js';
import { DPD_BU_CODES, DPD_CHANNEL_PRODUCTS, DPD_PAPER_FORMATS } from './codes.js';

/** DPD Group META-API credentials and options ("META API — Specification and description" 1.2, Authentication process). */
export const dpdSettings = defineSettings({
  buCode: {
    type: 'string', required: true, enum: DPD_BU_CODES,
    description: 'DPD business unit of the account (X-DPD-BUCODE), 3 digits: 001 DPD DE, 015 DPD CZ, 021 DPD PL, 034 DPD BE, …',
  },
  login: { type: 'string', required: true, description: 'META-API login given by the business unit (X-DPD-LOGIN; the delisId at DPD Germany)' },
  password: { type: 'string', required: true, secret: true, description: 'META-API password given by the business unit (X-DPD-PASSWORD)' },
  productCode: {
    type: 'string', default: '101', enum: DPD_CHANNEL_PRODUCTS,
    description: 'DPD Group product code (101 Classic, 327 B2C, …); with cash on delivery its COD product goes out (101→109, 327→329, 328→330)',
  },
  labelPaperFormat: { type: 'string', default: 'A6', enum: DPD_PAPER_FORMATS, description: 'LabelPaperFormat of PDF labels (A6 is one label a page)' },
  clientId: { type: 'string', description: 'Client id (X-DPD-CLIENTID), SEUR (business unit 020) accounts only' },
  clientSecret: { type: 'string', secret: true, description: 'Client secret (X-DPD-CLIENTSECRET), SEUR (business unit 020) accounts only' },
  messageLanguage: { type: 'string', default: 'en_EN', description: 'Language of tracking texts (messageLanguage of the DPD web services, e.g. en_EN, de_DE)' },
});

export type DpdSettings = ReturnType<typeof dpdSettings.parse>;
