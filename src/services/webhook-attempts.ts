import type { ServiceContext } from './context.js';
import type { AttemptResult, WebhookRequest } from './webhook-http.js';
import { signedWebhookHeaders, webhookSigningKey } from './webhook-signing.js';
import type { DeliveryRow } from './webhooks.js';

/** Where one attempt goes: the subscription as stored now (url and secret may have changed since the event). */
export interface AttemptTarget {
  subscriptionId: string;
  url: string;
  secretEnc: string;
}

/** An outbox event: its payload is sent byte for byte as stored. */
export interface OutboxEvent {
  id: string;
  type: string;
  payload: string;
}

const keyCache = new Map<string, Buffer>();
const KEY_CACHE_LIMIT = 1024;

/** The HMAC key of a sealed secret; decrypted once per sealed value, not on every attempt. */
function signingKey(ctx: ServiceContext, secretEnc: string): Buffer {
  let key = keyCache.get(secretEnc);
  if (!key) {
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
    key = webhookSigningKey(ctx.secrets.open(secretEnc));
    keyCache.set(secretEnc, key);
  }
  return key;
}

const INSERT_LOG = `INSERT INTO webhook_deliveries (id, subscription_id, event_id, event_type, attempt, status, url,
  request_headers, request_body, response_status, response_body, duration_ms, error_message, next_retry_at, created_at)
  VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, NULL, NULL, NULL, NULL, NULL, ?)`;

/**
 * Signs the attempt and writes its log entry as `pending` before anything is sent (a crash mid-attempt leaves a
 * visible trace). Call it inside a transaction.
 */
export async function startAttempt(ctx: ServiceContext, target: AttemptTarget, event: OutboxEvent, attempt: number): Promise<{ log: DeliveryRow; request: WebhookRequest }> {
  const now = ctx.clock.now();
  const headers = signedWebhookHeaders({ eventId: event.id, eventType: event.type, body: event.payload, key: signingKey(ctx, target.secretEnc), at: now });
  const log: DeliveryRow = {
    id: ctx.ids('deliveryLog'), subscriptionId: target.subscriptionId, eventId: event.id, eventType: event.type, attempt,
    status: 'pending', url: target.url, requestHeaders: JSON.stringify(headers), requestBody: event.payload,
    responseStatus: null, responseBody: null, durationMs: null, errorMessage: null, nextRetryAt: null, createdAt: now,
  };
  await ctx.store.run(INSERT_LOG, log.id, log.subscriptionId, log.eventId, log.eventType, attempt, log.url, log.requestHeaders, log.requestBody, now);
  return { log, request: { url: target.url, headers, body: event.payload } };
}

const COMPLETE_LOG = `UPDATE webhook_deliveries SET status = ?, response_status = ?, response_body = ?, duration_ms = ?,
  error_message = ?, next_retry_at = ? WHERE id = ?`;

/** Writes the outcome onto the attempt's log entry (a no-op when the logs were cleared meanwhile) and returns the entry. */
export async function finishAttempt(ctx: ServiceContext, log: DeliveryRow, result: AttemptResult, nextRetryAt: number | null, note?: string): Promise<DeliveryRow> {
  const errorMessage = result.errorMessage && note ? `${result.errorMessage} (${note})` : (result.errorMessage ?? note ?? null);
  const done: DeliveryRow = {
    ...log, status: result.ok ? 'success' : 'failed', responseStatus: result.responseStatus, responseBody: result.responseBody,
    durationMs: result.durationMs, errorMessage, nextRetryAt,
  };
  await ctx.store.run(COMPLETE_LOG, done.status, done.responseStatus, done.responseBody, done.durationMs, done.errorMessage, nextRetryAt, log.id);
  return done;
}
