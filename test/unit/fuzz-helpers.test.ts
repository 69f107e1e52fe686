import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawJson, percentEncode, toJsonText } from '../helpers/fuzz-hostile.js';
import { newInPlaces, snapshotPlaces } from '../helpers/fuzz-places.js';
import { answerProblem, type AnswerRules } from '../helpers/fuzz-oracle.js';
import { operationsOf } from '../helpers/fuzz-requests.js';
import { arbitraryFromSchema, resolveRef, type JsonSchema } from '../helpers/fuzz-schema.js';
import { startTestDaemon, type TestDaemon } from '../helpers/harness.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false }));

/** The fuzz suite's own parts: a generator that builds what the schema says and an oracle that fails what it should. */
describe('arbitraryFromSchema', () => {
  const document = {
    components: {
      schemas: {
        Address: {
          type: 'object', required: ['city', 'country'],
          properties: { city: { type: 'string', minLength: 1, maxLength: 12, pattern: '^[^\\u0000-\\u001f\\u007f]*$' }, country: { type: 'string', minLength: 2, maxLength: 2 } },
        },
        Parcel: { type: 'object', required: ['weight'], properties: { weight: { type: 'number', exclusiveMinimum: 0, maximum: 1000 } } },
      },
    },
  };
  const schema: JsonSchema = {
    type: 'object', required: ['address', 'parcels', 'kind'],
    properties: {
      address: { $ref: '#/components/schemas/Address' },
      parcels: {
        type: 'array', minItems: 1, maxItems: 3,
        items: { allOf: [{ $ref: '#/components/schemas/Parcel' }, { properties: { note: { type: ['string', 'null'], maxLength: 5 } } }] },
      },
      kind: { type: 'string', enum: ['pdf', 'zpl'] },
      copies: { type: 'integer', minimum: 1, maximum: 20 },
      email: { type: 'string', format: 'email', maxLength: 255 },
      at: { type: 'string', format: 'date-time' },
      formats: { type: 'array', items: { type: 'string', enum: ['pdf', 'zpl', 'epl'] }, minItems: 1, maxItems: 3, uniqueItems: true },
      mapping: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'object', additionalProperties: true }, { type: 'null' }] },
    },
  };

  it('builds values the schema accepts, following $refs and allOf', () => {
    const validate = ajv.compile({ ...schema, components: document.components });
    fc.assert(fc.property(arbitraryFromSchema(schema, { document, hints: {} }), (value) => {
      expect(validate(value), `${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`).toBe(true);
    }), { numRuns: 300, seed: 1 });
  });

  it('takes a hint for a property of that name wherever it lies', () => {
    const hinted = arbitraryFromSchema(schema, { document, hints: { city: fc.constant('Brno') } });
    for (const value of fc.sample(hinted, { numRuns: 50, seed: 2 })) expect((value as { address: { city: string } }).address.city).toBe('Brno');
  });

  it('refuses a $ref that points nowhere', () => {
    expect(() => resolveRef(document, '#/components/schemas/Missing')).toThrow(/points nowhere/);
  });
});

