import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import { csvLine } from '../../imports/csv-table.js';
import type { Store } from '../../store/store.js';
import type { ServiceContext } from '../context.js';
import { presentShipmentDetails, presentShipmentSummary, type DetailRow, type ShipmentStatus, type SummaryRow } from './records.js';

export interface ShipmentFilters {
  status?: ShipmentStatus;
  channelId?: string;
  search?: string;
  createdFrom?: number;
  createdTo?: number;
  /** Only shipments the carrier refused that nothing retries (records.ts needsAttention). */
  needsAttention?: boolean;
  /** true: only shipments an end-of-day dispatch handed over; false: only those none has yet. */
  dispatched?: boolean;
}

/** The failure column is JSON text on SQLite and text on PostgreSQL alike: the list reads it as the records do. */
const NEEDS_ATTENTION_SQL = `status = 'pending' AND failure IS NOT NULL AND next_attempt_at IS NULL`;

/** The list shows only these columns: reading them alone keeps the hot list query narrow. */
const SUMMARY_COLUMNS = `id, reference_number AS "referenceNumber", channel_id AS "channelId", provider_shipment_id AS "providerShipmentId",
  status, total_price_minor AS "totalPriceMinor", currency, created_at AS "createdAt", updated_at AS "updatedAt",
  failure, next_attempt_at AS "nextAttemptAt"`;

/** What `include=details` adds. */
const DETAIL_COLUMNS = `, recipient_contact AS "recipientContact", destination_address AS "destinationAddress", cod_amount_minor AS "codAmountMinor",
  cod_currency AS "codCurrency", provider, label_format AS "labelFormat", printed_at AS "printedAt", dispatch_id AS "dispatchId"`;

/** Shorter terms than this cannot use the trigram index (SQLite would scan every search row). */
const MIN_SUBSTRING_TERM = 3;

/**
 * Shipments whose reference, carrier id or a parcel tracking number contains `term`, case-insensitively. The trigram
 * index answers `LIKE '%term%'` without a scan; `%` and `_` in the term widen that match, so the candidates are
 * checked against the plain substring afterwards. A 1–2 character term matches a whole reference number (indexed).
 */
async function searchSeqs(ctx: ServiceContext, accountId: string, term: string): Promise<number[]> {
  if (term.length < MIN_SUBSTRING_TERM) {
    const rows = await ctx.store.all<{ seq: number }>(`SELECT seq FROM shipments WHERE account_id = ? AND ${ctx.store.sql.equalsIgnoringCase('reference_number')}`,
      accountId, term);
    return rows.map((r) => r.seq);
  }
  const needle = term.toLowerCase();
  const rows = await ctx.store.all<{ seq: number; terms: string }>(`SELECT rowid AS seq, terms FROM shipment_search WHERE terms ${ctx.store.sql.like} ? AND account_id = ?`,
    `%${term}%`, accountId);
  return rows.filter((r) => r.terms.toLowerCase().includes(needle)).map((r) => r.seq);
}

/** Total from the trigger-kept counters when only account, status and channel filter (no scan). */
async function countedTotal(ctx: ServiceContext, accountId: string, f: ShipmentFilters): Promise<number> {
  const clauses = ['account_id = ?'];
  const params: string[] = [accountId];
  if (f.status) { clauses.push('status = ?'); params.push(f.status); }
  if (f.channelId) { clauses.push('channel_id = ?'); params.push(f.channelId); }
  const sql = `SELECT coalesce(sum(n), 0) AS n FROM shipment_counts WHERE ${clauses.join(' AND ')}`;
  return (await ctx.store.get<{ n: number }>(sql, ...params))!.n;
}

/** The WHERE of a filtered list, or null when a search finds nothing. */
async function whereOf(ctx: ServiceContext, accountId: string, f: ShipmentFilters): Promise<{ where: string; params: unknown[] } | null> {
  const clauses = ['account_id = ?'];
  const params: unknown[] = [accountId];
  if (f.status) { clauses.push('status = ?'); params.push(f.status); }
  if (f.channelId) { clauses.push('channel_id = ?'); params.push(f.channelId); }
  if (f.createdFrom !== undefined) { clauses.push('created_at >= ?'); params.push(f.createdFrom); }
  if (f.createdTo !== undefined) { clauses.push('created_at <= ?'); params.push(f.createdTo); }
  if (f.needsAttention) clauses.push(NEEDS_ATTENTION_SQL);
  if (f.dispatched !== undefined) clauses.push(`dispatch_id IS ${f.dispatched ? 'NOT ' : ''}NULL`);
  if (f.search) {
    const seqs = await searchSeqs(ctx, accountId, f.search);
    if (seqs.length === 0) return null;
    const among = ctx.store.sql.inList(seqs);
    clauses.push(`seq ${among.sql}`);
    params.push(among.param);
  }
  return { where: clauses.join(' AND '), params };
}

