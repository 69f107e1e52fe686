/**
 * The PostgreSQL form of the store: the tables of schema.ts, column for column, with PostgreSQL storage types. It is
 * kept in step with schema.ts by test/unit/store-schemas.test.ts; the services query through schema.ts's tables and
 * the statements run unchanged on both stores.
 *
 * Types: SQLite text (JSON included) is text, integers are bigint (Unix ms), booleans stay integer 0/1 as SQLite
 * stores them, real is double precision and blobs are bytea. The shipment search table, the list versions and the
 * triggers that keep counts and versions are written by hand in migrations-pg, as in the SQLite migrations.
 */
import { sql } from 'drizzle-orm';
import { pgTable, text, integer, bigint, doublePrecision, customType, index, uniqueIndex, primaryKey } from 'drizzle-orm/pg-core';
import type { LabelDpi } from '../domain/labels.js';
import { CUSTOMS_DOCUMENT_TYPES } from '../domain/customs.js';
import { PRICE_SOURCES } from '../domain/price-list.js';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** Unix milliseconds and counters: SQLite integers are 64-bit. */
const int64 = (name: string) => bigint(name, { mode: 'number' });

/** SQLite's implicit rowid, made explicit: statements order by it and look rows up by it on both stores. */
const rowid = () => bigint('rowid', { mode: 'number' }).generatedByDefaultAsIdentity();

export const accounts = pgTable('accounts', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  plan: text('plan', { enum: ['free', 'standard', 'enterprise'] }).notNull(),
  rateLimit: int64('rate_limit'),
  createdAt: int64('created_at').notNull(),
});

export const apiKeys = pgTable('api_keys', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  keyHash: text('key_hash').notNull(),
  keyPrefix: text('key_prefix').notNull(),
  name: text('name'),
  scope: text('scope', { enum: ['full', 'read_only'] }).notNull(),
  createdAt: int64('created_at').notNull(),
  revokedAt: int64('revoked_at'),
}, (t) => [uniqueIndex('api_keys_hash').on(t.keyHash), index('api_keys_account').on(t.accountId)]);

export const shippingChannels = pgTable('shipping_channels', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  name: text('name').notNull(),
  provider: text('provider').notNull(),
  description: text('description'),
  status: text('status', { enum: ['pending_validation', 'authorization_required', 'active', 'error', 'inactive'] }).notNull(),
  settingsEnc: text('settings_enc').notNull(),
  parcelDefaults: text('parcel_defaults'),
  priceList: text('price_list'),
  dispatchAt: text('dispatch_at'),
  autoDispatchedOn: text('auto_dispatched_on'),
  lastValidatedAt: int64('last_validated_at'),
  validationError: text('validation_error'),
  deletedAt: int64('deleted_at'),
  createdAt: int64('created_at').notNull(),
  updatedAt: int64('updated_at').notNull(),
}, (t) => [
  uniqueIndex('shipping_channels_account_name').on(t.accountId, t.name).where(sql`${t.deletedAt} IS NULL`),
  index('shipping_channels_account_created').on(t.accountId, t.createdAt),
]);

export const channelAuthorizations = pgTable('channel_authorizations', {
  channelId: text('channel_id').primaryKey().references(() => shippingChannels.id),
  status: text('status', { enum: ['pending', 'authorized', 'denied', 'expired', 'revoked'] }).notNull(),
  deviceEnc: text('device_enc'),
  deviceExpiresAt: int64('device_expires_at'),
  pollIntervalMs: int64('poll_interval_ms'),
  nextPollAt: int64('next_poll_at'),
  tokensEnc: text('tokens_enc'),
  accessExpiresAt: int64('access_expires_at'),
  version: int64('version').notNull(),
  refreshingUntil: int64('refreshing_until'),
  message: text('message'),
  authorizedAt: int64('authorized_at'),
  updatedAt: int64('updated_at').notNull(),
}, (t) => [index('channel_authorizations_next_poll').on(t.nextPollAt)]);

