/** In-memory state of the PPL CPL API emulator: tokens, batches, parcels, labels and tracking events. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import { mergeLabels } from '../../labels/index.js';
import { renderPdfLabel, renderZplLabel, type EmulatedLabel } from '../emulator/labels.js';
import type { AdvanceOutcome, AdvanceTarget, EmulatedShipmentRecord } from '../emulator/server.js';
import {
  CANCELLED_STATUS, DATA_RECEIVED_STATUS, PPL_ADVANCE_PATHS, PPL_NEXT_STATUSES, PPL_PRODUCTS, PPL_STATUSES,
  SET_KEEPING_INTERNATIONAL_PRODUCT, TERMINAL_STATUSES, type PplShipmentState,
} from './emulator-codes.js';
import type { PplAddress, PplBatchRequest, PplLabelFormat, PplShipmentRequest } from './emulator-validation.js';

export const TOKEN_LIFETIME_SECONDS = 1800;
const TOKEN_REQUESTS_PER_MINUTE = 12;
const MINUTE_MS = 60_000;

export interface PplEvent {
  statusId: number;
  at: number;
}

export interface PplParcel {
  shipmentNumber: string;
  labelGuid: string;
  /** 1-based position in the set. */
  index: number;
  weight?: number;
  events: PplEvent[];
  /** Rendered once, on the first fetch; the same bytes afterwards. */
  label?: Promise<Buffer>;
}

export interface PplShipment {
  clientId: string;
  batchId: string;
  request: PplShipmentRequest;
  labelFormat: PplLabelFormat;
  parcels: PplParcel[];
  /** International set of a product that ships each parcel as its own 1/1 shipment. */
  splitSet: boolean;
  createdAt: number;
}

export interface PplBatch {
  id: string;
  clientId: string;
  labelFormat: PplLabelFormat;
  shipments: PplShipment[];
  /** How many times the batch status was read; the first read still answers InProcess. */
  statusReads: number;
}

export interface ParcelInShipment {
  shipment: PplShipment;
  parcel: PplParcel;
}

export type TokenRequestVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };
export type CancelOutcome = 'cancelled' | 'unknown' | 'not_cancellable';

export class PplEmulatorState {
  private tokens = new Map<string, { clientId: string; expiresAt: number }>();
  private tokenRequests = new Map<string, number[]>();
  private batches = new Map<string, PplBatch>();
  private shipmentsInOrder: PplShipment[] = [];
  private parcelsByNumber = new Map<string, ParcelInShipment>();
  private parcelsByLabelGuid = new Map<string, ParcelInShipment>();
  // Not reset by reset(): a number once given out is never given out again by this process.
  private nextShipmentNumber: number;

  constructor(private readonly clock: Clock) {
    this.nextShipmentNumber = 80_050_000_000 + (Math.floor(clock.now() / 1000) % 1_000_000) * 100;
  }

