import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../helpers/harness.js';

/** Every endpoint the API serves, as `METHOD path`; later capabilities add theirs here. */
export const ENDPOINTS = [
  'GET /healthz',
  'GET /v1/account',
  'GET /v1/providers',
  'POST /v1/providers/{code}/setting-options',
  'POST /v1/shipping-channels',
  'GET /v1/shipping-channels',
  'GET /v1/shipping-channels/{id}',
  'PATCH /v1/shipping-channels/{id}',
  'PUT /v1/shipping-channels/{id}',
  'DELETE /v1/shipping-channels/{id}',
  'POST /v1/shipping-channels/{id}/validate',
  'POST /v1/shipping-channels/{id}/authorize',
  'GET /v1/shipping-channels/{id}/authorization',
  'POST /v1/webhook-subscriptions',
  'GET /v1/webhook-subscriptions',
  'GET /v1/webhook-subscriptions/{id}',
  'PATCH /v1/webhook-subscriptions/{id}',
  'PUT /v1/webhook-subscriptions/{id}',
  'DELETE /v1/webhook-subscriptions/{id}',
  'GET /v1/webhook-subscriptions/{id}/logs',
  'GET /v1/webhook-subscriptions/{id}/logs/{log_id}',
  'DELETE /v1/webhook-subscriptions/{id}/logs',
  'POST /v1/webhook-subscriptions/{id}/test',
  'POST /v1/webhook-subscriptions/{id}/logs/{log_id}/redeliver',
  'POST /v1/shipments',
  'GET /v1/shipments',
  'GET /v1/shipments/{id}',
  'PATCH /v1/shipments/{id}',
  'PUT /v1/shipments/{id}',
  'DELETE /v1/shipments/{id}',
  'POST /v1/shipments/{id}/cancel',
  'POST /v1/shipments/{id}/retry',
  'GET /v1/shipments/{id}/label',
  'POST /v1/tracking-parcels',
  'GET /v1/tracking-parcels',
  'GET /v1/tracking-parcels/{id}',
  'PATCH /v1/tracking-parcels/{id}',
  'PUT /v1/tracking-parcels/{id}',
  'DELETE /v1/tracking-parcels/{id}',
  'POST /v1/tracking-parcels/{id}/refresh',
  'POST /v1/printers',
  'GET /v1/printers',
  'GET /v1/printers/{id}',
  'PATCH /v1/printers/{id}',
  'DELETE /v1/printers/{id}',
  'POST /v1/printers/{id}/test',
  'GET /v1/print-jobs',
  'GET /v1/print-jobs/{id}',
  'POST /v1/print-jobs/{id}/retry',
  'POST /v1/shipments/{id}/print',
  'POST /v1/watched-folders',
  'GET /v1/watched-folders',
  'GET /v1/watched-folders/{id}',
  'PATCH /v1/watched-folders/{id}',
  'DELETE /v1/watched-folders/{id}',
  'POST /v1/imports',
  'GET /v1/imports',
  'GET /v1/imports/{id}',
  'GET /v1/imports/{id}/result',
  'GET /v1/imports/{id}/errors',
];

interface Operation {
  summary?: string;
  requestBody?: { content: Record<string, { schema: unknown }> };
  parameters?: { name: string; in: string }[];
  responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
}

describe('GET /v1/openapi.json', () => {
  let d: TestDaemon;
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    d = await startTestDaemon();
    const res = await d.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => d.close());

  it('is OpenAPI 3.1 served without a key', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  it('describes every endpoint with its request and response schemas', () => {
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).filter((m) => m !== 'head').map((m) => `${m.toUpperCase()} ${path}`));
    expect(listed.sort()).toEqual([...ENDPOINTS].sort());
    for (const endpoint of ENDPOINTS) {
      const [method, path] = endpoint.split(' ') as [string, string];
      const op = doc.paths[path]![method.toLowerCase()]!;
      expect(op.summary, endpoint).toBeTruthy();
      if (['POST', 'PATCH', 'PUT'].includes(method) && !/\/(validate|authorize|cancel|retry|test|redeliver|refresh)$/.test(path)) {
        expect(op.requestBody?.content['application/json']?.schema, `${endpoint} body`).toBeTruthy();
      }
      for (const param of path.match(/\{(\w+)\}/g) ?? []) {
        expect(op.parameters?.some((p) => p.in === 'path' && `{${p.name}}` === param), `${endpoint} ${param}`).toBe(true);
      }
      const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      expect(success.length, `${endpoint} success response`).toBe(1);
      const errorStatuses = Object.keys(op.responses).filter((s) => s.startsWith('4'));
      if (path.startsWith('/v1/')) expect(errorStatuses, `${endpoint} error responses`).toContain('401');
      for (const status of errorStatuses) {
        expect(op.responses[status]!.content!['application/json']!.schema.properties, `${endpoint} ${status}`).toHaveProperty('message');
      }
    }
  });

  it('documents list envelopes with meta and links', () => {
    const list = doc.paths['/v1/shipping-channels']!.get!.responses['200']!.content!['application/json']!.schema;
    expect(Object.keys(list.properties!)).toEqual(['data', 'meta', 'links']);
  });
});
