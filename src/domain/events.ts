/** Event names a webhook subscription can list (SPEC §4): the seed's nine, the shipment, order and dispatch events and the test event. */
export const EVENT_TYPES = [
  'shipping_channel.created',
  'shipping_channel.updated',
  'shipping_channel.deleted',
  'shipping_channel.validated',
  'shipping_channel.status_changed',
  'tracking_parcel.created',
  'tracking_parcel.updated',
  'tracking_parcel.deleted',
  'tracking_parcel.status_changed',
  'shipment.created',
  'shipment.updated',
  'shipment.deleted',
  'shipment.status_changed',
  'order.created',
  'order.shipped',
  'order.cancelled',
  'dispatch.created',
  'dispatch.updated',
  'webhook.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The key under `data` in a payload: the resource's name. */
export type ResourceName = 'shipping_channel' | 'shipment' | 'order' | 'dispatch' | 'tracking_parcel' | 'webhook';
