/** PPL's code lists as the emulator serves them (https://ppl-cpl-api-en.apidog.io, codelist-* pages). */
import type { AdvanceTarget } from '../emulator/server.js';

export interface PplProduct {
  name: string;
  /** Cash-on-delivery product (COD is a product, not a flag, at PPL). */
  cod: boolean;
}

export const PPL_PRODUCTS: Readonly<Record<string, PplProduct>> = {
  PRIV: { name: 'PPL Parcel CZ Private', cod: false },
  PRID: { name: 'PPL Parcel CZ Private - dobírka', cod: true },
  BUSS: { name: 'PPL Parcel CZ Business', cod: false },
  BUSD: { name: 'PPL Parcel CZ Business - dobírka', cod: true },
  DOPO: { name: 'PPL Parcel CZ Dopolední balík', cod: false },
  DOPD: { name: 'PPL Parcel CZ Dopolední balík - dobírka', cod: true },
  SMAR: { name: 'PPL Parcel CZ Smart', cod: false },
  SMAD: { name: 'PPL Parcel CZ Smart - dobírka', cod: true },
  SMEU: { name: 'PPL Parcel Smart Europe', cod: false },
  SMED: { name: 'PPL Parcel Smart Europe - dobírka', cod: true },
  CONN: { name: 'PPL Parcel Connect', cod: false },
  COND: { name: 'PPL Parcel Connect - dobírka', cod: true },
  COPL: { name: 'PPL Parcel Connect Plus', cod: false },
  RETD: { name: 'PPL Parcel Return CZ', cod: false },
};

/** The product that keeps an international set together (others split it into 1/1 shipments). */
export const SET_KEEPING_INTERNATIONAL_PRODUCT = 'COPL';

export type PplShipmentState =
  | 'Active' | 'PickedUpFromSender' | 'OutForDelivery' | 'DeliveredToPickupPoint' | 'Delivered'
  | 'NotDelivered' | 'Rejected' | 'BackToSender' | 'Canceled';

export interface PplStatus {
  name: string;
  phase: string;
  group: string;
  /** The parcel's `shipmentState` once this is its latest event. */
  state: PplShipmentState;
  /** The standard status this event means (SPEC §3.2), used to walk to a requested status. */
  standard: AdvanceTarget | 'created' | 'cancelled' | 'error';
}

/**
 * Tracking status ids from DHL's "ecommerce-ppl" status list; that they are PPL's `events[].statusId`, and the
 * phase/group names, are inferred (https://ppl-cpl-api-en.apidog.io, shipment-tracking).
 */
export const PPL_STATUSES: Readonly<Record<number, PplStatus>> = {
  900: { name: 'Electronic shipment data received', phase: 'Order', group: 'Order', state: 'Active', standard: 'created' },
  150: { name: 'Parcel received from the sender', phase: 'InTransport', group: 'Transport', state: 'PickedUpFromSender', standard: 'in_transit' },
  500: { name: 'On the way to the delivery depot', phase: 'InTransport', group: 'Transport', state: 'PickedUpFromSender', standard: 'in_transit' },
  300: { name: 'At the delivery depot', phase: 'InTransport', group: 'Transport', state: 'PickedUpFromSender', standard: 'in_transit' },
  400: { name: 'Out for delivery', phase: 'Delivering', group: 'Delivery', state: 'OutForDelivery', standard: 'out_for_delivery' },
  343: { name: 'Ready for collection at the pickup point', phase: 'PickupPoint', group: 'Delivery', state: 'DeliveredToPickupPoint', standard: 'ready_for_pickup' },
  450: { name: 'Delivered', phase: 'Delivered', group: 'Delivered', state: 'Delivered', standard: 'delivered' },
  460: { name: 'Will be delivered another day', phase: 'Delivering', group: 'Delivery', state: 'NotDelivered', standard: 'on_hold' },
  464: { name: 'Refused by the recipient', phase: 'Returning', group: 'Return', state: 'Rejected', standard: 'returned' },
  997: { name: 'Lost', phase: 'InTransport', group: 'Transport', state: 'NotDelivered', standard: 'error' },
  999: { name: 'Cancelled by the sender (data only)', phase: 'Canceled', group: 'Canceled', state: 'Canceled', standard: 'cancelled' },
};

export const DATA_RECEIVED_STATUS = 900;
export const CANCELLED_STATUS = 999;
export const TERMINAL_STATUSES: readonly number[] = [450, 464, 997, 999];

/** Realistic paths from data received to each requested standard status. */
export const PPL_ADVANCE_PATHS: Readonly<Record<AdvanceTarget, readonly number[]>> = {
  in_transit: [900, 150],
  out_for_delivery: [900, 150, 500, 300, 400],
  ready_for_pickup: [900, 150, 500, 300, 343],
  on_hold: [900, 150, 500, 300, 400, 460],
  delivered: [900, 150, 500, 300, 400, 450],
  returned: [900, 150, 500, 300, 460, 464],
};

/** Every move a parcel can make; the first is the next event when no status is requested. */
export const PPL_NEXT_STATUSES: Readonly<Record<number, readonly number[]>> = {
  900: [150],
  150: [500],
  500: [300],
  300: [400, 343, 460],
  400: [450, 460, 464],
  // after a failed attempt PPL tries again, leaves the parcel at a ParcelShop, or sends it back
  460: [400, 343, 464],
  // a parcel nobody collects from the pickup point goes back to the sender
  343: [450, 464],
};
