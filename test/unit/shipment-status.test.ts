import { describe, expect, it } from 'vitest';
import { nextCheckAfter, shipmentMovesForward, shipmentStatusFromParcels } from '../../src/domain/tracking.js';

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
