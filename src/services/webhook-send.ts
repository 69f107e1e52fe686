import { and, eq, max } from 'drizzle-orm';
import { NotFoundError } from '../domain/errors.js';
import { events, webhookDeliveries, webhookQueue } from '../store/schema.js';
import type { ServiceContext } from './context.js';
import { recordEvent } from './events.js';
import { finishAttempt, startAttempt, type OutboxEvent } from './webhook-attempts.js';
import { postWebhook } from './webhook-http.js';
import { getSubscriptionRow, presentDelivery, presentSubscription, type SubscriptionRow } from './webhooks.js';

/**
 * One attempt sent now, outside the queue: logged like any delivery, never retried, no effect on the subscription's
 * health. `prepare` picks the event and attempt number inside the transaction that writes the pending log entry.
 */
async function sendOnce(ctx: ServiceContext, sub: SubscriptionRow, prepare: () => Promise<{ event: OutboxEvent; attempt: number }>) {
  const { log, request } = await ctx.store.transaction(async () => {
    const { event, attempt } = await prepare();
    return startAttempt(ctx, { subscriptionId: sub.id, url: sub.url, secretEnc: sub.secretEnc }, event, attempt);
  });
  const result = await postWebhook(request, { targets: ctx.options, now: ctx.clock.now() });
  ctx.log.info({ webhook_subscription_id: sub.id, event_id: log.eventId, status: result.responseStatus, error: result.errorMessage }, 'webhook sent on request');
  return presentDelivery(await finishAttempt(ctx, log, result, null));
}

/** `POST …/test`: a `webhook.test` event carrying the subscription, sent to it at once (whatever its status). */
export async function sendTestWebhook(ctx: ServiceContext, accountId: string, subscriptionId: string) {
  const sub = await getSubscriptionRow(ctx, accountId, subscriptionId);
  return sendOnce(ctx, sub, async () => {
    const id = await recordEvent(ctx, { accountId, type: 'webhook.test', resourceName: 'webhook', resource: presentSubscription(sub) });
    // sent only here, never fanned out to subscriptions
    const row = (await ctx.db.update(events).set({ dispatchedAt: ctx.clock.now() }).where(eq(events.id, id)).returning().get())!;
    return { event: { id, type: row.type, payload: row.payload }, attempt: 1 };
  });
}

/** `POST …/logs/{log_id}/redeliver`: the logged event sent again now, as the next attempt of that event. */
export async function redeliverLoggedEvent(ctx: ServiceContext, accountId: string, subscriptionId: string, logId: string) {
  const sub = await getSubscriptionRow(ctx, accountId, subscriptionId);
  const logged = await ctx.db.select({ eventId: webhookDeliveries.eventId }).from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, logId), eq(webhookDeliveries.subscriptionId, subscriptionId))).get();
  if (!logged) throw new NotFoundError(`Webhook log ${logId} not found.`);
  const event = await ctx.db.select({ id: events.id, type: events.type, payload: events.payload }).from(events).where(eq(events.id, logged.eventId)).get();
  if (!event) throw new NotFoundError(`Event ${logged.eventId} of webhook log ${logId} is no longer stored.`);
  return sendOnce(ctx, sub, async () => {
    const lastLogged = (await ctx.db.select({ n: max(webhookDeliveries.attempt) }).from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.eventId, event.id))).get())?.n ?? 0;
    const lastQueued = (await ctx.db.select({ n: webhookQueue.attempts }).from(webhookQueue)
      .where(and(eq(webhookQueue.subscriptionId, subscriptionId), eq(webhookQueue.eventId, event.id))).get())?.n ?? 0;
    return { event, attempt: Math.max(lastLogged, lastQueued) + 1 };
  });
}
