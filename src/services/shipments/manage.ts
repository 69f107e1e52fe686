import { once } from 'node:events';
import { eq } from 'drizzle-orm';
import { FieldErrorCollector, ValidationError } from '../../domain/errors.js';
import { channelCapabilities } from '../../carriers/capabilities.js';
import { findProvider } from '../../carriers/registry.js';
import type { ChannelSettings } from '../../carriers/types.js';
import { parcels, shipments, shippingChannels } from '../../store/schema.js';
import { carrierContext } from '../channels.js';
import type { ServiceContext } from '../context.js';
import { cancelRefusedAfterHandOver } from '../dispatches.js';
import { recordEvent } from '../events.js';
import { cancelJob, findJob } from '../jobs.js';
import {
  CREATE_AT_CARRIER, creationColumns, parcelRows, queueCreationAtCarrier, validateCreation, type ShipmentBody,
} from './create.js';
import { cancelShipmentTracking, setShipmentTracking } from '../tracking/shipment-parcels.js';
import { getShipmentRow, loadParcels, loadShipmentRow, parcelInputs, presentShipment, type ShipmentRow } from './records.js';
import { dropShipmentFromSearch, indexShipmentForSearch } from './search.js';
import { requeueOrderOf } from '../order-queue.js';

export const MAX_WAIT_SECONDS = 30;

/** The record; with `waitSeconds`, first waits (≤ 30 s) for the next outcome of a pending shipment's carrier step. */
export async function getShipment(ctx: ServiceContext, accountId: string, id: string, waitSeconds = 0) {
  let row = await getShipmentRow(ctx, accountId, id);
  const finished = row.status !== 'pending' || (row.failure !== null && row.nextAttemptAt === null);
  if (waitSeconds > 0 && !finished) {
    const deadline = AbortSignal.timeout(Math.min(waitSeconds, MAX_WAIT_SECONDS) * 1000);
    await once(ctx.notices, `shipment:${id}`, { signal: deadline }).catch(() => undefined);
    row = await getShipmentRow(ctx, accountId, id);
  }
  return presentShipment(ctx, row);
}

/** Fields of the creation input, correctable while the shipment is pending after a failed creation; other keys are ignored. */
const CREATION_FIELDS: ReadonlySet<string> = new Set([
  'shipping_channel_id', 'label_format', 'label_dpi', 'sender_contact', 'recipient_contact', 'origin_address', 'destination_address', 'parcels',
  'cash_on_delivery_amount', 'cash_on_delivery_currency', 'shipping_date', 'print', 'pickup_point', 'customs', 'return',
]);

async function jobRunning(ctx: ServiceContext, id: string): Promise<boolean> {
  return (await findJob(ctx, CREATE_AT_CARRIER, id))?.state === 'running';
}

/** Input of the creation, rebuilt from the stored shipment (for merging a correction into it). */
async function storedBody(ctx: ServiceContext, row: ShipmentRow): Promise<ShipmentBody> {
  const view = await presentShipment(ctx, row);
  return {
    shipping_channel_id: row.channelId, label_format: row.labelFormat, label_dpi: row.labelDpi, sender_contact: view.sender_contact,
    recipient_contact: view.recipient_contact, origin_address: view.origin_address, destination_address: view.destination_address,
    parcels: parcelInputs(view),
    cash_on_delivery_amount: view.cash_on_delivery_amount, cash_on_delivery_currency: view.cash_on_delivery_currency,
    reference_number: row.referenceNumber, shipping_date: row.shippingDate, label_comment: row.labelComment,
    metadata: view.metadata, enable_tracking: row.enableTracking, print: (row.printRequest as ShipmentBody['print']) ?? null,
    pickup_point: view.pickup_point, customs: view.customs, return: row.withReturn,
  };
}

/**
 * Updates reference, metadata, tracking flag and label comment at any time; while the shipment is pending and its
 * creation failed, any creation field may be corrected too, and creation is queued again.
 */
