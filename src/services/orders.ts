import { and, asc, count, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import { isoTime, isoTimeOrNull } from '../domain/clock.js';
import { checkCustoms } from '../domain/customs.js';
import { FieldErrorCollector, NotFoundError, ValidationError } from '../domain/errors.js';
import { offsetOf, type PageRequest } from '../domain/pagination.js';
import { normaliseParties } from '../domain/parties.js';
import { checkShipmentInput } from '../domain/shipment-input.js';
import { orders } from '../store/schema.js';
import type { ServiceContext } from './context.js';
import { importFolderOf } from './imports/records.js';
import { withRoutedChannel } from './shipping-rules.js';
import { recordEvent } from './events.js';
import { bindIdempotentResource } from './idempotency.js';
import { channelForShipment, createShipment, todayOf, type ShipmentBody } from './shipments/create.js';
import { getShipment } from './shipments/manage.js';

/**
 * The order queue: orders a shop or ERP sent (over the API or in a file) wait as `awaiting` until the packer has the
 * parcel on the scale and ships the order, which creates its shipment through the shipments' own path.
 */

export type OrderRow = typeof orders.$inferSelect;
export type OrderStatus = OrderRow['status'];
export const ORDER_STATUSES: readonly OrderStatus[] = ['awaiting', 'shipped', 'cancelled'];

/** The creation input an order carries: a shipment's, where the channel, label format and parcels may wait for the packer. */
export type OrderDraft = Partial<ShipmentBody> & Record<string, unknown>;

/** What the packer gives when shipping: the weighed parcels, the channel, the label format, a printer. */
export interface ShipOverrides {
  parcels?: ShipmentBody['parcels'];
  shipping_channel_id?: string;
  label_format?: ShipmentBody['label_format'];
  print?: ShipmentBody['print'];
  /** The packing station: what neither the packer nor the order says comes from its settings. */
  station?: string;
}

/** The draft read by the API's rules (parties as written, codes, money, a channel if named); measures wait for the ship. */
async function checkedDraft(ctx: ServiceContext, accountId: string, given: OrderDraft, errors: FieldErrorCollector): Promise<OrderDraft> {
  const found = given.shipping_channel_id === undefined ? undefined : await channelForShipment(ctx, accountId, given.shipping_channel_id, errors);
  const draft = normaliseParties(given, errors);
  checkShipmentInput(draft, found?.caps, todayOf(ctx), errors);
  // the parcels are weighed when the order ships: only then are the items held to their weight
  if (draft.customs) checkCustoms(draft.customs, Infinity, errors, 'customs');
  errors.throwIfAny();
  return draft;
}

function searchTextOf(draft: OrderDraft): string {
  const contact = (draft.recipient_contact ?? {}) as unknown as Record<string, unknown>;
  const words = [draft.reference_number, contact.company_name, contact.first_name, contact.last_name, draft.destination_address?.postal_code];
  return words.filter((w) => typeof w === 'string' && w !== '').join(' ').toLowerCase();
}

/** A stored draft has its recipient: the schema requires it of an order; the sender may wait for the packing station's. */
type StoredDraft = OrderDraft & Pick<ShipmentBody, 'recipient_contact' | 'destination_address'>;

export function presentOrder(row: OrderRow) {
  const draft = row.draft as StoredDraft;
  return {
    ...draft,
    sender_contact: draft.sender_contact ?? null, origin_address: draft.origin_address ?? null,
    shipping_channel_id: draft.shipping_channel_id ?? null, label_format: draft.label_format ?? null, parcels: draft.parcels ?? [],
    cash_on_delivery_amount: draft.cash_on_delivery_amount ?? null, cash_on_delivery_currency: draft.cash_on_delivery_currency ?? null,
    id: row.id, status: row.status, reference_number: row.referenceNumber, shipment_id: row.shipmentId, import_id: row.importId,
    created_at: isoTime(row.createdAt), updated_at: isoTime(row.updatedAt), shipped_at: isoTimeOrNull(row.shippedAt), cancelled_at: isoTimeOrNull(row.cancelledAt),
  };
}

export type OrderView = ReturnType<typeof presentOrder>;

async function recordOrderEvent(ctx: ServiceContext, row: OrderRow, type: 'order.created' | 'order.shipped' | 'order.cancelled'): Promise<void> {
  await recordEvent(ctx, { accountId: row.accountId, type, resourceName: 'order', resource: presentOrder(row) });
}

/** Queues an order (`awaiting`) with its `order.created` event. `importId` names the import that brought it. */
export async function createOrder(ctx: ServiceContext, accountId: string, given: OrderDraft, errors = new FieldErrorCollector(), importId: string | null = null): Promise<OrderView> {
  const draft = await checkedDraft(ctx, accountId, given, errors);
  const now = ctx.clock.now();
  const row: OrderRow = {
    id: ctx.ids('order'), accountId, referenceNumber: typeof draft.reference_number === 'string' ? draft.reference_number : null, status: 'awaiting',
    draft, searchText: searchTextOf(draft), shipmentId: null, importId, createdAt: now, updatedAt: now, shippedAt: null, cancelledAt: null,
  };
  await ctx.store.transaction(async () => {
    await ctx.db.insert(orders).values(row).run();
    await recordOrderEvent(ctx, row, 'order.created');
    await bindIdempotentResource(ctx, `/v1/orders/${row.id}`);
  });
  return presentOrder(row);
}

async function getOrderRow(ctx: ServiceContext, accountId: string, id: string): Promise<OrderRow> {
  const row = await ctx.db.select().from(orders).where(and(eq(orders.id, id), eq(orders.accountId, accountId))).get();
  if (!row) throw new NotFoundError('Order not found');
  return row;
}

export async function getOrder(ctx: ServiceContext, accountId: string, id: string): Promise<OrderView> {
  return presentOrder(await getOrderRow(ctx, accountId, id));
}

export interface OrderFilters {
  status?: OrderStatus;
  /** Part of the reference, the recipient's name or the postal code. */
  search?: string;
  createdFrom?: number;
  createdTo?: number;
}

/** Oldest first: the queue is packed in the order it came in (an import's orders in the file's order). */
export async function listOrders(ctx: ServiceContext, accountId: string, f: OrderFilters, page: PageRequest) {
  const where: SQL[] = [eq(orders.accountId, accountId)];
  if (f.status) where.push(eq(orders.status, f.status));
  if (f.createdFrom !== undefined) where.push(gte(orders.createdAt, f.createdFrom));
  if (f.createdTo !== undefined) where.push(lte(orders.createdAt, f.createdTo));
  if (f.search) {
    // the words as typed (% and _ in them are plain characters), or without their spaces: a postal code is stored as
    // the carriers write it (`120 00` is `12000`)
    const like = (text: string) => sql`${orders.searchText} LIKE ${`%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} ESCAPE '\\'`;
    const compact = f.search.replace(/\s+/g, '');
    where.push(compact === f.search ? like(f.search) : or(like(f.search), like(compact))!);
  }
  const condition = and(...where);
  const total = (await ctx.db.select({ n: count() }).from(orders).where(condition).get())!.n;
  if (offsetOf(page) >= total) return { items: [], total };
  const rows = await ctx.db.select().from(orders).where(condition).orderBy(asc(orders.createdAt), sql`rowid`)
    .limit(page.perPage).offset(offsetOf(page)).all();
  return { items: rows.map(presentOrder), total };
}

/** Changes an awaiting order's creation input; the result is read by the rules again. */
export async function patchOrder(ctx: ServiceContext, accountId: string, id: string, patch: OrderDraft, errors = new FieldErrorCollector()): Promise<OrderView> {
  const row = await getOrderRow(ctx, accountId, id);
  if (row.status !== 'awaiting') throw new ValidationError({ status: [`the order is ${row.status}; only an awaiting order changes`] });
  const draft = await checkedDraft(ctx, accountId, { ...row.draft, ...patch }, errors);
  const fresh: OrderRow = {
    ...row, draft, searchText: searchTextOf(draft), updatedAt: ctx.clock.now(),
    referenceNumber: typeof draft.reference_number === 'string' ? draft.reference_number : null,
  };
  await ctx.db.update(orders).set({ draft, searchText: fresh.searchText, referenceNumber: fresh.referenceNumber, updatedAt: fresh.updatedAt }).where(eq(orders.id, id)).run();
  return presentOrder(fresh);
}

/** An awaiting order leaves the queue (`cancelled`); a shipped one is cancelled through its shipment. */
export async function cancelOrder(ctx: ServiceContext, accountId: string, id: string): Promise<OrderView> {
  return ctx.store.transaction(async () => {
    const row = await getOrderRow(ctx, accountId, id);
    if (row.status === 'cancelled') return presentOrder(row);
    if (row.status === 'shipped') throw new ValidationError({ status: [`the order is shipped as ${row.shipmentId}: cancel that shipment`] });
    const now = ctx.clock.now();
    const fresh: OrderRow = { ...row, status: 'cancelled', cancelledAt: now, updatedAt: now };
    await ctx.db.update(orders).set({ status: 'cancelled', cancelledAt: now, updatedAt: now }).where(eq(orders.id, id)).run();
    await recordOrderEvent(ctx, fresh, 'order.cancelled');
    return presentOrder(fresh);
  });
}

/**
 * Ships an awaiting order: its draft with the packer's overrides becomes a shipment through the shipments' own path
 * (durable, its carrier step queued), and the order `shipped`, in one transaction. A second call answers with the
 * same shipment (`created: false`); once that shipment is deleted or cancelled the order awaits again (requeueOrderOf).
 */
export async function shipOrder(ctx: ServiceContext, accountId: string, id: string, overrides: ShipOverrides, errors = new FieldErrorCollector()) {
  return ctx.store.transaction(async () => {
    const row = await getOrderRow(ctx, accountId, id);
    if (row.status === 'cancelled') throw new ValidationError({ status: ['the order was cancelled'] });
    if (row.status === 'shipped') return { shipment: await getShipment(ctx, accountId, row.shipmentId!), created: false };
    const { station, ...given } = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) as ShipOverrides;
    // the packer's values over the order's, over the station's settings
    const routed = await withRoutedChannel(ctx, accountId, { ...row.draft, ...given, station }, { importFolderId: await importFolderOf(ctx, row.importId) });
    const body = { label_format: 'pdf', ...routed.body } as unknown as ShipmentBody;
    if (typeof body.shipping_channel_id !== 'string') errors.add('shipping_channel_id', 'is required: name the channel to ship with, here or on the order, or add a shipping rule that chooses one');
    if (!Array.isArray(body.parcels) || body.parcels.length === 0) errors.add('parcels', 'is required: the parcels, here or on the order (one with no measurements takes the channel\'s parcel_defaults)');
    errors.throwIfAny();
    const shipment = await createShipment(ctx, accountId, body, errors, routed.chosenBy);
    const now = ctx.clock.now();
    const fresh: OrderRow = { ...row, status: 'shipped', shipmentId: shipment.id, shippedAt: now, updatedAt: now };
    await ctx.db.update(orders).set({ status: 'shipped', shipmentId: shipment.id, shippedAt: now, updatedAt: now }).where(eq(orders.id, id)).run();
    await recordOrderEvent(ctx, fresh, 'order.shipped');
    return { shipment, created: true };
  });
}
