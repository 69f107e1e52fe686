import type { Clock } from '../../domain/clock.js';
import type { LabelFormat } from '../../domain/labels.js';
import type { TrackingStatus } from '../../domain/tracking.js';
import { mergeLabels } from '../../labels/index.js';
import { isFinalCode, walkToStatus, type TrackingCodeList } from '../codes.js';
import type { AdvanceOutcome, AdvanceTarget, CarrierTrackingEvent, EmulatedShipmentRecord } from './contract.js';

/** What every emulated carrier keeps: shipments of a caller, their parcels, each parcel's events in the carrier's codes. */

export interface EmulatedEvent {
  code: string;
  at: number;
}

export interface EmulatedParcel {
  number: string;
  /** 1-based position in its shipment. */
  index: number;
  events: EmulatedEvent[];
  /** Rendered once, on the first fetch; the same bytes afterwards. */
  label?: Promise<Buffer>;
}

export interface EmulatedShipment<R> {
  /** The carrier's id of the shipment (often its first parcel's number). */
  id: string;
  /** The account or client the carrier filed it under; other callers never see it. */
  owner: string;
  /** Our shipment id as the carrier received it. */
  referenceId: string;
  product: string;
  labelFormat: LabelFormat;
  /** The carrier request as the emulator read it. */
  request: R;
  parcels: EmulatedParcel[];
  createdAt: number;
}

export type CancelOutcome = 'cancelled' | 'not_cancellable';