export const webhookSubscriptions = pgTable('webhook_subscriptions', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  name: text('name').notNull(),
  url: text('url').notNull(),
  events: text('events').notNull(),
  status: text('status', { enum: ['active', 'paused', 'disabled'] }).notNull(),
  secretEnc: text('secret_enc').notNull(),
  failingSince: int64('failing_since'),
  createdAt: int64('created_at').notNull(),
  updatedAt: int64('updated_at').notNull(),
}, (t) => [index('webhook_subscriptions_account_created').on(t.accountId, t.createdAt)]);

export const events = pgTable('events', {
  rowid: rowid(),
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  type: text('type').notNull(),
  resourceType: text('resource_type').notNull(),
  resourceId: text('resource_id').notNull(),
  payload: text('payload').notNull(),
  createdAt: int64('created_at').notNull(),
  dispatchedAt: int64('dispatched_at'),
}, (t) => [index('events_undispatched').on(t.dispatchedAt, t.createdAt), uniqueIndex('events_rowid').on(t.rowid)]);

export const webhookDeliveries = pgTable('webhook_deliveries', {
  rowid: rowid(),
  id: text('id').primaryKey(),
  subscriptionId: text('subscription_id').notNull().references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
  eventId: text('event_id').notNull(),
  eventType: text('event_type').notNull(),
  attempt: int64('attempt').notNull(),
  status: text('status', { enum: ['pending', 'success', 'failed'] }).notNull(),
  url: text('url').notNull(),
  requestHeaders: text('request_headers').notNull(),
  requestBody: text('request_body').notNull(),
  responseStatus: int64('response_status'),
  responseBody: text('response_body'),
  durationMs: int64('duration_ms'),
  errorMessage: text('error_message'),
  nextRetryAt: int64('next_retry_at'),
  createdAt: int64('created_at').notNull(),
}, (t) => [index('webhook_deliveries_subscription_created').on(t.subscriptionId, t.createdAt), uniqueIndex('webhook_deliveries_rowid').on(t.rowid)]);

export const idempotencyKeys = pgTable('idempotency_keys', {
  rowid: rowid(),
  accountId: text('account_id').notNull(),
  key: text('key').notNull(),
  apiKeyId: text('api_key_id'),
  requestHash: text('request_hash').notNull(),
  responseStatus: int64('response_status'),
  responseBody: text('response_body'),
  responseContentType: text('response_content_type'),
  resourcePath: text('resource_path'),
  /** The daemon handling the first request while it runs (see src/services/leases.ts). */
  leaseOwner: text('lease_owner'),
  createdAt: int64('created_at').notNull(),
}, (t) => [
  primaryKey({ columns: [t.accountId, t.key] }),
  index('idempotency_keys_created').on(t.createdAt),
  uniqueIndex('idempotency_keys_rowid').on(t.rowid),
]);

export const shippingRules = pgTable('shipping_rules', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  position: int64('position').notNull(),
  name: text('name').notNull(),
  active: integer('active').notNull().default(sql`1`),
  conditions: text('conditions').notNull(),
  action: text('action').notNull(),
  createdAt: int64('created_at').notNull(),
  updatedAt: int64('updated_at').notNull(),
}, (t) => [index('shipping_rules_account_position').on(t.accountId, t.position)]);

export const dispatches = pgTable('dispatches', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  channelId: text('channel_id').notNull().references(() => shippingChannels.id),
  provider: text('provider').notNull(),
  status: text('status', { enum: ['pending', 'dispatched', 'failed'] }).notNull(),
  pickupRequest: text('pickup_request'),
  pickup: text('pickup'),
  printRequest: text('print_request'),
  carrierRef: text('carrier_ref'),
  document: bytea('document'),
  documentSource: text('document_source', { enum: ['carrier', 'packdesk'] }),
  failure: text('failure'),
  attempts: int64('attempts').notNull(),
  carrierProgress: text('carrier_progress'),
  createdAt: int64('created_at').notNull(),
  updatedAt: int64('updated_at').notNull(),
  dispatchedAt: int64('dispatched_at'),
}, (t) => [index('dispatches_account_created').on(t.accountId, t.createdAt), index('dispatches_channel_created').on(t.channelId, t.createdAt)]);

export const stationSettings = pgTable('station_settings', {
  accountId: text('account_id').notNull().references(() => accounts.id),
  station: text('station').notNull(),
  settings: text('settings').notNull(),
  updatedAt: int64('updated_at').notNull(),
}, (t) => [primaryKey({ columns: [t.accountId, t.station] })]);

