import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { isoTime, isoTimeOrNull } from '../domain/clock.js';
import { FieldErrorCollector, NotFoundError } from '../domain/errors.js';
import { EVENT_TYPES } from '../domain/events.js';
import { offsetOf, type PageRequest } from '../domain/pagination.js';
import { webhookDeliveries, webhookSubscriptions } from '../store/schema.js';
import type { ServiceContext } from './context.js';
import { bindIdempotentResource } from './idempotency.js';
import { owned } from './ownership.js';
import { webhookUrlProblems } from './webhook-targets.js';

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export const SECRET_MASK = '••••••••••••••••';
export const SUBSCRIPTION_STATUSES = ['active', 'paused', 'disabled'] as const;

/** `whsec_` + base64 of 32 random bytes, as the Standard Webhooks specification generates them. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function presentSubscription(row: SubscriptionRow) {
  return {
    id: row.id, name: row.name, url: row.url, events: JSON.parse(row.events) as string[], status: row.status,
    secret: SECRET_MASK, created_at: isoTime(row.createdAt), updated_at: isoTime(row.updatedAt),
  };
}

export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id, webhook_subscription_id: row.subscriptionId, event_id: row.eventId, event_type: row.eventType,
    attempt: row.attempt, status: row.status, url: row.url,
    request_headers: JSON.parse(row.requestHeaders) as Record<string, string>, request_body: row.requestBody,
    response_status: row.responseStatus, response_body: row.responseBody, duration_ms: row.durationMs,
    error_message: row.errorMessage, next_retry_at: isoTimeOrNull(row.nextRetryAt), created_at: isoTime(row.createdAt),
  };
}

function secretProblems(secret: string): string[] {
  if (secret.length < 16) return ['must be at least 16 characters'];
  if (secret.startsWith('whsec_')) {
    const body = secret.slice(6);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || Buffer.from(body, 'base64').length < 16) {
      return ['a whsec_ secret must be base64 of at least 16 bytes after the prefix'];
    }
  }
  return [];
}

interface SubscriptionInput {
  name?: unknown;
  url?: unknown;
  events?: unknown;
  secret?: unknown;
  status?: unknown;
}

async function checkInput(ctx: ServiceContext, input: SubscriptionInput, errors: FieldErrorCollector) {
  if (typeof input.url === 'string') {
    for (const p of await webhookUrlProblems(input.url, ctx.options, { resolve: true })) errors.add('url', p);
  }
  if (Array.isArray(input.events)) {
    input.events.forEach((e, i) => {
      if (typeof e === 'string' && e !== '*' && !(EVENT_TYPES as readonly string[]).includes(e)) {
        errors.add(`events.${i}`, `is not a known event (use one of ${EVENT_TYPES.join(', ')} or *)`);
      }
    });
  }
  if (typeof input.secret === 'string') for (const p of secretProblems(input.secret)) errors.add('secret', p);
  const allowed = ['active', 'paused'];
  if (input.status !== undefined && !allowed.includes(input.status as string)) errors.add('status', `must be one of ${allowed.join(', ')}`);
}

export async function createSubscription(ctx: ServiceContext, accountId: string, input: SubscriptionInput, errors = new FieldErrorCollector()) {
  await checkInput(ctx, input, errors);
  errors.throwIfAny();
  const now = ctx.clock.now();
  const row: SubscriptionRow = {
    id: ctx.ids('webhook'), accountId, name: String(input.name).trim(), url: String(input.url),
    events: JSON.stringify([...new Set(input.events as string[])]), status: (input.status as SubscriptionRow['status']) ?? 'active',
    secretEnc: ctx.secrets.seal(typeof input.secret === 'string' ? input.secret : generateWebhookSecret()),
    failingSince: null, createdAt: now, updatedAt: now,
  };
  await ctx.store.transaction(async () => {
    await ctx.db.insert(webhookSubscriptions).values(row).run();
    await bindIdempotentResource(ctx, `/v1/webhook-subscriptions/${row.id}`);
  });
  return presentSubscription(row);
}

export async function getSubscriptionRow(ctx: ServiceContext, accountId: string, id: string): Promise<SubscriptionRow> {
  const row = await ctx.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)).get();
  return owned(row, accountId, 'Webhook subscription', id);
}

export async function listSubscriptions(ctx: ServiceContext, accountId: string, page: PageRequest) {
  const condition = eq(webhookSubscriptions.accountId, accountId);
  const total = (await ctx.db.select({ n: count() }).from(webhookSubscriptions).where(condition).get())!.n;
  const rows = await ctx.db.select().from(webhookSubscriptions).where(condition)
    .orderBy(desc(webhookSubscriptions.createdAt), desc(webhookSubscriptions.id)).limit(page.perPage).offset(offsetOf(page)).all();
  return { items: rows.map(presentSubscription), total };
}

export async function updateSubscription(ctx: ServiceContext, accountId: string, id: string, input: SubscriptionInput, errors = new FieldErrorCollector()) {
  const row = await getSubscriptionRow(ctx, accountId, id);
  await checkInput(ctx, input, errors);
  errors.throwIfAny();
  const patch: Partial<SubscriptionRow> = { updatedAt: ctx.clock.now() };
  if (typeof input.name === 'string') patch.name = input.name.trim();
  if (typeof input.url === 'string') patch.url = input.url;
  if (Array.isArray(input.events)) patch.events = JSON.stringify([...new Set(input.events as string[])]);
  if (typeof input.status === 'string') patch.status = input.status as SubscriptionRow['status'];
  // switched back on by the user: the 5-day failure count starts again
  if (input.status === 'active' && row.status !== 'active') patch.failingSince = null;
  if (typeof input.secret === 'string') patch.secretEnc = ctx.secrets.seal(input.secret);
  await ctx.db.update(webhookSubscriptions).set(patch).where(eq(webhookSubscriptions.id, id)).run();
  return presentSubscription(await getSubscriptionRow(ctx, accountId, id));
}

/** Deletes the subscription; its logs and pending deliveries go with it. */
export async function deleteSubscription(ctx: ServiceContext, accountId: string, id: string): Promise<void> {
  await getSubscriptionRow(ctx, accountId, id);
  await ctx.store.transaction(async () => {
    await ctx.db.delete(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, id)).run();
    await ctx.db.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)).run();
  });
}

