import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import type { Store } from '../../store/store.js';
import type { ServiceContext } from '../context.js';
import { presentShipmentSummary, type ShipmentRow, type ShipmentStatus } from './records.js';

export interface ShipmentFilters {
  status?: ShipmentStatus;
  channelId?: string;
  search?: string;
  createdFrom?: number;
  createdTo?: number;
}

/** The list shows only these columns: reading them alone keeps the hot list query narrow. */
const SUMMARY_COLUMNS = `id, reference_number AS "referenceNumber", channel_id AS "channelId", provider_shipment_id AS "providerShipmentId",
  status, total_price_minor AS "totalPriceMinor", currency, created_at AS "createdAt", updated_at AS "updatedAt"`;

type SummaryRow = Pick<ShipmentRow, 'id' | 'referenceNumber' | 'channelId' | 'providerShipmentId' | 'status' | 'totalPriceMinor' | 'currency' | 'createdAt' | 'updatedAt'>;

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

export async function listShipments(ctx: ServiceContext, accountId: string, f: ShipmentFilters, page: PageRequest) {
  const clauses = ['account_id = ?'];
  const params: unknown[] = [accountId];
  if (f.status) { clauses.push('status = ?'); params.push(f.status); }
  if (f.channelId) { clauses.push('channel_id = ?'); params.push(f.channelId); }
  if (f.createdFrom !== undefined) { clauses.push('created_at >= ?'); params.push(f.createdFrom); }
  if (f.createdTo !== undefined) { clauses.push('created_at <= ?'); params.push(f.createdTo); }
  if (f.search) {
    const seqs = await searchSeqs(ctx, accountId, f.search);
    if (seqs.length === 0) return { items: [], total: 0 };
    const among = ctx.store.sql.inList(seqs);
    clauses.push(`seq ${among.sql}`);
    params.push(among.param);
  }
  const where = clauses.join(' AND ');
  const scanless = !f.search && f.createdFrom === undefined && f.createdTo === undefined;
  const total = scanless ? await countedTotal(ctx, accountId, f) : (await ctx.store.get<{ n: number }>(`SELECT count(*) AS n FROM shipments WHERE ${where}`, ...params))!.n;
  if (offsetOf(page) >= total) return { items: [], total }; // a page past the end walks no index
  const rows = await ctx.store.all<SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM shipments WHERE ${where} ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`,
    ...params, page.perPage, offsetOf(page));
  return { items: rows.map(presentShipmentSummary), total };
}

/** Each account's list version as last read, with the store's count of writes then (stores of one daemon). */
const knownVersions = new WeakMap<Store, Map<string, { writes: number; version: number }>>();

/** The account's list version without reading the store, when no write since it was read can have changed it. */
export function knownShipmentListVersion(ctx: ServiceContext, accountId: string): number | undefined {
  const seen = knownVersions.get(ctx.store)?.get(accountId);
  return seen && seen.writes === ctx.store.localWrites ? seen.version : undefined;
}

/**
 * Changes whenever any shipment of the account changes (kept by triggers): list answers may be cached by it. On a
 * store only this daemon writes to, it is read again only after a write.
 */
export async function shipmentListVersion(ctx: ServiceContext, accountId: string): Promise<number> {
  const known = knownShipmentListVersion(ctx, accountId);
  if (known !== undefined) return known;
  const writes = ctx.store.localWrites;
  const row = await ctx.store.get<{ version: number }>('SELECT version FROM shipment_list_versions WHERE account_id = ?', accountId);
  const version = row?.version ?? 0;
  if (writes !== undefined) {
    let versions = knownVersions.get(ctx.store);
    if (!versions) knownVersions.set(ctx.store, versions = new Map());
    versions.set(accountId, { writes, version }); // counted before the read: a write meanwhile only makes the next call read again
  }
  return version;
}
