import type { SettingSpec } from '../types.js';

/** Poste Delivery Business products (`waybills[].product`): APT000901 Express, APT000902 Standard,
 * APT000903 Internazionale Express, APT000904 Internazionale Standard, APT001013 International Plus. */
export const POSTE_PRODUCTS = ['APT000901', 'APT000902', 'APT000903', 'APT000904', 'APT001013'] as const;

/** COD (service APT000918) `paymentMode`: CON cash; ACM and ABM cheque variants. */
export const POSTE_COD_PAYMENT_MODES = ['CON', 'ACM', 'ABM'] as const;

export const posteItalianeSettings: readonly SettingSpec[] = [
  { key: 'clientId', type: 'string', required: true, secret: false, description: 'Poste Delivery Business API client id' },
  { key: 'secretId', type: 'string', required: true, secret: true, description: 'Poste Delivery Business API secret' },
  { key: 'costCenterCode', type: 'string', required: true, secret: false, description: 'Cost centre code of the contract (CDC-…)' },
  {
    key: 'product', type: 'string', required: false, secret: false, default: 'APT000902', enum: POSTE_PRODUCTS,
    description: 'Product for new shipments (APT000901 Express, APT000902 Standard, APT000903/904 international)',
  },
  {
    key: 'codPaymentMode', type: 'string', required: false, secret: false, default: 'CON', enum: POSTE_COD_PAYMENT_MODES,
    description: 'How cash on delivery is collected (CON cash, ACM/ABM cheque)',
  },
];
