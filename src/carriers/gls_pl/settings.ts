import { defineSettings } from '../define-settings.js';
import { GLS_PL_SERVICES } from './codes.js';

export const glsPlSettings = defineSettings({
  username: { type: 'string', required: true, description: 'ADE Plus WebAPI user name (adeLogin user_name)' },
  password: { type: 'string', required: true, secret: true, description: 'ADE Plus WebAPI password (adeLogin user_password)' },
  service: {
    type: 'string', default: 'standard', enum: GLS_PL_SERVICES,
    description: 'Delivery service of every consignment: standard, s10 (by 10:00), s12 (by 12:00) or sat (Saturday); cash on delivery is the srv_bool.cod flag on top of it',
  },
  trackingUsername: { type: 'string', description: 'GLS Track & Trace API user name (GLS issues these separately from the ADE login); needed to track parcels' },
  trackingPassword: { type: 'string', secret: true, description: 'GLS Track & Trace API password' },
});

export type GlsPlSettings = ReturnType<typeof glsPlSettings.parse>;
