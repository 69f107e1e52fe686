import type { CsvRecord, Delimiter } from './csv-table.js';
import { CUSTOMS_ITEM_FIELDS, fieldPath, LOWER_CASE_FIELDS, NUMERIC_FIELDS, PARCEL_FIELDS, UPPER_CASE_FIELDS } from './fields.js';
import { fieldsOfHeader, type ResolvedMapping } from './mapping.js';
import type { DerivedValue, FileRow } from './presets/types.js';

/** Settings that every order of a file starts from: the watched folder's, or those given with an upload. */
export interface OrderDefaults {
  shipping_channel_id?: string;
  label_format?: string;
  print?: { printer_id: string; copies: number } | null;
}

/** `shipments` (the default): each order of a file is created at once; `orders`: each waits in the order queue for the packer. */
export type ImportTarget = 'shipments' | 'orders';
export const IMPORT_TARGETS: readonly ImportTarget[] = ['shipments', 'orders'];

/** Where a value came from, so an error points at the file: its row, and its column (null: a default). */
export interface ValueSource {
  row: number;
  column: string | null;
}

/** A problem found in the file, by row (header = row 1), with the API field path it concerns. */
export interface RowProblem {
  row: number;
  reference: string;
  field: string;
  column: string | null;
  message: string;
}

/** An order built from its rows, ready for the API's rules. */
export interface FileOrder {
  reference: string;
  /** Row of each parcel, in file order. */
  rows: number[];
  /** The creation body, still unchecked: the API's rules judge it. */
  body: Record<string, unknown>;
  /** API field path → where its value came from. */
  sources: Map<string, ValueSource>;
  /** Problems of the rows themselves (disagreeing order fields, stray values), found before the API's rules run. */
  problems: RowProblem[];
  /** Import field → the file's column that fills it (shared by the orders of a file). */
  columns: ReadonlyMap<string, string>;
  /** Parcels of the shipment: one per row, or one for the whole order when its rows are order lines. */
  parcels: number;
}

/** The rows of one reference number, in file order: one shipment, one parcel per row. */
export interface OrderRows {
  reference: string;
  rows: number[];
  /** The row's values of the file's `OrderPlan.slots`, joined by `VALUE_SEPARATOR`: one string a row, other columns not kept. */
  values: string[];
  /** Rows of the order with more values than the header has columns. */
  stray: RowProblem[];
}

/** A value a row keeps: a mapped column's (its index in the header), or one a preset's derivation works out (column null: noted per row). */
export interface Slot {
  field: string;
  column: number | null;
}

/** How the file's columns fill orders: worked out once per file. */
export interface OrderPlan {
  header: string[];
  /** What each row keeps, mapped columns first; other columns are not kept. */
  slots: Slot[];
  columns: ReadonlyMap<string, string>;
  mapping: ResolvedMapping;
  defaults: OrderDefaults;
  decimalComma: boolean;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const DECIMAL_COMMA = /^[+-]?\d*,\d+$/;
const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 'ano', 'tak']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0', 'ne', 'nie']);

/** `1,5` → 1.5 where the comma cannot be the delimiter; spaces as thousands separators go. Text that is no number stays text for the API to refuse. */
export function parseDecimal(text: string, decimalComma: boolean): number | string {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  const normal = decimalComma && DECIMAL_COMMA.test(compact) ? compact.replace(',', '.') : compact;
  return DECIMAL.test(normal) ? Number(normal) : text;
}

function typedValue(field: string, value: string | number | boolean, decimalComma: boolean): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (NUMERIC_FIELDS.has(field)) return parseDecimal(text, decimalComma);
  if (field === 'enable_tracking') {
    const word = text.toLowerCase();
    return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : text;
  }
  if (UPPER_CASE_FIELDS.has(field)) return text.toUpperCase();
  if (LOWER_CASE_FIELDS.has(field)) return text.toLowerCase();
  return text;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys.at(-1)!] = value;
}

