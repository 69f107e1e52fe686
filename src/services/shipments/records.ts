import { asc, eq, sql } from 'drizzle-orm';
import { isoTime, isoTimeOrNull } from '../../domain/clock.js';
import { fromMinorUnits } from '../../domain/money.js';
import type { CustomsInput } from '../../domain/customs.js';
import type { ChosenBy } from '../../domain/shipping-rules.js';
import type { StoredPickupPoint } from '../../domain/pickup-points.js';
import type { Address, Contact } from '../../domain/shipment-input.js';
import type { Db } from '../../store/store.js';
import { labels, parcels, shipments } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { owned } from '../ownership.js';
import { loadPrinterRow } from '../printing/printers.js';

export type ShipmentRow = typeof shipments.$inferSelect;
export type ParcelRow = typeof parcels.$inferSelect;
export type ShipmentStatus = ShipmentRow['status'];
export const SHIPMENT_STATUSES: readonly ShipmentStatus[] = ['pending', 'created', 'shipped', 'delivered', 'cancelled', 'returned'];

export interface ShipmentFailure {
  message: string;
  errors: Record<string, string[]>;
  attempts: number;
  at: string;
}

/** The reads every shipment step makes, built once per store. */
function buildReads(db: Db) {
  return {
    shipment: db.select().from(shipments).where(eq(shipments.id, sql.placeholder('id'))).prepare(),
    parcels: db.select().from(parcels).where(eq(parcels.shipmentId, sql.placeholder('id'))).orderBy(asc(parcels.position)).prepare(),
    hasLabel: db.select({ id: labels.shipmentId }).from(labels).where(eq(labels.shipmentId, sql.placeholder('id'))).prepare(),
  };
}
const preparedReads = new WeakMap<Db, ReturnType<typeof buildReads>>();
function reads(ctx: ServiceContext) {
  let r = preparedReads.get(ctx.db);
  if (!r) preparedReads.set(ctx.db, (r = buildReads(ctx.db)));
  return r;
}

export function loadShipmentRow(ctx: ServiceContext, id: string): Promise<ShipmentRow | undefined> {
  return reads(ctx).shipment.get({ id });
}

export async function getShipmentRow(ctx: ServiceContext, accountId: string, id: string): Promise<ShipmentRow> {
  return owned(await loadShipmentRow(ctx, id), accountId, 'Shipment', id);
}

export function loadParcels(ctx: ServiceContext, shipmentId: string): Promise<ParcelRow[]> {
  return reads(ctx).parcels.all({ id: shipmentId });
}

async function hasLabel(ctx: ServiceContext, shipmentId: string): Promise<boolean> {
  return (await reads(ctx).hasLabel.get({ id: shipmentId })) !== undefined;
}

/** The record's `print_plan`: the printer by name, or why nothing prints (a station that auto-prints with no printer for the format). */
async function presentPrintPlan(ctx: ServiceContext, request: unknown) {
  const plan = request as { printer_id: string; copies?: number } | { printer_id: null; reason: string } | null;
  if (!plan) return null;
  if (plan.printer_id === null) return { printer_id: null, printer_name: null, copies: null, reason: plan.reason };
  const printer = await loadPrinterRow(ctx, plan.printer_id);
  return { printer_id: plan.printer_id, printer_name: printer?.name ?? null, copies: plan.copies ?? 1, reason: printer ? null : 'the printer was removed' };
}

const money = (minor: number | null) => (minor == null ? null : fromMinorUnits(minor));

/**
 * A shipment nothing moves on its own: pending, refused by the carrier (or given up on) with no attempt scheduled.
 * Only a fix (PATCH) or a retry does; one in progress or waiting out a carrier outage is not in this state.
 */
export function needsAttention(row: Pick<ShipmentRow, 'status' | 'failure' | 'nextAttemptAt'>): boolean {
  return row.status === 'pending' && row.failure !== null && row.nextAttemptAt === null;
}

export type SummaryRow = Pick<ShipmentRow, 'id' | 'referenceNumber' | 'channelId' | 'providerShipmentId' | 'status' | 'totalPriceMinor' | 'currency'
  | 'createdAt' | 'updatedAt' | 'failure' | 'nextAttemptAt'>;

/** The seed's list representation, and whether the shipment needs someone's attention. */
export function presentShipmentSummary(row: SummaryRow) {
  return {
    id: row.id,
    reference_number: row.referenceNumber,
    shipping_channel_id: row.channelId,
    provider_shipment_id: row.providerShipmentId,
    status: row.status,
    total_price: money(row.totalPriceMinor),
    currency: row.currency,
    needs_attention: needsAttention(row),
    created_at: isoTime(row.createdAt),
    updated_at: isoTime(row.updatedAt),
  };
}

