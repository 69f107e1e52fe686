import fc from 'fast-check';
import {
  CLIENT_SENDABLE_HEADER, CONTENT_TYPES, HOSTILE_BODIES, HOSTILE_HEADER_VALUES, HOSTILE_STRINGS, BOUNDARY_NUMBERS, ODD_HEADER_NAMES, RawJson,
  hostileFor, hostileValue, junkId, percentEncode, toJsonText, type OddHeaderName,
} from './fuzz-hostile.js';
import { arbitraryFromSchema, resolveSchema, type FieldHints, type JsonSchema, type SchemaContext } from './fuzz-schema.js';

/** One request as it goes on the wire, with what the report may show of its key. */
export interface FuzzRequest {
  /** The documented operation (`POST /v1/shipments/{id}/print`), or `off the document`. */
  operation: string;
  method: string;
  /** Path and query, encoded (or deliberately not) as sent. */
  path: string;
  /** Values as bytes, one character each (latin1): what Node's HTTP client refuses to send goes over a raw socket. */
  headers: Record<string, string>;
  /** Which key the Authorization header carries, or `desk session` (the key itself is never printed). */
  auth: string;
  body?: string;
}

interface Parameter {
  name: string;
  in: string;
  schema: JsonSchema;
}

export interface Operation {
  name: string;
  method: string;
  path: string;
  parameters: Parameter[];
  body?: JsonSchema;
  /** The statuses the document lists for it. */
  statuses: string[];
}

/** Real ids by collection (the path template before the parameter: `/v1/webhook-subscriptions/{id}/logs`). */
export type IdsByCollection = Record<string, string[]>;

export interface RequestWorld {
  document: unknown;
  /** Ids path parameters name: of the key's own account (not those bodies name, see hints), and of another account. */
  own: IdsByCollection;
  other: IdsByCollection;
  hints: FieldHints;
  /** Authorization header values by what they are; `own key` is the one used most. */
  authorizations: Record<string, string | undefined>;
  /** A signed-in desk of the own account: its Cookie header and the CSRF token a change must carry. */
  deskSession?: { cookie: string; csrfToken: string };
  /** Odd values made for this world (the real CSRF token with one byte changed, the real key with a byte more …). */
  oddHeaders: Partial<Record<OddHeaderName, string[]>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const RAW_PATH_TEXT = /^[\x21-\xff]+$/;

/** Every operation of the OpenAPI document, with its parameters and JSON body schema resolved. */
export function operationsOf(document: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => {
    const op = item[m] as { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> }; responses?: object };
    const body = op.requestBody?.content?.['application/json']?.schema;
    return {
      name: `${m.toUpperCase()} ${path}`, method: m.toUpperCase(), path,
      parameters: (op.parameters ?? []).map((p) => ({ ...p, schema: resolveSchema(p.schema ?? {}, document) })),
      ...(body ? { body: resolveSchema(body, document) } : {}),
      statuses: Object.keys(op.responses ?? {}),
    };
  }));
}

/** The collection a path parameter names a member of: the template before it. */
export function collectionOf(path: string, parameter: string): string {
  return path.slice(0, path.indexOf(`{${parameter}}`) - 1);
}

function textOf(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  return typeof value === 'string' ? value : toJsonText(value);
}

/** Percent-encoded mostly; now and then as it is, where an HTTP client can send it so (`..`, `%2e%2e%2f`, `%00`). */
function onTheWire(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(text, fc.nat({ max: 9 })).map(([t, n]) => (n === 0 && RAW_PATH_TEXT.test(t) ? t : percentEncode(t)));
}

/** Stands in a path for the id of the k-th latest resource the run itself created in a collection (see withCreatedIds). */
const CREATED = /\uE000([^\uE001]*)\uE001(\d+)\uE000/g;
const createdRef = (collection: string, k: number) => `\uE000${collection}\uE001${k}\uE000`;

