import { statement } from '../../store/db.js';
import type { ServiceContext } from '../context.js';

/**
 * Keeps the trigram search row of a shipment (reference, carrier id, parcel tracking numbers). The search row's
 * rowid is the shipment's `seq`, so it is found and replaced without scanning.
 */
export function indexShipmentForSearch(ctx: ServiceContext, seq: number, accountId: string, terms: (string | null | undefined)[]): void {
  const text = terms.filter((t): t is string => Boolean(t)).join(' ');
  statement(ctx.db, 'DELETE FROM shipment_search WHERE rowid = ?').run(seq);
  if (text) statement(ctx.db, 'INSERT INTO shipment_search (rowid, account_id, terms) VALUES (?, ?, ?)').run(seq, accountId, text);
}

export function dropShipmentFromSearch(ctx: ServiceContext, seq: number): void {
  statement(ctx.db, 'DELETE FROM shipment_search WHERE rowid = ?').run(seq);
}

/** The next insertion number (read inside the inserting transaction). */
export function nextShipmentSeq(ctx: ServiceContext): number {
  const row = statement(ctx.db, 'SELECT ifnull(max(seq), 0) + 1 AS seq FROM shipments').get() as { seq: number };
  return row.seq;
}
