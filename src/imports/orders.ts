import type { CsvRecord, Delimiter } from './csv-table.js';
import { fieldPath, LOWER_CASE_FIELDS, NUMERIC_FIELDS, PARCEL_FIELDS, UPPER_CASE_FIELDS } from './fields.js';
import { fieldsOfHeader, type ColumnMapping } from './mapping.js';

/** Settings that every order of a file starts from: the watched folder's, or those given with an upload. */
export interface OrderDefaults {
  shipping_channel_id?: string;
  label_format?: string;
  print?: { printer_id: string; copies: number } | null;
}

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
}

/** The rows of one reference number, in file order: one shipment, one parcel per row. */
export interface OrderRows {
  reference: string;
  rows: number[];
  /** The values of the file's mapped columns (`OrderPlan.mapped`) of each row, joined by `VALUE_SEPARATOR`: one string a row, other columns not kept. */
  values: string[];
  /** Rows of the order with more values than the header has columns. */
  stray: RowProblem[];
}

/** How the file's columns fill orders: worked out once per file. */
export interface OrderPlan {
  header: string[];
  /** Indexes of the columns that fill an import field; a row keeps only their values. */
  mapped: number[];
  /** The import field of each `mapped` column. */
  fieldOfMapped: string[];
  columns: ReadonlyMap<string, string>;
  mapping: ColumnMapping;
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
  column: string;
  text: string;
}

/** Joins a row's kept values into one string (a string per value costs several times its text); a NUL in a value, which no field takes, reads as U+FFFD. */
const VALUE_SEPARATOR = '\u0000';

/**
 * Groups a file's rows by reference number as they are read (rows of one order need not be adjacent), keeping only
 * the values of mapped columns. Bodies are built per order when it is its turn (`buildOrder`), so a long file never
 * holds every order's body at once.
 */
export class OrderGroups {
  readonly plan: OrderPlan;
  /** Rows that belong to no order (no reference number). */
  readonly problems: RowProblem[] = [];
  /** Order rows in the file (blank rows not counted). */
  rows = 0;
  private readonly byReference = new Map<string, OrderRows>();
  private readonly referenceAt: number;

  constructor(header: string[], private readonly delimiter: Delimiter, mapping: ColumnMapping, defaults: OrderDefaults) {
    const fieldOfColumn = fieldsOfHeader(header, mapping);
    const columns = new Map<string, string>();
    fieldOfColumn.forEach((field, i) => field && !columns.has(field) && columns.set(field, header[i]!));
    const mapped = fieldOfColumn.flatMap((field, i) => (field ? [i] : []));
    this.plan = { header, mapped, fieldOfMapped: mapped.map((i) => fieldOfColumn[i]!), columns, mapping, defaults, decimalComma: delimiter !== ',' };
    this.referenceAt = fieldOfColumn.indexOf('reference_number');
  }

  add(record: CsvRecord): void {
    const { header, mapping, columns } = this.plan;
    this.rows++;
    const reference = (this.referenceAt === -1 ? '' : record.fields[this.referenceAt]?.trim() ?? '') || String(mapping.defaults.reference_number ?? '');
    if (!reference) {
      this.problems.push({ row: record.row, reference: '', field: 'reference_number', column: columns.get('reference_number') ?? null, message: 'is required: rows are grouped into shipments by it' });
      return;
    }
    let order = this.byReference.get(reference);
    if (!order) this.byReference.set(reference, (order = { reference, rows: [], values: [], stray: [] }));
    order.rows.push(record.row);
    order.values.push(this.plan.mapped.map((i) => (record.fields[i] ?? '').replaceAll(VALUE_SEPARATOR, '\uFFFD')).join(VALUE_SEPARATOR));
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

/** The creation body of one order, with where each value came from. */
export function buildOrder(plan: OrderPlan, group: OrderRows): FileOrder {
  const { mapping, defaults, decimalComma, columns } = plan;
  const { reference, rows } = group;
  const cellsOfRows = group.values.map((joined) => {
    const cells: Cell[] = [];
    joined.split(VALUE_SEPARATOR).forEach((text, i) => {
      if (text.trim() !== '') cells.push({ field: plan.fieldOfMapped[i]!, column: plan.header[plan.mapped[i]!]!, text });
    });
    return cells;
  });
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
  for (const [field, constant] of Object.entries(mapping.defaults)) {
    const value = typedValue(field, constant, decimalComma);
    if (PARCEL_FIELDS.has(field)) parcelDefaults[PARCEL_FIELDS.get(field)!] = value;
    else put(fieldPath(field), value, { row: firstRow, column: null });
  }
  const fromRow = new Map<string, { value: unknown; row: number }>();
  const parcels = cellsOfRows.map((cells, index) => {
    const row = rows[index]!;
    const parcel: Record<string, unknown> = { ...parcelDefaults };
    for (const { field, column, text } of cells) {
      const value = typedValue(field, text, decimalComma);
      const parcelField = PARCEL_FIELDS.get(field);
      if (parcelField) {
        parcel[parcelField] = value;
        sources.set(`parcels.${index}.${parcelField}`, { row, column });
        continue;
      }
      const path = fieldPath(field);
      const earlier = fromRow.get(path);
      if (earlier && earlier.value !== value) {
        problems.push({ row, reference, field: path, column, message: `differs from row ${earlier.row} of the same order; the rows of an order must agree on its order fields` });
        continue;
      }
      if (earlier) continue;
      fromRow.set(path, { value, row });
      put(path, value, { row, column });
    }
    return parcel;
  });
  body.parcels = parcels;
  body.reference_number = reference;
  return { reference, rows, body, sources, problems, columns };
}

/** `parcels.1.weight_amount` → `parcel_weight_amount`; `recipient_contact.email_address` → `recipient_contact_email_address`. */
function importFieldOf(path: string): string {
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
