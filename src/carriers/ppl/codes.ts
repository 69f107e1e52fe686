import type { TrackingStatus } from '../../domain/tracking.js';
import type { CarrierProduct, TrackingCode, TrackingCodeList } from '../codes.js';
import type { PickupPointType } from '../types.js';

/** PPL's code lists (https://ppl-cpl-api-en.apidog.io, codelist-* pages), read by the adapter and the emulator. */

/**
 * COD is a separate PPL product: each product's cash-on-delivery twin (Bohemica ProductList; PPL codelist/product).
 * Weight limits per parcel and which products notify the recipient by SMS (so need a phone) are inferred from PPL's
 * public product pages (https://www.ppl.cz/produkty). `toAccessPoint`: the Smart products deliver only to an access
 * point named in `specificDelivery.parcelShopCode`, SMAR/SMAD in Czechia, SMEU/SMED abroad (PPL's own shop modules:
 * github.com/PPL-CZ/PPL-PrestaShop `pplshipping/src/Setting/MethodSetting.php`, PPL-WooCommerce `ppl-cz/src/ShipmentMethod.php`).
 */
export const PPL_PRODUCTS: Readonly<Record<string, CarrierProduct & {
  maxWeightKg: number; notifiesRecipient: boolean; toAccessPoint?: 'CZ' | 'abroad'; onlyWithin?: string;
}>> = {
  PRIV: { name: 'PPL Parcel CZ Private', codTwin: 'PRID', maxWeightKg: 31.5, notifiesRecipient: true },
  PRID: { name: 'PPL Parcel CZ Private - dobírka', cod: true, maxWeightKg: 31.5, notifiesRecipient: true },
  BUSS: { name: 'PPL Parcel CZ Business', codTwin: 'BUSD', maxWeightKg: 50, notifiesRecipient: false },
  BUSD: { name: 'PPL Parcel CZ Business - dobírka', cod: true, maxWeightKg: 50, notifiesRecipient: false },
  DOPO: { name: 'PPL Parcel CZ Dopolední balík', codTwin: 'DOPD', maxWeightKg: 50, notifiesRecipient: false },
  DOPD: { name: 'PPL Parcel CZ Dopolední balík - dobírka', cod: true, maxWeightKg: 50, notifiesRecipient: false },
  SMAR: { name: 'PPL Parcel CZ Smart', codTwin: 'SMAD', maxWeightKg: 20, notifiesRecipient: true, toAccessPoint: 'CZ' },
  SMAD: { name: 'PPL Parcel CZ Smart - dobírka', cod: true, maxWeightKg: 20, notifiesRecipient: true, toAccessPoint: 'CZ' },
  SMEU: { name: 'PPL Parcel Smart Europe', codTwin: 'SMED', maxWeightKg: 20, notifiesRecipient: true, toAccessPoint: 'abroad' },
  SMED: { name: 'PPL Parcel Smart Europe - dobírka', cod: true, maxWeightKg: 20, notifiesRecipient: true, toAccessPoint: 'abroad' },
  CONN: { name: 'PPL Parcel Connect', codTwin: 'COND', maxWeightKg: 31.5, notifiesRecipient: true },
  COND: { name: 'PPL Parcel Connect - dobírka', cod: true, maxWeightKg: 31.5, notifiesRecipient: true },
  COPL: { name: 'PPL Parcel Connect Plus', maxWeightKg: 31.5, notifiesRecipient: false },
  // a return within Czechia (inferred from its name: PPL lists RECE "Return Connect EU" and RECI "Return Connect Import" for returns from abroad)
  RETD: { name: 'PPL Parcel Return CZ', maxWeightKg: 31.5, notifiesRecipient: false, onlyWithin: 'CZ' },
};

/** The product of a return to the original sender: PPL Parcel Return CZ (Bohemica ProductList `ParcelReturnCzech`), no COD twin. */
export const PPL_RETURN_PRODUCT = 'RETD';

/** Products a channel may choose; the COD twins are picked automatically. */
export const PPL_CHANNEL_PRODUCTS = ['PRIV', 'BUSS', 'DOPO', 'SMAR', 'SMEU', 'CONN', 'COPL', 'RETD'] as const;

