import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../helpers/harness.js';

const PROJECT = fileURLToPath(new URL('../../', import.meta.url));

/** Every endpoint the API serves, as `METHOD path`; later capabilities add theirs here. */
export const ENDPOINTS = [
  'GET /healthz',
  'GET /v1/account',
  'GET /v1/daemons',
  'GET /v1/stations',
  'GET /v1/station-settings',
  'PUT /v1/station-settings',
  'GET /v1/stations/{name}/settings',
  'PUT /v1/stations/{name}/settings',
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
  'POST /v1/rates',
  'GET /v1/shipping-rules',
  'POST /v1/shipping-rules',
  'POST /v1/shipping-rules/test',
  'GET /v1/shipping-rules/{id}',
  'PATCH /v1/shipping-rules/{id}',
  'DELETE /v1/shipping-rules/{id}',
  'GET /v1/shipments',
  'GET /v1/shipments/{id}',
  'PATCH /v1/shipments/{id}',
  'PUT /v1/shipments/{id}',
  'DELETE /v1/shipments/{id}',
  'POST /v1/shipments/{id}/cancel',
  'POST /v1/shipments/{id}/retry',
  'POST /v1/shipments/{id}/return',
  'GET /v1/shipments/{id}/label',
  'GET /v1/shipments/{id}/documents',
  'GET /v1/shipments/{id}/documents/{type}',
  'GET /v1/shipments/export.csv',
  'GET /v1/shipments/labels',
  'POST /v1/orders',
  'GET /v1/orders',
  'GET /v1/orders/{id}',
  'PATCH /v1/orders/{id}',
  'DELETE /v1/orders/{id}',
  'POST /v1/orders/{id}/ship',
  'POST /v1/dispatches',
  'GET /v1/dispatches',
  'GET /v1/dispatches/waiting',
  'GET /v1/dispatches/pickup-windows',
  'GET /v1/pickup-points',
  'GET /v1/pickup-points/{provider}/{id}',
  'GET /v1/dispatches/{id}',
  'POST /v1/dispatches/{id}/retry',
  'GET /v1/dispatches/{id}/document',
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
  'POST /v1/print-jobs',
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
  'POST /v1/desk/sessions',
  'GET /v1/desk/session',
  'DELETE /v1/desk/session',
  'POST /v1/desk/login-links',
  'GET /v1/desk/events',
];

interface Schema {
  type?: string | string[];
  format?: string;
  default?: unknown;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
}

interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  requestBody?: { content: Record<string, { schema: Schema }> };
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

interface Document {
  openapi: string;
  info: { license?: { name: string; identifier?: string } };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

/** Every `METHOD path` with its operation. */
const operationsOf = (doc: Document) => Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ endpoint: `${method.toUpperCase()} ${path}`, op })));

/** The properties a client must send although they have a default, at any depth, as `where.field`. */
function requiredWithDefault(schema: Schema | undefined, where: string): string[] {
  if (!schema) return [];
  const own = (schema.required ?? []).filter((name) => schema.properties?.[name]?.default !== undefined).map((name) => `${where}.${name}`);
  const nested = [
    ...Object.entries(schema.properties ?? {}).map(([name, property]) => requiredWithDefault(property, `${where}.${name}`)),
    requiredWithDefault(schema.items, `${where}[]`),
    ...(schema.anyOf ?? []).map((member) => requiredWithDefault(member, where)),
  ];
  return [...own, ...nested.flat()];
}

