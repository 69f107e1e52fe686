import { and, asc, count, desc, eq, gte, inArray, isNull, lte, type SQL } from 'drizzle-orm';
import { localTime } from '../carriers/local-time.js';
import { findProvider } from '../carriers/registry.js';
import type { BookedPickup, DispatchCapabilities, PickupRequest, PickupWindow, ShipmentToDispatch } from '../carriers/types.js';
import { isCalendarDate } from '../domain/calendar-date.js';
import { isoTime, isoTimeOrNull } from '../domain/clock.js';
import { FieldErrorCollector, NotFoundError, ValidationError } from '../domain/errors.js';
import { fromMinorUnits } from '../domain/money.js';
import { checkTimeOfDay } from '../domain/time-of-day.js';
import { offsetOf, type PageRequest } from '../domain/pagination.js';
import { renderHandoverListOffThread } from '../labels/index.js';
import { accounts, dispatches, parcels, shipments, shippingChannels } from '../store/schema.js';
import { channelSettings } from './channel-records.js';
import { carrierContext } from './channels.js';
import type { ServiceContext } from './context.js';
import { recordEvent } from './events.js';
import { enqueueJob, jobLane, type JobOutcome } from './jobs.js';
import { owned } from './ownership.js';
import { checkPrintRequest, queuePrintJob } from './printing/print-jobs.js';
import { carrierStepFailure, keptProgress, shipmentForCarrier } from './shipments/carrier-step.js';
import type { ParcelRow, ShipmentRow } from './shipments/records.js';

export type DispatchRow = typeof dispatches.$inferSelect;
export type DispatchStatus = DispatchRow['status'];
export const DISPATCH_STATUSES: readonly DispatchStatus[] = ['pending', 'dispatched', 'failed'];

export const HAND_OVER = 'dispatch.hand_over';
/** The hand-over at the carrier: up to 8 attempts over about 6 hours, as shipment creation. */
const HAND_OVER_MAX_ATTEMPTS = 8;

const NONE: DispatchCapabilities = { close: false, protocol: false, pickup: false };

/** What a provider does at hand-over; one that needs nothing gets packdesk's own hand-over list. */
export function dispatchCapabilities(provider: string): DispatchCapabilities {
  return findProvider(provider)?.adapter.dispatch?.capabilities ?? NONE;
}

/** The station's time zone: the daemon's own, where its packers work (pickup days and daily close times are read in it). */
export function stationClock() {
  return localTime(Intl.DateTimeFormat().resolvedOptions().timeZone);
}

export interface DispatchBody {
  shipping_channel_id: string;
  shipment_ids?: string[];
  pickup?: PickupRequest | null;
  print?: { printer_id: string; copies?: number } | null;
}

const noCourierBooking = (provider: string) => `${findProvider(provider)?.name ?? provider} takes no courier booking through its API`;

function checkPickupDate(date: string, path: string, today: string, errors: FieldErrorCollector): void {
  if (!isCalendarDate(date)) errors.add(path, 'must be a date, YYYY-MM-DD');
  else if (date < today) errors.add(path, `is in the past (today is ${today})`);
}

const stationToday = (ctx: ServiceContext) => stationClock().format(ctx.clock.now()).slice(0, 10);

function checkPickup(pickup: PickupRequest, provider: string, today: string, errors: FieldErrorCollector): void {
  if (!dispatchCapabilities(provider).pickup) errors.add('pickup', `${noCourierBooking(provider)}: leave pickup out`);
  checkPickupDate(pickup.date, 'pickup.date', today, errors);
  const from = checkTimeOfDay(pickup.from, 'pickup.from', errors);
  if (checkTimeOfDay(pickup.to, 'pickup.to', errors) && from && pickup.to <= pickup.from) errors.add('pickup.to', 'must be after pickup.from');
}

/**
 * Makes a channel's dispatch: by default every `created` shipment of the channel not yet in a dispatch. The
 * shipments are taken in the transaction that stores the dispatch and queues its hand-over, so two dispatches of one
 * channel at once put each shipment in exactly one of them.
 */
