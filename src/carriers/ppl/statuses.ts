import type { TrackingStatus } from '../../domain/tracking.js';

/**
 * PPL tracking event ids (`trackAndTrace.events[].statusId`) → standard status. The ids are DHL's published status
 * list for its "ecommerce-ppl" service; that PPL's events carry the same ids is inferred (CPL API docs,
 * https://ppl-cpl-api-en.apidog.io — shipment tracking).
 */
export const PPL_EVENT_STATUSES: Readonly<Record<number, TrackingStatus>> = {
  900: 'created', // electronic data received
  150: 'in_transit', // parcel received from sender
  500: 'in_transit', // on the way to the delivery depot
  300: 'in_transit', // at the delivery depot
  400: 'out_for_delivery',
  343: 'ready_for_pickup', // waiting at a pickup point
  450: 'delivered',
  460: 'on_hold', // will be delivered another day
  464: 'returned', // refused by the recipient
  997: 'error', // lost
  999: 'cancelled', // data cancelled by the sender
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

/** A PPL event's status id (as text) → standard status; null when the id is not in the table. */
export function pplEventStatusToStandard(code: string): TrackingStatus | null {
  const id = Number(code);
  return Number.isInteger(id) && Object.hasOwn(PPL_EVENT_STATUSES, id) ? PPL_EVENT_STATUSES[id]! : null;
}

/** A PPL `shipmentState` → standard status; null when unknown. */
export function pplShipmentStateToStandard(state: string): TrackingStatus | null {
  return Object.hasOwn(PPL_SHIPMENT_STATES, state) ? PPL_SHIPMENT_STATES[state]! : null;
}
