import { Type, type TSchema } from 'typebox';
import { LABEL_DPIS } from '../../src/domain/labels.js';

/** JSON-schema building blocks shared by every route: envelopes, pagination, nullable fields. */

/** `T | null` as one JSON-schema `type` array (keeps validation messages and serialization simple). */
export function Nullable<T extends TSchema>(schema: T) {
  const s = schema as unknown as { type?: string | string[]; enum?: unknown[] };
  // an enumeration lists null too, or null would fail it
  if (typeof s.type === 'string') return Type.Unsafe<import('typebox').Static<T> | null>({ ...schema, type: [s.type, 'null'], ...(s.enum ? { enum: [...s.enum, null] } : {}) });
  return Type.Unsafe<import('typebox').Static<T> | null>({ anyOf: [schema, { type: 'null' }] });
}

/** Text that is stored and shown again carries no control characters (NUL, ESC, BEL …); multi-line text keeps tab and line breaks. */
const SINGLE_LINE = '^[^\\u0000-\\u001f\\u007f]*$';
const MULTILINE = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$';
export const CONTROL_CHARACTER_PATTERNS: ReadonlySet<string> = new Set([SINGLE_LINE, MULTILINE]);

export function PlainText(options: Parameters<typeof Type.String>[0] & { multiline?: boolean } = {}) {
  const { multiline, ...rest } = options;
  return Type.String({ ...rest, pattern: multiline ? MULTILINE : SINGLE_LINE });
}

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC, e.g. 2026-11-20T09:15:02Z' });
export const FreeObject = Type.Object({}, { additionalProperties: true });
export const FieldErrorsSchema = Type.Record(Type.String(), Type.Array(Type.String()), {
  description: 'Field path (dots and indexes, e.g. parcels.0.weight_amount) → messages',
});

export const ErrorEnvelope = Type.Object(
  { message: Type.String(), errors: Type.Optional(FieldErrorsSchema) },
  { description: 'Every error: a message, and on 422 the field errors' },
);

export const MessageEnvelope = Type.Object({ message: Type.String() });

export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ data, message: Type.String() });
}

/**
 * A success answered as JSON by default and, when the client asks for it, as the bytes of a file: `files` maps each
 * media type those bytes come as to what they are. The handler sends the bytes as a Buffer, past the JSON serializer.
 */
export function JsonOrFile<T extends TSchema>(json: T, files: Record<string, string>, description: string) {
  const bytes = (what: string) => ({ schema: Type.String({ format: 'binary', description: what }) });
  return {
    description,
    content: {
      'application/json': { schema: json },
      ...Object.fromEntries(Object.entries(files).map(([mediaType, what]) => [mediaType, bytes(what)])),
    },
  };
}

export const PageMetaSchema = Type.Object({
  current_page: Type.Integer(), from: Nullable(Type.Integer()), last_page: Type.Integer(), path: Type.String(),
  per_page: Type.Integer(), to: Nullable(Type.Integer()), total: Type.Integer(),
});

export const PageLinksSchema = Type.Object({
  first: Type.String(), last: Type.String(), prev: Nullable(Type.String()), next: Nullable(Type.String()),
});

export function ListEnvelope<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), meta: PageMetaSchema, links: PageLinksSchema });
}

/** Far past the end of any list, and small enough that page × per_page stays an exact integer. */
const MAX_PAGE = 1_000_000;

export function PageQuery<E extends Record<string, TSchema>>(defaultPerPage: number, extra: E = {} as E) {
  return Type.Object({
    page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 }),
    per_page: Type.Integer({ minimum: 1, maximum: 100, default: defaultPerPage }),
    ...extra,
  });
}

export const IdParams = Type.Object({ id: Type.String() });

/** The error responses every authenticated endpoint can give, by status. */
export function errorResponses(...statuses: number[]) {
  const descriptions: Record<number, string> = {
    400: 'Invalid request format', 401: 'Invalid or missing API key', 403: 'Insufficient permissions',
    404: 'Resource not found', 409: 'Idempotency key reused with another request', 413: 'Body over 1 MiB',
    422: 'Validation errors', 429: 'Rate limit exceeded', 500: 'Server error', 503: 'Carrier unavailable',
  };
  return Object.fromEntries(statuses.map((s) => [s, { ...ErrorEnvelope, description: descriptions[s] }]));
}

/** A thermal printer's resolution: labels packdesk converts are drawn at it (carrier labels are as the carrier gave them). */
export const LabelDpiSchema = Type.Integer({ enum: [...LABEL_DPIS], description: 'Dots per inch of the thermal printer: 203 (8 dots/mm) or 300 (12 dots/mm)' });

/** `station` in a PATCH: moves a printer or watched folder to the station of the daemon that takes the request. */
export function MoveToStation(what: 'printer' | 'folder') {
  return PlainText({
    minLength: 1, maxLength: 255,
    description: `Moves the ${what} to this station: send it to that station's own daemon, which checks the ${what === 'printer' ? 'URI' : 'path'} on its machine`,
  });
}
