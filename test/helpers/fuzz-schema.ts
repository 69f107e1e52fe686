import fc from 'fast-check';

/** The part of JSON Schema (as fastify's OpenAPI document writes it) that request values are built from. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  /** A map's values (TypeBox's Record of string keys writes `{"^.*$": schema}`). */
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** Values that make a field work rather than merely match its schema (real ids, reachable places), by field name. */
export type FieldHints = Record<string, fc.Arbitrary<unknown>>;

export interface SchemaContext {
  /** The OpenAPI document `$ref`s point into. */
  document: unknown;
  hints: FieldHints;
}

const MAX_REF_DEPTH = 8;
const MAX_GENERATED_STRING = 40;
const MAX_GENERATED_ITEMS = 4;

/** Follows a local `$ref` (`#/components/schemas/Shipment`) through the document. */
export function resolveRef(document: unknown, ref: string): JsonSchema {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are followed: ${ref}`);
  let node = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) throw new Error(`$ref ${ref} points nowhere`);
    node = (node as Record<string, unknown>)[key];
  }
  return node as JsonSchema;
}

/** The schema with `$ref`s and `allOf` resolved at its top level. */
export function resolveSchema(schema: JsonSchema, document: unknown, depth = 0): JsonSchema {
  if (depth > MAX_REF_DEPTH) throw new Error('$refs nested too deep');
  if (schema.$ref) {
    const { $ref, ...rest } = schema;
    return resolveSchema({ ...resolveRef(document, $ref), ...rest }, document, depth + 1);
  }
  if (!schema.allOf) return schema;
  const { allOf, ...rest } = schema;
  return allOf.map((part) => resolveSchema(part, document, depth + 1)).reduce<JsonSchema>((merged, part) => ({
    ...merged, ...part,
    properties: { ...merged.properties, ...part.properties },
    required: [...(merged.required ?? []), ...(part.required ?? [])],
  }), rest);
}

const codePoints = (text: string) => [...text].length;

function stringValue(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_GENERATED_STRING, MAX_GENERATED_STRING));
  const fits = (text: string) => codePoints(text) >= minLength && codePoints(text) <= (schema.maxLength ?? Infinity);
  let text: fc.Arbitrary<string>;
  if (schema.format === 'email') text = fc.emailAddress();
  else if (schema.format === 'date-time') text = isoDate().map((d) => d.toISOString());
  else if (schema.format === 'date') text = isoDate().map((d) => d.toISOString().slice(0, 10));
  else if (schema.format === 'uri' || schema.format === 'url') text = fc.webUrl();
  else {
    text = fc.oneof(
      { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength }) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }) },
    );
  }
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
  return text.filter((s) => fits(s) && (pattern === undefined || pattern.test(s)));
}

function isoDate(): fc.Arbitrary<Date> {
  return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true });
}

function integerValue(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.exclusiveMinimum !== undefined ? Math.floor(schema.exclusiveMinimum) + 1 : schema.minimum;
  const max = schema.exclusiveMaximum !== undefined ? Math.ceil(schema.exclusiveMaximum) - 1 : schema.maximum;
  return fc.integer({ min: Math.ceil(min ?? -1_000_000), max: Math.floor(max ?? 1_000_000) });
}

function numberValue(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.exclusiveMinimum ?? schema.minimum ?? -1_000_000;
  const max = schema.exclusiveMaximum ?? schema.maximum ?? 1_000_000;
  const excluded = { minExcluded: schema.exclusiveMinimum !== undefined, maxExcluded: schema.exclusiveMaximum !== undefined };
  // money and weights carry at most a few decimals; whole and two-decimal numbers are what clients send
  const twoDecimals = fc.integer({ min: Math.ceil(min * 100), max: Math.floor(max * 100) })
    .map((cents) => cents / 100)
    .filter((n) => (excluded.minExcluded ? n > min : n >= min) && (excluded.maxExcluded ? n < max : n <= max));
  return fc.oneof(twoDecimals, fc.double({ min, max, noNaN: true, noDefaultInfinity: true, ...excluded }));
}

function objectValue(schema: JsonSchema, context: SchemaContext): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  if (Object.keys(properties).length === 0 && schema.additionalProperties !== false) {
    const values = Object.values(schema.patternProperties ?? {})[0] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), values ? arbitraryFromSchema(values, context) : fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
  }
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) record[name] = arbitraryFromSchema(property, context, name);
  const required = (schema.required ?? []).filter((name) => name in record);
  return fc.record(record, { requiredKeys: required });
}

function arrayValue(schema: JsonSchema, context: SchemaContext): fc.Arbitrary<unknown[]> {
  const item = schema.items ? arbitraryFromSchema(schema.items, context) : fc.jsonValue({ maxDepth: 1 });
  const minLength = schema.minItems ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? MAX_GENERATED_ITEMS, MAX_GENERATED_ITEMS));
  return schema.uniqueItems
    ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
    : fc.array(item, { minLength, maxLength });
}

function valueOfType(type: string, schema: JsonSchema, context: SchemaContext): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null': return fc.constant(null);
    case 'boolean': return fc.boolean();
    case 'integer': return integerValue(schema);
    case 'number': return numberValue(schema);
    case 'string': return stringValue(schema);
    case 'array': return arrayValue(schema, context);
    case 'object': return objectValue(schema, context);
    default: throw new Error(`JSON Schema type ${type} is not known`);
  }
}

/**
 * Values valid for `schema` ($refs resolved), taking a hint instead wherever a property of that name has one, so
 * that a generated request can get past the handler's own checks and reach the code behind them.
 */
export function arbitraryFromSchema(schema: JsonSchema, context: SchemaContext, name?: string): fc.Arbitrary<unknown> {
  const hint = name === undefined ? undefined : context.hints[name];
  if (hint) return hint;
  const resolved = resolveSchema(schema, context.document);
  if ('const' in resolved) return fc.constant(resolved.const);
  if (resolved.enum) return fc.constantFrom(...resolved.enum);
  const alternatives = resolved.anyOf ?? resolved.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => arbitraryFromSchema(alternative, context, name)));
  if (Array.isArray(resolved.type)) return fc.oneof(...resolved.type.map((type) => valueOfType(type, resolved, context)));
  if (resolved.type) return valueOfType(resolved.type, resolved, context);
  if (resolved.properties) return objectValue(resolved, context);
  return fc.jsonValue({ maxDepth: 2 });
}
