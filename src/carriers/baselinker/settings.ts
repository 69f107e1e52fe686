import type { SettingSpec } from '../types.js';

export const baselinkerSettings: readonly SettingSpec[] = [
  { key: 'token', type: 'string', required: true, secret: true, description: 'Base.com (Baselinker) API token, sent as X-BLToken' },
  { key: 'courierCode', type: 'string', required: true, secret: false, description: 'Courier code in Base.com (from getCouriersList, e.g. dpd)' },
  { key: 'accountId', type: 'integer', required: false, secret: false, description: 'Courier account id in Base.com (from getCourierAccounts)' },
];
