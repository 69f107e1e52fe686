import type { ProviderDefinition } from '../types.js';
import { mrwSettings } from './settings.js';

/** MRW — SAGEC web service MRWEnvio.asmx (SOAP, AuthInfo header). Docs: https://sagec.mrw.es/MRWEnvio.asmx?WSDL */
export const provider: ProviderDefinition = {
  code: 'mrw',
  name: 'MRW',
  regions: ['ES', 'PT'],
  baseUrls: {
    production: 'https://sagec.mrw.es/MRWEnvio.asmx',
    sandbox: 'https://sagec-test.mrw.es/MRWEnvio.asmx',
  },
  // Labels (GetEtiquetaEnvio) are PDF only. No documented limit on `NumeroBultos`: 50 is our own cap.
  capabilities: { labelFormats: ['pdf'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true },
  settings: mrwSettings,
  docs: ['https://sagec.mrw.es/MRWEnvio.asmx?WSDL', 'https://github.com/migonzalvar/pysagec'],
};
