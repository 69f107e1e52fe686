import { defineSettings } from '../define-settings.js';
import { DHL_PL_PRODUCT_CODES } from './codes.js';

/**
 * DHL24 WebAPI v2 credentials and options: every operation carries `authData {username, password}`, and shipments
 * are billed by bank transfer to the customer's SAP number (`payment.accountNumber`); DHL24 WebAPI2 documentation,
 * createShipments and paymentData (https://dhl24.com.pl/en/webapi2/doc/info/paymentData.html).
 */
export const dhlPlSettings = defineSettings({
  username: { type: 'string', required: true, description: 'DHL24 WebAPI user name (authData.username), issued by DHL Parcel Polska' },
  password: { type: 'string', required: true, secret: true, description: 'DHL24 WebAPI password (authData.password)' },
  sapNumber: {
    type: 'string', required: true,
    description: 'Your DHL customer (SAP) number, billed for the shipments by bank transfer (payment.accountNumber)',
    // paymentData.html: accountNumber string(7); createShipment's billingAccountNumber is an xs:int
    pattern: { regex: /^\d{1,7}$/, description: 'up to 7 digits' },
  },
  product: {
    type: 'string', default: 'AH', enum: DHL_PL_PRODUCT_CODES,
    description: 'DHL24 product (service.product): AH domestic, PR Premium, 09/12 domestic by 9:00/12:00, DW evening, SP to a DHL point (taken by itself for a shipment to a pickup point), EK Connect, PI International, CP Connect Plus, CM Connect Plus pallet',
  },
  parcelContent: {
    type: 'string', default: 'Goods', description: 'What the parcels contain (content, up to 30 characters; DHL requires it)',
    // DHL24 WebAPI2 docs (ShipmentFullData, itemsToLabelDataResponse): content string(30), required
    minLength: 1, maxLength: 30,
  },
});

export type DhlPlSettings = ReturnType<typeof dhlPlSettings.parse>;
