import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { statusOfCode, walkToStatus } from '../../src/carriers/codes.js';
import { ADVANCE_TARGETS } from '../../src/carriers/emulator/contract.js';
import { listProviders } from '../../src/carriers/registry.js';
import type { ChannelSettings, ShipmentForCarrier } from '../../src/carriers/types.js';
import { TRACKING_STATUSES } from '../../src/domain/tracking.js';
import { xsdErrors } from '../helpers/xsd.js';

/**
 * Every carrier's pure mappers against the fixtures in its folder (`src/carriers/<code>/fixtures/<kind>.<case>.json`),
 * shaped like the carrier's documented examples: our shipment → the carrier's request (validated against the
 * carrier's published schema where one is vendored), and the carrier's answers → our results and field paths.
 */

const CARRIERS = fileURLToPath(new URL('../../src/carriers/', import.meta.url));
const KINDS = ['create-request', 'created', 'refusal', 'tracking'] as const;

interface Fixtures {
  'create-request': { name: string; shipment: ShipmentForCarrier; settings: ChannelSettings; request: unknown }[];
  created: { name: string; shipment: ShipmentForCarrier; body: unknown; result: unknown }[];
  refusal: { name: string; status: number; body: unknown; errors: Record<string, string[]> }[];
  tracking: { name: string; asked: string[]; body: unknown; results: unknown }[];
}

function fixturesOf(code: string): Fixtures {
  const dir = `${CARRIERS}${code}/fixtures/`;
  const found: Fixtures = { 'create-request': [], created: [], refusal: [], tracking: [] };
  for (const file of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const kind = KINDS.find((k) => file.startsWith(`${k}.`) && file.endsWith('.json'));
    if (kind) (found[kind] as unknown[]).push({ name: file, ...JSON.parse(readFileSync(dir + file, 'utf8')) });
  }
  return found;
}

/**
 * The carrier's published request schema, kept beside its fixtures, as a validator; undefined where none is
 * published. JSON carriers keep a JSON Schema (`create-request.schema.json`, checked with ajv); SOAP carriers an XSD
 * (`create-request.xsd`, checked with xmllint) against which their request, the operation element's XML, validates.
 */
function requestSchema(code: string): ((value: unknown) => string[]) | undefined {
  const xsd = `${CARRIERS}${code}/fixtures/schema/create-request.xsd`;
  if (existsSync(xsd)) return (value) => (typeof value === 'string' ? xsdErrors(value, xsd) : ['a SOAP request is the XML text of its operation element']);
  const file = `${CARRIERS}${code}/fixtures/schema/create-request.schema.json`;
  if (!existsSync(file)) return undefined;
  const schema = JSON.parse(readFileSync(file, 'utf8')) as { $schema?: string };
  const ajv = String(schema.$schema ?? '').includes('2020') ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);
  return (value) => (validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
}

describe.each(listProviders().map((p) => [p.code, p] as const))('%s mappers against the carrier-shaped fixtures', (code, provider) => {
  const fixtures = fixturesOf(code);
  const mappers = provider.mappers;
  const schema = requestSchema(code);

  it('has fixtures of every kind', () => {
    for (const kind of KINDS) expect(fixtures[kind].length, `${code}/fixtures/${kind}.*.json`).toBeGreaterThan(0);
  });

  it('has a tracking code table of standard statuses whose moves stay in the table and reach every status it has', () => {
    const list = provider.trackingCodes;
    expect(list.codes).toHaveProperty([list.created]);
    if (provider.capabilities.cancel) expect(list.codes).toHaveProperty([list.cancelled!]);
    for (const [raw, entry] of Object.entries(list.codes)) {
      expect(TRACKING_STATUSES, raw).toContain(entry.status);
      for (const next of entry.next ?? []) expect(list.codes, `${raw} → ${next}`).toHaveProperty([next]);
    }
    // a status the carrier has no code for (SP Express has no pickup points) is left out, never invented
    const targets = ADVANCE_TARGETS.filter((t) => Object.values(list.codes).some((c) => c.status === t));
    expect(targets).toEqual(expect.arrayContaining(['in_transit', 'out_for_delivery', 'delivered', 'returned']));
    for (const target of targets) expect(walkToStatus(list, list.created, target), `${list.created} → ${target}`).toBeDefined();
    expect(statusOfCode(list, 'constructor')).toBeNull();
  });

  it.each(fixtures['create-request'].map((f) => [f.name, f] as const))('builds the request of %s', (_name, f) => {
    const request = mappers.createRequest(f.shipment, f.settings);
    expect(JSON.parse(JSON.stringify(request))).toEqual(f.request);
    if (schema) {
      expect(schema(f.request), 'the fixture against the published schema').toEqual([]);
      expect(schema(request), 'our request against the published schema').toEqual([]);
    }
  });

  it.each(fixtures.created.map((f) => [f.name, f] as const))('reads the answer of %s', (_name, f) => {
    expect(JSON.parse(JSON.stringify(mappers.parseCreated(f.body, f.shipment)))).toEqual(f.result);
  });

  it.each(fixtures.refusal.map((f) => [f.name, f] as const))('maps the refusal of %s onto our field paths', (_name, f) => {
    const refusal = mappers.parseRefusal(f.status, f.body);
    expect(refusal.errors).toEqual(f.errors);
    expect(refusal.message).toMatch(new RegExp(`^${provider.name}`));
  });

  it.each(fixtures.tracking.map((f) => [f.name, f] as const))('reads the tracking of %s', (_name, f) => {
    expect(JSON.parse(JSON.stringify(mappers.parseTracking(f.body, f.asked)))).toEqual(f.results);
  });
});