export async function createDispatch(ctx: ServiceContext, accountId: string, body: DispatchBody, errors = new FieldErrorCollector()) {
  const channel = await ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, body.shipping_channel_id)).get();
  if (!channel || channel.accountId !== accountId || channel.deletedAt !== null) errors.add('shipping_channel_id', 'is not a shipping channel of this account');
  if (channel && body.pickup) checkPickup(body.pickup, channel.provider, stationToday(ctx), errors);
  if (body.print) await checkPrintRequest(ctx, accountId, body.print, 'pdf', errors);
  errors.throwIfAny();
  const now = ctx.clock.now();
  const id = ctx.ids('dispatch');
  const row = await ctx.store.transaction(async () => {
    const waiting = and(eq(shipments.accountId, accountId), eq(shipments.channelId, channel!.id), eq(shipments.status, 'created'), isNull(shipments.dispatchId), isNull(shipments.returnOf));
    let ids: string[];
    if (body.shipment_ids) {
      const found = new Map((await ctx.db.select({ id: shipments.id }).from(shipments).where(and(waiting, inArray(shipments.id, body.shipment_ids))).all()).map((s) => [s.id, s]));
      body.shipment_ids.forEach((sid, i) => { if (!found.has(sid)) errors.add(`shipment_ids.${i}`, `${sid} is not a created shipment of this channel waiting for a dispatch`); });
      ids = [...new Set(body.shipment_ids)];
    } else {
      ids = (await ctx.db.select({ id: shipments.id }).from(shipments).where(waiting).orderBy(asc(shipments.createdAt), asc(shipments.seq)).all()).map((s) => s.id);
      if (ids.length === 0) errors.add('shipment_ids', 'no created shipment of this channel waits for a dispatch');
    }
    errors.throwIfAny();
    const created: DispatchRow = {
      id, accountId, channelId: channel!.id, provider: channel!.provider, status: 'pending', pickupRequest: body.pickup ?? null, pickup: null,
      printRequest: body.print ?? null, carrierRef: null, document: null, documentSource: null, failure: null, attempts: 0, carrierProgress: null,
      createdAt: now, updatedAt: now, dispatchedAt: null,
    };
    await ctx.db.insert(dispatches).values(created).run();
    await ctx.db.update(shipments).set({ dispatchId: id, updatedAt: now }).where(inArray(shipments.id, ids)).run();
    await enqueueJob(ctx, { kind: HAND_OVER, subjectId: id, lane: jobLane(channel!.provider, channel!.id), maxAttempts: HAND_OVER_MAX_ATTEMPTS });
    await recordDispatchEvent(ctx, created, 'dispatch.created');
    return created;
  });
  return presentDispatch(ctx, row);
}

async function recordDispatchEvent(ctx: ServiceContext, row: DispatchRow, type: 'dispatch.created' | 'dispatch.updated'): Promise<void> {
  await recordEvent(ctx, { accountId: row.accountId, type, resourceName: 'dispatch', resource: await presentDispatch(ctx, row) });
}

type WithParcels = { row: ShipmentRow; parcels: ParcelRow[] };

async function withParcels(ctx: ServiceContext, rows: ShipmentRow[]): Promise<WithParcels[]> {
  const parcelRows = rows.length === 0 ? [] : await ctx.db.select().from(parcels).where(inArray(parcels.shipmentId, rows.map((r) => r.id))).orderBy(asc(parcels.position)).all();
  return rows.map((row) => ({ row, parcels: parcelRows.filter((p) => p.shipmentId === row.id) }));
}

async function dispatchedShipments(ctx: ServiceContext, dispatchId: string): Promise<WithParcels[]> {
  return withParcels(ctx, await ctx.db.select().from(shipments).where(eq(shipments.dispatchId, dispatchId)).orderBy(asc(shipments.createdAt), asc(shipments.seq)).all());
}

/** A created shipment as its carrier's hand-over knows it. */
function toDispatch({ row: s, parcels: p }: WithParcels): ShipmentToDispatch {
  return {
    providerShipmentId: s.providerShipmentId!, reference: s.referenceNumber,
    parcels: shipmentForCarrier(s, p).parcels.map((x, i) => ({ trackingNumber: p[i]!.trackingNumber!, carrierRef: p[i]!.carrierRef, weightKg: x.weightKg })),
    cashOnDelivery: s.codAmountMinor == null ? null : { amountMinor: s.codAmountMinor, currency: s.codCurrency! },
  };
}

