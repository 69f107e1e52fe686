import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';

/** Times are Unix milliseconds (integers); the API renders them as ISO 8601 UTC. */

export const accounts = sqliteTable('accounts', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  plan: text('plan', { enum: ['free', 'standard', 'enterprise'] }).notNull(),
  /** Requests per minute; null = unlimited (enterprise only). */
  rateLimit: integer('rate_limit'),
  createdAt: integer('created_at').notNull(),
});

export const apiKeys = sqliteTable('api_keys', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  /** SHA-256 hex of the full key; the key itself is never stored. */
  keyHash: text('key_hash').notNull(),
  /** First characters of the key, to let people recognise it in lists. */
  keyPrefix: text('key_prefix').notNull(),
  name: text('name'),
  scope: text('scope', { enum: ['full', 'read_only'] }).notNull(),
  createdAt: integer('created_at').notNull(),
  revokedAt: integer('revoked_at'),
}, (t) => [uniqueIndex('api_keys_hash').on(t.keyHash), index('api_keys_account').on(t.accountId)]);

export const shippingChannels = sqliteTable('shipping_channels', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  name: text('name').notNull(),
  provider: text('provider').notNull(),
  description: text('description'),
  status: text('status', { enum: ['pending_validation', 'active', 'error', 'inactive'] }).notNull(),
  /** The whole settings object, AES-256-GCM encrypted (credentials live in it). */
  settingsEnc: text('settings_enc').notNull(),
  lastValidatedAt: integer('last_validated_at'),
  /** JSON `{message, errors}` or null. */
  validationError: text('validation_error'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [
  uniqueIndex('shipping_channels_account_name').on(t.accountId, t.name),
  index('shipping_channels_account_created').on(t.accountId, t.createdAt),
]);

export const webhookSubscriptions = sqliteTable('webhook_subscriptions', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  name: text('name').notNull(),
  url: text('url').notNull(),
  /** JSON array of event names or `*`. */
  events: text('events').notNull(),
  status: text('status', { enum: ['active', 'paused', 'disabled'] }).notNull(),
  secretEnc: text('secret_enc').notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [index('webhook_subscriptions_account_created').on(t.accountId, t.createdAt)]);

/** The durable outbox: written in the same transaction as the change that caused the event. */
export const events = sqliteTable('events', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  type: text('type').notNull(),
  resourceType: text('resource_type').notNull(),
  resourceId: text('resource_id').notNull(),
  /** The full webhook payload `{id, type, created_at, data}` as JSON. */
  payload: text('payload').notNull(),
  createdAt: integer('created_at').notNull(),
  /** Set once the dispatcher has fanned the event out to subscriptions. */
  dispatchedAt: integer('dispatched_at'),
}, (t) => [index('events_undispatched').on(t.dispatchedAt, t.createdAt)]);

export const webhookDeliveries = sqliteTable('webhook_deliveries', {
  id: text('id').primaryKey(),
  subscriptionId: text('subscription_id').notNull().references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
  eventId: text('event_id').notNull(),
  eventType: text('event_type').notNull(),
  attempt: integer('attempt').notNull(),
  status: text('status', { enum: ['pending', 'success', 'failed'] }).notNull(),
  url: text('url').notNull(),
  requestHeaders: text('request_headers').notNull(),
  requestBody: text('request_body').notNull(),
  responseStatus: integer('response_status'),
  responseBody: text('response_body'),
  durationMs: integer('duration_ms'),
  errorMessage: text('error_message'),
  nextRetryAt: integer('next_retry_at'),
  createdAt: integer('created_at').notNull(),
}, (t) => [index('webhook_deliveries_subscription_created').on(t.subscriptionId, t.createdAt)]);

export const idempotencyKeys = sqliteTable('idempotency_keys', {
  accountId: text('account_id').notNull(),
  key: text('key').notNull(),
  /** SHA-256 of method, path and body: the same key with another request is a conflict. */
  requestHash: text('request_hash').notNull(),
  /** Null while the first request is still being handled. */
  responseStatus: integer('response_status'),
  responseBody: text('response_body'),
  responseContentType: text('response_content_type'),
  createdAt: integer('created_at').notNull(),
}, (t) => [primaryKey({ columns: [t.accountId, t.key] }), index('idempotency_keys_created').on(t.createdAt)]);
