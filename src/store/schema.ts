import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, real, blob, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';
import type { LabelDpi } from '../domain/labels.js';
import type { ParcelDefaults } from '../domain/parcel-defaults.js';
import { PRICE_SOURCES, type PriceList } from '../domain/price-list.js';
import type { RuleAction, RuleConditions } from '../domain/shipping-rules.js';
import { CUSTOMS_DOCUMENT_TYPES } from '../domain/customs.js';

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
  status: text('status', { enum: ['pending_validation', 'authorization_required', 'active', 'error', 'inactive'] }).notNull(),
  /** The whole settings object, AES-256-GCM encrypted (credentials live in it). */
  settingsEnc: text('settings_enc').notNull(),
  /** What its parcels are when an order gives no weight or dimensions (src/domain/parcel-defaults.ts). */
  parcelDefaults: text('parcel_defaults', { mode: 'json' }).$type<ParcelDefaults>(),
  /** The channel's own price list (src/domain/price-list.ts), for a carrier whose API answers no price. */
  priceList: text('price_list', { mode: 'json' }).$type<PriceList>(),
  /** HH:MM in the station's time zone: the channel's dispatch is made then, each day, by itself. */
  dispatchAt: text('dispatch_at'),
  /** The local day (YYYY-MM-DD) whose dispatch was made by the clock: one a day, whichever daemon makes it. */
  autoDispatchedOn: text('auto_dispatched_on'),
  lastValidatedAt: integer('last_validated_at'),
  /** JSON `{message, errors}` or null. */
  validationError: text('validation_error'),
  /** A deleted channel is gone from the API but stays for the shipments and tracking that used it. */
  deletedAt: integer('deleted_at'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [
  uniqueIndex('shipping_channels_account_name').on(t.accountId, t.name).where(sql`${t.deletedAt} IS NULL`),
  index('shipping_channels_account_created').on(t.accountId, t.createdAt),
]);

/**
 * A person's OAuth grant of a channel (Allegro): the device flow while it runs, then the tokens. One row per channel.
 * `version` grows with every change of the tokens; a refresh is leased (`refreshingUntil`) so that only one worker or
 * station refreshes at a time, since the carrier rotates refresh tokens.
 */
export const channelAuthorizations = sqliteTable('channel_authorizations', {
  channelId: text('channel_id').primaryKey().references(() => shippingChannels.id),
  status: text('status', { enum: ['pending', 'authorized', 'denied', 'expired', 'revoked'] }).notNull(),
  /** The running device flow, sealed: `{deviceCode, userCode, verificationUri, verificationUriComplete}`. */
  deviceEnc: text('device_enc'),
  deviceExpiresAt: integer('device_expires_at'),
  pollIntervalMs: integer('poll_interval_ms'),
  nextPollAt: integer('next_poll_at'),
  /** The tokens, sealed: `{accessToken, refreshToken}`. */
  tokensEnc: text('tokens_enc'),
  accessExpiresAt: integer('access_expires_at'),
  version: integer('version').notNull(),
  refreshingUntil: integer('refreshing_until'),
  /** Why the last flow or refresh failed, for the user. */
  message: text('message'),
  authorizedAt: integer('authorized_at'),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [index('channel_authorizations_next_poll').on(t.nextPollAt)]);

export const webhookSubscriptions = sqliteTable('webhook_subscriptions', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  name: text('name').notNull(),
  url: text('url').notNull(),
  /** JSON array of event names or `*`. */
  events: text('events').notNull(),
  status: text('status', { enum: ['active', 'paused', 'disabled'] }).notNull(),
  secretEnc: text('secret_enc').notNull(),
  /** Start of an unbroken run of failed deliveries (null after any success); 5 days of it disables the subscription. */
  failingSince: integer('failing_since'),
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
  /** The API key that sent the first request: only that key is answered with its replay (null: recorded before 0016). */
  apiKeyId: text('api_key_id'),
  /** SHA-256 of method, path and body: the same key with another request is a conflict. */
  requestHash: text('request_hash').notNull(),
  /** Null while the first request is still being handled. */
  responseStatus: integer('response_status'),
  responseBody: text('response_body'),
  responseContentType: text('response_content_type'),
  /**
   * The resource the request created, written in the transaction that created it: a retry after an answer that was
   * lost (the daemon died before recording it) gets that resource back instead of a second one.
   */
  resourcePath: text('resource_path'),
  /** The daemon handling the first request while it runs (see src/services/leases.ts). */
  leaseOwner: text('lease_owner'),
  createdAt: integer('created_at').notNull(),
}, (t) => [primaryKey({ columns: [t.accountId, t.key] }), index('idempotency_keys_created').on(t.createdAt)]);