  /** Counts a token request against the client's 12-per-minute allowance. */
  countTokenRequest(clientId: string): TokenRequestVerdict {
    const now = this.clock.now();
    const recent = (this.tokenRequests.get(clientId) ?? []).filter((at) => at > now - MINUTE_MS);
    if (recent.length >= TOKEN_REQUESTS_PER_MINUTE) {
      this.tokenRequests.set(clientId, recent);
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0]! + MINUTE_MS - now) / 1000)) };
    }
    this.tokenRequests.set(clientId, [...recent, now]);
    return { allowed: true };
  }

  issueToken(clientId: string): string {
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, { clientId, expiresAt: this.clock.now() + TOKEN_LIFETIME_SECONDS * 1000 });
    return token;
  }

  /** The client a live token belongs to. */
  clientOfToken(token: string): string | undefined {
    const entry = this.tokens.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.tokens.delete(token);
      return undefined;
    }
    return entry.clientId;
  }

  expireTokens(): void {
    this.tokens.clear();
  }

  createBatch(clientId: string, request: PplBatchRequest): PplBatch {
    const batch: PplBatch = { id: randomUUID(), clientId, labelFormat: request.labelFormat, shipments: [], statusReads: 0 };
    for (const shipmentRequest of request.shipments) {
      const shipment: PplShipment = {
        clientId, batchId: batch.id, request: shipmentRequest, labelFormat: request.labelFormat, parcels: [],
        splitSet: isInternational(shipmentRequest) && shipmentRequest.productType !== SET_KEEPING_INTERNATIONAL_PRODUCT,
        createdAt: this.clock.now(),
      };
      shipmentRequest.parcelWeights.forEach((weight, i) => {
        const parcel: PplParcel = {
          shipmentNumber: String(this.nextShipmentNumber++), labelGuid: randomUUID(), index: i + 1, weight,
          events: [{ statusId: DATA_RECEIVED_STATUS, at: this.clock.now() }],
        };
        shipment.parcels.push(parcel);
        this.parcelsByNumber.set(parcel.shipmentNumber, { shipment, parcel });
        this.parcelsByLabelGuid.set(parcel.labelGuid, { shipment, parcel });
      });
      batch.shipments.push(shipment);
      this.shipmentsInOrder.push(shipment);
    }
    this.batches.set(batch.id, batch);
    return batch;
  }

  /** A batch of this client, without counting a status read. */
  batch(clientId: string, batchId: string): PplBatch | undefined {
    const batch = this.batches.get(batchId);
    return batch?.clientId === clientId ? batch : undefined;
  }

  /** A batch of this client, counting one status read (the import completes after the first). */
  readBatchStatus(clientId: string, batchId: string): PplBatch | undefined {
    const batch = this.batch(clientId, batchId);
    if (batch) batch.statusReads += 1;
    return batch;
  }

  parcelByLabelGuid(clientId: string, guid: string): ParcelInShipment | undefined {
    const found = this.parcelsByLabelGuid.get(guid);
    return found?.shipment.clientId === clientId ? found : undefined;
  }

  parcelByNumber(clientId: string, shipmentNumber: string): ParcelInShipment | undefined {
    const found = this.parcelsByNumber.get(shipmentNumber);
    return found?.shipment.clientId === clientId ? found : undefined;
  }

  /** The client's parcels whose shipment has this reference id or CUST external number. */
  parcelsByCustomerReference(clientId: string, reference: string): ParcelInShipment[] {
    return this.shipmentsInOrder
      .filter((s) => s.clientId === clientId)
      .filter((s) => s.request.referenceId === reference || s.request.externalNumbers.some((n) => n.code === 'CUST' && n.externalNumber === reference))
      .flatMap((shipment) => shipment.parcels.map((parcel) => ({ shipment, parcel })));
  }

  /** The parcel's label in its batch's format, rendered on first use and kept. */
  label({ shipment, parcel }: ParcelInShipment): Promise<Buffer> {
    parcel.label ??= shipment.labelFormat === 'Zpl'
      ? Promise.resolve(Buffer.from(renderZplLabel(labelContent(shipment, parcel)), 'utf8'))
      : renderPdfLabel(labelContent(shipment, parcel));
    return parcel.label;
  }

  /** Labels of a batch's parcels in order (masters first in each shipment) as one document. */
  async completeLabel(batch: PplBatch, offset: number, limit: number): Promise<Buffer> {
    const parcels = batch.shipments.flatMap((shipment) => shipment.parcels.map((parcel) => ({ shipment, parcel })));
    const labels = await Promise.all(parcels.slice(offset, offset + limit).map((p) => this.label(p)));
    return (await mergeLabels(batch.labelFormat === 'Zpl' ? 'zpl' : 'pdf', labels)).content;
  }

  /** Cancels the parcel's whole shipment (or just the parcel where PPL split an international set). */
  cancel(clientId: string, shipmentNumber: string): CancelOutcome {
    const found = this.parcelByNumber(clientId, shipmentNumber);
    if (!found) return 'unknown';
    const parcels = found.shipment.splitSet ? [found.parcel] : found.shipment.parcels;
    // Cancelling twice answers 202 again, so a retried cancel succeeds (inferred, https://ppl-cpl-api-en.apidog.io).
    if (parcels.every((p) => lastStatus(p) === CANCELLED_STATUS)) return 'cancelled';
    if (parcels.some((p) => lastStatus(p) !== DATA_RECEIVED_STATUS)) return 'not_cancellable';
    for (const parcel of parcels) this.addEvent(parcel, CANCELLED_STATUS);
    return 'cancelled';
  }

  advance(shipmentNumber: string, to?: AdvanceTarget): AdvanceOutcome {
    const found = this.parcelsByNumber.get(shipmentNumber);
    if (!found) return { kind: 'unknown_parcel' };
    const current = lastStatus(found.parcel);
    if (TERMINAL_STATUSES.includes(current)) {
      return { kind: 'cannot_advance', reason: `parcel ${shipmentNumber} is ${PPL_STATUSES[current]!.state} (status ${current}) and moves no further` };
    }
    const route = to === undefined ? [PPL_NEXT_STATUSES[current]![0]!] : routeToStandardStatus(current, to);
    if (!route) return { kind: 'cannot_advance', reason: `parcel ${shipmentNumber} at status ${current} cannot reach ${to}` };
    const added = route.map((statusId) => this.addEvent(found.parcel, statusId));
    return { kind: 'advanced', events: added.map(eventView) };
  }

  /** Everything held, for the control endpoint. */
  shipmentRecords(): EmulatedShipmentRecord[] {
    return this.shipmentsInOrder.map((s) => ({
      referenceId: s.request.referenceId,
      batchId: s.batchId,
      clientId: s.clientId,
      productType: s.request.productType,
      shipmentNumbers: s.parcels.map((p) => p.shipmentNumber),
      state: s.parcels.every((p) => lastStatus(p) === CANCELLED_STATUS) ? 'Canceled' : 'Active',
      cashOnDelivery: s.request.cashOnDelivery,
      sender: s.request.sender,
      recipient: s.request.recipient,
      externalNumbers: s.request.externalNumbers,
      note: s.request.note ?? null,
      labelFormat: s.labelFormat,
      createdAt: new Date(s.createdAt).toISOString(),
      parcels: s.parcels.map((p) => ({ shipmentNumber: p.shipmentNumber, weight: p.weight ?? null, shipmentState: parcelState(p), lastStatusId: lastStatus(p) })),
    }));
  }

  reset(): void {
    this.tokens.clear();
    this.tokenRequests.clear();
    this.batches.clear();
    this.shipmentsInOrder = [];
    this.parcelsByNumber.clear();
    this.parcelsByLabelGuid.clear();
  }

  /** Events of one parcel keep strictly increasing times even when the clock stands still. */
  private addEvent(parcel: PplParcel, statusId: number): PplEvent {
    const previous = parcel.events[parcel.events.length - 1];
    const event = { statusId, at: Math.max(this.clock.now(), (previous?.at ?? 0) + 1000) };
    parcel.events.push(event);
    return event;
  }
}

