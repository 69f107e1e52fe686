import { defineSettings } from '../define-settings.js';
import { MRW_COD_COMMISSIONS, MRW_SERVICES } from './codes.js';

/**
 * SAGEC credentials and options. Every SAGEC call carries the SOAP header `AuthInfo {CodigoFranquicia,
 * CodigoAbonado, CodigoDepartamento, UserName, Password}` (MRW's WSDL, https://sagec.mrw.es/MRWEnvio.asmx?WSDL);
 * MRW's TrackingService takes its own `login`/`pass` in the body of each call.
 */
export const mrwSettings = defineSettings({
  franchiseCode: { type: 'string', required: true, description: 'MRW franchise code (AuthInfo.CodigoFranquicia, 5 digits)' },
  subscriberCode: { type: 'string', required: true, description: 'MRW subscriber code (AuthInfo.CodigoAbonado)' },
  departmentCode: { type: 'string', description: 'MRW department code (AuthInfo.CodigoDepartamento), if your account uses one' },
  username: { type: 'string', required: true, description: 'SAGEC user name (AuthInfo.UserName)' },
  password: { type: 'string', required: true, secret: true, description: 'SAGEC password (AuthInfo.Password)' },
  serviceCode: {
    type: 'string', default: '0800', enum: Object.keys(MRW_SERVICES),
    description: 'MRW service for new shipments (DatosServicio.CodigoServicio): 0800 Ecommerce, 0200 Urgente 19, 0300 Económico, …',
  },
  codCommission: {
    type: 'string', default: 'O', enum: MRW_COD_COMMISSIONS,
    description: 'Who pays the cash-on-delivery commission (DatosServicio.Reembolso): O the sender, D the recipient',
  },
  trackingUsername: { type: 'string', description: 'MRW TrackingService login (GetEnvios login), when it differs from the SAGEC user' },
  trackingPassword: { type: 'string', secret: true, description: 'MRW TrackingService password (GetEnvios pass), when it differs from the SAGEC password' },
});

export type MrwSettings = ReturnType<typeof mrwSettings.parse>;
