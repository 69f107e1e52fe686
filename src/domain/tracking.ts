/** Standardised tracking statuses across carriers (SPEC §3.2). */
export const TRACKING_STATUSES = [
  'created', 'not_recognized', 'waiting_for_shipment', 'in_transit', 'out_for_delivery', 'ready_for_pickup',
  'on_hold', 'delivered', 'delivered_with_exception', 'returned', 'cancelled', 'error',
] as const;

export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

export const TERMINAL_TRACKING_STATUSES: ReadonlySet<TrackingStatus> = new Set(['delivered', 'delivered_with_exception', 'returned', 'cancelled']);

/** A parcel in one of these has left the sender (an unknown carrier code then means it is still on its way). */
export const MOVING_TRACKING_STATUSES: ReadonlySet<TrackingStatus> = new Set([
  'in_transit', 'out_for_delivery', 'ready_for_pickup', 'on_hold', 'delivered', 'delivered_with_exception', 'returned',
]);

/** SPEC §3.2: a raw code no table knows means `in_transit` once the parcel moved, else `waiting_for_shipment`. */
export function statusOfUnknownCode(alreadyMoving: boolean): TrackingStatus {
  return alreadyMoving ? 'in_transit' : 'waiting_for_shipment';
}

export const DEFAULT_CHECK_DELAY_HOURS = 6;
export const DEFAULT_MAX_CHECKS = 20;
export const CHECK_DELAY_HOURS_RANGE = { min: 1, max: 168 } as const;
export const MAX_CHECKS_RANGE = { min: 1, max: 1000 } as const;
/** Share of the check delay added as jitter, so parcels created together do not come due together. */
const CHECK_JITTER_SHARE = 0.1;

/** A stable number in [0, 1) from a text (FNV-1a): the same parcel always gets the same jitter. */
export function stableFraction(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0) / 0x1_0000_0000;
}

/** When a parcel is checked next: after its delay plus up to 10 % of it, spread by its id. */
export function nextCheckAfter(id: string, fromMs: number, checkDelayHours: number): number {
  const delayMs = checkDelayHours * 3_600_000;
  return fromMs + delayMs + Math.floor(stableFraction(id) * delayMs * CHECK_JITTER_SHARE);
}

export type ShipmentStatusFromTracking = 'shipped' | 'delivered' | 'returned';

/** What parcels' tracking says of their shipment (SPEC §3.1); null while no parcel has been scanned. */
export function shipmentStatusFromParcels(statuses: readonly (string | null)[]): ShipmentStatusFromTracking | null {
  if (statuses.some((s) => s === 'returned')) return 'returned';
  // delivered with an exception is still delivered: the shipment is not waiting for anything more
  if (statuses.length > 0 && statuses.every((s) => s === 'delivered' || s === 'delivered_with_exception')) return 'delivered';
  if (statuses.some((s) => s !== null && MOVING_TRACKING_STATUSES.has(s as TrackingStatus))) return 'shipped';
  return null;
}

const SHIPMENT_PROGRESS: Readonly<Record<string, number>> = { pending: 0, created: 1, shipped: 2, delivered: 3, returned: 3 };

/** A shipment status never moves backwards, and a cancelled shipment stays cancelled. */
export function shipmentMovesForward(current: string, next: ShipmentStatusFromTracking): boolean {
  const from = SHIPMENT_PROGRESS[current];
  return from !== undefined && SHIPMENT_PROGRESS[next]! > from;
}

/** After a check, polling goes on unless the status is terminal or the parcel has used its checks. */
export function pollingContinues(status: string, checksDone: number, maxChecks: number): boolean {
  return !TERMINAL_TRACKING_STATUSES.has(status as TrackingStatus) && checksDone < maxChecks;
}
