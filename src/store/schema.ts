import { sqliteTable, text, integer, real, blob, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';

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

/** Durable work: a row is written in the same transaction as the change that needs it, then claimed by a worker. */
export const jobs = sqliteTable('jobs', {
  id: text('id').primaryKey(),
  kind: text('kind').notNull(),
  /** The resource the job works on (e.g. a shipment id). */
  subjectId: text('subject_id').notNull(),
  state: text('state', { enum: ['queued', 'running', 'failed'] }).notNull(),
  attempts: integer('attempts').notNull(),
  maxAttempts: integer('max_attempts').notNull(),
  runAt: integer('run_at').notNull(),
  /** While running: the worker's claim expires here; an expired claim means the worker died. */
  leaseUntil: integer('lease_until'),
  lastError: text('last_error'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [
  index('jobs_due').on(t.state, t.runAt),
  uniqueIndex('jobs_kind_subject').on(t.kind, t.subjectId),
]);

export const shipments = sqliteTable('shipments', {
  id: text('id').primaryKey(),
  /** Insertion order: the tie-breaker of "newest first" and the key of the shipment's search row. */
  seq: integer('seq').notNull(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  channelId: text('channel_id').notNull().references(() => shippingChannels.id),
  provider: text('provider').notNull(),
  status: text('status', { enum: ['pending', 'created', 'shipped', 'delivered', 'cancelled', 'returned'] }).notNull(),
  labelFormat: text('label_format', { enum: ['pdf', 'zpl', 'epl'] }).notNull(),
  shippingDate: text('shipping_date').notNull(),
  referenceNumber: text('reference_number'),
  providerShipmentId: text('provider_shipment_id'),
  product: text('product'),
  isInternational: integer('is_international', { mode: 'boolean' }).notNull(),
  /** Money in minor units (cents), exact. */
  codAmountMinor: integer('cod_amount_minor'),
  codCurrency: text('cod_currency'),
  senderContact: text('sender_contact', { mode: 'json' }).notNull(),
  recipientContact: text('recipient_contact', { mode: 'json' }).notNull(),
  originAddress: text('origin_address', { mode: 'json' }).notNull(),
  destinationAddress: text('destination_address', { mode: 'json' }).notNull(),
  metadata: text('metadata', { mode: 'json' }),
  labelComment: text('label_comment'),
  enableTracking: integer('enable_tracking', { mode: 'boolean' }).notNull(),
  printRequest: text('print_request', { mode: 'json' }),
  totalPriceMinor: integer('total_price_minor'),
  currency: text('currency'),
  /** `{message, errors, attempts, at}` of the last failed carrier attempt, or null. */
  failure: text('failure', { mode: 'json' }),
  attempts: integer('attempts').notNull(),
  nextAttemptAt: integer('next_attempt_at'),
  /** What an adapter saved between steps of a multi-step creation (e.g. PPL's batch id), for resuming after a crash. */
  carrierProgress: text('carrier_progress', { mode: 'json' }),
  cancelledAt: integer('cancelled_at'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [
  uniqueIndex('shipments_seq').on(t.seq),
  index('shipments_account_created').on(t.accountId, t.createdAt, t.seq),
  index('shipments_account_status_created').on(t.accountId, t.status, t.createdAt, t.seq),
  index('shipments_account_channel_created').on(t.accountId, t.channelId, t.createdAt, t.seq),
  index('shipments_channel_status').on(t.channelId, t.status),
]);

export const parcels = sqliteTable('parcels', {
  id: text('id').primaryKey(),
  shipmentId: text('shipment_id').notNull().references(() => shipments.id, { onDelete: 'cascade' }),
  position: integer('position').notNull(),
  parcelType: text('parcel_type').notNull(),
  weightAmount: real('weight_amount').notNull(),
  weightUnit: text('weight_unit').notNull(),
  lengthDimension: real('length_dimension').notNull(),
  widthDimension: real('width_dimension').notNull(),
  heightDimension: real('height_dimension').notNull(),
  dimensionUnit: text('dimension_unit').notNull(),
  trackingNumber: text('tracking_number'),
  trackingStatus: text('tracking_status'),
  trackingUrl: text('tracking_url'),
}, (t) => [uniqueIndex('parcels_shipment_position').on(t.shipmentId, t.position), index('parcels_tracking_number').on(t.trackingNumber)]);

/** The merged label of a shipment, stored once and served without re-merging. */
export const labels = sqliteTable('labels', {
  shipmentId: text('shipment_id').primaryKey().references(() => shipments.id, { onDelete: 'cascade' }),
  format: text('format', { enum: ['pdf', 'zpl', 'epl'] }).notNull(),
  content: blob('content', { mode: 'buffer' }).notNull(),
  pages: integer('pages').notNull(),
  sha256: text('sha256').notNull(),
  source: text('source', { enum: ['carrier', 'converted'] }).notNull(),
  createdAt: integer('created_at').notNull(),
});

/** Shipment counts per account, channel and status, kept by triggers so list totals never scan. */
export const shipmentCounts = sqliteTable('shipment_counts', {
  accountId: text('account_id').notNull(),
  channelId: text('channel_id').notNull(),
  status: text('status').notNull(),
  n: integer('n').notNull(),
}, (t) => [primaryKey({ columns: [t.accountId, t.channelId, t.status] })]);
