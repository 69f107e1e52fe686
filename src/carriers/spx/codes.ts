import type { CarrierProduct, TrackingCode, TrackingCodeList } from '../codes.js';

/** SP Express's code lists (sp-express/php-sdk), read by the adapter and the emulator. */

/**
 * The two courier calls of the API: `create-pre-routing` (SP Express picks the operator) and `create-non-routing`
 * (the caller names it). Both carry cash on delivery as `options.cod`, so neither has a COD twin.
 */
export const SPX_PRODUCTS: Readonly<Record<SpxProductCode, CarrierProduct & { maxWeightKg: number }>> = {
  // SP Express publishes the refusal (1110, package too heavy) but not the figure: 31.5 kg is assumed.
  'pre-routing': { name: 'Courier, operator chosen by SP Express', cod: true, maxWeightKg: 31.5 },
  'non-routing': { name: 'Courier, operator of your choice', cod: true, maxWeightKg: 31.5 },
};

export const SPX_CHANNEL_PRODUCTS = ['pre-routing', 'non-routing'] as const;
export type SpxProductCode = (typeof SPX_CHANNEL_PRODUCTS)[number];

/**
 * The status map ids of `current_stat_id` and `stat_id_history[].id` with SP Express's names and descriptions
 * (sp-express/php-sdk `src/Enums/StatMap.php` and `docs/statuses.md` on its tech/v-1-1 branch). This is the whole
 * published list: it has no status for a parcel waiting at a pickup point.
 */
export const SPX_TRACKING: TrackingCodeList & { codes: Readonly<Record<string, TrackingCode & { description: string }>> } = {
  created: '1',
  cancelled: '90',
  codes: {
    1: { name: 'NEW ORDER', description: 'The order has been placed and is awaiting processing.', status: 'created', next: ['2'] },
    // the operator has the data, seconds after the order: nothing has been scanned yet
    2: { name: 'SHIPMENTS INJECTED', description: 'The shipment has been injected into the delivery system.', status: 'waiting_for_shipment', next: ['10'] },
    10: { name: 'RECEIVED IN HUB', description: 'The shipment has arrived at the central distribution hub.', status: 'in_transit', next: ['20'] },
    20: { name: 'IN TRANSPORTATION', description: 'The shipment is currently being transported to the next location.', status: 'in_transit', next: ['30', '50'] },
    30: { name: 'IN DELIVERY', description: 'The shipment is out for delivery to the final destination.', status: 'out_for_delivery', next: ['40', '50'] },
    40: { name: 'DELIVERED', description: 'The shipment has been successfully delivered to the recipient.', status: 'delivered' },
    // a problem is solved by delivering after all, or by sending the parcel back
    50: { name: 'PROBLEM', description: 'There is an issue with the shipment that needs resolution.', status: 'on_hold', next: ['30', '60'] },
    60: { name: 'RETURN', description: 'The shipment is being returned to the sender.', status: 'returned' },
    90: { name: 'CANCELLED', description: 'The order has been cancelled.', status: 'cancelled' },
  },
};