interface Cell {
  field: string;
  column: string | null;
  text: string;
}

/** Joins a row's kept values into one string (a string per value costs several times its text); a NUL in a value, which no field takes, reads as U+FFFD. */
const VALUE_SEPARATOR = '\u0000';
/** A derived value is kept as `<column index>` SOH `<text>`, so the errors file can name the column it was read from. */
const COLUMN_MARK = '\u0001';

const keep = (text: string) => text.replaceAll(VALUE_SEPARATOR, '\uFFFD');

function keepDerived(value: DerivedValue | undefined, columnIndex: (column: string) => number | undefined): string {
  if (!value || value.text.trim() === '') return '';
  return `${columnIndex(value.column) ?? ''}${COLUMN_MARK}${keep(value.text)}`;
}

function derivedCell(kept: string, header: readonly string[]): { column: string | null; text: string } {
  const mark = kept.indexOf(COLUMN_MARK);
  if (mark === -1) return { column: null, text: '' };
  const index = kept.slice(0, mark);
  return { column: index === '' ? null : header[Number(index)] ?? null, text: kept.slice(mark + 1) };
}

/**
 * Groups a file's rows by reference number as they are read (rows of one order need not be adjacent), keeping only
 * the values of mapped columns and those a preset derives from the row. Bodies are built per order when it is its turn
 * (`buildOrder`), so a long file never holds every order's body at once.
 */
export class OrderGroups {
  readonly plan: OrderPlan;
  /** Rows that belong to no order (no reference number). */
  readonly problems: RowProblem[] = [];
  /** Order rows in the file (blank rows not counted). */
  rows = 0;
  private readonly byReference = new Map<string, OrderRows>();
  private readonly referenceAt: number;
  /** Header name → index, as given and in lower case, for the columns a derivation reads by name. */
  private readonly columnIndexes: Map<string, number>;

  constructor(header: string[], private readonly delimiter: Delimiter, mapping: ResolvedMapping, defaults: OrderDefaults) {
    const fieldOfColumn = fieldsOfHeader(header, mapping);
    const columns = new Map<string, string>();
    fieldOfColumn.forEach((field, i) => field && !columns.has(field) && columns.set(field, header[i]!));
    const slots: Slot[] = fieldOfColumn.flatMap((field, i) => (field ? [{ field, column: i }] : []));
    for (const field of mapping.derivation?.fields ?? []) slots.push({ field, column: null });
    this.plan = { header, slots, columns, mapping, defaults, decimalComma: delimiter !== ',' };
    this.referenceAt = fieldOfColumn.indexOf('reference_number');
    this.columnIndexes = new Map();
    header.forEach((name, i) => {
      if (!this.columnIndexes.has(name)) this.columnIndexes.set(name, i);
      if (!this.columnIndexes.has(name.toLowerCase())) this.columnIndexes.set(name.toLowerCase(), i);
    });
  }

  private readonly columnIndex = (column: string) => this.columnIndexes.get(column) ?? this.columnIndexes.get(column.toLowerCase());

  /** The row as a preset's derivation reads it. */
  private fileRow(record: CsvRecord): FileRow {
    const value = (column: string) => {
      const i = this.columnIndex(column);
      return i === undefined ? '' : (record.fields[i] ?? '').trim();
    };
    return {
      value,
      number: (column) => {
        const text = value(column);
        const parsed = text === '' ? undefined : parseDecimal(text, this.plan.decimalComma);
        return typeof parsed === 'number' ? parsed : undefined;
      },
      startsOrder: (reference) => !this.byReference.has(reference),
    };
  }

