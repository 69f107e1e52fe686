import type { ProviderDefinition } from '../types.js';
import { baselinkerSettings } from './settings.js';

/** Baselinker (Base.com) — connector API, courier methods (form POST, X-BLToken). Docs: https://api.base.com/?method=createPackage */
export const provider: ProviderDefinition = {
  code: 'baselinker',
  name: 'Baselinker',
  regions: ['PL', 'EU'],
  // No sandbox is published; that a test Base account on the same endpoint serves instead is inferred (api.base.com docs).
  baseUrls: { production: 'https://api.baselinker.com/connector.php' },
  // Label format, multi-parcel (`multi_packages`) and cancel at the courier all depend on the courier.
  // COD is inferred to be a courier-specific field from getCourierFields or the order's payment (api.base.com createPackage docs).
  // No documented package limit: 50 is our own cap.
  capabilities: { labelFormats: ['pdf', 'zpl', 'epl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true },
  settings: baselinkerSettings,
  docs: [
    'https://api.base.com/?method=createPackage',
    'https://api.base.com/?method=getLabel',
    'https://api.base.com/?method=getCourierFields',
  ],
};