describe('arbitraryFromSchema on the daemon\'s own OpenAPI document', () => {
  let d: TestDaemon;
  let doc: Parameters<typeof operationsOf>[0];
  beforeAll(async () => {
    d = await startTestDaemon();
    doc = (await d.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
  });
  afterAll(() => d.close());

  it('builds bodies and query values that every operation\'s schema accepts', () => {
    for (const operation of operationsOf(doc)) {
      const schemas = [...(operation.body ? [operation.body] : []), ...operation.parameters.filter((p) => p.in === 'query').map((p) => p.schema)];
      for (const schema of schemas) {
        const validate = ajv.compile(schema);
        for (const value of fc.sample(arbitraryFromSchema(schema, { document: doc, hints: {} }), { numRuns: 30, seed: 3 })) {
          expect(validate(value), `${operation.name}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`).toBe(true);
        }
      }
    }
  });
});

describe('fuzz bodies and URLs', () => {
  it('writes raw JSON fragments as they are and lone surrogates escaped', () => {
    expect(toJsonText({ a: new RawJson('9007199254740993'), b: ['\ud800'], c: undefined })).toBe('{"a":9007199254740993,"b":["\\ud800"]}');
    expect(toJsonText(Object.assign([1], { constructor: 'x' }))).toBe('[1]');
  });

  it('percent-encodes every byte but the unreserved ones', () => {
    expect(percentEncode('../a b/ş\ud800')).toBe('..%2Fa%20b%2F%C5%9F%EF%BF%BD');
  });
});

describe('answerProblem', () => {
  const rules: AnswerRules = { documentedStatuses: ['200', '401', '503'], providers: ['ppl', 'dhl'], secrets: ['pdk_live_secret'], oversizedHead: false };
  const answer = (status: number, body: unknown, contentType = 'application/json; charset=utf-8') =>
    ({ status, contentType, body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)) });

  it('accepts the envelope, 2xx JSON, bytes of a label and an empty 204', () => {
    expect(answerProblem(answer(404, { message: 'Shipment sh_1 not found.' }), rules)).toBeUndefined();
    expect(answerProblem(answer(422, { message: 'The given data was invalid.', errors: { 'parcels.0.weight_amount': ['must be > 0'] } }), rules)).toBeUndefined();
    expect(answerProblem(answer(200, { data: [] }), rules)).toBeUndefined();
    expect(answerProblem(answer(200, '%PDF-1.7', 'application/pdf'), rules)).toBeUndefined();
    expect(answerProblem(answer(204, ''), rules)).toBeUndefined();
  });

  it('fails a 5xx, but a 503 that names the carrier where the operation documents it', () => {
    expect(answerProblem(answer(500, { message: 'Server error.' }), rules)).toBe('HTTP 500');
    expect(answerProblem(answer(503, { message: 'ppl is unreachable (ECONNREFUSED)' }), rules)).toBeUndefined();
    expect(answerProblem(answer(503, { message: 'Service Unavailable' }), rules)).toBe('HTTP 503');
    expect(answerProblem(answer(503, { message: 'The carrier is unreachable right now' }), { ...rules, documentedStatuses: ['200'] })).toBe('HTTP 503');
  });

  it('fails anything outside the envelope', () => {
    expect(answerProblem(answer(431, { error: 'Request Header Fields Too Large', message: 'Exceeded', statusCode: 431 }), rules)).toMatch(/fields beside message\/errors: error, statusCode/);
    expect(answerProblem(answer(400, 'Bad Request', 'text/plain'), rules)).toMatch(/not the JSON error envelope/);
    expect(answerProblem(answer(400, { message: '' }), rules)).toMatch(/no non-empty "message"/);
    expect(answerProblem(answer(400, { message: 'x', errors: { a: ['b'] } }), rules)).toMatch(/"errors" on a 400/);
    expect(answerProblem(answer(422, { message: 'x', errors: { a: 'b' } }), rules)).toMatch(/errors\["a"\] is not a list of messages/);
    expect(answerProblem(answer(400, { message: 'boom\n    at handler (file.js:1:2)' }), rules)).toMatch(/stack trace/);
    expect(answerProblem(answer(401, { message: 'Invalid key pdk_live_secret' }), rules)).toBe('the answer shows an API key');
  });

  it('fails a missing answer, unless the request was too large for the daemon to read it all', () => {
    expect(answerProblem({ error: 'socket hang up' }, rules)).toBe('no HTTP answer: socket hang up');
    expect(answerProblem({ error: 'write EPIPE' }, { ...rules, oversizedHead: true })).toBeUndefined();
    expect(answerProblem({ error: 'no answer within 40000 ms' }, { ...rules, oversizedHead: true })).toMatch(/no HTTP answer/);
  });
});

describe('newInPlaces', () => {
  it('tells what appeared since the snapshot, takes away trees of empty folders and leaves files', () => {
    const place = mkdtempSync(join(tmpdir(), 'packdesk-places-'));
    try {
      mkdirSync(join(place, 'before'));
      const snapshot = snapshotPlaces([place]);
      mkdirSync(join(place, 'in', 'deeper'), { recursive: true });
      mkdirSync(join(place, 'out'));
      writeFileSync(join(place, 'out', 'label.zpl'), '^XA^XZ');
      expect(newInPlaces(snapshot).sort()).toEqual([join(place, 'in'), join(place, 'out')]);
      expect(existsSync(join(place, 'in'))).toBe(false);
      expect(existsSync(join(place, 'out', 'label.zpl'))).toBe(true);
      expect(existsSync(join(place, 'before'))).toBe(true);
    } finally {
      rmSync(place, { recursive: true, force: true });
    }
  });
});
