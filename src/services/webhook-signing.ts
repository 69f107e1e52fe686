import { createHmac } from 'node:crypto';
import { VERSION } from '../version.js';

/**
 * The HMAC key of a subscription secret, as the Standard Webhooks specification reads it: a `whsec_` secret is
 * base64-decoded after the prefix; any other secret is used as its UTF-8 bytes.
 */
export function webhookSigningKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

/** `v1,<base64 HMAC-SHA256 over "<id>.<timestamp>.<body>">` (Standard Webhooks v1). */
export function signWebhook(key: Buffer, messageId: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

export interface SignedHeadersInput {
  eventId: string;
  eventType: string;
  body: string;
  key: Buffer;
  /** This attempt's time (ms): every attempt carries a fresh timestamp and signature. */
  at: number;
}

/** The headers of one delivery attempt; `webhook-id` is the event id on every attempt, so receivers can dedupe. */
export function signedWebhookHeaders(input: SignedHeadersInput): Record<string, string> {
  const timestamp = Math.floor(input.at / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': `packdesk/${VERSION}`,
    'webhook-id': input.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(input.key, input.eventId, timestamp, input.body),
    'x-packdesk-event': input.eventType,
  };
}