/** The product of a shipment to an access point: SMAR to a Czech point, SMEU to a point abroad (before the COD switch). */
export function pplAccessPointProduct(countryCode: string): 'SMAR' | 'SMEU' {
  return countryCode === 'CZ' ? 'SMAR' : 'SMEU';
}

/**
 * `accessPointType` of `GET /accessPoint` (enum ConstMyApi2AccessPointType of PPL's CPL OpenAPI) → our point type:
 * ParcelBox and AlzaBox are lockers; `None` is a point without a declared kind, taken as a shop (inferred).
 */
export const PPL_ACCESS_POINT_TYPES: Readonly<Record<string, PickupPointType>> = {
  ParcelShop: 'parcelshop', ParcelBox: 'locker', AlzaBox: 'locker', None: 'parcelshop',
};

export type PplShipmentState =
  | 'Active' | 'PickedUpFromSender' | 'OutForDelivery' | 'DeliveredToPickupPoint' | 'Delivered'
  | 'NotDelivered' | 'Rejected' | 'BackToSender' | 'Canceled';

export interface PplStatusCode extends TrackingCode {
  phase: string;
  group: string;
  /** The parcel's `shipmentState` once this is its latest event. */
  state: PplShipmentState;
}

/**
 * Tracking event ids (`trackAndTrace.events[].statusId`) from DHL's published status list for its "ecommerce-ppl"
 * service; that PPL's events carry the same ids, and the phase/group names, are inferred
 * (https://ppl-cpl-api-en.apidog.io, shipment-tracking).
 */
export const PPL_TRACKING: TrackingCodeList & { codes: Readonly<Record<string, PplStatusCode>> } = {
  created: '900',
  cancelled: '999',
  codes: {
    900: { name: 'Electronic shipment data received', status: 'created', phase: 'Order', group: 'Order', state: 'Active', next: ['150'] },
    150: { name: 'Parcel received from the sender', status: 'in_transit', phase: 'InTransport', group: 'Transport', state: 'PickedUpFromSender', next: ['500'] },
    500: { name: 'On the way to the delivery depot', status: 'in_transit', phase: 'InTransport', group: 'Transport', state: 'PickedUpFromSender', next: ['300'] },
    300: { name: 'At the delivery depot', status: 'in_transit', phase: 'InTransport', group: 'Transport', state: 'PickedUpFromSender', next: ['400', '343'] },
    400: { name: 'Out for delivery', status: 'out_for_delivery', phase: 'Delivering', group: 'Delivery', state: 'OutForDelivery', next: ['450', '460', '464'] },
    // waiting at the ParcelShop or box; 450 is also its collection there (DHL's "ecommerce-ppl" list has no other), uncollected it goes back
    343: { name: 'Ready for collection at the pickup point', status: 'ready_for_pickup', phase: 'PickupPoint', group: 'Delivery', state: 'DeliveredToPickupPoint', next: ['450', '464'] },
    450: { name: 'Delivered', status: 'delivered', phase: 'Delivered', group: 'Delivered', state: 'Delivered' },
    // after a failed attempt PPL tries again, leaves the parcel at a ParcelShop, or sends it back
    460: { name: 'Will be delivered another day', status: 'on_hold', phase: 'Delivering', group: 'Delivery', state: 'NotDelivered', next: ['400', '343', '464'] },
    464: { name: 'Refused by the recipient', status: 'returned', phase: 'Returning', group: 'Return', state: 'Rejected' },
    997: { name: 'Lost', status: 'error', phase: 'InTransport', group: 'Transport', state: 'NotDelivered' },
    999: { name: 'Cancelled by the sender (data only)', status: 'cancelled', phase: 'Canceled', group: 'Canceled', state: 'Canceled' },
  },
};

/** PPL `shipmentState` → standard status (used when a parcel has no events yet). */
export const PPL_SHIPMENT_STATES: Readonly<Record<string, TrackingStatus>> = {
  None: 'created',
  Active: 'created',
  PickedUpFromSender: 'in_transit',
  OutForDelivery: 'out_for_delivery',
  DeliveredToPickupPoint: 'ready_for_pickup',
  Delivered: 'delivered',
  NotDelivered: 'on_hold',
  Rejected: 'returned',
  BackToSender: 'returned',
  Canceled: 'cancelled',
};
