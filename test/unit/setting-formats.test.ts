import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listProviders, settingsSchema } from '../../src/carriers/registry.js';
import { resolveSettings } from '../../src/carriers/settings.js';

const CARRIERS = fileURLToPath(new URL('../../src/carriers/', import.meta.url));

/** The settings of a provider's create-request fixtures (`fixtures/create-request.*.json`), by file name. */
function fixtureSettings(code: string): [string, Record<string, unknown>][] {
  const dir = `${CARRIERS}${code}/fixtures/`;
  return readdirSync(dir).filter((f) => f.startsWith('create-request.') && f.endsWith('.json'))
    .map((f) => [f, (JSON.parse(readFileSync(dir + f, 'utf8')) as { settings: Record<string, unknown> }).settings]);
}

describe.each(listProviders().map((p) => [p.code, p] as const))('%s settings in the carrier\'s formats', (code, provider) => {
  it('takes the settings of its demo story (fixtures/contract.json) and of its request fixtures', () => {
    expect(resolveSettings(provider, { ...provider.demo.settings, baseUrl: 'http://127.0.0.1:7500/' + code }).errors).toEqual({});
    for (const [file, settings] of fixtureSettings(code)) expect(resolveSettings(provider, settings).errors, file).toEqual({});
  });

  it('declares each format completely: an anchored pattern with its words, limits in order', () => {
    for (const spec of settingsSchema(provider)) {
      if (spec.pattern !== undefined) {
        expect(spec.type, spec.key).toBe('string');
        expect(spec.pattern, spec.key).toMatch(/^\^.*\$$/);
        expect(() => new RegExp(spec.pattern!), spec.key).not.toThrow();
        expect(spec.patternDescription, spec.key).toMatch(/\S/);
      }
      if (spec.minLength !== undefined || spec.maxLength !== undefined) expect(spec.type, spec.key).toBe('string');
      expect(spec.minLength ?? 0, spec.key).toBeLessThanOrEqual(spec.maxLength ?? Infinity);
      if (spec.minimum !== undefined || spec.maximum !== undefined) expect(['integer', 'number'], spec.key).toContain(spec.type);
      expect(spec.minimum ?? -Infinity, spec.key).toBeLessThanOrEqual(spec.maximum ?? Infinity);
      if (typeof spec.default === 'string') expect(resolveSettings(provider, { [spec.key]: spec.default }, undefined, true).errors, spec.key).toEqual({});
    }
  });
});
