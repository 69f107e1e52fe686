/** In-memory state of the PPL CPL API emulator: tokens, batches, shipments with their parcels, labels and events. */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import { mergeLabels } from '../../labels/index.js';
import { renderLabel, type EmulatedLabel } from '../emulator/labels.js';
import { numberSequence } from '../emulator/numbers.js';
import { walkToStatus } from '../codes.js';
import type { AdvanceOutcome, AdvanceTarget } from '../emulator/contract.js';
import { EmulatedShipments, type EmulatedEvent, type EmulatedParcel, type EmulatedShipment } from '../emulator/shipments.js';
import { EmulatedTokens } from '../emulator/tokens.js';
import { PPL_PRODUCTS, PPL_TRACKING, type PplShipmentState } from './codes.js';
import type { PplAddress, PplBatchRequest, PplLabelFormat, PplShipmentRequest } from './emulator-validation.js';

// Tokens live 30 minutes; PPL allows 12 token requests a minute per client (https://ppl-cpl-api-en.apidog.io).
export const TOKEN_LIFETIME_SECONDS = 1800;
const TOKEN_REQUESTS_PER_MINUTE = 12;
/** "Package is ready in pickup point". */
const AT_ACCESS_POINT = '343';

export type PplShipment = EmulatedShipment<PplShipmentRequest & { batchId: string }>;

export interface PplBatch {
  id: string;
  clientId: string;
  labelFormat: PplLabelFormat;
  completeLabelRequested: boolean;
  shipments: PplShipment[];
  /** How many times the batch status was read; the first read still answers InProcess. */
  statusReads: number;
}

export interface ParcelInShipment {
  shipment: PplShipment;
  parcel: EmulatedParcel;
}

export class PplEmulatorState {
  readonly tokens: EmulatedTokens;
  readonly shipments: EmulatedShipments<PplShipment['request']>;
  private batches = new Map<string, PplBatch>();
  /** Label guid → parcel number, and back. */
  private labelGuids = new Map<string, string>();
  private guidsByNumber = new Map<string, string>();
  private readonly nextNumber: () => string;

  constructor(clock: Clock) {
    this.tokens = new EmulatedTokens(clock, TOKEN_LIFETIME_SECONDS, TOKEN_REQUESTS_PER_MINUTE);
    this.shipments = new EmulatedShipments(clock, PPL_TRACKING, eventView);
    this.nextNumber = numberSequence(clock, { prefix: '8005', digits: 11 });
  }

  createBatch(clientId: string, request: PplBatchRequest): PplBatch {
    const batch: PplBatch = {
      id: randomUUID(), clientId, labelFormat: request.labelFormat, completeLabelRequested: request.completeLabelRequested, shipments: [], statusReads: 0,
    };
    for (const shipmentRequest of request.shipments) {
      const shipment = this.shipments.add({
        owner: clientId, referenceId: shipmentRequest.referenceId, product: shipmentRequest.productType,
        labelFormat: request.labelFormat === 'Zpl' ? 'zpl' : 'pdf', request: { ...shipmentRequest, batchId: batch.id },
        numbers: shipmentRequest.parcelWeights.map(() => this.nextNumber()),
      });
      for (const parcel of shipment.parcels) {
        const guid = randomUUID();
        this.labelGuids.set(guid, parcel.number);
        this.guidsByNumber.set(parcel.number, guid);
        // PPL makes the labels while it imports the batch: a label call then serves what is ready
        this.label({ shipment, parcel }).catch(() => undefined);
      }
      batch.shipments.push(shipment);
    }
    this.batches.set(batch.id, batch);
    return batch;
  }

