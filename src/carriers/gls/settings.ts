import { defineSettings } from '../define-settings.js';
import { GLS_COUNTRIES, GLS_PDF_PRINTERS, GLS_ZPL_PRINTERS } from './codes.js';

/** MyGLS API credentials and options (webapix/mygls-sdk `src/Models/Account.php`, `src/Requests/PrintLabels.php`). */
export const glsSettings = defineSettings({
  username: { type: 'string', required: true, description: 'MyGLS user name (the login e-mail of the MyGLS account)' },
  password: { type: 'string', required: true, secret: true, description: 'MyGLS password; packdesk sends only its SHA-512 digest, as MyGLS asks' },
  clientNumber: { type: 'integer', required: true, description: 'GLS client number of the sending account (ClientNumber)' },
  country: {
    type: 'string', default: 'cz', enum: GLS_COUNTRIES,
    description: 'Country of the MyGLS account: picks the API host api.mygls.<country> (sandbox: api.test.mygls.<country>)',
  },
  pdfPrinterType: {
    type: 'string', default: 'Thermo', enum: GLS_PDF_PRINTERS,
    description: 'MyGLS TypeOfPrinter for PDF labels (one 10×15 label a page; packdesk lays out A4 itself)',
  },
  zplPrinterType: {
    type: 'string', default: 'ThermoZPL', enum: GLS_ZPL_PRINTERS,
    description: 'MyGLS TypeOfPrinter for ZPL labels: ThermoZPL (203 dpi) or ThermoZPL_300DPI',
  },
});

export type GlsSettings = ReturnType<typeof glsSettings.parse>;