/** The preferred path when the parcel is on it, else the shortest realistic route to the requested status. */
function routeToStandardStatus(current: number, to: AdvanceTarget): number[] | undefined {
  if (PPL_STATUSES[current]!.standard === to) return [];
  const preferred = PPL_ADVANCE_PATHS[to];
  const onPath = preferred.indexOf(current);
  if (onPath >= 0) return preferred.slice(onPath + 1);
  const routes: number[][] = [[current]];
  const seen = new Set([current]);
  while (routes.length > 0) {
    const route = routes.shift()!;
    for (const next of PPL_NEXT_STATUSES[route[route.length - 1]!] ?? []) {
      if (seen.has(next)) continue;
      if (PPL_STATUSES[next]!.standard === to) return [...route.slice(1), next];
      seen.add(next);
      routes.push([...route, next]);
    }
  }
  return undefined;
}

function isInternational(request: PplShipmentRequest): boolean {
  return request.sender.country !== request.recipient.country && request.parcelWeights.length > 1;
}

export function lastStatus(parcel: PplParcel): number {
  return parcel.events[parcel.events.length - 1]!.statusId;
}

export function parcelState(parcel: PplParcel): PplShipmentState {
  return PPL_STATUSES[lastStatus(parcel)]!.state;
}

/** A tracking event as `GET /shipment` shows it; `code` repeats the status id (inferred, https://ppl-cpl-api-en.apidog.io). */
export function eventView(event: PplEvent): { statusId: number; code: string; phase: string; group: string; eventDate: string; name: string } {
  const status = PPL_STATUSES[event.statusId]!;
  return { statusId: event.statusId, code: String(event.statusId), phase: status.phase, group: status.group, eventDate: new Date(event.at).toISOString(), name: status.name };
}

/** What PPL prints; the barcode symbology (Code 128 of the parcel number) is inferred (https://ppl-cpl-api-en.apidog.io). */
function labelContent(shipment: PplShipment, parcel: PplParcel): EmulatedLabel {
  const { request } = shipment;
  const cust = request.externalNumbers.find((n) => n.code === 'CUST')?.externalNumber;
  return {
    carrier: 'PPL',
    trackingNumber: parcel.shipmentNumber,
    parcelIndex: shipment.splitSet ? 1 : parcel.index,
    parcelCount: shipment.splitSet ? 1 : shipment.parcels.length,
    reference: cust ?? request.referenceId,
    product: `${request.productType} ${PPL_PRODUCTS[request.productType]?.name ?? ''}`.trim(),
    sender: addressLines(request.sender),
    recipient: [...addressLines(request.recipient), ...(request.recipient.phone ? [request.recipient.phone] : [])],
    cod: request.cashOnDelivery ? { amount: request.cashOnDelivery.codPrice.toFixed(2), currency: request.cashOnDelivery.codCurrency } : undefined,
  };
}

function addressLines(address: PplAddress): string[] {
  const lines = [address.name, address.name2, address.contact, address.street, `${address.zipCode} ${address.city}`, address.country];
  return lines.filter((line): line is string => Boolean(line));
}
