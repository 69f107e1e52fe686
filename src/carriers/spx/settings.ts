import type { SettingSpec } from '../types.js';

export const spxSettings: readonly SettingSpec[] = [
  { key: 'login', type: 'string', required: true, secret: false, description: 'SP Express account login (HTTP Basic user name)' },
  { key: 'apiKey', type: 'string', required: true, secret: true, description: 'SP Express API key (HTTP Basic password), issued by your SP Express salesman' },
];
