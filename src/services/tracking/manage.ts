import { and, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { CarrierCredentialsRefusedError, CarrierRefusedError } from '../../carriers/errors.js';
import { findProvider } from '../../carriers/registry.js';
import { FieldErrorCollector, ValidationError } from '../../domain/errors.js';
import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import { DEFAULT_CHECK_DELAY_HOURS, DEFAULT_MAX_CHECKS, nextCheckAfter, pollingContinues } from '../../domain/tracking.js';
import { isUniqueViolation } from '../../store/store.js';
import { shippingChannels, trackingParcels } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { bindIdempotentResource } from '../idempotency.js';
import { workQueued } from '../jobs.js';
import { askCarrier, recordTrackResults, TrackingUnsupportedError } from './check.js';
import {
  getTrackingParcelRow, loadTrackingParcelRow, presentTrackingParcel, presentTrackingParcelDetail, recordTrackingEvent,
  type TrackingParcelRow,
} from './records.js';
import { shipmentAllowsPolling } from './shipment-parcels.js';
import { announce } from '../notices.js';

const MAX_EXTERNAL_DATA_BYTES = 16 * 1024;
/** The tracking poller's kind of work (`workQueued`). */
export const TRACKING_CHECKS = 'tracking';

/** The creation input after the schema's type checks. */
export interface TrackingParcelBody {
  tracking_number: string;
  shipping_channel_id: string;
  recipient_name?: string | null;
  recipient_email?: string | null;
  recipient_phone?: string | null;
  check_delay_hours?: number;
  max_checks?: number;
  external_data?: Record<string, unknown> | null;
}

export type TrackingParcelPatch = Partial<TrackingParcelBody>;

function checkExternalData(value: unknown, errors: FieldErrorCollector): void {
  if (value != null && Buffer.byteLength(JSON.stringify(value)) > MAX_EXTERNAL_DATA_BYTES) errors.add('external_data', 'must be at most 16 KiB as JSON');
}

/** The channel a tracking parcel is created on: this account's, active, and its carrier able to track. */
async function trackingChannel(ctx: ServiceContext, accountId: string, channelId: unknown, errors: FieldErrorCollector) {
  if (typeof channelId !== 'string') return undefined;
  const channel = await ctx.db.select().from(shippingChannels).where(and(eq(shippingChannels.id, channelId), isNull(shippingChannels.deletedAt))).get();
  if (!channel || channel.accountId !== accountId) {
    errors.add('shipping_channel_id', 'is not a shipping channel of this account');
    return undefined;
  }
  if (channel.status !== 'active') errors.add('shipping_channel_id', `the channel is ${channel.status}; tracking parcels need an active channel`);
  const provider = findProvider(channel.provider)!;
  return { channel, provider, adapter: provider.adapter };
}

const ALREADY_TRACKED = 'is already tracked on this shipping channel';

/** Stores a tracking parcel for a number the carrier gave out elsewhere; its first check is due at once. */
export async function createTrackingParcel(ctx: ServiceContext, accountId: string, body: TrackingParcelBody, errors = new FieldErrorCollector()) {
  const found = await trackingChannel(ctx, accountId, body.shipping_channel_id, errors);
  const number = typeof body.tracking_number === 'string' ? body.tracking_number.trim() : undefined;
  if (found && number) {
    const pattern = found.adapter.trackingNumberPattern;
    if (pattern && !pattern.test(number)) errors.add('tracking_number', `is not a ${found.provider.name} tracking number (expected ${pattern.source})`);
    const taken = await ctx.db.select({ id: trackingParcels.id }).from(trackingParcels)
      .where(and(eq(trackingParcels.channelId, found.channel.id), eq(trackingParcels.trackingNumber, number))).get();
    if (taken) errors.add('tracking_number', ALREADY_TRACKED);
  }
  if (number === '') errors.add('tracking_number', 'must not be empty');
  checkExternalData(body.external_data, errors);
  errors.throwIfAny();
  const { channel, adapter } = found!;
  const now = ctx.clock.now();
  const row: TrackingParcelRow = {
    id: ctx.ids('trackingParcel'), accountId, channelId: channel.id, provider: channel.provider, shipmentId: null, parcelId: null,
    trackingNumber: number!, origin: 'external', status: 'created',
    recipientName: body.recipient_name ?? null, recipientEmail: body.recipient_email ?? null, recipientPhone: body.recipient_phone ?? null,
    checkDelayHours: body.check_delay_hours ?? DEFAULT_CHECK_DELAY_HOURS, maxChecks: body.max_checks ?? DEFAULT_MAX_CHECKS, checksDone: 0,
    nextCheckAt: now, lastCheckedAt: null, leaseUntil: null, leaseOwner: null, externalData: body.external_data ?? {},
    trackingUrl: adapter.trackingUrl(number!), createdAt: now, updatedAt: now,
  };
  let view;
  try {
    view = await ctx.store.transaction(async () => {
      await ctx.db.insert(trackingParcels).values(row).run();
      await bindIdempotentResource(ctx, `/v1/tracking-parcels/${row.id}`);
      return recordTrackingEvent(ctx, row, 'tracking_parcel.created');
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ValidationError({ tracking_number: [ALREADY_TRACKED] });
    throw err;
  }
  announce(ctx, workQueued(TRACKING_CHECKS));
  return view;
}

export interface TrackingParcelFilters {
  status?: string;
  channelId?: string;
  search?: string;
}

export async function listTrackingParcels(ctx: ServiceContext, accountId: string, filters: TrackingParcelFilters, page: PageRequest) {
  const where: SQL[] = [eq(trackingParcels.accountId, accountId)];
  if (filters.status) where.push(eq(trackingParcels.status, filters.status));
  if (filters.channelId) where.push(eq(trackingParcels.channelId, filters.channelId));
  if (filters.search) {
    const escaped = filters.search.replace(/[\\%_]/g, (c) => `\\${c}`);
    where.push(sql`${trackingParcels.trackingNumber} ${sql.raw(ctx.store.sql.like)} ${`%${escaped}%`} ESCAPE '\\'`);
  }
  const condition = and(...where);
  const total = (await ctx.db.select({ n: count() }).from(trackingParcels).where(condition).get())!.n;
  const rows = await ctx.db.select().from(trackingParcels).where(condition)
    .orderBy(desc(trackingParcels.createdAt), desc(sql`rowid`)).limit(page.perPage).offset(offsetOf(page)).all();
  return { items: rows.map(presentTrackingParcel), total };
}

export async function getTrackingParcel(ctx: ServiceContext, accountId: string, id: string) {
  return presentTrackingParcelDetail(ctx, await getTrackingParcelRow(ctx, accountId, id));
}

/** When the next check falls after a change of delay or of the number of checks (null: polling stays stopped). */
async function rescheduled(ctx: ServiceContext, row: TrackingParcelRow, update: Partial<TrackingParcelRow>): Promise<number | null> {
  const delay = update.checkDelayHours ?? row.checkDelayHours;
  const maxChecks = update.maxChecks ?? row.maxChecks;
  if (!pollingContinues(row.status, row.checksDone, maxChecks) || !(await shipmentAllowsPolling(ctx, row))) return null;
  const now = ctx.clock.now();
  // stopped only because its checks ran out, and now it has more: check again at once
  if (row.nextCheckAt === null) return now;
  if (row.lastCheckedAt === null || delay === row.checkDelayHours) return row.nextCheckAt;
  return Math.max(now, nextCheckAfter(row.id, row.lastCheckedAt, delay));
}

/** Recipient, external data, delay and number of checks may change; the number and the channel may not. */
export async function patchTrackingParcel(ctx: ServiceContext, accountId: string, id: string, patch: TrackingParcelPatch, errors = new FieldErrorCollector()) {
  const row = await getTrackingParcelRow(ctx, accountId, id);
  if (patch.tracking_number !== undefined && patch.tracking_number !== row.trackingNumber) {
    errors.add('tracking_number', 'cannot be changed; track the new number as a new tracking parcel');
  }
  if (patch.shipping_channel_id !== undefined && patch.shipping_channel_id !== row.channelId) {
    errors.add('shipping_channel_id', 'cannot be changed; track the number on the other channel as a new tracking parcel');
  }
  checkExternalData(patch.external_data, errors);
  errors.throwIfAny();
  const update: Partial<TrackingParcelRow> = { updatedAt: ctx.clock.now() };
  if (patch.recipient_name !== undefined) update.recipientName = patch.recipient_name;
  if (patch.recipient_email !== undefined) update.recipientEmail = patch.recipient_email;
  if (patch.recipient_phone !== undefined) update.recipientPhone = patch.recipient_phone;
  if (patch.external_data !== undefined) update.externalData = patch.external_data ?? {};
  if (patch.check_delay_hours !== undefined) update.checkDelayHours = patch.check_delay_hours;
  if (patch.max_checks !== undefined) update.maxChecks = patch.max_checks;
  if (update.checkDelayHours !== undefined || update.maxChecks !== undefined) update.nextCheckAt = await rescheduled(ctx, row, update);
  return ctx.store.transaction(async () => {
    await ctx.db.update(trackingParcels).set(update).where(eq(trackingParcels.id, id)).run();
    return recordTrackingEvent(ctx, (await loadTrackingParcelRow(ctx, id))!, 'tracking_parcel.updated');
  });
}

/** Only tracking parcels created through the API may be deleted; a shipment's parcels are tracked with it. */
export async function deleteTrackingParcel(ctx: ServiceContext, accountId: string, id: string): Promise<void> {
  const row = await getTrackingParcelRow(ctx, accountId, id);
  if (row.origin !== 'external') {
    const message = `Cannot delete the tracking parcel of shipment ${row.shipmentId}; set enable_tracking to false on the shipment to stop tracking it`;
    throw new ValidationError({ id: [message] }, message);
  }
  await ctx.store.transaction(async () => {
    await recordTrackingEvent(ctx, { ...row, nextCheckAt: null }, 'tracking_parcel.deleted');
    await ctx.db.delete(trackingParcels).where(eq(trackingParcels.id, id)).run();
  });
}

/**
 * Checks the parcel at its carrier now (it counts as a check); an unreachable carrier is a 503 and changes nothing, a
 * refusal of the channel's credentials a 422 on `shipping_channel_id` that leaves the channel `error`.
 */
export async function refreshTrackingParcel(ctx: ServiceContext, accountId: string, id: string) {
  const row = await getTrackingParcelRow(ctx, accountId, id);
  try {
    await recordTrackResults(ctx, [row.id], await askCarrier(ctx, row.channelId, [row]));
  } catch (err) {
    if (err instanceof CarrierCredentialsRefusedError) throw new ValidationError({ shipping_channel_id: [err.message] }, err.message);
    if (err instanceof CarrierRefusedError) throw new ValidationError({ tracking_number: [err.message] }, err.message);
    if (err instanceof TrackingUnsupportedError) throw new ValidationError({ shipping_channel_id: [err.message] });
    throw err;
  }
  return presentTrackingParcelDetail(ctx, (await loadTrackingParcelRow(ctx, id)) ?? row);
}
