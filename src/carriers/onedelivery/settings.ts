import type { SettingSpec } from '../types.js';

export const onedeliverySettings: readonly SettingSpec[] = [
  { key: 'apiUser', type: 'string', required: true, secret: false, description: 'One by Allegro (WE|DO) API user (HTTP Basic user name)' },
  { key: 'apiKey', type: 'string', required: true, secret: true, description: 'One by Allegro (WE|DO) API key (HTTP Basic password)' },
  { key: 'pickupPlaceCode', type: 'string', required: false, secret: false, description: 'Sender pickup place code (X-WEDO-PickupPlaceCode); account default if empty' },
  { key: 'product', type: 'string', required: false, secret: false, description: 'Product code for new shipments (e.g. S-24-CZ); chosen automatically if empty' },
];