/** The plain secret, for the operator's `packdesk webhooks secret` (local store only, never over the API). */
export async function revealSecret(ctx: ServiceContext, id: string): Promise<string> {
  const row = await ctx.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)).get();
  if (!row) throw new NotFoundError(`Webhook subscription ${id} not found.`);
  return ctx.secrets.open(row.secretEnc);
}

export interface LogFilters {
  status?: string;
  eventType?: string;
}

export async function listDeliveries(ctx: ServiceContext, accountId: string, subscriptionId: string, filters: LogFilters, page: PageRequest) {
  await getSubscriptionRow(ctx, accountId, subscriptionId);
  const where: SQL[] = [eq(webhookDeliveries.subscriptionId, subscriptionId)];
  if (filters.status) where.push(eq(webhookDeliveries.status, filters.status as DeliveryRow['status']));
  if (filters.eventType) where.push(eq(webhookDeliveries.eventType, filters.eventType));
  const condition = and(...where);
  const total = (await ctx.db.select({ n: count() }).from(webhookDeliveries).where(condition).get())!.n;
  const rows = await ctx.db.select().from(webhookDeliveries).where(condition)
    .orderBy(desc(webhookDeliveries.createdAt), desc(sql`rowid`)).limit(page.perPage).offset(offsetOf(page)).all();
  return { items: rows.map(presentDelivery), total };
}

export async function getDelivery(ctx: ServiceContext, accountId: string, subscriptionId: string, logId: string) {
  await getSubscriptionRow(ctx, accountId, subscriptionId);
  const row = await ctx.db.select().from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, logId), eq(webhookDeliveries.subscriptionId, subscriptionId))).get();
  if (!row) throw new NotFoundError(`Webhook log ${logId} not found.`);
  return presentDelivery(row);
}

export async function clearDeliveries(ctx: ServiceContext, accountId: string, subscriptionId: string): Promise<void> {
  await getSubscriptionRow(ctx, accountId, subscriptionId);
  await ctx.db.delete(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, subscriptionId)).run();
}
