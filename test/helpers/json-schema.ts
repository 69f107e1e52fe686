import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const compiled = new Map<string, ReturnType<Ajv['compile']>>();

/**
 * A carrier's published JSON schema kept beside its fixtures (`src/carriers/<carrier>/fixtures/schema/<file>`), or one
 * of its OpenAPI components, compiled once: the errors of a request against it as `path message` lines (none: valid).
 */
export function carrierSchemaErrors(carrier: string, file = 'create-request.schema.json', component?: string): (request: unknown) => string[] {
  return (request) => {
    const key = `${carrier}/${file}#${component ?? ''}`;
    let validate = compiled.get(key);
    if (!validate) {
      const schema = JSON.parse(readFileSync(new URL(`../../src/carriers/${carrier}/fixtures/schema/${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;
      validate = addFormats(new Ajv({ strict: false, allErrors: true })).compile(component ? { ...schema, $ref: `#/components/schemas/${component}` } : schema);
      compiled.set(key, validate);
    }
    return validate(request) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}
