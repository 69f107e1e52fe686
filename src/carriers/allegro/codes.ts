import type { TrackingCode, TrackingCodeList } from '../codes.js';

/** Allegro's code lists (Allegro REST API OpenAPI, developer.allegro.pl/swagger.yaml), read by the adapter and the emulator. */

/**
 * `ParcelTrackingStatus.code` of `GET /order/carriers/{carrierId}/tracking`: the whole enum of the OpenAPI, with its
 * descriptions. The table's order of `next` puts the usual path first.
 */
export const ALLEGRO_TRACKING: TrackingCodeList & { codes: Readonly<Record<string, TrackingCode & { description: string }>> } = {
  created: 'PENDING',
  cancelled: 'CANCELLED',
  codes: {
    PENDING: { name: 'Pending', description: 'The shipment has been prepared and it is awaiting to be sent.', status: 'waiting_for_shipment', next: ['IN_TRANSIT'] },
    IN_TRANSIT: {
      name: 'In transit', description: 'The parcel is on its way to the receiver (accepted by the carrier, at a hub, redirected).',
      status: 'in_transit', next: ['RELEASED_FOR_DELIVERY', 'AVAILABLE_FOR_PICKUP', 'ISSUE', 'RETURNED'],
    },
    RELEASED_FOR_DELIVERY: {
      name: 'Released for delivery', description: 'The parcel has been released for delivery to its final destination.',
      status: 'out_for_delivery', next: ['DELIVERED', 'NOTICE_LEFT', 'ISSUE'],
    },
    AVAILABLE_FOR_PICKUP: { name: 'Available for pickup', description: 'The parcel is awaiting for pickup.', status: 'ready_for_pickup', next: ['DELIVERED', 'RETURNED'] },
    NOTICE_LEFT: {
      name: 'Notice left', description: 'A notice was left because of an unsuccessful delivery attempt.',
      status: 'on_hold', next: ['RELEASED_FOR_DELIVERY', 'AVAILABLE_FOR_PICKUP', 'RETURNED'],
    },
    // refused or lost: the parcel waits for a decision, and is then delivered after all or sent back
    ISSUE: { name: 'Issue', description: 'Problem with shipment, e.g. refused by the receiver or lost.', status: 'on_hold', next: ['IN_TRANSIT', 'RETURNED'] },
    DELIVERED: { name: 'Delivered', description: 'The parcel was delivered to the receiver / collected by the receiver.', status: 'delivered' },
    RETURNED: { name: 'Returned', description: 'The parcel is being or has been returned to the sender.', status: 'returned' },
    // Not a tracking code: Allegro marks a cancelled shipment with ShipmentDto.canceledDate; its tracking never shows this.
    CANCELLED: { name: 'Cancelled', description: 'The shipment was cancelled (ShipmentDto.canceledDate is set).', status: 'cancelled' },
  },
};

/**
 * Carriers whose delivery methods take several parcels in one shipment (`packages[]`, at most 10): DPD and WE|DO
 * (Allegro's shipment-management tutorial; errors PACKAGES_COUNT_EXCEEDED "Maximum number of parcels is 1" elsewhere).
 * The WE|DO carrier id is inferred; the OpenAPI lists carrier ids only as data (`GET /order/carriers`).
 */
export const ALLEGRO_MULTI_PARCEL_CARRIERS: readonly string[] = ['DPD', 'WEDO'];
export const ALLEGRO_MAX_PACKAGES = 10;

/** `PackageTypeDto`: our `parcel_type` → Allegro's package type; anything else is OTHER. */
export const ALLEGRO_PACKAGE_TYPES: Readonly<Record<string, 'PACKAGE' | 'DOX' | 'PALLET'>> = {
  package: 'PACKAGE', parcel: 'PACKAGE', box: 'PACKAGE', document: 'DOX', documents: 'DOX', envelope: 'DOX', pallet: 'PALLET',
};
