import { desc, eq, sql } from 'drizzle-orm';
import { isoTime, isoTimeOrNull } from '../../domain/clock.js';
import type { Db } from '../../store/store.js';
import { trackingParcels, trackingUpdates } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { recordEvent } from '../events.js';
import { owned } from '../ownership.js';

export type TrackingParcelRow = typeof trackingParcels.$inferSelect;
export type TrackingUpdateRow = typeof trackingUpdates.$inferSelect;

/** Queries on the tracking hot path, built once per store (building a drizzle query costs more than running it). */
function preparedQueriesOf(db: Db) {
  return {
    parcelById: db.select().from(trackingParcels).where(eq(trackingParcels.id, sql.placeholder('id'))).prepare(),
    updatesOfParcel: db.select().from(trackingUpdates).where(eq(trackingUpdates.trackingParcelId, sql.placeholder('id')))
      .orderBy(desc(trackingUpdates.occurredAt), desc(sql`rowid`)).prepare(),
  };
}

const prepared = new WeakMap<Db, ReturnType<typeof preparedQueriesOf>>();

function preparedQueries(db: Db) {
  let queries = prepared.get(db);
  if (!queries) prepared.set(db, (queries = preparedQueriesOf(db)));
  return queries;
}

export function loadTrackingParcelRow(ctx: ServiceContext, id: string): Promise<TrackingParcelRow | undefined> {
  return preparedQueries(ctx.db).parcelById.get({ id });
}

export async function getTrackingParcelRow(ctx: ServiceContext, accountId: string, id: string): Promise<TrackingParcelRow> {
  return owned(await loadTrackingParcelRow(ctx, id), accountId, 'Tracking parcel', id);
}

/** The list representation (SPEC §2.3). */
export function presentTrackingParcel(row: TrackingParcelRow) {
  return {
    id: row.id,
    tracking_number: row.trackingNumber,
    shipping_channel_id: row.channelId,
    shipment_id: row.shipmentId,
    origin: row.origin,
    status: row.status,
    recipient_name: row.recipientName,
    recipient_email: row.recipientEmail,
    recipient_phone: row.recipientPhone,
    check_delay_hours: row.checkDelayHours,
    max_checks: row.maxChecks,
    checks_done: row.checksDone,
    next_check_at: isoTimeOrNull(row.nextCheckAt),
    last_checked_at: isoTimeOrNull(row.lastCheckedAt),
    external_data: (row.externalData as Record<string, unknown> | null) ?? {},
    tracking_url: row.trackingUrl,
    created_at: isoTime(row.createdAt),
    updated_at: isoTime(row.updatedAt),
  };
}

export function presentStatusUpdate(row: TrackingUpdateRow) {
  return {
    id: row.id,
    status: row.status,
    carrier_status: { code: row.carrierCode, text: row.carrierText },
    location: row.location,
    description: row.description,
    timestamp: isoTime(row.occurredAt),
  };
}

/** Newest first; events at the same moment in the order they were stored, latest first. */
export function loadStatusUpdates(ctx: ServiceContext, trackingParcelId: string): Promise<TrackingUpdateRow[]> {
  return preparedQueries(ctx.db).updatesOfParcel.all({ id: trackingParcelId });
}

/** The record as GET /v1/tracking-parcels/{id} returns it: with its status updates. */
export async function presentTrackingParcelDetail(ctx: ServiceContext, row: TrackingParcelRow) {
  return { ...presentTrackingParcel(row), status_updates: (await loadStatusUpdates(ctx, row.id)).map(presentStatusUpdate) };
}

export type TrackingParcelView = Awaited<ReturnType<typeof presentTrackingParcelDetail>>;

type TrackingEventType = 'tracking_parcel.created' | 'tracking_parcel.updated' | 'tracking_parcel.deleted' | 'tracking_parcel.status_changed';

/** Records an event about a tracking parcel (inside the transaction of the change); returns the view it carries. */
export async function recordTrackingEvent(ctx: ServiceContext, row: TrackingParcelRow, type: TrackingEventType, previousStatus?: string): Promise<TrackingParcelView> {
  const view = await presentTrackingParcelDetail(ctx, row);
  await recordEvent(ctx, { accountId: row.accountId, type, resourceName: 'tracking_parcel', resource: view, previousStatus });
  return view;
}