function pathValue(operation: Operation, name: string, world: RequestWorld): fc.Arbitrary<string> {
  const collection = collectionOf(operation.path, name);
  const anyIds = Object.values(world.own).flat();
  const choices: fc.WeightedArbitrary<string>[] = [{ weight: 2, arbitrary: onTheWire(junkId()) }];
  if (world.own[collection]?.length) choices.push({ weight: 5, arbitrary: fc.constantFrom(...world.own[collection]) });
  choices.push({ weight: 3, arbitrary: fc.nat({ max: 4 }).map((k) => createdRef(collection, k)) });
  if (world.other[collection]?.length) choices.push({ weight: 2, arbitrary: fc.constantFrom(...world.other[collection]) });
  if (anyIds.length) choices.push({ weight: 1, arbitrary: fc.constantFrom(...anyIds) });
  return fc.oneof(...choices);
}

/**
 * The request with the ids of resources the run created (answers 201/202 to a POST on the collection) in place of its
 * stand-ins, the seeded ids where it created none yet: so a printer made with an odd URI gets tested, an import with an
 * odd file name downloaded.
 */
export function withCreatedIds(request: FuzzRequest, created: IdsByCollection, world: RequestWorld): FuzzRequest {
  const path = request.path.replace(CREATED, (_, collection: string, k: string) => {
    const ids = created[collection]?.length ? created[collection] : world.own[collection] ?? ['missing'];
    return ids[Math.max(0, ids.length - 1 - Number(k) % ids.length)]!;
  });
  return path === request.path ? request : { ...request, path };
}

function queryValue(parameter: Parameter, context: SchemaContext): fc.Arbitrary<string[]> {
  const valid = arbitraryFromSchema(parameter.schema, context).map(textOf);
  const hostile = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.constantFrom(...BOUNDARY_NUMBERS).map(textOf), hostileValue().map(textOf));
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant<string[]>([]) },
    { weight: 4, arbitrary: valid.map((v) => [v]) },
    { weight: 2, arbitrary: hostile.map((v) => [v]) },
    { weight: 1, arbitrary: fc.array(fc.oneof(valid, hostile), { minLength: 2, maxLength: 3 }) },
  );
}

function queryString(operation: Operation, context: SchemaContext): fc.Arbitrary<string> {
  const params = operation.parameters.filter((p) => p.in === 'query');
  const unknown = fc.option(fc.tuple(fc.constantFrom('x', '__proto__', 'page[]', 'a'.repeat(300), ''), fc.constantFrom(...HOSTILE_STRINGS)), { freq: 8 });
  return fc.tuple(fc.tuple(...params.map((p) => queryValue(p, context))), unknown, fc.array(fc.nat({ max: 9 }), { minLength: 8, maxLength: 8 }))
    .map(([values, extra, rawness]) => {
      const pairs = params.flatMap((p, i) => values[i]!.map((v) => [p.name, v] as const));
      if (extra) pairs.push(extra);
      const encoded = pairs.map(([k, v], i) => (rawness[i % 8] === 0 && RAW_PATH_TEXT.test(v) ? `${k}=${v}` : `${percentEncode(k)}=${percentEncode(v)}`));
      return encoded.length ? `?${encoded.join('&')}` : '';
    });
}

type Step = string | number;

function pathsIn(value: unknown, prefix: Step[] = []): Step[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => [[...prefix, i], ...pathsIn(item, [...prefix, i])]);
  if (value !== null && typeof value === 'object' && !(value instanceof RawJson)) {
    return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...pathsIn(v, [...prefix, k])]);
  }
  return [];
}

interface Mutation {
  /** Which field, as an index into the body's paths (modulo their number), so that it shrinks like any number. */
  at: number;
  kind: 'replace' | 'delete' | 'add';
  /** Replaces the field, or is added beside it under `key`. */
  value: unknown;
  /** When set, the value is rather one of the field's own hostile kind (a place for a path), at this index. */
  pointed: number | null;
  key: string;
}

const mutations: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.oneof({ weight: 5, arbitrary: fc.constant('replace' as const) }, { weight: 2, arbitrary: fc.constant('delete' as const) }, { weight: 2, arbitrary: fc.constant('add' as const) }),
  value: hostileValue(),
  pointed: fc.option(fc.nat(), { freq: 2 }),
  // names an object already has: a handler that keeps fields in a plain object trips over them
  key: fc.constantFrom('x', '', '__proto__', 'constructor', 'toString', 'hasOwnProperty'),
});