  /**
   * The parcel's next event, or the events on the way to `to`. A parcel for an access point goes from the depot to
   * the point (343), not out to a door: its next step there is its arrival, and its delivery is its collection (450).
   */
  advance(number: string, to?: AdvanceTarget): AdvanceOutcome {
    const found = this.shipments.parcel(number);
    if (!found?.shipment.request.parcelShopCode || found.parcel.events.some((e) => e.code === AT_ACCESS_POINT)) return this.shipments.advance(number, to);
    const toPoint = walkToStatus(PPL_TRACKING, this.shipments.lastCode(found.parcel), 'ready_for_pickup');
    if (to === undefined && toPoint?.length === 1) return this.shipments.advance(number, 'ready_for_pickup');
    if (to !== 'delivered' || !toPoint) return this.shipments.advance(number, to);
    return this.shipments.collectAtPoint(number);
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

  labelGuidOf(parcel: EmulatedParcel): string {
    return this.guidsByNumber.get(parcel.number)!;
  }

  parcelByLabelGuid(clientId: string, guid: string): ParcelInShipment | undefined {
    const number = this.labelGuids.get(guid);
    return number === undefined ? undefined : (this.shipments.parcel(number, clientId) as ParcelInShipment | undefined);
  }

  /** The client's parcels whose shipment has this reference id or CUST external number. */
  parcelsByCustomerReference(clientId: string, reference: string): ParcelInShipment[] {
    return this.shipments.all()
      .filter((s) => s.owner === clientId)
      .filter((s) => s.referenceId === reference || s.request.externalNumbers.some((n) => n.code === 'CUST' && n.externalNumber === reference))
      .flatMap((shipment) => shipment.parcels.map((parcel) => ({ shipment, parcel })));
  }

  /** The parcel's label in its batch's format, rendered on first use and kept. */
  label({ shipment, parcel }: ParcelInShipment): Promise<Buffer> {
    return this.shipments.label(parcel, () => renderLabel(shipment.labelFormat, labelContent(shipment, parcel)));
  }

  /** Labels of a batch's parcels in order (masters first in each shipment) as one document. */
  async completeLabel(batch: PplBatch, offset: number, limit: number): Promise<Buffer> {
    const parcels = batch.shipments.flatMap((shipment) => shipment.parcels.map((parcel) => ({ shipment, parcel })));
    const labels = await Promise.all(parcels.slice(offset, offset + limit).map((p) => this.label(p)));
    return labels.length === 1 ? labels[0]! : (await mergeLabels(batch.labelFormat === 'Zpl' ? 'zpl' : 'pdf', labels)).content;
  }

  reset(): void {
    this.tokens.reset();
    this.shipments.reset();
    this.batches.clear();
    this.labelGuids.clear();
    this.guidsByNumber.clear();
  }
}

export function parcelState(state: PplEmulatorState, parcel: EmulatedParcel): PplShipmentState {
  return PPL_TRACKING.codes[state.shipments.lastCode(parcel)]!.state;
}

/** A tracking event as `GET /shipment` shows it; `code` repeats the status id (inferred, https://ppl-cpl-api-en.apidog.io). */
export function eventView(event: EmulatedEvent): { statusId: number; code: string; phase: string; group: string; eventDate: string; name: string } {
  const status = PPL_TRACKING.codes[event.code]!;
  return { statusId: Number(event.code), code: event.code, phase: status.phase, group: status.group, eventDate: new Date(event.at).toISOString(), name: status.name };
}

/** What PPL prints; the barcode symbology (Code 128 of the parcel number) is inferred (https://ppl-cpl-api-en.apidog.io). */
function labelContent(shipment: PplShipment, parcel: EmulatedParcel): EmulatedLabel {
  const { request } = shipment;
  const cust = request.externalNumbers.find((n) => n.code === 'CUST')?.externalNumber;
  return {
    carrier: 'PPL',
    trackingNumber: parcel.number,
    parcelIndex: parcel.index,
    parcelCount: shipment.parcels.length,
    reference: cust ?? request.referenceId,
    product: `${request.productType} ${PPL_PRODUCTS[request.productType]?.name ?? ''}`.trim(),
    sender: addressLines(request.sender),
    recipient: [
      ...addressLines(request.recipient), ...(request.recipient.phone ? [request.recipient.phone] : []),
      ...(request.parcelShopCode ? [`Access point ${request.parcelShopCode}`] : []),
    ],
    cod: request.cashOnDelivery ? { amount: request.cashOnDelivery.codPrice.toFixed(2), currency: request.cashOnDelivery.codCurrency } : undefined,
  };
}

function addressLines(address: PplAddress): string[] {
  const lines = [address.name, address.name2, address.contact, address.street, `${address.zipCode} ${address.city}`, address.country];
  return lines.filter((line): line is string => Boolean(line));
}
