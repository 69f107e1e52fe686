import type { ColumnMapping } from '../mapping.js';

/** One row of an order file as a preset's derivation reads it. */
export interface FileRow {
  /** The row's value in the column of that name (matched like mapped columns), trimmed; '' when the file has no such column. */
  value(column: string): string;
  /** The value as a number, read with the file's decimal separator; undefined when empty or not a number. */
  number(column: string): number | undefined;
  /** Whether no earlier row of the file belongs to the order with this reference. */
  startsOrder(reference: string): boolean;
}

/** A value a derivation worked out, with the column it was read from (the errors file names it). */
export interface DerivedValue {
  text: string;
  column: string;
}

/** Import fields worked out from a row in code, where a column map cannot say it (a fallback address, COD from the payment). */
export interface RowDerivation {
  /** Every import field `derive` may fill. */
  readonly fields: readonly string[];
  /** Import field → its value for this row; a field filled by a mapped column of the row keeps the column's value. */
  derive(row: FileRow): Partial<Record<string, DerivedValue>>;
}

/** One element of a parsed XML order: its child elements by local name (repeated ones as a list), its text when it has no children. */
export type XmlNode = string | { [child: string]: XmlNode | XmlNode[] };

/** A row an XML order gives: where it begins in the order element's text (a character offset) and its values by column. */
export interface XmlRow {
  at: number;
  values: Readonly<Record<string, string>>;
}

/** How an XML order format is read into rows, so that it goes through the same pipeline as a CSV file. */
export interface XmlOrderFormat {
  /** The format as a packer knows it, in messages ("a Pohoda data pack"). */
  readonly title: string;
  /** Where its orders are, as local names from the root (`dataPack/dataPackItem/order`): each is parsed on its own, so a long file never becomes one tree. */
  readonly orderPaths: readonly string[];
  /** The columns of the rows it gives (element paths, as the errors file names them). */
  readonly columns: readonly string[];
  /** The rows of one order element: one per order line, or one for an order without lines. */
  rowsOf(order: XmlNode, startOf: (node: XmlNode) => number | undefined): XmlRow[];
}

/**
 * A preset: the column mapping of a shop's or an ERP's export, and what a column map cannot express. A mapping object
 * can name one (`{"preset": "shoptet", "defaults": {...}}`): its columns and defaults add to the preset's.
 */
export interface MappingPreset extends ColumnMapping {
  readonly name: string;
  /** `items`: the rows of an order are its order lines, and it ships as one parcel; `parcels` (default): one parcel per row. */
  readonly rowsAre?: 'parcels' | 'items';
  /** With `items`: import fields whose rows' values add up (an order's weight from its lines) instead of having to agree. */
  readonly summed?: readonly string[];
  readonly derivation?: RowDerivation;
  /** Set for a format whose files are XML. */
  readonly xml?: XmlOrderFormat;
}