describe('GET /v1/openapi.json', () => {
  let d: TestDaemon;
  let doc: Document;

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
      if (['POST', 'PATCH', 'PUT'].includes(method) && !/\/(validate|authorize|cancel|retry|test|redeliver|refresh|login-links)$/.test(path)) {
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

  it('names every operation with a unique camelCase operationId, the way generated clients call it', () => {
    const ids = operationsOf(doc).map(({ endpoint, op }) => {
      expect(op.operationId, endpoint).toMatch(/^[a-z]+[A-Za-z]*$/);
      return op.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    const byEndpoint = Object.fromEntries(operationsOf(doc).map(({ endpoint, op }) => [endpoint, op.operationId]));
    expect(byEndpoint).toMatchObject({
      'GET /v1/shipments': 'listShipments', 'GET /v1/shipments/{id}': 'getShipment', 'POST /v1/shipments': 'createShipment',
      'GET /v1/shipments/{id}/label': 'getShipmentLabel', 'POST /v1/shipments/{id}/cancel': 'cancelShipment',
      'GET /v1/webhook-subscriptions/{id}/logs': 'listWebhookSubscriptionLogs', 'GET /healthz': 'getHealth',
    });
  });

  it('tags every operation with a tag the document describes', () => {
    const described = new Map((doc.tags ?? []).map((t) => [t.name, t.description ?? '']));
    for (const { endpoint, op } of operationsOf(doc)) {
      expect(op.tags?.length, endpoint).toBe(1);
      expect(described.get(op.tags![0]!), `${endpoint} tag ${op.tags![0]}`).toBeTruthy();
    }
    const used = new Set(operationsOf(doc).map(({ op }) => op.tags![0]));
    expect([...described.keys()].filter((tag) => !used.has(tag)), 'described tags no operation uses').toEqual([]);
  });

  it('lets a client leave out every parameter and body field that has a default', () => {
    const problems = operationsOf(doc).flatMap(({ endpoint, op }) => [
      ...(op.parameters ?? []).filter((p) => p.required && p.schema?.default !== undefined).map((p) => `${endpoint} ${p.in} ${p.name}`),
      ...requiredWithDefault(op.requestBody?.content['application/json']?.schema, `${endpoint} body`),
    ]);
    expect(problems).toEqual([]);
    const query = (path: string, method = 'get') => Object.fromEntries((doc.paths[path]![method]!.parameters ?? [])
      .filter((p) => p.in === 'query').map((p) => [p.name, { required: p.required, default: p.schema?.default }]));
    expect(query('/v1/shipments')).toMatchObject({ page: { required: false, default: 1 }, per_page: { required: false, default: 20 } });
    expect(query('/v1/webhook-subscriptions')).toMatchObject({ per_page: { required: false, default: 15 } });
    expect(query('/v1/printers/{id}')).toEqual({ refresh: { required: false, default: true } });
    const parcel = doc.paths['/v1/shipments']!.post!.requestBody!.content['application/json']!.schema.properties!.parcels!.items!;
    expect(parcel.properties!.weight_unit!.default).toBe('KG');
    expect(parcel.required ?? []).not.toContain('weight_unit');
  });

  it('carries the licence of the project', () => {
    const { license } = JSON.parse(readFileSync(join(PROJECT, 'package.json'), 'utf8')) as { license: string };
    expect(license).toBe('MIT');
    expect(doc.info.license).toEqual({ name: license, identifier: license });
  });

  it('declares the label as JSON or as the bytes of a PDF, ZPL, EPL or PNG file', () => {
    const content = doc.paths['/v1/shipments/{id}/label']!.get!.responses['200']!.content!;
    expect(Object.keys(content).sort()).toEqual(['application/epl', 'application/json', 'application/pdf', 'application/zpl', 'image/png']);
    for (const type of ['application/pdf', 'application/zpl', 'application/epl', 'image/png']) {
      expect(content[type]!.schema, type).toMatchObject({ type: 'string', format: 'binary' });
    }
    const json = content['application/json']!.schema.anyOf!.map((envelope) => Object.keys(envelope.properties!.data!.properties!));
    expect(json).toEqual([
      ['shipment_id', 'reference_number', 'provider_shipment_id', 'label'],
      ['shipment_id', 'reference_number', 'provider_shipment_id', 'label_format', 'source', 'images'],
    ]);
    for (const path of ['/v1/imports/{id}/result', '/v1/imports/{id}/errors']) {
      expect(Object.keys(doc.paths[path]!.get!.responses['200']!.content!), path).toEqual(['application/json', 'text/csv']);
    }
  });

  it('passes redocly lint with the recommended rules, without an error or a warning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'packdesk-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      // telemetry off (here and in redocly.yaml): the lint must not reach for the network
      const lint = spawnSync(join(PROJECT, 'node_modules/.bin/redocly'), ['lint', '--format', 'json', '--config', join(PROJECT, 'redocly.yaml'), file], {
        cwd: PROJECT, encoding: 'utf8', timeout: 60_000,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      });
      expect(lint.status, lint.stderr).toBe(0);
      const report = JSON.parse(lint.stdout) as { totals: Record<string, number>; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
      const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
