import { eq } from 'drizzle-orm';
import { orders } from '../store/schema.js';
import type { ServiceContext } from './context.js';

/**
 * An order whose shipment is deleted (the carrier refused it) or cancelled was not shipped after all: it waits in the
 * queue again, to be corrected and shipped anew. Called in the transaction that deletes or cancels the shipment.
 */
export async function requeueOrderOf(ctx: ServiceContext, shipmentId: string): Promise<void> {
  await ctx.db.update(orders).set({ status: 'awaiting', shipmentId: null, shippedAt: null, updatedAt: ctx.clock.now() })
    .where(eq(orders.shipmentId, shipmentId)).run();
}
