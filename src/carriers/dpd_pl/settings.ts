import type { SettingSpec } from '../types.js';

export const dpdPlSettings: readonly SettingSpec[] = [
  { key: 'login', type: 'string', required: true, secret: false, description: 'DPDServices login' },
  { key: 'password', type: 'string', required: true, secret: true, description: 'DPDServices password' },
  { key: 'masterFid', type: 'integer', required: true, secret: false, description: 'Master FID (DPD customer number) of the account' },
  { key: 'trackingChannel', type: 'string', required: false, secret: false, description: 'DPD Info Services channel used for tracking, if DPD assigned one' },
];
