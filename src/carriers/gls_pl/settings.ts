import type { SettingSpec } from '../types.js';

export const glsPlSettings: readonly SettingSpec[] = [
  { key: 'username', type: 'string', required: true, secret: false, description: 'ADE Plus WebAPI user name' },
  { key: 'password', type: 'string', required: true, secret: true, description: 'ADE Plus WebAPI password' },
];