/** The dispatch with its shipments, parcels and totals. */
export async function presentDispatch(ctx: ServiceContext, row: DispatchRow) {
  const handed = await dispatchedShipments(ctx, row.id);
  const forCarrier = handed.map(({ row: s, parcels: p }) => shipmentForCarrier(s, p));
  const cod = new Map<string, number>();
  for (const s of handed) if (s.row.codAmountMinor != null) cod.set(s.row.codCurrency!, (cod.get(s.row.codCurrency!) ?? 0) + s.row.codAmountMinor);
  return {
    id: row.id, shipping_channel_id: row.channelId, provider: row.provider, status: row.status,
    capabilities: dispatchCapabilities(row.provider),
    shipments: handed.map(({ row: s, parcels: p }) => ({
      id: s.id, reference_number: s.referenceNumber, tracking_numbers: p.map((x) => x.trackingNumber).filter((n): n is string => n !== null),
      cash_on_delivery_amount: s.codAmountMinor == null ? null : fromMinorUnits(s.codAmountMinor), cash_on_delivery_currency: s.codCurrency,
    })),
    shipments_count: handed.length,
    parcels_count: handed.reduce((n, s) => n + s.parcels.length, 0),
    weight_kg: Math.round(forCarrier.reduce((sum, s) => sum + s.parcels.reduce((w, p) => w + p.weightKg, 0), 0) * 1000) / 1000,
    cash_on_delivery_totals: [...cod].map(([currency, minor]) => ({ currency, amount: fromMinorUnits(minor) })),
    pickup_request: (row.pickupRequest as PickupRequest | null) ?? null,
    pickup: row.pickup ? { ...(row.pickup as BookedPickup), note: (row.pickup as BookedPickup).note ?? null } : null,
    carrier_ref: row.carrierRef,
    has_document: row.document !== null,
    document_source: row.documentSource,
    failure: (row.failure as { message: string; errors: Record<string, string[]>; attempts: number; at: string } | null) ?? null,
    created_at: isoTime(row.createdAt), updated_at: isoTime(row.updatedAt), dispatched_at: isoTimeOrNull(row.dispatchedAt),
  };
}

export type DispatchView = Awaited<ReturnType<typeof presentDispatch>>;

function loadDispatchRow(ctx: ServiceContext, id: string): Promise<DispatchRow | undefined> {
  return ctx.db.select().from(dispatches).where(eq(dispatches.id, id)).get();
}

export async function getDispatch(ctx: ServiceContext, accountId: string, id: string): Promise<DispatchView> {
  return presentDispatch(ctx, owned(await loadDispatchRow(ctx, id), accountId, 'Dispatch', id));
}

export interface DispatchFilters {
  channelId?: string;
  status?: DispatchStatus;
  createdFrom?: number;
  createdTo?: number;
}

export async function listDispatches(ctx: ServiceContext, accountId: string, f: DispatchFilters, page: PageRequest) {
  const where: SQL[] = [eq(dispatches.accountId, accountId)];
  if (f.channelId) where.push(eq(dispatches.channelId, f.channelId));
  if (f.status) where.push(eq(dispatches.status, f.status));
  if (f.createdFrom !== undefined) where.push(gte(dispatches.createdAt, f.createdFrom));
  if (f.createdTo !== undefined) where.push(lte(dispatches.createdAt, f.createdTo));
  const condition = and(...where);
  const total = (await ctx.db.select({ n: count() }).from(dispatches).where(condition).get())!.n;
  const rows = await ctx.db.select().from(dispatches).where(condition).orderBy(desc(dispatches.createdAt), desc(dispatches.id)).limit(page.perPage).offset(offsetOf(page)).all();
  const items: DispatchView[] = [];
  for (const row of rows) items.push(await presentDispatch(ctx, row));
  return { items, total };
}

/** The hand-over document, a PDF: the carrier's protocol, or packdesk's list. */
export async function getDispatchDocument(ctx: ServiceContext, accountId: string, id: string): Promise<Buffer> {
  const row = owned(await loadDispatchRow(ctx, id), accountId, 'Dispatch', id);
  if (!row.document) throw new NotFoundError(`Dispatch ${id} has no document yet (status ${row.status}).`);
  return row.document;
}

