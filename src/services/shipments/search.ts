import type { ServiceContext } from '../context.js';

/**
 * Keeps the trigram search row of a shipment (reference, carrier id, parcel tracking numbers). The search row's
 * rowid is the shipment's `seq`, so it is found and replaced without scanning.
 */
export async function indexShipmentForSearch(
  ctx: ServiceContext, seq: number, accountId: string, terms: (string | null | undefined)[], { isNew = false } = {},
): Promise<void> {
  const text = terms.filter((t): t is string => Boolean(t)).join(' ');
  if (!isNew) await ctx.store.run('DELETE FROM shipment_search WHERE rowid = ?', seq);
  if (text) await ctx.store.run('INSERT INTO shipment_search (rowid, account_id, terms) VALUES (?, ?, ?)', seq, accountId, text);
}

export async function dropShipmentFromSearch(ctx: ServiceContext, seq: number): Promise<void> {
  await ctx.store.run('DELETE FROM shipment_search WHERE rowid = ?', seq);
}

/** The next insertion number (taken inside the inserting transaction). */
export async function nextShipmentSeq(ctx: ServiceContext): Promise<number> {
  const row = (await ctx.store.get<{ seq: number }>(ctx.store.sql.nextShipmentSeq))!;
  return row.seq;
}
