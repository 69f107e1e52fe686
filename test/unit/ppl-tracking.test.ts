import { describe, expect, it } from 'vitest';
import { parseTrackedShipments, type PplTrackedShipment } from '../../src/carriers/ppl/response.js';
import { PPL_EVENT_STATUSES, PPL_SHIPMENT_STATES, pplEventStatusToStandard } from '../../src/carriers/ppl/statuses.js';
import { PPL_STATUSES } from '../../src/carriers/ppl/emulator-codes.js';
import { nextCheckAfter, shipmentMovesForward, shipmentStatusFromParcels, TRACKING_STATUSES } from '../../src/domain/tracking.js';

/** A `GET /shipment?ShipmentNumbers=…` answer in the shape of PPL's documentation (https://ppl-cpl-api-en.apidog.io). */
const ANSWER: PplTrackedShipment[] = [
  {
    shipmentNumber: '80050527937', shipmentState: 'OutForDelivery', lastUpdateDate: '2026-11-20T08:40:00Z',
    trackAndTrace: {
      events: [
        { statusId: 400, code: '400', name: 'Out for delivery', eventDate: '2026-11-20T08:40:00Z', phase: 'Delivering', group: 'Delivery' },
        { statusId: 900, code: '900', name: 'Electronic shipment data received', eventDate: '2026-11-19T15:02:11Z', phase: 'Order' },
        { statusId: 150, code: '150', name: 'Parcel received from the sender', eventDate: '2026-11-19T18:30:00Z', phase: 'InTransport' },
        { statusId: 612, code: '612', name: 'Something PPL added later', eventDate: '2026-11-20T06:00:00Z', phase: 'InTransport' },
      ],
    },
  },
  { shipmentNumber: '80050527938', shipmentState: 'Delivered', lastUpdateDate: '2026-11-20T10:00:00Z', trackAndTrace: { events: [] } },
];

describe('PPL tracking → standard statuses', () => {
  it('maps events oldest first with the raw code and text; a code outside the table has no status; an absent number is not found', () => {
    const [first, second, third] = parseTrackedShipments(ANSWER, ['80050527937', '80050527938', '80050599999']);
    expect(first).toEqual({
      trackingNumber: '80050527937', found: true,
      events: [
        { code: '900', text: 'Electronic shipment data received', status: 'created', location: null, description: 'Electronic shipment data received', occurredAt: Date.parse('2026-11-19T15:02:11Z') },
        { code: '150', text: 'Parcel received from the sender', status: 'in_transit', location: null, description: 'Parcel received from the sender', occurredAt: Date.parse('2026-11-19T18:30:00Z') },
        { code: '612', text: 'Something PPL added later', status: null, location: null, description: 'Something PPL added later', occurredAt: Date.parse('2026-11-20T06:00:00Z') },
        { code: '400', text: 'Out for delivery', status: 'out_for_delivery', location: null, description: 'Out for delivery', occurredAt: Date.parse('2026-11-20T08:40:00Z') },
      ],
    });
    // no events yet: the shipment state speaks for the parcel
    expect(second).toEqual({
      trackingNumber: '80050527938', found: true,
      events: [{ code: 'Delivered', text: 'Delivered', status: 'delivered', location: null, description: null, occurredAt: Date.parse('2026-11-20T10:00:00Z') }],
    });
    expect(third).toEqual({ trackingNumber: '80050599999', found: false });
  });

  it('has a standard status for every code the emulator emits, and only standard statuses in its tables', () => {
    for (const [id, status] of Object.entries(PPL_STATUSES)) expect(pplEventStatusToStandard(id), id).toBe(status.standard);
    for (const status of [...Object.values(PPL_EVENT_STATUSES), ...Object.values(PPL_SHIPMENT_STATES)]) expect(TRACKING_STATUSES).toContain(status);
    expect(pplEventStatusToStandard('constructor')).toBeNull();
  });
});

describe('shipment status from its parcels (SPEC §3.1)', () => {
  it('is shipped on the first scan, delivered when all are, returned when any is', () => {
    expect(shipmentStatusFromParcels(['created', 'created'])).toBeNull();
    expect(shipmentStatusFromParcels(['created', 'in_transit'])).toBe('shipped');
    expect(shipmentStatusFromParcels(['on_hold', 'created'])).toBe('shipped');
    expect(shipmentStatusFromParcels(['delivered', 'out_for_delivery'])).toBe('shipped');
    expect(shipmentStatusFromParcels(['delivered', 'delivered', 'delivered'])).toBe('delivered');
    expect(shipmentStatusFromParcels(['delivered', 'returned'])).toBe('returned');
    expect(shipmentStatusFromParcels(['not_recognized', 'waiting_for_shipment'])).toBeNull();
  });

  it('never moves backwards and leaves a cancelled shipment alone', () => {
    expect(shipmentMovesForward('created', 'shipped')).toBe(true);
    expect(shipmentMovesForward('shipped', 'delivered')).toBe(true);
    expect(shipmentMovesForward('delivered', 'shipped')).toBe(false);
    expect(shipmentMovesForward('returned', 'delivered')).toBe(false);
    expect(shipmentMovesForward('cancelled', 'shipped')).toBe(false);
  });

  it('spreads next checks over up to 10 % of the delay, the same for the same parcel', () => {
    const from = Date.parse('2026-11-20T09:00:00Z');
    const nexts = Array.from({ length: 1000 }, (_, i) => nextCheckAfter(`tp_${i}`, from, 6) - from);
    expect(Math.min(...nexts)).toBeGreaterThanOrEqual(6 * 3_600_000);
    expect(Math.max(...nexts)).toBeLessThan(6.6 * 3_600_000);
    expect(new Set(nexts.map((n) => Math.floor(n / 60_000))).size).toBeGreaterThan(30);
    expect(nextCheckAfter('tp_7', from, 6)).toBe(nextCheckAfter('tp_7', from, 6));
  });
});