/** The list's `include=details`: who and where it goes, its first tracking number, COD, carrier and printed state. */
export type DetailRow = Pick<ShipmentRow, 'recipientContact' | 'destinationAddress' | 'codAmountMinor' | 'codCurrency' | 'provider' | 'labelFormat' | 'printedAt' | 'dispatchId'>;

export function presentShipmentDetails(row: DetailRow, parcelNumbers: readonly (string | null)[]) {
  const recipient = row.recipientContact as Contact;
  const destination = row.destinationAddress as Address;
  return {
    recipient_name: recipient.company_name || [recipient.first_name, recipient.last_name].filter(Boolean).join(' '),
    destination_city: destination.city_name,
    destination_country: destination.country_code,
    tracking_number: parcelNumbers[0] ?? null,
    total_parcels_count: parcelNumbers.length,
    cash_on_delivery_amount: money(row.codAmountMinor),
    cash_on_delivery_currency: row.codCurrency,
    provider: row.provider,
    label_format: row.labelFormat,
    printed_at: isoTimeOrNull(row.printedAt),
    dispatch_id: row.dispatchId,
  };
}

/** The full record, as GET /v1/shipments/{id} returns it. */
export async function presentShipment(ctx: ServiceContext, row: ShipmentRow, loadedParcels?: ParcelRow[]) {
  const parcelRows = loadedParcels ?? await loadParcels(ctx, row.id);
  return {
    ...presentShipmentSummary(row),
    label_format: row.labelFormat,
    label_dpi: row.labelDpi,
    shipping_date: row.shippingDate,
    is_international: row.isInternational,
    cash_on_delivery_amount: money(row.codAmountMinor),
    cash_on_delivery_currency: row.codCurrency,
    product: row.product,
    sender_contact: row.senderContact as Contact,
    recipient_contact: row.recipientContact as Contact,
    origin_address: row.originAddress as Address,
    destination_address: row.destinationAddress as Address,
    pickup_point: (row.pickupPoint as StoredPickupPoint | null) ?? null,
    customs: (row.customs as CustomsInput | null) ?? null,
    return_of: row.returnOf,
    return: row.withReturn,
    return_shipment_ids: await returnShipmentIds(ctx, row.id),
    price_source: row.priceSource,
    chosen_by: (row.chosenBy as ChosenBy | null) ?? null,
    metadata: (row.metadata as Record<string, unknown> | null) ?? null,
    label_comment: row.labelComment,
    enable_tracking: row.enableTracking,
    has_label: await hasLabel(ctx, row.id),
    parcels: parcelRows.map((p) => ({
      id: p.id,
      parcel_type: p.parcelType,
      weight_amount: p.weightAmount,
      weight_unit: p.weightUnit,
      length_dimension: p.lengthDimension,
      width_dimension: p.widthDimension,
      height_dimension: p.heightDimension,
      dimension_unit: p.dimensionUnit,
      tracking_number: p.trackingNumber,
      tracking_status: p.trackingStatus,
      tracking_url: p.trackingUrl,
    })),
    total_parcels_count: parcelRows.length,
    failure: (row.failure as ShipmentFailure | null) ?? null,
    next_attempt_at: isoTimeOrNull(row.nextAttemptAt),
    cancelled_at: isoTimeOrNull(row.cancelledAt),
    printed_at: isoTimeOrNull(row.printedAt),
    print_plan: await presentPrintPlan(ctx, row.printRequest),
    dispatch_id: row.dispatchId,
  };
}

export type ShipmentView = Awaited<ReturnType<typeof presentShipment>>;

/** The shipments that return this one, oldest first. */
export async function returnShipmentIds(ctx: ServiceContext, id: string): Promise<string[]> {
  const rows = await ctx.db.select({ id: shipments.id }).from(shipments).where(eq(shipments.returnOf, id)).orderBy(shipments.seq).all();
  return rows.map((r) => r.id);
}

/** A presented shipment's parcels as a creation input takes them: their measures, without ids and tracking. */
export function parcelInputs(view: Awaited<ReturnType<typeof presentShipment>>) {
  return view.parcels.map(({ id: _id, tracking_number: _t, tracking_status: _s, tracking_url: _u, ...p }) => p);
}