/** Each listed shipment's tracking numbers in parcel order, read in one query. */
async function trackingNumbersOf(ctx: ServiceContext, ids: readonly string[]): Promise<Map<string, (string | null)[]>> {
  const among = ctx.store.sql.inList(ids);
  const rows = await ctx.store.all<{ shipmentId: string; trackingNumber: string | null }>(
    `SELECT shipment_id AS "shipmentId", tracking_number AS "trackingNumber" FROM parcels WHERE shipment_id ${among.sql} ORDER BY shipment_id, position`, among.param);
  const numbers = new Map<string, (string | null)[]>();
  for (const r of rows) (numbers.get(r.shipmentId) ?? numbers.set(r.shipmentId, []).get(r.shipmentId)!).push(r.trackingNumber);
  return numbers;
}

type ListedRow = SummaryRow & Partial<DetailRow>;

async function withDetails(ctx: ServiceContext, rows: ListedRow[]) {
  const numbers = await trackingNumbersOf(ctx, rows.map((r) => r.id));
  // a raw read gives the JSON columns as text
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) as unknown : v);
  return rows.map((r) => ({
    ...presentShipmentSummary(r),
    ...presentShipmentDetails({ ...r as DetailRow, recipientContact: json(r.recipientContact), destinationAddress: json(r.destinationAddress) }, numbers.get(r.id) ?? []),
  }));
}

export async function listShipments(ctx: ServiceContext, accountId: string, f: ShipmentFilters, page: PageRequest, details = false) {
  const filtered = await whereOf(ctx, accountId, f);
  if (!filtered) return { items: [], total: 0 };
  const { where, params } = filtered;
  const scanless = !f.search && f.createdFrom === undefined && f.createdTo === undefined && !f.needsAttention && f.dispatched === undefined;
  const total = scanless ? await countedTotal(ctx, accountId, f) : (await ctx.store.get<{ n: number }>(`SELECT count(*) AS n FROM shipments WHERE ${where}`, ...params))!.n;
  if (offsetOf(page) >= total) return { items: [], total }; // a page past the end walks no index
  const rows = await ctx.store.all<ListedRow>(`SELECT ${SUMMARY_COLUMNS}${details ? DETAIL_COLUMNS : ''} FROM shipments WHERE ${where} ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`,
    ...params, page.perPage, offsetOf(page));
  return { items: details ? await withDetails(ctx, rows) : rows.map(presentShipmentSummary), total };
}

/** At most this many rows in one export: a month of a busy warehouse. */
export const MAX_EXPORT_ROWS = 10_000;

/** The filtered list with its details, newest first, for the CSV export. */
export async function exportShipments(ctx: ServiceContext, accountId: string, f: ShipmentFilters) {
  const filtered = await whereOf(ctx, accountId, f);
  if (!filtered) return [];
  const rows = await ctx.store.all<ListedRow>(`SELECT ${SUMMARY_COLUMNS}${DETAIL_COLUMNS} FROM shipments WHERE ${filtered.where} ORDER BY created_at DESC, seq DESC LIMIT ?`,
    ...filtered.params, MAX_EXPORT_ROWS);
  return withDetails(ctx, rows);
}

/** Each account's list version as last read, with the store's count of writes then (stores of one daemon). */
const knownVersions = new WeakMap<Store, Map<string, { writes: number; version: number }>>();

/** The account's list version without reading the store, when no write since it was read can have changed it. */
export function knownShipmentListVersion(ctx: ServiceContext, accountId: string): number | undefined {
  const seen = knownVersions.get(ctx.store)?.get(accountId);
  return seen && seen.writes === ctx.store.localWrites ? seen.version : undefined;
}

/**
 * Changes whenever any shipment of the account changes (kept by triggers, summed over the shards PostgreSQL keeps it
 * in): list answers may be cached by it. On a store only this daemon writes to, it is read again only after a write.
 */
export async function shipmentListVersion(ctx: ServiceContext, accountId: string): Promise<number> {
  const known = knownShipmentListVersion(ctx, accountId);
  if (known !== undefined) return known;
  const writes = ctx.store.localWrites;
  const row = await ctx.store.get<{ version: number }>('SELECT sum(version) AS version FROM shipment_list_versions WHERE account_id = ?', accountId);
  const version = row?.version ?? 0;
  if (writes !== undefined) {
    let versions = knownVersions.get(ctx.store);
    if (!versions) knownVersions.set(ctx.store, versions = new Map());
    versions.set(accountId, { writes, version }); // counted before the read: a write meanwhile only makes the next call read again
  }
  return version;
}

const CSV_COLUMNS = [
  'id', 'reference_number', 'status', 'needs_attention', 'created_at', 'recipient_name', 'destination_city', 'destination_country', 'provider',
  'shipping_channel_id', 'tracking_number', 'parcels', 'cash_on_delivery_amount', 'cash_on_delivery_currency', 'printed_at',
] as const;

/** The export as a shift lead opens it in a spreadsheet: UTF-8 with a BOM, comma-separated, CRLF lines. */
export function shipmentsCsv(rows: Awaited<ReturnType<typeof exportShipments>>): string {
  let text = '\ufeff' + csvLine(CSV_COLUMNS, ',');
  for (const r of rows) {
    const values: Record<(typeof CSV_COLUMNS)[number], string | number | null | boolean | undefined> = { ...r, parcels: r.total_parcels_count };
    text += csvLine(CSV_COLUMNS.map((c) => {
      const v = values[c];
      return v === null || v === undefined ? '' : typeof v === 'boolean' ? String(v) : v;
    }), ',');
  }
  return text;
}
