import type { CarrierProduct, TrackingCode, TrackingCodeList } from '../codes.js';

/** One by Allegro's (WE|DO's) code lists, read by the adapter and the emulator. */

/**
 * Products as `product` / `product_code` name them. One's sales hands each account its list; these are the two the
 * public sources show (nuty456/WeDoApi README: `S-24-CZ` asked, `M-24-CZ` "Medium Colli 24-CZ - hmotnost do 30 kg"
 * answered). Cash on delivery is a service (`additional_service.cash_on_delivery`), so every product carries it.
 */
export const ONEDELIVERY_PRODUCTS: Readonly<Record<string, CarrierProduct & { maxWeightKg: number }>> = {
  'M-24-CZ': { name: 'Medium Colli 24-CZ - hmotnost do 30 kg', cod: true, maxWeightKg: 30 },
  // its limit is unpublished: M-24-CZ's 30 kg per parcel is assumed
  'S-24-CZ': { name: 'Small Colli 24-CZ', cod: true, maxWeightKg: 30 },
  // restapi-pup.html "WEDO POINT": the package waits at a pickup place named by `pup_branch`; its limit is unpublished (30 kg assumed)
  PUP: { name: 'WEDO POINT', cod: true, maxWeightKg: 30 },
};

/** The product of a delivery to a pickup place (bridge.intime.cz/doc/restapi-pup.html: `"product": "PUP"`). */
export const ONEDELIVERY_POINT_PRODUCT = 'PUP';

/** What One picks when a shipment names no product (`product` is optional, restapi-pup.html). */
export const ONEDELIVERY_DEFAULT_PRODUCT = 'M-24-CZ';

/**
 * `last_state.code` of `GET /package/{order_number}`. One publishes no list: its REST documentation
 * (bridge.intime.cz/doc/restapi.html, restapi-pup.html) and its state feed (bridge.intime.cz/doc/pull.html) name none,
 * the WeDoApi client keeps `last_state.code` as a free string (`PkgResponseState`), and the only code in a public
 * source is DELIVERED (nuty456/WeDoApi `TestWeDoProdResponses`; searched again in shop modules and SDKs). The others
 * are packdesk's reading of One's flow (data received → sent for processing in a batch → courier → depot → delivery,
 * WE|DO POINT or box, return): their spelling is inferred, so a code One really sends that is not here maps to no
 * status (SPEC §3.2).
 */
export const ONEDELIVERY_TRACKING: TrackingCodeList & { codes: Readonly<Record<string, TrackingCode>> } = {
  created: 'NEW',
  cancelled: 'CANCELLED',
  codes: {
    // inferred: a package One holds the data of, not yet sent for processing (DELETE still works)
    NEW: { name: 'Data received, not sent for processing yet', status: 'created', next: ['SENT'] },
    // inferred: POST /batch or X-WEDO-Auto-Complete sent it for processing; the courier has not picked it up
    SENT: { name: 'Sent for processing', status: 'waiting_for_shipment', next: ['PICKED_UP'] },
    PICKED_UP: { name: 'Picked up from the sender', status: 'in_transit', next: ['IN_DEPOT'] },
    IN_DEPOT: { name: 'At the depot', status: 'in_transit', next: ['IN_DELIVERY', 'STORED', 'NOT_DELIVERED'] },
    IN_DELIVERY: { name: 'Out for delivery', status: 'out_for_delivery', next: ['DELIVERED', 'NOT_DELIVERED'] },
    // inferred: redirected to a WE|DO POINT or box (www.wedo.cz FAQ), where the recipient collects it
    STORED: { name: 'Stored at a WE|DO POINT or box', status: 'ready_for_pickup', next: ['DELIVERED', 'RETURNING'] },
    // inferred: the recipient was not met; One delivers again or sends the parcel back
    NOT_DELIVERED: { name: 'Not delivered, next attempt arranged', status: 'on_hold', next: ['IN_DELIVERY', 'RETURNING'] },
    // confirmed: nuty456/WeDoApi TestWeDoProdResponses (`last_state.code`)
    DELIVERED: { name: 'Delivered', status: 'delivered' },
    RETURNING: { name: 'On its way back to the sender', status: 'in_transit', next: ['RETURNED'] },
    RETURNED: { name: 'Returned to the sender', status: 'returned' },
    // inferred: DELETE /package/{order_number} before the package was sent for processing
    CANCELLED: { name: 'Deleted before it was sent for processing', status: 'cancelled' },
  },
};