/** A deep copy that keeps RawJson fragments and own `__proto__` keys as they are (structuredClone would not). */
function cloneBody(value: unknown): unknown {
  if (value instanceof RawJson || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneBody);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cloneBody(v)]));
}

function mutate(body: unknown, m: Mutation): unknown {
  const paths = pathsIn(body);
  if (paths.length === 0) return { [m.key || 'x']: m.value };
  const path = paths[m.at % paths.length]!;
  const last = path[path.length - 1]!;
  const pointed = hostileFor(String(last));
  const value = m.pointed !== null && pointed.length > 0 ? pointed[m.pointed % pointed.length] : m.value;
  const copy = cloneBody(body) as Record<Step, unknown>;
  const parent = path.slice(0, -1).reduce<Record<Step, unknown>>((node, step) => node[step] as Record<Step, unknown>, copy);
  if (m.kind === 'replace') parent[last] = value;
  else if (m.kind === 'delete') delete parent[last];
  else {
    const target = typeof parent[last] === 'object' && parent[last] !== null && !Array.isArray(parent[last]) ? parent[last] as object : parent;
    // an own property even for `__proto__`, which plain assignment would take as the prototype
    Object.defineProperty(target, m.key, { value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** A working body with one field made hostile: replaced, taken out, or given a stranger beside it. */
function mutatedBody(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, mutations).map(([body, m]) => mutate(body, m));
}

function bodyOf(operation: Operation, context: SchemaContext): fc.Arbitrary<string | undefined> {
  const hostile = fc.constantFrom(...HOSTILE_BODIES);
  if (!operation.body) {
    const sendsNothing = operation.method === 'GET' || operation.method === 'DELETE' ? 20 : 6;
    return fc.oneof({ weight: sendsNothing, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostile }, { weight: 1, arbitrary: fc.constant('{}') });
  }
  const valid = arbitraryFromSchema(operation.body, context);
  return fc.oneof(
    { weight: 3, arbitrary: valid.map(toJsonText) },
    { weight: 6, arbitrary: mutatedBody(valid).map(toJsonText) },
    { weight: 1, arbitrary: hostile },
  );
}

interface HeaderChoices {
  auth: string;
  /** One header given an odd value, drawn from the world's own odd values or the common ones. */
  odd: { name: OddHeaderName; pick: number; ownToWorld: boolean } | null;
  /** The Content-Type sent with a body, and the one (if any) sent without. */
  typeWithBody: string | undefined;
  typeWithoutBody: string | undefined;
  idempotencyKey: string | null;
  accept: string | null;
}

function headerChoices(world: RequestWorld): fc.Arbitrary<HeaderChoices> {
  const some = <T>(usual: T, others: T[]) => fc.oneof({ weight: 12, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...others) });
  return fc.record({
    auth: fc.oneof(
      { weight: 12, arbitrary: fc.constant('own key') },
      { weight: 1, arbitrary: fc.constantFrom(...Object.keys(world.authorizations)) },
      ...(world.deskSession ? [{ weight: 2, arbitrary: fc.constant('desk session') }] : []),
    ),
    // one request in six: the others keep reaching the handlers behind the headers
    odd: fc.oneof(
      { weight: 5, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.record({ name: fc.constantFrom(...ODD_HEADER_NAMES), pick: fc.nat(), ownToWorld: fc.nat({ max: 2 }).map((n) => n > 0) }) },
    ),
    typeWithBody: some<string | undefined>('application/json', [...CONTENT_TYPES, undefined]),
    typeWithoutBody: some<string | undefined>(undefined, CONTENT_TYPES),
    idempotencyKey: fc.option(fc.oneof(fc.uuid(), fc.constantFrom(...HOSTILE_STRINGS).filter((s) => CLIENT_SENDABLE_HEADER.test(s))), { freq: 10 }),
    accept: fc.option(fc.constantFrom('application/pdf', 'application/zpl', 'application/octet-stream', 'text/csv', 'text/html', '*/*', 'application/json;q=0'), { freq: 10 }),
  });
}

/** Headers that matter only to a desk session: an odd value in one of them is sent by the desk, without a key. */
const DESK_HEADERS: readonly OddHeaderName[] = ['x-csrf-token', 'origin', 'cookie'];

/** Who the request comes from: a key by name, or the desk session when one of its own headers is the odd one. */
function authOf(world: RequestWorld, choices: HeaderChoices): string {
  return world.deskSession && choices.odd && DESK_HEADERS.includes(choices.odd.name) ? 'desk session' : choices.auth;
}

/** The odd values one header draws from: those made for the world (from its key, token or port), or the common ones. */
function oddValuesOf(world: RequestWorld, odd: NonNullable<HeaderChoices['odd']>): { values: readonly string[]; made: boolean } {
  const own = world.oddHeaders[odd.name] ?? [];
  return odd.ownToWorld && own.length > 0 ? { values: own, made: true } : { values: HOSTILE_HEADER_VALUES, made: false };
}

/** The request's `auth` as a report shows it: an odd Authorization by where its value came from, never by the value (it may hold a key). */
function authLabel(world: RequestWorld, choices: HeaderChoices): string {
  if (choices.odd?.name !== 'authorization') return authOf(world, choices);
  const { values, made } = oddValuesOf(world, choices.odd);
  return `an odd Authorization (${made ? 'made from a key' : 'common'} value #${choices.odd.pick % values.length})`;
}

function headersOf(world: RequestWorld, choices: HeaderChoices, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  const auth = authOf(world, choices);
  const authorization = world.authorizations[auth];
  const type = hasBody ? choices.typeWithBody : choices.typeWithoutBody;
  if (authorization !== undefined) headers.authorization = authorization;
  if (auth === 'desk session' && world.deskSession) {
    headers.cookie = world.deskSession.cookie;
    headers['x-csrf-token'] = world.deskSession.csrfToken;
  }
  if (type !== undefined) headers['content-type'] = type;
  if (choices.idempotencyKey !== null) headers['idempotency-key'] = choices.idempotencyKey;
  if (choices.accept !== null) headers.accept = choices.accept;
  if (choices.odd) {
    const { values } = oddValuesOf(world, choices.odd);
    headers[choices.odd.name] = values[choices.odd.pick % values.length]!;
  }
  return headers;
}

/** The operation's own header parameters (`Prefer: wait=N`): left out, valid, or hostile text a header can carry. */
function documentedHeaders(operation: Operation, context: SchemaContext): fc.Arbitrary<Record<string, string>> {
  const params = operation.parameters.filter((p) => p.in === 'header');
  const valueOf = (p: Parameter) => fc.option(fc.oneof(
    arbitraryFromSchema(p.schema, context).map(textOf),
    fc.constantFrom('wait=0', 'wait=30', 'wait=31', 'wait=-1', 'wait=1e308', 'wait=NaN', 'wait', 'respond-async, wait=5'),
    fc.constantFrom(...HOSTILE_STRINGS),
  ).filter((v) => CLIENT_SENDABLE_HEADER.test(v) && v.length < 8_000), { freq: 2 });
  return fc.tuple(...params.map(valueOf)).map((values) =>
    Object.fromEntries(params.flatMap((p, i) => (values[i] === null ? [] : [[p.name.toLowerCase(), values[i]!]]))));
}

/** The operation's path with its parameters filled in: real ids, created ones, foreign ones, junk. */
function pathOf(operation: Operation, world: RequestWorld): fc.Arbitrary<string> {
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  return fc.tuple(...pathParams.map((p) => pathValue(operation, p.name, world)))
    .map((values) => pathParams.reduce((text, p, i) => text.replace(`{${p.name}}`, () => values[i]!), operation.path));
}

/** Requests to one documented operation: real and foreign ids, valid, mutated and hostile parameters and bodies. */
export function requestsFor(operation: Operation, world: RequestWorld): fc.Arbitrary<FuzzRequest> {
  const context: SchemaContext = { document: world.document, hints: world.hints };
  const path = pathOf(operation, world);
  return fc.tuple(path, queryString(operation, context), bodyOf(operation, context), documentedHeaders(operation, context), headerChoices(world))
    .map(([url, query, body, own, choices]) => ({
      operation: operation.name, method: operation.method, path: url + query, auth: authLabel(world, choices),
      headers: { ...own, ...headersOf(world, choices, body !== undefined) }, ...(body !== undefined ? { body } : {}),
    }));
}

const OFF_DOCUMENT_PATHS = [
  '/', '/v1', '/v2/shipments', '/v1/unknown', '/v1/shipments/x/y/z', '/v1/../../etc/passwd', '//v1//shipments', '/v1/shipments%2f..',
  '/v1/%2e%2e/%2e%2e/etc/passwd', '/v1/shipments/%00', '/healthz/..', `/v1/${'a'.repeat(20_000)}`, `/v1/shipments?search=${'a'.repeat(70_000)}`,
  '/docs/../v1/account', '/v1/openapi.json/x', '/V1/SHIPMENTS', '/v1/shipments;x=1', '/v1/shipments/.%2e/account',
];

/** Paths and methods the document does not list: each answers 404 (or 405/400) in the envelope. */
export function offDocumentRequests(world: RequestWorld): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), fc.constantFrom(...OFF_DOCUMENT_PATHS), fc.option(fc.constantFrom(...HOSTILE_BODIES), { freq: 3 }))
    .map(([method, path, body]) => ({
      operation: 'off the document', method, path, auth: 'own key',
      headers: { authorization: world.authorizations['own key']!, ...(body !== null ? { 'content-type': 'application/json' } : {}) },
      ...(body !== null ? { body } : {}),
    }));
}