export class EmulatedShipments<R> {
  private shipments: EmulatedShipment<R>[] = [];
  private parcels = new Map<string, { shipment: EmulatedShipment<R>; parcel: EmulatedParcel }>();
  private readonly documents = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly clock: Clock,
    private readonly codes: TrackingCodeList,
    /** A tracking event as the carrier's API shows it (for the advance control endpoint). */
    private readonly eventView: (event: EmulatedEvent) => CarrierTrackingEvent,
  ) {}

  add(input: Omit<EmulatedShipment<R>, 'parcels' | 'createdAt' | 'id'> & { id?: string; numbers: readonly string[] }): EmulatedShipment<R> {
    const { numbers, ...rest } = input;
    const now = this.clock.now();
    const shipment: EmulatedShipment<R> = {
      ...rest, id: input.id ?? numbers[0]!, createdAt: now,
      parcels: numbers.map((number, i) => ({ number, index: i + 1, events: [{ code: this.codes.created, at: now }] })),
    };
    this.shipments.push(shipment);
    for (const parcel of shipment.parcels) this.parcels.set(parcel.number, { shipment, parcel });
    return shipment;
  }

  /** The caller's shipment by the carrier's id. */
  byId(owner: string, id: string): EmulatedShipment<R> | undefined {
    return this.shipments.find((s) => s.owner === owner && s.id === id);
  }

  /** A parcel by number; with `owner`, only the caller's. */
  parcel(number: string, owner?: string): { shipment: EmulatedShipment<R>; parcel: EmulatedParcel } | undefined {
    const found = this.parcels.get(number);
    return found && (owner === undefined || found.shipment.owner === owner) ? found : undefined;
  }

  /** The caller's shipments that carry this reference, oldest first. */
  byReference(owner: string, referenceId: string): EmulatedShipment<R>[] {
    return this.shipments.filter((s) => s.owner === owner && s.referenceId === referenceId);
  }

  all(): readonly EmulatedShipment<R>[] {
    return this.shipments;
  }

  lastCode(parcel: EmulatedParcel): string {
    return parcel.events[parcel.events.length - 1]!.code;
  }

  lastStatus(parcel: EmulatedParcel): TrackingStatus {
    return this.codes.codes[this.lastCode(parcel)]!.status;
  }

  isCancelled(shipment: EmulatedShipment<R>): boolean {
    return shipment.parcels.every((p) => this.lastCode(p) === this.codes.cancelled);
  }

  /** Cancels every parcel while none has moved; cancelling twice succeeds again, so a retried cancel succeeds. */
  cancel(shipment: EmulatedShipment<R>): CancelOutcome {
    const cancelled = this.codes.cancelled;
    if (cancelled === undefined) throw new Error('this carrier cannot cancel');
    if (this.isCancelled(shipment)) return 'cancelled';
    if (shipment.parcels.some((p) => this.lastCode(p) !== this.codes.created)) return 'not_cancellable';
    for (const parcel of shipment.parcels) this.addEvent(parcel, cancelled);
    return 'cancelled';
  }

  /** The parcel's next event, or every event on the usual path to `to` (the code table's order). */
  advance(number: string, to?: AdvanceTarget): AdvanceOutcome {
    const found = this.parcels.get(number);
    if (!found) return { kind: 'unknown_parcel' };
    const current = this.lastCode(found.parcel);
    if (isFinalCode(this.codes, current)) {
      return { kind: 'cannot_advance', reason: `parcel ${number} is at ${current} (${this.codes.codes[current]?.name}) and moves no further` };
    }
    const route = to === undefined ? [this.codes.codes[current]!.next![0]!] : walkToStatus(this.codes, current, to);
    if (!route) return { kind: 'cannot_advance', reason: `parcel ${number} at ${current} cannot reach ${to}` };
    return { kind: 'advanced', events: route.map((code) => this.eventView(this.addEvent(found.parcel, code))) };
  }

  /** `advance` for carriers that track the whole shipment: the parcel's shipment-mates take the same steps. */
  advanceWithShipment(number: string, to?: AdvanceTarget): AdvanceOutcome {
    const outcome = this.advance(number, to);
    if (outcome.kind === 'advanced') for (const p of this.parcels.get(number)!.shipment.parcels) if (p.number !== number) this.advance(p.number, to);
    return outcome;
  }

  /**
   * A parcel for a pickup point on its way to `delivered`: it waits at the point first (`ready_for_pickup`), then is
   * collected; the events of both steps. `wholeShipment`: the carrier tracks the shipment, all its parcels move together.
   */
  collectAtPoint(number: string, wholeShipment = false): AdvanceOutcome {
    const step = (to: AdvanceTarget) => (wholeShipment ? this.advanceWithShipment(number, to) : this.advance(number, to));
    const waiting = step('ready_for_pickup');
    if (waiting.kind !== 'advanced') return waiting;
    const collected = step('delivered');
    return collected.kind === 'advanced' ? { kind: 'advanced', events: [...waiting.events, ...collected.events] } : collected;
  }

  /** The parcel's label, rendered on first use and kept (a carrier serves the same bytes every time). */
  label(parcel: EmulatedParcel, render: () => Promise<Buffer>): Promise<Buffer> {
    parcel.label ??= render();
    return parcel.label;
  }

  /**
   * One document of all the shipment's parcel labels in `format`, in parcel order, for carriers that answer a label
   * call with a single file; rendered on first use and kept, so every call serves the same bytes.
   */
  document(s: EmulatedShipment<R>, format: LabelFormat, render: (parcel: EmulatedParcel) => Promise<Buffer>): Promise<Buffer> {
    const key = `${s.id}:${format}`;
    let document = this.documents.get(key);
    if (!document) {
      document = Promise.all(s.parcels.map(render)).then(async (parts) => (parts.length === 1 ? parts[0]! : (await mergeLabels(format, parts)).content));
      this.documents.set(key, document);
    }
    return document;
  }

  /** What `GET /_emulator/<code>/shipments` shows; `describe` adds the carrier's own fields. */
  records(describe: (s: EmulatedShipment<R>) => Record<string, unknown> = () => ({})): EmulatedShipmentRecord[] {
    return this.shipments.map((s) => ({
      referenceId: s.referenceId,
      id: s.id,
      product: s.product,
      labelFormat: s.labelFormat,
      shipmentNumbers: s.parcels.map((p) => p.number),
      state: this.isCancelled(s) ? 'Cancelled' : 'Active',
      cancelled: this.isCancelled(s),
      createdAt: new Date(s.createdAt).toISOString(),
      parcels: s.parcels.map((p) => ({ number: p.number, code: this.lastCode(p), status: this.lastStatus(p) })),
      ...describe(s),
    }));
  }

  reset(): void {
    this.shipments = [];
    this.parcels.clear();
    this.documents.clear();
  }

  /** Events of one parcel keep strictly increasing times even when the clock stands still. */
  private addEvent(parcel: EmulatedParcel, code: string): EmulatedEvent {
    const previous = parcel.events[parcel.events.length - 1];
    const event = { code, at: Math.max(this.clock.now(), (previous?.at ?? 0) + 1000) };
    parcel.events.push(event);
    return event;
  }
}
