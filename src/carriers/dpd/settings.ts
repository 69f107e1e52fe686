import type { SettingSpec } from '../types.js';

/** DPD Group business units (`X-DPD-BUCODE`): 001 DE, 002 Chronopost FR, 010 NL, 011 UK, 014 AT, 015 CZ, 016 SK,
 * 017 HU, 018 BG, 020 SEUR, 021 PL, 023 BRT, 026 SI, 028 HR, 030 PT, 031 EE, 032 LT, 033 LV, 034 BE, 036 CH,
 * 038 DPD FR, 041 RO, 046 IE. */
export const DPD_BU_CODES = [
  '001', '002', '010', '011', '014', '015', '016', '017', '018', '020', '021', '023',
  '026', '028', '030', '031', '032', '033', '034', '036', '038', '041', '046',
] as const;

/** DPD Group product codes (`shipmentInfos.productCode`): 101 Classic, 136 small parcel, 154 Parcel Letter,
 * 155/179/225/350 express, 302 IE2, 327 B2C, 337 B2C to shop, 332 return. COD uses its own product codes. */
export const DPD_PRODUCTS = ['101', '136', '154', '155', '179', '225', '350', '302', '327', '337', '332'] as const;

export const dpdSettings: readonly SettingSpec[] = [
  {
    key: 'buCode', type: 'string', required: true, secret: false, enum: DPD_BU_CODES,
    description: 'DPD business unit of the account, 3 digits (e.g. 015 DPD CZ, 021 DPD PL, 001 DPD DE)',
  },
  { key: 'login', type: 'string', required: true, secret: false, description: 'META-API login' },
  { key: 'password', type: 'string', required: true, secret: true, description: 'META-API password' },
  {
    // 109 is D-COD (B2B, twin of 101 D); that 327 B2C pairs with 329 D-2C-COD is inferred from the product
    // names in the DPD META-API customer documentation.
    key: 'productCode', type: 'string', required: false, secret: false, default: '101', enum: DPD_PRODUCTS,
    description: 'DPD product for new shipments; with cash on delivery the COD product is used (101→109, 327→329)',
  },
  { key: 'clientId', type: 'string', required: false, secret: false, description: 'Client id, SEUR (BU 020) accounts only' },
  { key: 'clientSecret', type: 'string', required: false, secret: true, description: 'Client secret, SEUR (BU 020) accounts only' },
];
