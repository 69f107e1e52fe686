/**
 * The pickup points of the courier the Baselinker emulator has connected (DHL): generated DHL POP shops and DHL BOX
 * lockers, numbered as DHL Parcel Poland numbers its points (SAP numbers, getNearestServicepoints `sap`). Base.com
 * has no point search, so the emulator serves none: the courier reads the point from the order's `delivery_point_id`
 * and refuses what it cannot deliver to, in words that are inferred.
 */
import { generatePoints, type GeneratedPoint } from '../emulator/points.js';

/** DHL POP and DHL BOX are Polish. */
const SHOPS = 240;
const LOCKERS = 160;

export class BaselinkerCourierPoints {
  private generated?: Map<string, GeneratedPoint & { id: string }>;

  /** Generated on first use: most emulator runs never ship to a point. */
  private get byId() {
    this.generated ??= new Map([
      ...generatePoints({ countryCode: 'PL', count: SHOPS, seed: 'baselinker:dhl:pop', types: ['parcelshop'] }).map((p) => ({ ...p, id: String(1_120_000 + p.seq) })),
      ...generatePoints({ countryCode: 'PL', count: LOCKERS, seed: 'baselinker:dhl:box', types: ['locker'] }).map((p) => ({ ...p, id: String(1_160_000 + p.seq) })),
    ].map((p) => [p.id, p]));
    return this.generated;
  }

  /** A point by its id, closed ones included. */
  get(id: string): (GeneratedPoint & { id: string }) | undefined {
    return this.byId.get(id.trim());
  }

  all(): (GeneratedPoint & { id: string })[] {
    return [...this.byId.values()];
  }

  /** Why the courier will not deliver to the point, or undefined. */
  refusal(id: string, cashOnDelivery: boolean): string | undefined {
    const point = this.get(id);
    if (!point) return `the pickup point ${id} does not exist`;
    if (!point.open) return `the pickup point ${id} is closed and takes no parcels`;
    if (cashOnDelivery && !point.cashOnDelivery) return `the pickup point ${id} takes no cash on delivery`;
    return undefined;
  }
}