/**
 * The operations that take a file, a mapping or a place on the daemon's machine: their odd values (CSV contents, file
 * names, mapping presets, symbolic links, file: URIs) are in the hints, and reach the handler only in a request it
 * otherwise accepts.
 */
const TAKES_FILES_OR_PLACES = /^(POST|PATCH) \/v1\/(imports|watched-folders|printers)(\/\{id\})?$/;

/** Requests the handler gets past its door with: the own key, JSON, a body valid by the schema with the hints' values. */
export function wellFormedRequestsFor(operation: Operation, world: RequestWorld): fc.Arbitrary<FuzzRequest> {
  const context: SchemaContext = { document: world.document, hints: world.hints };
  return fc.tuple(pathOf(operation, world), arbitraryFromSchema(operation.body ?? {}, context)).map(([path, body]) => ({
    operation: operation.name, method: operation.method, path, auth: 'own key',
    headers: { authorization: world.authorizations['own key']!, 'content-type': 'application/json' }, body: toJsonText(body),
  }));
}

/**
 * The request mix of a run: every operation, those with a body somewhat more often, well-formed requests that carry
 * files and places (about one in eight), a few requests off the document.
 */
export function fuzzRequests(operations: Operation[], world: RequestWorld): fc.Arbitrary<FuzzRequest> {
  const filesAndPlaces = operations.filter((operation) => operation.body && TAKES_FILES_OR_PLACES.test(operation.name));
  const mixed = operations.reduce((sum, operation) => sum + (operation.body ? 15 : 10), 10);
  return fc.oneof(
    ...operations.map((operation) => ({ weight: operation.body ? 15 : 10, arbitrary: requestsFor(operation, world) })),
    ...filesAndPlaces.map((operation) => ({ weight: Math.ceil(mixed / 7 / filesAndPlaces.length), arbitrary: wellFormedRequestsFor(operation, world) })),
    { weight: 10, arbitrary: offDocumentRequests(world) },
  );
}

/** The request as a report shows it: method, URL and body cut to their head and tail past `limit` characters, the key by name only. */
export function describeRequest(request: FuzzRequest, limit = 1_500): string {
  const cut = (text: string) => (text.length > limit ? `${text.slice(0, limit * 2 / 3)}…(${text.length} chars)…${text.slice(-limit / 3)}` : text);
  // bytes a terminal would not show plainly are shown escaped, as JSON writes them
  const shown = (v: string) => (/^[\x20-\x7e]*$/.test(v) ? cut(v) : cut(JSON.stringify(v)));
  const headers = Object.entries(request.headers).filter(([k]) => k !== 'authorization').map(([k, v]) => `${k}: ${shown(v)}`);
  return [`${request.method} ${cut(request.path)}`, `  (${request.operation}; ${request.auth}${headers.length ? `; ${headers.join('; ')}` : ''})`,
    ...(request.body !== undefined ? [`  body: ${cut(JSON.stringify(request.body).slice(1, -1))}`] : [])].join('\n');
}
