import type { SettingSpec } from '../types.js';

/** PPL product codes (CPL API `shipments[].productType`); COD twins are chosen automatically. */
export const PPL_PRODUCTS = ['PRIV', 'BUSS', 'DOPO', 'SMAR', 'SMEU', 'CONN', 'COPL', 'RETD'] as const;

export const pplSettings: readonly SettingSpec[] = [
  { key: 'clientId', type: 'string', required: true, secret: false, description: 'CPL API client id (OAuth2 client credentials)' },
  { key: 'clientSecret', type: 'string', required: true, secret: true, description: 'CPL API client secret' },
  {
    key: 'productType', type: 'string', required: false, secret: false, default: 'PRIV', enum: PPL_PRODUCTS,
    description: 'PPL product for new shipments; with cash on delivery its COD twin is used (PRIV→PRID, BUSS→BUSD, …)',
  },
  { key: 'depot', type: 'string', required: false, secret: false, description: 'Sending depot code printed on the label (optional)' },
];