  add(record: CsvRecord): void {
    const { header, mapping, columns, slots } = this.plan;
    this.rows++;
    const derived = mapping.derivation?.derive(this.fileRow(record)) ?? {};
    const reference = (this.referenceAt === -1 ? '' : record.fields[this.referenceAt]?.trim() ?? '')
      || derived.reference_number?.text.trim() || String(mapping.defaults.reference_number ?? '');
    if (!reference) {
      this.problems.push({ row: record.row, reference: '', field: 'reference_number', column: columns.get('reference_number') ?? null, message: 'is required: rows are grouped into shipments by it' });
      return;
    }
    let order = this.byReference.get(reference);
    if (!order) this.byReference.set(reference, (order = { reference, rows: [], values: [], stray: [] }));
    order.rows.push(record.row);
    order.values.push(slots.map((slot) => (slot.column === null
      ? keepDerived(derived[slot.field], this.columnIndex)
      : keep(record.fields[slot.column] ?? ''))).join(VALUE_SEPARATOR));
    if (record.fields.slice(header.length).some((f) => f.trim() !== '')) {
      order.stray.push({
        row: record.row, reference, field: 'row', column: null,
        message: `has ${record.fields.length} values but the header has ${header.length} columns (quote values that contain "${printable(this.delimiter)}")`,
      });
    }
  }

  /** The orders in the order of their first row. */
  get orders(): OrderRows[] {
    return [...this.byReference.values()];
  }
}

function printable(delimiter: Delimiter): string {
  return delimiter === '\t' ? 'tab' : delimiter;
}

/** The cells of one kept row: a derived value yields to a mapped column of the row that fills the same field. */
function cellsOf(plan: OrderPlan, joined: string): Cell[] {
  const cells: Cell[] = [];
  const fromColumns = new Set<string>();
  joined.split(VALUE_SEPARATOR).forEach((kept, i) => {
    const slot = plan.slots[i]!;
    const { column, text } = slot.column === null ? derivedCell(kept, plan.header) : { column: plan.header[slot.column]!, text: kept };
    if (text.trim() === '') return;
    if (slot.column !== null) fromColumns.add(slot.field);
    else if (fromColumns.has(slot.field)) return;
    cells.push({ field: slot.field, column, text });
  });
  return cells;
}

/**
 * The creation body of one order, with where each value came from. Order fields come from the first row that has them
 * and rows must agree on them; each row is a parcel, or, when the rows are order lines, the order is one parcel whose
 * fields are order fields too, and `summed` fields add up over the lines.
 */
