import type { SettingSpec } from '../types.js';

/** MRW service codes (`DatosServicio.CodigoServicio`): domestic 0000 Urgente 10 … 0800 Ecommerce, 0810 Ecommerce Canje;
 * international BOX25, DOC, ECOMM, ECOP, EURO2, PAC, SC. Which ones an account may use is set by MRW. */
export const MRW_SERVICES = [
  '0000', '0005', '0010', '0015', '0100', '0105', '0110', '0115', '0120', '0200', '0205', '0210', '0220', '0230',
  '0235', '0300', '0310', '0350', '0370', '0385', '0390', '0400', '0450', '0480', '0490', '0800', '0810',
  'BOX25', 'DOC', 'ECOMM', 'ECOP', 'EURO2', 'PAC', 'SC',
] as const;

/** `Reembolso` for cash on delivery: O = commission charged at origin, D = at destination. */
export const MRW_COD_COMMISSION = ['O', 'D'] as const;

export const mrwSettings: readonly SettingSpec[] = [
  { key: 'franchiseCode', type: 'string', required: true, secret: false, description: 'MRW franchise code (CodigoFranquicia, 5 digits)' },
  { key: 'subscriberCode', type: 'string', required: true, secret: false, description: 'MRW subscriber code (CodigoAbonado)' },
  { key: 'departmentCode', type: 'string', required: false, secret: false, description: 'MRW department code (CodigoDepartamento), if your account uses one' },
  { key: 'username', type: 'string', required: true, secret: false, description: 'SAGEC user name' },
  { key: 'password', type: 'string', required: true, secret: true, description: 'SAGEC password' },
  {
    key: 'serviceCode', type: 'string', required: false, secret: false, default: '0800', enum: MRW_SERVICES,
    description: 'MRW service for new shipments (0800 Ecommerce, 0200 Urgente 19, 0300 Económico, …)',
  },
  {
    key: 'codCommission', type: 'string', required: false, secret: false, default: 'O', enum: MRW_COD_COMMISSION,
    description: 'Who pays the cash-on-delivery commission: O sender, D recipient',
  },
  { key: 'trackingUsername', type: 'string', required: false, secret: false, description: 'MRW TrackingService login (separate from the SAGEC user)' },
  { key: 'trackingPassword', type: 'string', required: false, secret: true, description: 'MRW TrackingService password' },
];