/** What waits for the day's dispatch, per channel: created shipments in no dispatch yet (returns come back; they are not handed over). */
export async function waitingForDispatch(ctx: ServiceContext, accountId: string) {
  const rows = await ctx.db.select({ channelId: shipments.channelId, n: count() }).from(shipments)
    .where(and(eq(shipments.accountId, accountId), eq(shipments.status, 'created'), isNull(shipments.dispatchId), isNull(shipments.returnOf))).groupBy(shipments.channelId).all();
  return rows.map((r) => ({ shipping_channel_id: r.channelId, shipments_count: r.n }));
}

/**
 * The courier windows the channel's carrier offers on `date` for the address its waiting shipments leave from (the
 * first one's, as the dispatch will send). `offered: false`: the carrier books couriers but publishes no windows.
 */
export async function pickupWindows(ctx: ServiceContext, accountId: string, channelId: string, date: string): Promise<{ offered: boolean; windows: PickupWindow[] }> {
  const errors = new FieldErrorCollector();
  const channel = await ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, channelId)).get();
  if (!channel || channel.accountId !== accountId || channel.deletedAt !== null) errors.add('shipping_channel_id', 'is not a shipping channel of this account');
  else if (!dispatchCapabilities(channel.provider).pickup) errors.add('shipping_channel_id', noCourierBooking(channel.provider));
  checkPickupDate(date, 'date', stationToday(ctx), errors);
  errors.throwIfAny();
  const dispatcher = findProvider(channel!.provider)!.adapter.dispatch!;
  if (!dispatcher.pickupWindows) return { offered: false, windows: [] };
  const rows = await ctx.db.select().from(shipments)
    .where(and(eq(shipments.accountId, accountId), eq(shipments.channelId, channelId), eq(shipments.status, 'created'), isNull(shipments.dispatchId), isNull(shipments.returnOf)))
    .orderBy(asc(shipments.createdAt), asc(shipments.seq)).all();
  if (rows.length === 0) throw new ValidationError({ shipping_channel_id: ['no created shipment of this channel waits for a dispatch'] });
  const waiting = await withParcels(ctx, rows);
  const windows = await dispatcher.pickupWindows(
    { date, sender: shipmentForCarrier(waiting[0]!.row, waiting[0]!.parcels).sender, shipments: waiting.map(toDispatch) },
    channelSettings(ctx, channel!), carrierContext(ctx, channel!),
  );
  return { offered: true, windows };
}

/** Queues a failed dispatch's hand-over again (after its cause was fixed at the carrier or in the channel). */
export async function retryDispatch(ctx: ServiceContext, accountId: string, id: string): Promise<DispatchView> {
  return ctx.store.transaction(async () => {
    const row = owned(await loadDispatchRow(ctx, id), accountId, 'Dispatch', id);
    if (row.status !== 'failed') throw new ValidationError({ status: [`only a failed dispatch can be retried (this one is ${row.status})`] });
    const now = ctx.clock.now();
    await ctx.db.update(dispatches).set({ status: 'pending', failure: null, updatedAt: now }).where(eq(dispatches.id, id)).run();
    await enqueueJob(ctx, { kind: HAND_OVER, subjectId: id, lane: jobLane(row.provider, row.channelId), maxAttempts: HAND_OVER_MAX_ATTEMPTS });
    return presentDispatch(ctx, (await loadDispatchRow(ctx, id))!);
  });
}

/** A shipment handed over to a carrier that cannot cancel afterwards: cancel names the dispatch instead of calling it. */
export function cancelRefusedAfterHandOver(row: Pick<ShipmentRow, 'dispatchId' | 'provider'>): string | undefined {
  const dispatcher = findProvider(row.provider)?.adapter.dispatch;
  if (!row.dispatchId || !dispatcher || dispatcher.cancelAfterHandOver) return undefined;
  return `was handed over to the carrier in dispatch ${row.dispatchId}; ${findProvider(row.provider)!.name} cannot cancel it afterwards`;
}

