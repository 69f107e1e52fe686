import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../../domain/clock.js';

/** What every carrier emulator implements; the emulator server knows only this, never a carrier. */

/** Standard statuses a parcel can be advanced to (SPEC §3.2). */
export const ADVANCE_TARGETS = ['in_transit', 'out_for_delivery', 'ready_for_pickup', 'on_hold', 'delivered', 'returned'] as const;
export type AdvanceTarget = (typeof ADVANCE_TARGETS)[number];

/** A tracking event exactly as the carrier's API shows it. */
export type CarrierTrackingEvent = Record<string, unknown>;

export type AdvanceOutcome =
  | { kind: 'advanced'; events: CarrierTrackingEvent[] }
  | { kind: 'unknown_parcel' }
  | { kind: 'cannot_advance'; reason: string };

/** One shipment as the emulator holds it; each provider adds its own fields to the common ones. */
export interface EmulatedShipmentRecord {
  referenceId: string;
  shipmentNumbers: string[];
  state: string;
  createdAt: string;
  [field: string]: unknown;
}

/** A carrier's API as a local server: its routes (mounted under `/{code}`) plus the hooks the control endpoints use. */
export interface ProviderEmulator {
  readonly code: string;
  readonly routes: FastifyPluginAsync;
  /** The parcel's next tracking event, or the events on a realistic path to `to`. */
  advance(trackingNumber: string, to?: AdvanceTarget): AdvanceOutcome;
  shipments(): EmulatedShipmentRecord[];
  /** Every token issued so far stops working at once. */
  expireTokens(): void;
  reset(): void;
  /** The carrier's own control endpoints (e.g. approving a device code), mounted under `/_emulator/{code}`. */
  readonly control?: FastifyPluginAsync;
  /** An emulated 429/500 in the carrier's own error shape; the framework answers with problem JSON otherwise. */
  faultResponse?(status: 429 | 500, path: string): { contentType: string; body: string };
}

export interface EmulatorContext {
  code: string;
  clock: Clock;
}

export type ProviderEmulatorFactory = (context: EmulatorContext) => ProviderEmulator;