export const orders = pgTable('orders', {
  rowid: rowid(),
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  referenceNumber: text('reference_number'),
  status: text('status', { enum: ['awaiting', 'shipped', 'cancelled'] }).notNull(),
  draft: text('draft').notNull(),
  searchText: text('search_text').notNull(),
  shipmentId: text('shipment_id'),
  importId: text('import_id'),
  createdAt: int64('created_at').notNull(),
  updatedAt: int64('updated_at').notNull(),
  shippedAt: int64('shipped_at'),
  cancelledAt: int64('cancelled_at'),
}, (t) => [
  index('orders_account_created').on(t.accountId, t.createdAt), index('orders_account_status').on(t.accountId, t.status, t.createdAt),
  index('orders_import').on(t.importId),
  uniqueIndex('orders_rowid').on(t.rowid),
]);

export const jobs = pgTable('jobs', {
  rowid: rowid(),
  id: text('id').primaryKey(),
  kind: text('kind').notNull(),
  subjectId: text('subject_id').notNull(),
  lane: text('lane').notNull().default(''),
  state: text('state', { enum: ['queued', 'running', 'failed'] }).notNull(),
  attempts: int64('attempts').notNull(),
  maxAttempts: int64('max_attempts').notNull(),
  runAt: int64('run_at').notNull(),
  leaseUntil: int64('lease_until'),
  /** The daemon holding the lease (see src/services/leases.ts). */
  leaseOwner: text('lease_owner'),
  lastError: text('last_error'),
  createdAt: int64('created_at').notNull(),
  updatedAt: int64('updated_at').notNull(),
}, (t) => [
  index('jobs_due').on(t.state, t.runAt),
  index('jobs_lane_due').on(t.kind, t.state, t.lane, t.runAt),
  uniqueIndex('jobs_kind_subject').on(t.kind, t.subjectId),
  uniqueIndex('jobs_rowid').on(t.rowid),
]);

