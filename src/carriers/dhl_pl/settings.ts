import type { SettingSpec } from '../types.js';

/** DHL24 WebAPI v2 product codes (`service.product`): AH domestic, PR Premium, 09/12 domestic by 9:00/12:00,
 * DW evening, SP to service point, EK Connect, PI International, CP Connect Plus, CM Connect Plus pallet. */
export const DHL_PL_PRODUCTS = ['AH', 'PR', '09', '12', 'DW', 'SP', 'EK', 'PI', 'CP', 'CM'] as const;

export const dhlPlSettings: readonly SettingSpec[] = [
  { key: 'username', type: 'string', required: true, secret: false, description: 'DHL24 WebAPI user name' },
  { key: 'password', type: 'string', required: true, secret: true, description: 'DHL24 WebAPI password' },
  { key: 'sapNumber', type: 'string', required: true, secret: false, description: 'DHL customer (SAP) number, 7 digits, billed for shipments' },
  {
    key: 'product', type: 'string', required: false, secret: false, default: 'AH', enum: DHL_PL_PRODUCTS,
    description: 'DHL product for new shipments (AH domestic, PR Premium, SP service point, PI international, …)',
  },
];
