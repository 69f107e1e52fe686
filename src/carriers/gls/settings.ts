import type { SettingSpec } from '../types.js';

/** MyGLS country domains: the API host is api.mygls.<domain> (test: api.test.mygls.<domain>). */
export const MYGLS_COUNTRY_DOMAINS = ['cz', 'sk', 'hu', 'ro', 'si', 'hr', 'rs'] as const;

/** MyGLS `TypeOfPrinter` values; ThermoZPL, ThermoZPL_300DPI and ShipItThermoZpl return ZPL. */
export const MYGLS_PRINTER_TYPES = [
  'A4_2x2', 'A4_4x1', 'Connect', 'Thermo', 'ThermoZPL', 'ShipItThermoPdf', 'ThermoZPL_300DPI', 'ShipItThermoZpl',
] as const;

export const glsSettings: readonly SettingSpec[] = [
  { key: 'username', type: 'string', required: true, secret: false, description: 'MyGLS login e-mail' },
  { key: 'password', type: 'string', required: true, secret: true, description: 'MyGLS password (sent SHA-512 hashed)' },
  { key: 'clientNumber', type: 'integer', required: true, secret: false, description: 'GLS client number of the sender account' },
  {
    key: 'countryDomain', type: 'string', required: true, secret: false, enum: MYGLS_COUNTRY_DOMAINS,
    description: 'Country of the MyGLS account; selects the API host (api.mygls.cz, api.mygls.hu, …)',
  },
  {
    key: 'printerType', type: 'string', required: false, secret: false, default: 'A4_2x2', enum: MYGLS_PRINTER_TYPES,
    description: 'Label layout (A4 sheets, thermal PDF or thermal ZPL)',
  },
];