export const shipments = pgTable('shipments', {
  id: text('id').primaryKey(),
  seq: int64('seq').notNull(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  channelId: text('channel_id').notNull().references(() => shippingChannels.id),
  provider: text('provider').notNull(),
  status: text('status', { enum: ['pending', 'created', 'shipped', 'delivered', 'cancelled', 'returned'] }).notNull(),
  labelFormat: text('label_format', { enum: ['pdf', 'zpl', 'epl'] }).notNull(),
  labelDpi: int64('label_dpi').$type<LabelDpi>().notNull().default(203),
  shippingDate: text('shipping_date').notNull(),
  referenceNumber: text('reference_number'),
  providerShipmentId: text('provider_shipment_id'),
  product: text('product'),
  isInternational: integer('is_international').notNull(),
  codAmountMinor: int64('cod_amount_minor'),
  codCurrency: text('cod_currency'),
  senderContact: text('sender_contact').notNull(),
  recipientContact: text('recipient_contact').notNull(),
  originAddress: text('origin_address').notNull(),
  destinationAddress: text('destination_address').notNull(),
  pickupPoint: text('pickup_point'),
  customs: text('customs'),
  returnOf: text('return_of'),
  withReturn: integer('with_return').notNull().default(sql`0`),
  metadata: text('metadata'),
  labelComment: text('label_comment'),
  enableTracking: integer('enable_tracking').notNull(),
  printRequest: text('print_request'),
  totalPriceMinor: int64('total_price_minor'),
  priceSource: text('price_source', { enum: PRICE_SOURCES }),
  currency: text('currency'),
  chosenBy: text('chosen_by'),
  failure: text('failure'),
  attempts: int64('attempts').notNull(),
  nextAttemptAt: int64('next_attempt_at'),
  carrierProgress: text('carrier_progress'),
  cancelledAt: int64('cancelled_at'),
  printedAt: int64('printed_at'),
  dispatchId: text('dispatch_id'),
  createdAt: int64('created_at').notNull(),
  updatedAt: int64('updated_at').notNull(),
}, (t) => [
  uniqueIndex('shipments_seq').on(t.seq),
  index('shipments_account_created').on(t.accountId, t.createdAt, t.seq),
  index('shipments_account_status_created').on(t.accountId, t.status, t.createdAt, t.seq),
  index('shipments_account_channel_created').on(t.accountId, t.channelId, t.createdAt, t.seq),
  index('shipments_dispatch').on(t.dispatchId),
  index('shipments_channel_status').on(t.channelId, t.status),
  index('shipments_return_of').on(t.returnOf),
]);

export const parcels = pgTable('parcels', {
  id: text('id').primaryKey(),
  shipmentId: text('shipment_id').notNull().references(() => shipments.id, { onDelete: 'cascade' }),
  position: int64('position').notNull(),
  parcelType: text('parcel_type').notNull(),
  weightAmount: doublePrecision('weight_amount').notNull(),
  weightUnit: text('weight_unit').notNull(),
  lengthDimension: doublePrecision('length_dimension').notNull(),
  widthDimension: doublePrecision('width_dimension').notNull(),
  heightDimension: doublePrecision('height_dimension').notNull(),
  dimensionUnit: text('dimension_unit').notNull(),
  trackingNumber: text('tracking_number'),
  trackingStatus: text('tracking_status'),
  trackingUrl: text('tracking_url'),
  /** What the carrier's tracking needs besides the number (Baselinker's package id), as its adapter gave it at creation. */
  carrierRef: text('carrier_ref'),
}, (t) => [uniqueIndex('parcels_shipment_position').on(t.shipmentId, t.position), index('parcels_tracking_number').on(t.trackingNumber)]);

export const labels = pgTable('labels', {
  shipmentId: text('shipment_id').primaryKey().references(() => shipments.id, { onDelete: 'cascade' }),
  format: text('format', { enum: ['pdf', 'zpl', 'epl'] }).notNull(),
  content: bytea('content').notNull(),
  pages: int64('pages').notNull(),
  sha256: text('sha256').notNull(),
  source: text('source', { enum: ['carrier', 'converted'] }).notNull(),
  createdAt: int64('created_at').notNull(),
});

export const shipmentDocuments = pgTable('shipment_documents', {
  shipmentId: text('shipment_id').notNull().references(() => shipments.id, { onDelete: 'cascade' }),
  type: text('type', { enum: CUSTOMS_DOCUMENT_TYPES }).notNull(),
  content: bytea('content').notNull(),
  source: text('source', { enum: ['carrier', 'packdesk'] }).notNull(),
  createdAt: int64('created_at').notNull(),
}, (t) => [primaryKey({ columns: [t.shipmentId, t.type] })]);

export const shipmentCounts = pgTable('shipment_counts', {
  accountId: text('account_id').notNull(),
  channelId: text('channel_id').notNull(),
  status: text('status').notNull(),
  shard: int64('shard').notNull().default(sql`0`),
  n: int64('n').notNull(),
}, (t) => [primaryKey({ columns: [t.accountId, t.channelId, t.status, t.shard] })]);

export const webhookQueue = pgTable('webhook_queue', {
  id: text('id').primaryKey(),
  seq: int64('seq').notNull(),
  subscriptionId: text('subscription_id').notNull().references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
  eventId: text('event_id').notNull().references(() => events.id),
  resourceKey: text('resource_key').notNull(),
  status: text('status', { enum: ['pending', 'delivering', 'delivered', 'failed'] }).notNull(),
  attempts: int64('attempts').notNull(),
  nextAttemptAt: int64('next_attempt_at').notNull(),
  leaseUntil: int64('lease_until'),
  /** The daemon holding the lease (see src/services/leases.ts). */
  leaseOwner: text('lease_owner'),
  createdAt: int64('created_at').notNull(),
  updatedAt: int64('updated_at').notNull(),
}, (t) => [
  uniqueIndex('webhook_queue_seq').on(t.seq),
  uniqueIndex('webhook_queue_subscription_event').on(t.subscriptionId, t.eventId),
  index('webhook_queue_due').on(t.status, t.nextAttemptAt),
  index('webhook_queue_order').on(t.subscriptionId, t.resourceKey, t.seq),
  index('webhook_queue_event').on(t.eventId),
]);

export const trackingParcels = pgTable('tracking_parcels', {
  rowid: rowid(),
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  channelId: text('channel_id').notNull().references(() => shippingChannels.id),
  provider: text('provider').notNull(),
  shipmentId: text('shipment_id').references(() => shipments.id, { onDelete: 'cascade' }),
  parcelId: text('parcel_id').references(() => parcels.id, { onDelete: 'cascade' }),
  trackingNumber: text('tracking_number').notNull(),
  origin: text('origin', { enum: ['external', 'shipment'] }).notNull(),
  status: text('status').notNull(),
  recipientName: text('recipient_name'),
  recipientEmail: text('recipient_email'),
  recipientPhone: text('recipient_phone'),
  checkDelayHours: int64('check_delay_hours').notNull(),
  maxChecks: int64('max_checks').notNull(),
  checksDone: int64('checks_done').notNull(),
  nextCheckAt: int64('next_check_at'),
  lastCheckedAt: int64('last_checked_at'),
  leaseUntil: int64('lease_until'),
  /** The daemon holding the lease (see src/services/leases.ts). */
  leaseOwner: text('lease_owner'),
  externalData: text('external_data'),
  trackingUrl: text('tracking_url'),
  createdAt: int64('created_at').notNull(),
  updatedAt: int64('updated_at').notNull(),
}, (t) => [
  uniqueIndex('tracking_parcels_channel_number').on(t.channelId, t.trackingNumber),
  index('tracking_parcels_account_created').on(t.accountId, t.createdAt),
  index('tracking_parcels_due').on(t.nextCheckAt),
  index('tracking_parcels_shipment').on(t.shipmentId),
]);

export const trackingUpdates = pgTable('tracking_updates', {
  rowid: rowid(),
  id: text('id').primaryKey(),
  trackingParcelId: text('tracking_parcel_id').notNull().references(() => trackingParcels.id, { onDelete: 'cascade' }),
  status: text('status').notNull(),
  carrierCode: text('carrier_code').notNull(),
  carrierText: text('carrier_text'),
  location: text('location'),
  description: text('description'),
  occurredAt: int64('occurred_at').notNull(),
  createdAt: int64('created_at').notNull(),
}, (t) => [
  uniqueIndex('tracking_updates_event').on(t.trackingParcelId, t.carrierCode, t.occurredAt),
  index('tracking_updates_parcel_time').on(t.trackingParcelId, t.occurredAt),
]);

export const printers = pgTable('printers', {
  station: text('station'),
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  name: text('name').notNull(),
  uri: text('uri').notNull(),
  formats: text('formats').notNull(),
  dpi: int64('dpi').$type<LabelDpi>().notNull().default(203),
  defaultFor: text('default_for').notNull(),
  status: text('status', { enum: ['ready', 'offline', 'unknown'] }).notNull(),
  statusQuery: text('status_query', { enum: ['auto', 'none'] }).notNull().default('auto'),
  statusDetail: text('status_detail'),
  lastSeenAt: int64('last_seen_at'),
  createdAt: int64('created_at').notNull(),
  updatedAt: int64('updated_at').notNull(),
}, (t) => [uniqueIndex('printers_account_name').on(t.accountId, t.name), index('printers_account_created').on(t.accountId, t.createdAt)]);

export const printJobs = pgTable('print_jobs', {
  rowid: rowid(),
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  shipmentId: text('shipment_id').references(() => shipments.id, { onDelete: 'set null' }),
  printerId: text('printer_id').notNull().references(() => printers.id, { onDelete: 'cascade' }),
  format: text('format', { enum: ['pdf', 'zpl', 'epl'] }).notNull(),
  copies: int64('copies').notNull(),
  content: bytea('content'),
  shipmentIds: text('shipment_ids'),
  dispatchId: text('dispatch_id'),
  layout: text('layout'),
  status: text('status', { enum: ['queued', 'printing', 'printed', 'failed'] }).notNull(),
  attempts: int64('attempts').notNull(),
  error: text('error'),
  nextAttemptAt: int64('next_attempt_at'),
  expiresAt: int64('expires_at').notNull(),
  leaseUntil: int64('lease_until'),
  /** The daemon holding the lease (see src/services/leases.ts). */
  leaseOwner: text('lease_owner'),
  createdAt: int64('created_at').notNull(),
  printedAt: int64('printed_at'),
}, (t) => [
  index('print_jobs_account_created').on(t.accountId, t.createdAt),
  index('print_jobs_due').on(t.status, t.nextAttemptAt),
  index('print_jobs_printer').on(t.printerId, t.status),
  index('print_jobs_shipment').on(t.shipmentId),
  uniqueIndex('print_jobs_rowid').on(t.rowid),
]);

export const watchedFolders = pgTable('watched_folders', {
  station: text('station'),
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  path: text('path').notNull(),
  channelId: text('channel_id').references(() => shippingChannels.id),
  labelFormat: text('label_format', { enum: ['pdf', 'zpl', 'epl'] }).notNull(),
  printerId: text('printer_id').references(() => printers.id, { onDelete: 'set null' }),
  mapping: text('mapping'),
  target: text('target', { enum: ['shipments', 'orders'] }).notNull().default('shipments'),
  status: text('status', { enum: ['active', 'paused'] }).notNull(),
  createdAt: int64('created_at').notNull(),
  updatedAt: int64('updated_at').notNull(),
}, (t) => [uniqueIndex('watched_folders_path').on(t.path), index('watched_folders_account_created').on(t.accountId, t.createdAt)]);

export const imports = pgTable('imports', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id),
  watchedFolderId: text('watched_folder_id').references(() => watchedFolders.id, { onDelete: 'set null' }),
  fileName: text('file_name').notNull(),
  sha256: text('sha256').notNull(),
  rows: int64('rows').notNull(),
  shipmentsCreated: int64('shipments_created').notNull(),
  failedRows: int64('failed_rows').notNull(),
  invalidOrders: int64('invalid_orders').notNull().default(0),
  rowsProcessed: int64('rows_processed').notNull().default(0),
  attempts: int64('attempts').notNull().default(0),
  status: text('status', { enum: ['processing', 'done', 'failed'] }).notNull(),
  resultPath: text('result_path'),
  errorsPath: text('errors_path'),
  createdAt: int64('created_at').notNull(),
  updatedAt: int64('updated_at').notNull(),
  finishedAt: int64('finished_at'),
}, (t) => [index('imports_account_created').on(t.accountId, t.createdAt), index('imports_source_sha').on(t.watchedFolderId, t.sha256)]);

