import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldErrorCollector, FieldErrors } from '../../src/domain/errors.js';
import { CONTROL_CHARACTER_PATTERNS } from './schemas.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true, // every problem at once, not the first only
    coerceTypes: coerce ? 'array' : false, // query strings are text; JSON bodies must carry the right types
    useDefaults: true,
    removeAdditional: false, // unknown fields are ignored by the handlers, not an error
    allowUnionTypes: true,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

/**
 * Checks a request part against its schema. The check is compiled at its first use, not at start-up (a daemon starts
 * without compiling one for every route), and each Ajv keeps what it compiled for the process. It stands in for Ajv's
 * own function: it takes the parent data Ajv uses to fill in or coerce a whole part, and carries its `errors`.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  let compiled: ValidateFunction | undefined;
  const check = ((data: unknown, parent?: Parameters<ValidateFunction>[1]) => {
    compiled ??= ajv.compile(schema as object);
    const ok = compiled(data, parent);
    check.errors = compiled.errors;
    return ok;
  }) as ValidateFunction;
  // fastify hands Ajv's functions (which have a schemaEnv) the parent data
  return Object.assign(check, { schemaEnv: true });
};

const TYPE_NAMES: Record<string, string> = {
  string: 'a string', integer: 'an integer', number: 'a number', boolean: 'a boolean', object: 'an object', array: 'an array', null: 'null',
};

function messageFor(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': return 'is required';
    case 'type': {
      const types = String(p.type).split(',').filter((t) => t !== 'null');
      return `must be ${types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}`;
    }
    case 'enum': return `must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const': return `must be ${String(p.allowedValue)}`;
    case 'minLength': return p.limit === 1 ? 'must not be empty' : `must be at least ${p.limit} characters`;
    case 'maxLength': return `must be at most ${p.limit} characters`;
    case 'minimum': return `must be at least ${p.limit}`;
    case 'maximum': return `must be at most ${p.limit}`;
    case 'exclusiveMinimum': return `must be greater than ${p.limit}`;
    case 'minItems': return p.limit === 1 ? 'must not be empty' : `must have at least ${p.limit} items`;
    case 'maxItems': return `must have at most ${p.limit} items`;
    case 'format': return `must be a valid ${p.format}`;
    case 'pattern': return CONTROL_CHARACTER_PATTERNS.has(String(p.pattern)) ? 'must not contain control characters' : 'has an invalid format';
    case 'multipleOf': return `must be a multiple of ${p.multipleOf}`;
    default: return e.message ?? 'is invalid';
  }
}

/** `/parcels/0/weight_amount` → `["parcels", "0", "weight_amount"]`. */
function pathSegments(instancePath: string): string[] {
  return instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Takes the values of the wrong type (also those matching no branch of a union such as `string | null`) out of a
 * body, so checks that read it after the schema see every field either of its type or absent; an array with such an
 * item goes whole. Each taken path is settled in `collector` (the schema said what is wrong there). False when the
 * body itself is of the wrong type: nothing is left to check.
 */
export function takeOutWrongTypes(body: unknown, errors: ErrorObject[], collector: FieldErrorCollector): boolean {
  for (const e of errors) {
    if (e.keyword !== 'type' && e.keyword !== 'anyOf') continue;
    const segments = pathSegments(e.instancePath);
    if (segments.length === 0) return false;
    // walk down the objects to the value, or to the first array on the way (which goes whole)
    let parent = body as Record<string, unknown>;
    let depth = 0;
    for (; depth < segments.length - 1; depth++) {
      const child = parent[segments[depth]!];
      if (child === null || typeof child !== 'object' || Array.isArray(child)) break;
      parent = child as Record<string, unknown>;
    }
    delete parent[segments[depth]!];
    collector.settle(segments.slice(0, depth + 1).join('.'));
  }
  return true;
}

/** Ajv errors → `{ "parcels.0.weight_amount": ["must be greater than 0"] }`. */
export function fieldErrorsFromAjv(errors: ErrorObject[], context: string): FieldErrors {
  const out: FieldErrors = Object.create(null) as FieldErrors;
  const anyOfPaths = errors.filter((e) => e.keyword === 'anyOf').map((e) => e.schemaPath + '/');
  for (const e of errors) {
    if (anyOfPaths.some((prefix) => e.schemaPath.startsWith(prefix))) continue; // the anyOf error speaks for its branches
    const segments = pathSegments(e.instancePath);
    if (e.keyword === 'required') segments.push(String((e.params as { missingProperty: string }).missingProperty));
    const path = segments.join('.') || (context === 'body' ? 'body' : context);
    const message = e.keyword === 'anyOf' ? 'has an invalid type or value' : messageFor(e);
    const list = (out[path] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return out;
}