export async function patchShipment(ctx: ServiceContext, accountId: string, id: string, patch: Record<string, unknown>, errors = new FieldErrorCollector()) {
  const row = await getShipmentRow(ctx, accountId, id);
  const creationKeys = Object.keys(patch).filter((k) => CREATION_FIELDS.has(k) && patch[k] !== undefined);
  const correcting = creationKeys.length > 0;
  if (correcting) {
    const why = row.status !== 'pending' ? 'the shipment is already created at the carrier'
      : row.failure === null || await jobRunning(ctx, id) ? 'the carrier step is in progress; change it after it failed' : undefined;
    if (why) for (const k of creationKeys) errors.add(k, `cannot be changed: ${why}`);
  }
  errors.throwIfAny();
  const stored = await storedBody(ctx, row);
  // another point, or none, and no new address: the old point's address goes with the old point
  const pointAddressGoes = 'pickup_point' in patch && patch.destination_address === undefined && stored.pickup_point?.address != null;
  const merged = { ...stored, ...patch, ...(pointAddressGoes ? { destination_address: undefined } : {}) } as ShipmentBody;
  const now = ctx.clock.now();
  const update: Partial<ShipmentRow> = { updatedAt: now };
  if ('reference_number' in patch) update.referenceNumber = (patch.reference_number as string | null) ?? null;
  if ('metadata' in patch) update.metadata = patch.metadata ?? null;
  if ('enable_tracking' in patch) update.enableTracking = Boolean(patch.enable_tracking);
  if ('label_comment' in patch) update.labelComment = (patch.label_comment as string | null) ?? null;
  if (correcting) {
    const { provider, body } = await validateCreation(ctx, accountId, merged, errors);
    Object.assign(update, await creationColumns(ctx, body, provider.code), { failure: null, nextAttemptAt: now, carrierProgress: null });
    // a channel named by hand is no longer the rule's choice
    if (body.shipping_channel_id !== row.channelId) update.chosenBy = null;
  } else if (patch.metadata !== undefined) {
    // the metadata size rule still applies to a plain update
    validateMetadataOnly(patch.metadata, errors);
  }
  return ctx.store.transaction(async () => {
    await ctx.db.update(shipments).set(update).where(eq(shipments.id, id)).run();
    if (correcting && patch.parcels !== undefined) {
      await ctx.db.delete(parcels).where(eq(parcels.shipmentId, id)).run();
      await ctx.db.insert(parcels).values(parcelRows(ctx, id, merged.parcels)).run();
    }
    const fresh = (await loadShipmentRow(ctx, id))!;
    if ('reference_number' in patch) {
      const trackingNumbers = (await loadParcels(ctx, id)).map((p) => p.trackingNumber);
      await indexShipmentForSearch(ctx, fresh.seq, accountId, [fresh.referenceNumber, fresh.providerShipmentId, ...trackingNumbers]);
    }
    if (correcting) await queueCreationAtCarrier(ctx, fresh);
    if (fresh.enableTracking !== row.enableTracking) await setShipmentTracking(ctx, id, fresh.enableTracking);
    const view = await presentShipment(ctx, fresh);
    await recordEvent(ctx, { accountId, type: 'shipment.updated', resourceName: 'shipment', resource: view });
    return view;
  });
}

function validateMetadataOnly(metadata: unknown, errors: FieldErrorCollector): void {
  if (metadata !== null && Buffer.byteLength(JSON.stringify(metadata)) > 16 * 1024) errors.add('metadata', 'must be at most 16 KiB as JSON');
  errors.throwIfAny();
}

/** Queues creation again for a pending shipment whose carrier step failed. */
export async function retryShipment(ctx: ServiceContext, accountId: string, id: string) {
  const row = await getShipmentRow(ctx, accountId, id);
  if (row.status !== 'pending' || row.failure === null) {
    throw new ValidationError({ status: [`only a pending shipment whose creation failed can be retried (this one is ${row.status}${row.status === 'pending' ? ' and in progress' : ''})`] });
  }
  const now = ctx.clock.now();
  return ctx.store.transaction(async () => {
    await ctx.db.update(shipments).set({ nextAttemptAt: now, updatedAt: now }).where(eq(shipments.id, id)).run();
    await queueCreationAtCarrier(ctx, row);
    return presentShipment(ctx, (await loadShipmentRow(ctx, id))!);
  });
}