/**
 * What a packing station works with: sender and pickup address, default channel and label format, a printer per
 * format, copies, auto-print, box presets. Station `*` holds the account's own, which every station starts from.
 */
export const stationSettings = sqliteTable('station_settings', {
  accountId: text('account_id').notNull().references(() => accounts.id),
  station: text('station').notNull(),
  settings: text('settings', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [primaryKey({ columns: [t.accountId, t.station] })]);

/**
 * An account's shipping rules (`rule_`), tried in `position` order (1 first) for a shipment that names no channel:
 * the first whose conditions hold and whose action finds a channel chooses it.
 */
export const shippingRules = sqliteTable('shipping_rules', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  position: integer('position').notNull(),
  name: text('name').notNull(),
  active: integer('active', { mode: 'boolean' }).notNull().default(sql`1`),
  conditions: text('conditions', { mode: 'json' }).$type<RuleConditions>().notNull(),
  action: text('action', { mode: 'json' }).$type<RuleAction>().notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [index('shipping_rules_account_position').on(t.accountId, t.position)]);

/**
 * The end-of-day hand-over of a channel's created shipments (`dp_`): at the carrier whatever it needs (close,
 * protocol, courier), as durable work with saved progress; then its document, the carrier's protocol or packdesk's list.
 */
export const dispatches = sqliteTable('dispatches', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  channelId: text('channel_id').notNull().references(() => shippingChannels.id),
  provider: text('provider').notNull(),
  status: text('status', { enum: ['pending', 'dispatched', 'failed'] }).notNull(),
  /** `{date, from, to}`: the courier asked for, or null. */
  pickupRequest: text('pickup_request', { mode: 'json' }),
  /** `{confirmation, date, from, to}`: the courier the carrier booked. */
  pickup: text('pickup', { mode: 'json' }),
  /** `{printer_id, copies}`: print the document once it exists. */
  printRequest: text('print_request', { mode: 'json' }),
  carrierRef: text('carrier_ref'),
  /** The hand-over document, a PDF: the carrier's protocol, or packdesk's list. */
  document: blob('document', { mode: 'buffer' }),
  documentSource: text('document_source', { enum: ['carrier', 'packdesk'] }),
  failure: text('failure', { mode: 'json' }),
  attempts: integer('attempts').notNull(),
  carrierProgress: text('carrier_progress', { mode: 'json' }),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
  dispatchedAt: integer('dispatched_at'),
}, (t) => [index('dispatches_account_created').on(t.accountId, t.createdAt), index('dispatches_channel_created').on(t.channelId, t.createdAt)]);

/**
 * An order waiting to be packed (`or_…`): what the shipment's creation input will be, as far as the shop or ERP knew
 * it. The packer ships it (weighed, on a channel) and it becomes `shipped` with its shipment; or it is `cancelled`.
 */
export const orders = sqliteTable('orders', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  referenceNumber: text('reference_number'),
  status: text('status', { enum: ['awaiting', 'shipped', 'cancelled'] }).notNull(),
  /** The creation input the order carries, read by the API's rules when it was stored. */
  draft: text('draft', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  /** Reference, recipient name and postal code in lower case: what a search looks in. */
  searchText: text('search_text').notNull(),
  shipmentId: text('shipment_id'),
  /** The import that queued it, if one did. */
  importId: text('import_id'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
  shippedAt: integer('shipped_at'),
  cancelledAt: integer('cancelled_at'),
}, (t) => [
  index('orders_account_created').on(t.accountId, t.createdAt), index('orders_account_status').on(t.accountId, t.status, t.createdAt),
  index('orders_import').on(t.importId),
]);

/** Durable work: a row is written in the same transaction as the change that needs it, then claimed by a worker. */
export const jobs = sqliteTable('jobs', {
  id: text('id').primaryKey(),
  kind: text('kind').notNull(),
  /** The resource the job works on (e.g. a shipment id). */
  subjectId: text('subject_id').notNull(),
  /**
   * Jobs of one lane (`group:key`, e.g. a shipment's provider and channel) share the worker fairly with other lanes,
   * and a lane's group may have a limit of its own; '' for work that is not divided.
   */
  lane: text('lane').notNull().default(''),
  state: text('state', { enum: ['queued', 'running', 'failed'] }).notNull(),
  attempts: integer('attempts').notNull(),
  maxAttempts: integer('max_attempts').notNull(),
  runAt: integer('run_at').notNull(),
  /** While running: the worker's claim expires here; an expired claim means the worker died. */
  leaseUntil: integer('lease_until'),
  /** The daemon holding the lease (see src/services/leases.ts). */
  leaseOwner: text('lease_owner'),
  lastError: text('last_error'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [
  index('jobs_due').on(t.state, t.runAt),
  index('jobs_lane_due').on(t.kind, t.state, t.lane, t.runAt),
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
  /** Dots per inch a converted thermal label is drawn for (203 or 300); the carrier's own labels are as it gave them. */
  labelDpi: integer('label_dpi').$type<LabelDpi>().notNull().default(203),
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
  /** `{provider_point_id, type, name, address}`: the carrier's pickup point or locker it goes to instead of a door, or null. */
  pickupPoint: text('pickup_point', { mode: 'json' }),
  /** The customs declaration as given (`{contents_type, incoterm, …, items}`), or null. */
  customs: text('customs', { mode: 'json' }),
  /** The shipment this one returns to its sender (sh_…), or null. */
  returnOf: text('return_of'),
  /** Its return label is made with it, for the box (`return: true` at creation). */
  withReturn: integer('with_return', { mode: 'boolean' }).notNull().default(sql`0`),
  metadata: text('metadata', { mode: 'json' }),
  labelComment: text('label_comment'),
  enableTracking: integer('enable_tracking', { mode: 'boolean' }).notNull(),
  printRequest: text('print_request', { mode: 'json' }),
  totalPriceMinor: integer('total_price_minor'),
  /** Where total_price came from: `carrier` (its creation answer), `quote` (its rate API, asked once created) or `price_list` (the channel's). */
  priceSource: text('price_source', { enum: PRICE_SOURCES }),
  currency: text('currency'),
  /** The shipping rule that chose its channel (`{shipping_rule_id, name, reason}`), or null: the channel was named. */
  chosenBy: text('chosen_by', { mode: 'json' }),
  /** `{message, errors, attempts, at}` of the last failed carrier attempt, or null. */
  failure: text('failure', { mode: 'json' }),
  attempts: integer('attempts').notNull(),
  nextAttemptAt: integer('next_attempt_at'),
  /** What an adapter saved between steps of a multi-step creation (e.g. PPL's batch id), for resuming after a crash. */
  carrierProgress: text('carrier_progress', { mode: 'json' }),
  cancelledAt: integer('cancelled_at'),
  /** When a print job holding its label (alone or merged with others) first printed. */
  printedAt: integer('printed_at'),
  /** The end-of-day dispatch that handed it over to the carrier. */
  dispatchId: text('dispatch_id'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [
  uniqueIndex('shipments_seq').on(t.seq),
  index('shipments_account_created').on(t.accountId, t.createdAt, t.seq),
  index('shipments_account_status_created').on(t.accountId, t.status, t.createdAt, t.seq),
  index('shipments_account_channel_created').on(t.accountId, t.channelId, t.createdAt, t.seq),
  index('shipments_dispatch').on(t.dispatchId),
  index('shipments_channel_status').on(t.channelId, t.status),
  index('shipments_return_of').on(t.returnOf),
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
  /** What the carrier's tracking needs besides the number (Baselinker's package id), as its adapter gave it at creation. */
  carrierRef: text('carrier_ref'),
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

/** A shipment's customs documents (the carrier's commercial invoice, CN23; or packdesk's invoice), a PDF each. */
export const shipmentDocuments = sqliteTable('shipment_documents', {
  shipmentId: text('shipment_id').notNull().references(() => shipments.id, { onDelete: 'cascade' }),
  type: text('type', { enum: CUSTOMS_DOCUMENT_TYPES }).notNull(),
  content: blob('content', { mode: 'buffer' }).notNull(),
  source: text('source', { enum: ['carrier', 'packdesk'] }).notNull(),
  createdAt: integer('created_at').notNull(),
}, (t) => [primaryKey({ columns: [t.shipmentId, t.type] })]);

/**
 * Shipment counts per account, channel and status, kept by triggers so list totals never scan. A count is the sum of
 * its shards: on PostgreSQL each transaction counts in the shard of its connection, so concurrent transactions of one
 * account seldom lock the same row; SQLite, with one writer, keeps shard 0.
 */
export const shipmentCounts = sqliteTable('shipment_counts', {
  accountId: text('account_id').notNull(),
  channelId: text('channel_id').notNull(),
  status: text('status').notNull(),
  shard: integer('shard').notNull().default(sql`0`),
  n: integer('n').notNull(),
}, (t) => [primaryKey({ columns: [t.accountId, t.channelId, t.status, t.shard] })]);

/** One event to deliver to one subscription: the delivery queue (each attempt is a row of webhook_deliveries). */
export const webhookQueue = sqliteTable('webhook_queue', {
  id: text('id').primaryKey(),
  seq: integer('seq').notNull(),
  subscriptionId: text('subscription_id').notNull().references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
  eventId: text('event_id').notNull().references(() => events.id),
  /** `<resource type>:<resource id>`: deliveries of one resource to one subscription go in event order. */
  resourceKey: text('resource_key').notNull(),
  status: text('status', { enum: ['pending', 'delivering', 'delivered', 'failed'] }).notNull(),
  attempts: integer('attempts').notNull(),
  nextAttemptAt: integer('next_attempt_at').notNull(),
  leaseUntil: integer('lease_until'),
  /** The daemon holding the lease (see src/services/leases.ts). */
  leaseOwner: text('lease_owner'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [
  uniqueIndex('webhook_queue_seq').on(t.seq),
  uniqueIndex('webhook_queue_subscription_event').on(t.subscriptionId, t.eventId),
  index('webhook_queue_due').on(t.status, t.nextAttemptAt),
  index('webhook_queue_order').on(t.subscriptionId, t.resourceKey, t.seq),
  // an event is pruned only once none of its deliveries is still to do; deleting it also checks this foreign key
  index('webhook_queue_event').on(t.eventId),
]);

export const trackingParcels = sqliteTable('tracking_parcels', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  channelId: text('channel_id').notNull().references(() => shippingChannels.id),
  provider: text('provider').notNull(),
  /** Null for parcels tracked from a number given through the API. */
  shipmentId: text('shipment_id').references(() => shipments.id, { onDelete: 'cascade' }),
  parcelId: text('parcel_id').references(() => parcels.id, { onDelete: 'cascade' }),
  trackingNumber: text('tracking_number').notNull(),
  origin: text('origin', { enum: ['external', 'shipment'] }).notNull(),
  status: text('status').notNull(),
  recipientName: text('recipient_name'),
  recipientEmail: text('recipient_email'),
  recipientPhone: text('recipient_phone'),
  checkDelayHours: integer('check_delay_hours').notNull(),
  maxChecks: integer('max_checks').notNull(),
  checksDone: integer('checks_done').notNull(),
  /** Null once tracking stopped (terminal status, max checks, deleted). */
  nextCheckAt: integer('next_check_at'),
  lastCheckedAt: integer('last_checked_at'),
  /** While a poller holds the parcel: another poller may take it after this (the holder died). */
  leaseUntil: integer('lease_until'),
  /** The daemon holding the lease (see src/services/leases.ts). */
  leaseOwner: text('lease_owner'),
  externalData: text('external_data', { mode: 'json' }),
  trackingUrl: text('tracking_url'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [
  uniqueIndex('tracking_parcels_channel_number').on(t.channelId, t.trackingNumber),
  index('tracking_parcels_account_created').on(t.accountId, t.createdAt),
  index('tracking_parcels_due').on(t.nextCheckAt),
  index('tracking_parcels_shipment').on(t.shipmentId),
]);

export const trackingUpdates = sqliteTable('tracking_updates', {
  id: text('id').primaryKey(),
  trackingParcelId: text('tracking_parcel_id').notNull().references(() => trackingParcels.id, { onDelete: 'cascade' }),
  status: text('status').notNull(),
  /** The carrier's raw code and text. */
  carrierCode: text('carrier_code').notNull(),
  carrierText: text('carrier_text'),
  location: text('location'),
  description: text('description'),
  occurredAt: integer('occurred_at').notNull(),
  createdAt: integer('created_at').notNull(),
}, (t) => [
  uniqueIndex('tracking_updates_event').on(t.trackingParcelId, t.carrierCode, t.occurredAt),
  index('tracking_updates_parcel_time').on(t.trackingParcelId, t.occurredAt),
]);

export const printers = sqliteTable('printers', {
  /** The station whose daemon prints to it (the one it was added through); null: any daemon (a store from before stations). */
  station: text('station'),
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  name: text('name').notNull(),
  uri: text('uri').notNull(),
  /** JSON array of `zpl`, `epl`, `pdf`. */
  formats: text('formats', { mode: 'json' }).notNull(),
  /** The print head's resolution, 203 or 300 dpi: labels converted for this printer are drawn at it. */
  dpi: integer('dpi').$type<LabelDpi>().notNull().default(203),
  /** JSON array: formats for which this printer is the account's default. */
  defaultFor: text('default_for', { mode: 'json' }).notNull(),
  status: text('status', { enum: ['ready', 'offline', 'unknown'] }).notNull(),
  /** `auto`: ask a raw printer `~HS` (IPP: its attributes); `none`: a printer that never answers is only connected to. */
  statusQuery: text('status_query', { enum: ['auto', 'none'] }).notNull().default('auto'),
  /** What the printer last said (paper out, head open, paused, IPP state reasons …) as JSON. */
  statusDetail: text('status_detail', { mode: 'json' }),
  lastSeenAt: integer('last_seen_at'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [uniqueIndex('printers_account_name').on(t.accountId, t.name), index('printers_account_created').on(t.accountId, t.createdAt)]);

export const printJobs = sqliteTable('print_jobs', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  shipmentId: text('shipment_id').references(() => shipments.id, { onDelete: 'set null' }),
  printerId: text('printer_id').notNull().references(() => printers.id, { onDelete: 'cascade' }),
  format: text('format', { enum: ['pdf', 'zpl', 'epl'] }).notNull(),
  copies: integer('copies').notNull(),
  /** What to print when it is not a shipment's stored label (e.g. a test label, or several shipments' labels merged). */
  content: blob('content', { mode: 'buffer' }),
  /** JSON array: the shipments whose labels a merged job holds. */
  shipmentIds: text('shipment_ids', { mode: 'json' }).$type<string[]>(),
  /** The dispatch whose hand-over document the job prints. */
  dispatchId: text('dispatch_id'),
  /** `a4` for the office layout of a PDF label. */
  layout: text('layout'),
  status: text('status', { enum: ['queued', 'printing', 'printed', 'failed'] }).notNull(),
  attempts: integer('attempts').notNull(),
  error: text('error'),
  nextAttemptAt: integer('next_attempt_at'),
  /** Retried until this time (24 h after queuing), then failed. */
  expiresAt: integer('expires_at').notNull(),
  leaseUntil: integer('lease_until'),
  /** The daemon holding the lease (see src/services/leases.ts). */
  leaseOwner: text('lease_owner'),
  createdAt: integer('created_at').notNull(),
  printedAt: integer('printed_at'),
}, (t) => [
  index('print_jobs_account_created').on(t.accountId, t.createdAt),
  index('print_jobs_due').on(t.status, t.nextAttemptAt),
  index('print_jobs_printer').on(t.printerId, t.status),
  index('print_jobs_shipment').on(t.shipmentId),
]);

export const watchedFolders = sqliteTable('watched_folders', {
  /** The station whose daemon watches it (the one it was added through); null: any daemon (a store from before stations). */
  station: text('station'),
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  path: text('path').notNull(),
  /** null: each order's channel is chosen by the account's shipping rules. */
  channelId: text('channel_id').references(() => shippingChannels.id),
  labelFormat: text('label_format', { enum: ['pdf', 'zpl', 'epl'] }).notNull(),
  printerId: text('printer_id').references(() => printers.id, { onDelete: 'set null' }),
  /** A preset name or a column mapping object, as JSON. */
  mapping: text('mapping', { mode: 'json' }),
  /** What the folder's orders become: shipments at once, or orders in the queue (ImportTarget in src/imports/orders.ts). */
  target: text('target', { enum: ['shipments', 'orders'] }).notNull().default('shipments'),
  status: text('status', { enum: ['active', 'paused'] }).notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [uniqueIndex('watched_folders_path').on(t.path), index('watched_folders_account_created').on(t.accountId, t.createdAt)]);

/** One CSV file taken in (from a watched folder or `packdesk import`). */
export const imports = sqliteTable('imports', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  watchedFolderId: text('watched_folder_id').references(() => watchedFolders.id, { onDelete: 'set null' }),
  fileName: text('file_name').notNull(),
  sha256: text('sha256').notNull(),
  rows: integer('rows').notNull(),
  shipmentsCreated: integer('shipments_created').notNull(),
  failedRows: integer('failed_rows').notNull(),
  /** Orders the API's rules refused (the result file's `error` lines), counted when the import finishes. */
  invalidOrders: integer('invalid_orders').notNull().default(0),
  /** Rows whose order is finished, stored as the import goes so a restart shows how far it got. */
  rowsProcessed: integer('rows_processed').notNull().default(0),
  /** Runs of the import that began and did not end in an orderly way (a crash, kill -9): at 3 it is failed for good. */
  attempts: integer('attempts').notNull().default(0),
  status: text('status', { enum: ['processing', 'done', 'failed'] }).notNull(),
  resultPath: text('result_path'),
  errorsPath: text('errors_path'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
  finishedAt: integer('finished_at'),
}, (t) => [index('imports_account_created').on(t.accountId, t.createdAt), index('imports_source_sha').on(t.watchedFolderId, t.sha256)]);

/** Exactly once: an order of a file (source, file hash, reference) becomes at most one shipment. */
export const importedOrders = sqliteTable('imported_orders', {
  /** The watched folder id, or `cli:<account id>` for `packdesk import`. */
  source: text('source').notNull(),
  sha256: text('sha256').notNull(),
  referenceNumber: text('reference_number').notNull(),
  importId: text('import_id').notNull().references(() => imports.id, { onDelete: 'cascade' }),
  shipmentId: text('shipment_id').references(() => shipments.id, { onDelete: 'set null' }),
  /** The queued order, for an import whose target is the order queue. */
  orderId: text('order_id'),
  createdAt: integer('created_at').notNull(),
}, (t) => [primaryKey({ columns: [t.source, t.sha256, t.referenceNumber] }), index('imported_orders_import').on(t.importId)]);

/**
 * A browser signed in to the desk: bound to the API key it was opened with (revoking the key ends it). Only hashes
 * of the cookie's token and of a one-time login link's token are stored.
 */
export const deskSessions = sqliteTable('desk_sessions', {
  id: text('id').primaryKey(),
  apiKeyId: text('api_key_id').notNull().references(() => apiKeys.id, { onDelete: 'cascade' }),
  /** SHA-256 hex of the session cookie's token; null until a login link is opened. */
  tokenHash: text('token_hash'),
  /** SHA-256 hex of a one-time login link's token; null once it was used. */
  linkHash: text('link_hash'),
  linkExpiresAt: integer('link_expires_at'),
  /** Sent back by the page in `X-CSRF-Token` with every change. */
  csrfToken: text('csrf_token').notNull(),
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at').notNull(),
}, (t) => [uniqueIndex('desk_sessions_token').on(t.tokenHash), uniqueIndex('desk_sessions_link').on(t.linkHash), index('desk_sessions_expires').on(t.expiresAt)]);

/** The daemons working on this store, each with the station it serves; a heartbeat keeps `seen_at` fresh. */
export const daemons = sqliteTable('daemons', {
  id: text('id').primaryKey(),
  station: text('station').notNull(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  version: text('version').notNull(),
  startedAt: integer('started_at').notNull(),
  seenAt: integer('seen_at').notNull(),
}, (t) => [index('daemons_seen').on(t.seenAt)]);

/** Facts about the store itself: `secret_check` is a value sealed with the secret key the store was set up with. */
export const storeFacts = sqliteTable('store_facts', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});
