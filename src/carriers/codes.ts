import type { TrackingStatus } from '../domain/tracking.js';
import { CarrierRefusedError } from './errors.js';

/**
 * A carrier's code lists as data, read by its adapter and its emulator alike: the raw tracking codes with the
 * standard status each means (SPEC §3.2), and the products with their cash-on-delivery twins.
 */

export interface TrackingCode {
  /** The carrier's own wording. */
  name: string;
  status: TrackingStatus;
  /** Codes the emulator may move a parcel to from this one; the first is the next event when none is asked for. */
  next?: readonly string[];
}

export interface TrackingCodeList {
  codes: Readonly<Record<string, TrackingCode>>;
  /** The code a new parcel starts with. */
  created: string;
  /** The code a cancelled parcel gets, where the carrier can cancel. */
  cancelled?: string;
}

/** A code's standard status; null when the table does not know it (SPEC §3.2 then applies). */
export function statusOfCode(list: TrackingCodeList, code: string): TrackingStatus | null {
  return Object.hasOwn(list.codes, code) ? list.codes[code]!.status : null;
}

/** The code's wording, or null. */
export function nameOfCode(list: TrackingCodeList, code: string): string | null {
  return Object.hasOwn(list.codes, code) ? list.codes[code]!.name : null;
}

/** A code with no next move: the parcel is done. */
export function isFinalCode(list: TrackingCodeList, code: string): boolean {
  return (list.codes[code]?.next ?? []).length === 0;
}

/**
 * The shortest walk along `next` from `from` to a code meaning `to` (the codes after `from`), or undefined when
 * none leads there. Ties go to the earlier `next` entry, so the table's order says which path is the usual one.
 */
export function walkToStatus(list: TrackingCodeList, from: string, to: TrackingStatus): string[] | undefined {
  if (list.codes[from]?.status === to) return [];
  const queue: string[][] = [[from]];
  const seen = new Set([from]);
  while (queue.length > 0) {
    const route = queue.shift()!;
    for (const next of list.codes[route[route.length - 1]!]?.next ?? []) {
      if (seen.has(next)) continue;
      if (list.codes[next]?.status === to) return [...route.slice(1), next];
      seen.add(next);
      queue.push([...route, next]);
    }
  }
  return undefined;
}

export interface CarrierProduct {
  name: string;
  /** The product itself carries cash on delivery. */
  cod?: boolean;
  /** The product to use instead when the shipment carries cash on delivery. */
  codTwin?: string;
}

export type ProductList = Readonly<Record<string, CarrierProduct>>;

/**
 * The product a shipment goes out with: the channel's product, or its COD twin when the shipment carries cash on
 * delivery. A product that cannot carry COD is refused on `cash_on_delivery_amount`.
 */
export function productForShipment(carrier: string, products: ProductList, product: string, withCod: boolean): string {
  const entry = products[product];
  if (!withCod || entry?.cod) return product;
  if (entry?.codTwin) return entry.codTwin;
  throw new CarrierRefusedError(`${carrier} product ${product} has no cash-on-delivery variant`, {
    cash_on_delivery_amount: [`${carrier} product ${product} cannot carry cash on delivery; choose another product on the channel`],
  });
}
