import type { FieldErrorCollector } from '../domain/errors.js';
import { isImportField, METADATA_PREFIX } from './fields.js';
import { PRESETS } from './presets/index.js';
import type { MappingPreset } from './presets/types.js';

/**
 * How the columns of an ERP's file become import fields: `columns` maps the file's column names to import fields
 * (`"Příjmení": "recipient_contact_last_name"`), `defaults` gives constant values for fields the file lacks (the
 * sender, usually). Columns already named like import fields need no entry. Presets (src/imports/presets/) add what a
 * column map cannot say.
 */
export interface ColumnMapping {
  columns: Record<string, string>;
  defaults: Record<string, string | number | boolean>;
}

/** A watched folder's or an import's mapping: a preset name, or a mapping object (which may name a preset to add to). */
export type MappingSetting = string | (ColumnMapping & { preset?: string });

/** A mapping as an import applies it: a preset, or a column mapping with what a preset adds left out. */
export type ResolvedMapping = ColumnMapping & Partial<Omit<MappingPreset, keyof ColumnMapping>>;

/** `default`: columns named like the API's field paths flattened with `_`. */
export const MAPPING_PRESETS: Readonly<Record<string, ResolvedMapping>> = {
  default: { columns: {}, defaults: {} },
  ...Object.fromEntries(PRESETS.map((preset) => [preset.name, preset])),
};

/** Only the presets' own names: `constructor` or `__proto__` name no preset. */
const isPreset = (name: string) => Object.hasOwn(MAPPING_PRESETS, name);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const FIELD_HINT = 'an import field such as recipient_contact_last_name or parcel_weight_amount';
const PRESET_HINT = `a preset name (${Object.keys(MAPPING_PRESETS).join(', ')})`;
const MAPPING_KEYS = ['preset', 'columns', 'defaults'];

/** Checks a mapping as given to the API or the CLI; problems go to `errors` under `mapping.…`. */
export function checkMapping(value: unknown, errors: FieldErrorCollector, path = 'mapping'): MappingSetting | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    if (!isPreset(value)) errors.add(path, `must be a mapping object or ${PRESET_HINT}`);
    return value;
  }
  if (!isObject(value)) {
    errors.add(path, 'must be a mapping object {"preset": …, "columns": {...}, "defaults": {...}} or a preset name');
    return null;
  }
  for (const key of Object.keys(value)) {
    if (!MAPPING_KEYS.includes(key)) errors.add(`${path}.${key}`, `is not a mapping key (${MAPPING_KEYS.join(', ')})`);
  }
  const preset = value.preset;
  if (preset !== undefined && (typeof preset !== 'string' || !isPreset(preset))) errors.add(`${path}.preset`, `must be ${PRESET_HINT}`);
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
  const checked = { columns: Object.fromEntries(columns), defaults };
  return typeof preset === 'string' ? { preset, ...checked } : checked;
}

/** The mapping a setting stands for (a stored setting was checked when it was saved): an object's columns and defaults add to its preset's. */
export function resolveMapping(setting: MappingSetting | null | undefined): ResolvedMapping {
  if (setting == null) return MAPPING_PRESETS.default!;
  if (typeof setting === 'string') return isPreset(setting) ? MAPPING_PRESETS[setting]! : MAPPING_PRESETS.default!;
  const { preset: name, columns = {}, defaults = {} } = setting;
  if (name === undefined || !isPreset(name)) return { columns, defaults };
  const preset = MAPPING_PRESETS[name]!;
  return { ...preset, columns: { ...preset.columns, ...columns }, defaults: { ...preset.defaults, ...defaults } };
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
