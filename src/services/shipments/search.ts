import type { ServiceContext } from '../context.js';

/**
 * Keeps the trigram search row of a shipment (reference, carrier id, parcel tracking numbers). The search row's
 * rowid is the shipment's `seq`, so it is found and replaced without scanning.
 */
export async function indexShipmentForSearch(ctx: ServiceContext, seq: number, accountId: string, terms: (string | null | undefined)[]): Promise<void> {
  const text = terms.filter((t): t is string => Boolean(t)).join(' ');
  await ctx.store.run('DELETE FROM shipment_search WHERE rowid = ?', seq);
  if (text) await ctx.store.run('INSERT INTO shipment_search (rowid, account_id, terms) VALUES (?, ?, ?)', seq, accountId, text);
}

export async function dropShipmentFromSearch(ctx: ServiceContext, seq: number): Promise<void> {
  await ctx.store.run('DELETE FROM shipment_search WHERE rowid = ?', seq);
}

/** The next insertion number (read inside the inserting transaction). */
export async function nextShipmentSeq(ctx: ServiceContext): Promise<number> {
  const row = (await ctx.store.get<{ seq: number }>('SELECT coalesce(max(seq), 0) + 1 AS seq FROM shipments'))!;
  return row.seq;
}