export const importedOrders = pgTable('imported_orders', {
  source: text('source').notNull(),
  sha256: text('sha256').notNull(),
  referenceNumber: text('reference_number').notNull(),
  importId: text('import_id').notNull().references(() => imports.id, { onDelete: 'cascade' }),
  shipmentId: text('shipment_id').references(() => shipments.id, { onDelete: 'set null' }),
  orderId: text('order_id'),
  createdAt: int64('created_at').notNull(),
}, (t) => [primaryKey({ columns: [t.source, t.sha256, t.referenceNumber] }), index('imported_orders_import').on(t.importId)]);

export const deskSessions = pgTable('desk_sessions', {
  rowid: rowid(),
  id: text('id').primaryKey(),
  apiKeyId: text('api_key_id').notNull().references(() => apiKeys.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash'),
  linkHash: text('link_hash'),
  linkExpiresAt: int64('link_expires_at'),
  csrfToken: text('csrf_token').notNull(),
  createdAt: int64('created_at').notNull(),
  expiresAt: int64('expires_at').notNull(),
}, (t) => [
  uniqueIndex('desk_sessions_token').on(t.tokenHash),
  uniqueIndex('desk_sessions_link').on(t.linkHash),
  index('desk_sessions_expires').on(t.expiresAt),
  uniqueIndex('desk_sessions_rowid').on(t.rowid),
]);

export const daemons = pgTable('daemons', {
  id: text('id').primaryKey(),
  station: text('station').notNull(),
  host: text('host').notNull(),
  pid: int64('pid').notNull(),
  version: text('version').notNull(),
  startedAt: int64('started_at').notNull(),
  seenAt: int64('seen_at').notNull(),
}, (t) => [index('daemons_seen').on(t.seenAt)]);

export const storeFacts = pgTable('store_facts', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});