export function buildOrder(plan: OrderPlan, group: OrderRows): FileOrder {
  const { mapping, defaults, decimalComma, columns } = plan;
  const { reference, rows } = group;
  const lines = mapping.rowsAre === 'items';
  const summed = new Set(lines ? mapping.summed ?? [] : []);
  const body: Record<string, unknown> = {};
  const sources = new Map<string, ValueSource>();
  const problems: RowProblem[] = [...group.stray];
  const firstRow = rows[0]!;
  const put = (path: string, value: unknown, source: ValueSource) => {
    setPath(body, path, value);
    sources.set(path, source);
  };
  if (defaults.shipping_channel_id) put('shipping_channel_id', defaults.shipping_channel_id, { row: firstRow, column: null });
  if (defaults.label_format) put('label_format', defaults.label_format, { row: firstRow, column: null });
  if (defaults.print) put('print', defaults.print, { row: firstRow, column: null });
  const parcelDefaults: Record<string, unknown> = {};
  const itemDefaults: Record<string, unknown> = {};
  for (const [field, constant] of Object.entries(mapping.defaults)) {
    const value = typedValue(field, constant, decimalComma);
    if (PARCEL_FIELDS.has(field)) parcelDefaults[PARCEL_FIELDS.get(field)!] = value;
    else if (CUSTOMS_ITEM_FIELDS.has(field)) itemDefaults[CUSTOMS_ITEM_FIELDS.get(field)!] = value;
    else put(fieldPath(field), value, { row: firstRow, column: null });
  }
  const items: Record<string, unknown>[] = [];
  const fromRow = new Map<string, { value: unknown; row: number }>();
  const sums = new Map<string, { total: number; source: ValueSource }>();
  const orderParcel: Record<string, unknown> = { ...parcelDefaults };
  const parcels = group.values.map((joined, index) => {
    const row = rows[index]!;
    const parcel: Record<string, unknown> = { ...parcelDefaults };
    const item: Record<string, unknown> = {};
    for (const { field, column, text } of cellsOf(plan, joined)) {
      const value = typedValue(field, text, decimalComma);
      const itemField = CUSTOMS_ITEM_FIELDS.get(field);
      if (itemField) {
        item[itemField] = value;
        sources.set(`customs.items.${items.length}.${itemField}`, { row, column });
        continue;
      }
      const parcelField = PARCEL_FIELDS.get(field);
      if (parcelField && !lines) {
        parcel[parcelField] = value;
        sources.set(`parcels.${index}.${parcelField}`, { row, column });
        continue;
      }
      const path = parcelField ? `parcels.0.${parcelField}` : fieldPath(field);
      if (summed.has(field)) {
        if (typeof value !== 'number') {
          problems.push({ row, reference, field: path, column, message: `must be a number: the order's lines add up to it (this line has "${text.trim()}")` });
          continue;
        }
        const sum = sums.get(path);
        if (sum) sum.total += value;
        else sums.set(path, { total: value, source: { row, column } });
        continue;
      }
      const earlier = fromRow.get(path);
      if (earlier && earlier.value !== value) {
        problems.push({ row, reference, field: path, column, message: `differs from row ${earlier.row} of the same order; the rows of an order must agree on its order fields` });
        continue;
      }
      if (earlier) continue;
      fromRow.set(path, { value, row });
      if (parcelField) {
        orderParcel[parcelField] = value;
        sources.set(path, { row, column });
      } else {
        put(path, value, { row, column });
      }
    }
    if (Object.keys(item).length > 0) {
      sources.set(`customs.items.${items.length}`, { row, column: null });
      items.push({ ...itemDefaults, ...item });
    }
    return parcel;
  });
  for (const [path, { total, source }] of sums) {
    // sums of decimals carry float noise (0.1 + 0.2); the API takes at most a few decimals
    const value = Number(total.toFixed(6));
    if (path.startsWith('parcels.0.')) {
      orderParcel[path.slice('parcels.0.'.length)] = value;
      sources.set(path, source);
    } else {
      put(path, value, source);
    }
  }
  body.parcels = lines ? [orderParcel] : parcels;
  // the goods of an order file's lines are sold unless a column or the mapping says otherwise
  if (items.length > 0) body.customs = { contents_type: 'sale', ...(body.customs as Record<string, unknown> | undefined), items };
  body.reference_number = reference;
  return { reference, rows, body, sources, problems, columns, parcels: lines ? 1 : parcels.length };
}

/** `parcels.1.weight_amount` → `parcel_weight_amount`; `recipient_contact.email_address` → `recipient_contact_email_address`. */
function importFieldOf(path: string): string {
  const item = /^customs\.items\.\d+\.(.+)$/.exec(path);
  if (item) return `customs_item_${item[1]}`;
  const parcel = /^parcels\.\d+\.(.+)$/.exec(path);
  if (parcel) return parcel[1] === 'parcel_type' ? 'parcel_type' : `parcel_${parcel[1]}`;
  return path.replace(/\./g, '_');
}

/** The file position of an API field path of an order (`parcels.2.weight_amount` → the third row, its weight column). */
export function sourceOfPath(order: FileOrder, path: string): ValueSource {
  const column = order.columns.get(importFieldOf(path)) ?? null;
  for (let probe = path; probe; probe = probe.includes('.') ? probe.slice(0, probe.lastIndexOf('.')) : '') {
    const found = order.sources.get(probe);
    if (found) return probe === path ? found : { row: found.row, column };
    const parcel = /^parcels\.(\d+)$/.exec(probe);
    if (parcel) return { row: order.rows[Number(parcel[1])] ?? order.rows[0]!, column };
  }
  return { row: order.rows[0]!, column };
}
