/** What the domain's rules ask of a JSON value before they read it. */

export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string with something in it besides whitespace. */
export const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
