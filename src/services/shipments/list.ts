import { and, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import { shipments } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { presentShipmentSummary, type ShipmentStatus } from './records.js';

export interface ShipmentFilters {
  status?: ShipmentStatus;
  channelId?: string;
  search?: string;
  createdFrom?: number;
  createdTo?: number;
}

/** Shipments whose reference, carrier id or a parcel tracking number contains `term` (case-insensitive). */
function searchSeqs(ctx: ServiceContext, accountId: string, term: string): number[] {
  const db = ctx.db.$client;
  if (term.length >= 3) {
    // the trigram index answers LIKE '%term%' without scanning; a match on account_id keeps accounts apart
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return (db.prepare("SELECT rowid AS seq FROM shipment_search WHERE terms LIKE ? ESCAPE '\\' AND account_id = ?")
      .all(like, accountId) as { seq: number }[]).map((r) => r.seq);
  }
  const like = `%${term.toLowerCase()}%`;
  return (db.prepare('SELECT rowid AS seq FROM shipment_search WHERE account_id = ? AND lower(terms) LIKE ?').all(accountId, like) as { seq: number }[])
    .map((r) => r.seq);
}

/** Total from the trigger-kept counters when only account, status and channel filter (no scan). */
function countedTotal(ctx: ServiceContext, accountId: string, f: ShipmentFilters): number {
  const clauses = ['account_id = ?'];
  const params: string[] = [accountId];
  if (f.status) { clauses.push('status = ?'); params.push(f.status); }
  if (f.channelId) { clauses.push('channel_id = ?'); params.push(f.channelId); }
  const row = ctx.db.$client.prepare(`SELECT ifnull(sum(n), 0) AS n FROM shipment_counts WHERE ${clauses.join(' AND ')}`).get(...params) as { n: number };
  return row.n;
}

export function listShipments(ctx: ServiceContext, accountId: string, f: ShipmentFilters, page: PageRequest) {
  const where: SQL[] = [eq(shipments.accountId, accountId)];
  if (f.status) where.push(eq(shipments.status, f.status));
  if (f.channelId) where.push(eq(shipments.channelId, f.channelId));
  if (f.createdFrom !== undefined) where.push(gte(shipments.createdAt, f.createdFrom));
  if (f.createdTo !== undefined) where.push(lte(shipments.createdAt, f.createdTo));
  if (f.search) {
    const seqs = searchSeqs(ctx, accountId, f.search);
    if (seqs.length === 0) return { items: [], total: 0 };
    where.push(inArray(shipments.seq, seqs));
  }
  const condition = and(...where);
  const scanless = !f.search && f.createdFrom === undefined && f.createdTo === undefined;
  const total = scanless ? countedTotal(ctx, accountId, f) : ctx.db.select({ n: sql<number>`count(*)` }).from(shipments).where(condition).get()!.n;
  const rows = ctx.db.select().from(shipments).where(condition)
    .orderBy(desc(shipments.createdAt), desc(shipments.seq)).limit(page.perPage).offset(offsetOf(page)).all();
  return { items: rows.map(presentShipmentSummary), total };
}
