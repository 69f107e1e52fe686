import type { FieldErrorCollector } from '../domain/errors.js';
import { isImportField, METADATA_PREFIX } from './fields.js';

/**
 * How the columns of an ERP's file become import fields: `columns` maps the file's column names to import fields
 * (`"Příjmení": "recipient_contact_last_name"`), `defaults` gives constant values for fields the file lacks (the
 * sender, usually). Columns already named like import fields need no entry.
 */
export interface ColumnMapping {
  columns: Record<string, string>;
  defaults: Record<string, string | number | boolean>;
}

/** A watched folder's or an import's mapping: a preset name or a mapping object. */
export type MappingSetting = string | ColumnMapping;

/** `default`: columns named like the API's field paths flattened with `_`. */
export const MAPPING_PRESETS: Readonly<Record<string, ColumnMapping>> = {
  default: { columns: {}, defaults: {} },
};

/** Only the presets' own names: `constructor` or `__proto__` name no preset. */
const isPreset = (name: string) => Object.hasOwn(MAPPING_PRESETS, name);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const FIELD_HINT = 'an import field such as recipient_contact_last_name or parcel_weight_amount';

/** Checks a mapping as given to the API or the CLI; problems go to `errors` under `mapping.…`. */
export function checkMapping(value: unknown, errors: FieldErrorCollector, path = 'mapping'): MappingSetting | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    if (!isPreset(value)) errors.add(path, `must be a mapping object or a preset name (${Object.keys(MAPPING_PRESETS).join(', ')})`);
    return value;
  }
  if (!isObject(value)) {
    errors.add(path, 'must be a mapping object {"columns": {...}, "defaults": {...}} or a preset name');
    return null;
  }
  for (const key of Object.keys(value)) {
    if (key !== 'columns' && key !== 'defaults') errors.add(`${path}.${key}`, 'is not a mapping key (columns, defaults)');
  }
  const columns: [string, string][] = [];
  const defaults: ColumnMapping['defaults'] = {};
  if (value.columns !== undefined && !isObject(value.columns)) errors.add(`${path}.columns`, 'must be an object of column name → import field');
  for (const [column, field] of Object.entries(isObject(value.columns) ? value.columns : {})) {
    if (typeof field !== 'string' || !isImportField(field)) errors.add(`${path}.columns.${column}`, `must be ${FIELD_HINT}`);
    else columns.push([column, field]);
  }
  if (value.defaults !== undefined && !isObject(value.defaults)) errors.add(`${path}.defaults`, 'must be an object of import field → value');
  for (const [field, constant] of Object.entries(isObject(value.defaults) ? value.defaults : {})) {
    if (!isImportField(field)) errors.add(`${path}.defaults.${field}`, `is not ${FIELD_HINT}`);
    else if (!['string', 'number', 'boolean'].includes(typeof constant)) errors.add(`${path}.defaults.${field}`, 'must be a string, a number or a boolean');
    else defaults[field] = constant as string | number | boolean;
  }
  // a column may be named `__proto__`: fromEntries keeps it a plain key
  return { columns: Object.fromEntries(columns), defaults };
}

/** The mapping object a setting stands for (a stored setting was checked when it was saved). */
export function resolveMapping(setting: MappingSetting | null | undefined): ColumnMapping {
  if (setting == null) return MAPPING_PRESETS.default!;
  if (typeof setting === 'string') return isPreset(setting) ? MAPPING_PRESETS[setting]! : MAPPING_PRESETS.default!;
  return { columns: setting.columns ?? {}, defaults: setting.defaults ?? {} };
}

/** Which import field each column of the header fills (undefined: a column the import ignores). */
export function fieldsOfHeader(header: readonly string[], mapping: ColumnMapping): (string | undefined)[] {
  const mapped = new Map(Object.entries(mapping.columns).map(([column, field]) => [column.trim(), field]));
  const mappedLower = new Map([...mapped].map(([column, field]) => [column.toLowerCase(), field]));
  return header.map((name) => {
    const exact = mapped.get(name) ?? mappedLower.get(name.toLowerCase());
    if (exact) return exact;
    const flattened = name.replace(/[\s.-]+/g, '_');
    const lower = flattened.toLowerCase();
    // metadata keys keep the case the file gives them
    if (lower.startsWith(METADATA_PREFIX)) return isImportField(lower) ? METADATA_PREFIX + flattened.slice(METADATA_PREFIX.length) : undefined;
    return isImportField(lower) ? lower : undefined;
  });
}
