/** Standardised tracking statuses across carriers (SPEC §3.2). */
export const TRACKING_STATUSES = [
  'created', 'not_recognized', 'waiting_for_shipment', 'in_transit', 'out_for_delivery', 'ready_for_pickup',
  'on_hold', 'delivered', 'delivered_with_exception', 'returned', 'cancelled', 'error',
] as const;

export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

export const TERMINAL_TRACKING_STATUSES: ReadonlySet<TrackingStatus> = new Set(['delivered', 'delivered_with_exception', 'returned', 'cancelled']);
