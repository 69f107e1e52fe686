import type { SettingSpec } from '../types.js';

export const dhlSettings: readonly SettingSpec[] = [
  { key: 'apiKey', type: 'string', required: true, secret: false, description: 'MyDHL API key (HTTP Basic user name)' },
  { key: 'apiSecret', type: 'string', required: true, secret: true, description: 'MyDHL API secret (HTTP Basic password)' },
  { key: 'accountNumber', type: 'string', required: true, secret: false, description: 'DHL Express shipper account number' },
  {
    key: 'productCode', type: 'string', required: false, secret: false, default: 'P',
    description: 'Global product code for new shipments (P Express Worldwide, D documents, N domestic, U Europe, …); valid codes per lane come from GET /products',
  },
];