/** A shipment may be deleted only while nothing of it exists at the carrier. */
export async function deleteShipment(ctx: ServiceContext, accountId: string, id: string): Promise<void> {
  const row = await getShipmentRow(ctx, accountId, id);
  const atCarrier = row.status !== 'pending' || row.carrierProgress !== null || await jobRunning(ctx, id);
  if (atCarrier) {
    const message = 'Cannot delete a shipment created at the carrier; cancel it';
    throw new ValidationError({ id: [message] }, message);
  }
  await ctx.store.transaction(async () => {
    await recordEvent(ctx, { accountId, type: 'shipment.deleted', resourceName: 'shipment', resource: await presentShipment(ctx, row) });
    await cancelJob(ctx, CREATE_AT_CARRIER, id);
    await dropShipmentFromSearch(ctx, row.seq);
    await ctx.db.delete(shipments).where(eq(shipments.id, id)).run();
    await requeueOrderOf(ctx, id);
  });
}

/** Cancels at the carrier where it can (else 422 naming the provider) → `cancelled`. Only from pending or created. */
export async function cancelShipment(ctx: ServiceContext, accountId: string, id: string) {
  const row = await getShipmentRow(ctx, accountId, id);
  if (row.status !== 'pending' && row.status !== 'created') {
    throw new ValidationError({ status: [`a ${row.status} shipment cannot be cancelled (only pending or created)`] });
  }
  const provider = findProvider(row.provider)!;
  if (row.status === 'pending') {
    if (row.carrierProgress !== null || await jobRunning(ctx, id)) {
      throw new ValidationError({ status: ['the shipment is being created at the carrier right now; cancel it once it is created'] });
    }
  } else {
    const channel = (await ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, row.channelId)).get())!;
    const settings = ctx.secrets.openJson<ChannelSettings>(channel.settingsEnc);
    const unavailable = channelCapabilities(provider, settings).unavailableBecause.cancel;
    // refused before any carrier call: the provider lacks cancel, or this channel's settings turn it off
    if (unavailable !== undefined) {
      if (!provider.capabilities.cancel) throw new ValidationError({ provider: [unavailable] }, `Provider ${provider.code} cannot cancel shipments.`);
      throw new ValidationError({ shipping_channel_id: [unavailable] }, `Channel ${channel.name} cannot cancel shipments: ${unavailable}`);
    }
    const handedOver = cancelRefusedAfterHandOver(row);
    if (handedOver) throw new ValidationError({ dispatch_id: [handedOver] }, `Shipment ${id} ${handedOver}.`);
    const trackingNumbers = (await loadParcels(ctx, id)).map((p) => p.trackingNumber!).filter(Boolean);
    // a provider with the cancel capability has adapter.cancel (the registry checks it at start-up)
    await provider.adapter.cancel!({ providerShipmentId: row.providerShipmentId!, trackingNumbers }, settings, carrierContext(ctx, channel));
  }
  const now = ctx.clock.now();
  return ctx.store.transaction(async () => {
    await ctx.db.update(shipments).set({ status: 'cancelled', cancelledAt: now, updatedAt: now, nextAttemptAt: null }).where(eq(shipments.id, id)).run();
    await requeueOrderOf(ctx, id);
    await cancelJob(ctx, CREATE_AT_CARRIER, id);
    await cancelShipmentTracking(ctx, id);
    const view = await presentShipment(ctx, (await loadShipmentRow(ctx, id))!);
    await recordEvent(ctx, { accountId, type: 'shipment.status_changed', resourceName: 'shipment', resource: view, previousStatus: row.status });
    return view;
  });
}