async function handoverDocument(ctx: ServiceContext, row: DispatchRow, handed: { row: ShipmentRow; parcels: ParcelRow[] }[]): Promise<Buffer> {
  const channel = (await ctx.db.select({ name: shippingChannels.name }).from(shippingChannels).where(eq(shippingChannels.id, row.channelId)).get())!;
  const account = (await ctx.db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, row.accountId)).get())!;
  const pickup = row.pickup as BookedPickup | null;
  return renderHandoverListOffThread({
    dispatchId: row.id, carrier: findProvider(row.provider)?.name ?? row.provider, channel: channel.name, account: account.name,
    at: isoTime(ctx.clock.now()).slice(0, 16).replace('T', ' '),
    pickup: pickup ? `${pickup.date} ${pickup.from}–${pickup.to}${pickup.confirmation === null ? ' (not confirmed by the carrier)' : ''}` : null,
    shipments: handed.map(({ row: s, parcels: p }) => {
      const forCarrier = shipmentForCarrier(s, p);
      return {
        reference: s.referenceNumber, recipient: forCarrier.recipient.companyName ?? forCarrier.recipient.personName ?? '', city: forCarrier.recipient.city,
        parcels: p.map((x, i) => ({ trackingNumber: x.trackingNumber ?? '', weightKg: forCarrier.parcels[i]!.weightKg })),
        cod: s.codAmountMinor == null ? null : { amount: fromMinorUnits(s.codAmountMinor).toFixed(2), currency: s.codCurrency! },
      };
    }),
  });
}

async function recordFailure(ctx: ServiceContext, row: DispatchRow, attempt: number, failure: { message: string; errors: Record<string, string[]> }, status: DispatchStatus): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.transaction(async () => {
    await ctx.db.update(dispatches).set({ failure: { ...failure, attempts: attempt, at: isoTime(now) }, attempts: attempt, status, updatedAt: now }).where(eq(dispatches.id, row.id)).run();
    if (status === 'failed') await recordDispatchEvent(ctx, (await loadDispatchRow(ctx, row.id))!, 'dispatch.updated');
  });
}

/**
 * The hand-over job: the carrier's close, protocol and courier as its adapter does them (exactly once, by the
 * progress it saves), then the document — the carrier's, else packdesk's list — and the print asked for, in one
 * transaction with the dispatch becoming `dispatched`.
 */
export async function handOverAtCarrier(ctx: ServiceContext, dispatchId: string, attempt: number, maxAttempts: number): Promise<JobOutcome> {
  const row = await loadDispatchRow(ctx, dispatchId);
  if (!row || row.status !== 'pending') return { result: 'done' };
  const channel = (await ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, row.channelId)).get())!;
  const dispatcher = findProvider(row.provider)!.adapter.dispatch;
  const handed = await dispatchedShipments(ctx, row.id);
  const progress = keptProgress(row.carrierProgress, (p) => ctx.db.update(dispatches).set({ carrierProgress: p }).where(eq(dispatches.id, row.id)).run());
  try {
    const answered = dispatcher ? await dispatcher.handOver({
      id: row.id, pickup: (row.pickupRequest as PickupRequest | null) ?? null,
      sender: shipmentForCarrier(handed[0]!.row, handed[0]!.parcels).sender,
      shipments: handed.map(toDispatch),
    }, channelSettings(ctx, channel), { ...carrierContext(ctx, channel), progress }) : { carrierRef: null };
    const pickupRow = { ...row, pickup: answered.pickup ?? null };
    const document = answered.document ? Buffer.from(answered.document) : await handoverDocument(ctx, pickupRow, handed);
    const now = ctx.clock.now();
    await ctx.store.transaction(async () => {
      await ctx.db.update(dispatches).set({
        status: 'dispatched', carrierRef: answered.carrierRef, pickup: answered.pickup ?? null, document, documentSource: answered.document ? 'carrier' : 'packdesk',
        failure: null, attempts: attempt, updatedAt: now, dispatchedAt: now,
      }).where(eq(dispatches.id, row.id)).run();
      const print = row.printRequest as { printer_id: string; copies?: number } | null;
      if (print) await queuePrintJob(ctx, { accountId: row.accountId, printerId: print.printer_id, format: 'pdf', copies: print.copies ?? 1, content: document, dispatchId: row.id });
      await recordDispatchEvent(ctx, (await loadDispatchRow(ctx, row.id))!, 'dispatch.updated');
    });
    return { result: 'done', lane: { answered: true } };
  } catch (err) {
    const step = carrierStepFailure(ctx, err, attempt, maxAttempts, { dispatch_id: row.id }, 'dispatch hand-over');
    await recordFailure(ctx, row, attempt, step.failure, step.retryAt === null ? 'failed' : 'pending');
    return step.outcome;
  }
}
