import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { MAX_DELIVERY_ATTEMPTS, parseRetryAfter, RETRY_SCHEDULE_MS, retryDelayMs } from '../../src/domain/webhook-retries.js';
import { generateWebhookSecret } from '../../src/services/webhooks.js';
import { signedWebhookHeaders, webhookSigningKey } from '../../src/services/webhook-signing.js';
import { verifierSecret } from '../helpers/webhook-receiver.js';

describe('Standard Webhooks signatures', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'shipment.created', data: { shipment: { id: 'sh_1', name: 'Łódź – Žižkov' } } });
  const at = Date.now();

  it('verify with the reference verifier for a generated whsec_ secret and for a plain one', () => {
    for (const secret of [generateWebhookSecret(), 'a plain secret with ünïcode']) {
      const headers = signedWebhookHeaders({ eventId: 'evt_1', eventType: 'shipment.created', body, key: webhookSigningKey(secret), at });
      expect(new Webhook(verifierSecret(secret)).verify(body, headers)).toEqual(JSON.parse(body));
      expect(() => new Webhook(verifierSecret(secret)).verify(body.replace('sh_1', 'sh_2'), headers)).toThrow();
    }
  });

  it('decodes a whsec_ secret as base64 and uses any other as its UTF-8 bytes', () => {
    expect(webhookSigningKey('whsec_AAECAw==')).toEqual(Buffer.from([0, 1, 2, 3]));
    expect(webhookSigningKey('plain-secret-16ch')).toEqual(Buffer.from('plain-secret-16ch', 'utf8'));
  });

  it('signs each attempt with its own timestamp, under the same webhook-id', () => {
    const key = webhookSigningKey(generateWebhookSecret());
    const first = signedWebhookHeaders({ eventId: 'evt_1', eventType: 'shipment.created', body, key, at });
    const retry = signedWebhookHeaders({ eventId: 'evt_1', eventType: 'shipment.created', body, key, at: at + 5000 });
    expect(retry['webhook-id']).toBe(first['webhook-id']);
    expect(Number(retry['webhook-timestamp']) - Number(first['webhook-timestamp'])).toBe(5);
    expect(retry['webhook-signature']).not.toBe(first['webhook-signature']);
    expect(first['x-packdesk-event']).toBe('shipment.created');
  });
});

describe('the retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then gives up after 10 attempts', () => {
    const exact = () => 0.5;
    expect(RETRY_SCHEDULE_MS.map((_, i) => retryDelayMs(i + 1, exact))).toEqual(
      [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400].map((s) => s * 1000));
    expect(MAX_DELIVERY_ATTEMPTS).toBe(10);
    expect(retryDelayMs(10, exact)).toBeUndefined();
  });

  it('jitters each wait by at most ±10 %', () => {
    expect(retryDelayMs(4, () => 0)).toBe(7200_000 * 0.9);
    expect(retryDelayMs(4, () => 0.999999)).toBeLessThanOrEqual(7200_000 * 1.1);
    expect(retryDelayMs(4, () => 0.999999)).toBeGreaterThan(7200_000 * 1.09);
  });

  it('takes a longer Retry-After instead of the step, never a shorter one', () => {
    expect(retryDelayMs(1, () => 0.5, 120_000)).toBe(120_000);
    expect(retryDelayMs(3, () => 0.5, 120_000)).toBe(1800_000);
    expect(retryDelayMs(10, () => 0.5, 120_000)).toBeUndefined();
  });

  it('reads Retry-After as seconds or an HTTP date, capped at a day', () => {
    const now = Date.parse('2026-11-20T09:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Fri, 20 Nov 2026 09:02:00 GMT', now)).toBe(120_000);
    expect(parseRetryAfter('Fri, 20 Nov 2026 08:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('9999999', now)).toBe(86_400_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
