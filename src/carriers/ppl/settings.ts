import { defineSettings } from '../define-settings.js';
import { PPL_CHANNEL_PRODUCTS } from './codes.js';

export const pplSettings = defineSettings({
  clientId: { type: 'string', required: true, description: 'CPL API client id (OAuth2 client credentials)' },
  clientSecret: { type: 'string', required: true, secret: true, description: 'CPL API client secret' },
  productType: {
    type: 'string', default: 'PRIV', enum: PPL_CHANNEL_PRODUCTS,
    description: 'PPL product for new shipments; with cash on delivery its COD twin is used (PRIV→PRID, BUSS→BUSD, …)',
  },
  depot: { type: 'string', description: 'Sending depot code printed on the label (optional)' },
});

export type PplSettings = ReturnType<typeof pplSettings.parse>;
