import { parse } from 'csv-parse/sync';

export type Delimiter = ',' | ';' | '\t';
const DELIMITERS: readonly Delimiter[] = [';', ',', '\t'];

export interface CsvRecord {
  /** Row number as a spreadsheet shows it: the header is row 1, the first order row is row 2. */
  row: number;
  fields: string[];
}

export interface CsvTable {
  delimiter: Delimiter;
  header: string[];
  records: CsvRecord[];
}

/** A file that cannot be read as a table at all (no header, an unclosed quote …). */
export interface UnreadableFile {
  row: number;
  message: string;
}

/** The delimiter that occurs most often in the header line outside quotes (`;` wins ties: it is what Czech Excel writes). */
export function detectDelimiter(text: string): Delimiter {
  const counts = new Map<Delimiter, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch as Delimiter)) counts.set(ch as Delimiter, counts.get(ch as Delimiter)! + 1);
  }
  let best: Delimiter = ',';
  let most = 0;
  for (const d of DELIMITERS) {
    if (counts.get(d)! > most) {
      best = d;
      most = counts.get(d)!;
    }
  }
  return best;
}

const isBlank = (fields: string[]) => fields.every((f) => f.trim() === '');

/** Parses the decoded text into a header row and records; blank lines (and lines of bare delimiters) are skipped. */
export function readCsvTable(text: string): CsvTable | UnreadableFile {
  const delimiter = detectDelimiter(text);
  let rows: string[][];
  try {
    rows = parse(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false }) as string[][];
  } catch (err) {
    const e = err as { message: string; lines?: number };
    return { row: e.lines ?? 1, message: `not a readable CSV file: ${e.message}` };
  }
  const headerIndex = rows.findIndex((fields) => !isBlank(fields));
  if (headerIndex === -1) return { row: 1, message: 'the file is empty: a header row and at least one order row are needed' };
  const header = rows[headerIndex]!.map((h) => h.trim());
  const records: CsvRecord[] = [];
  rows.forEach((fields, i) => {
    if (i > headerIndex && !isBlank(fields)) records.push({ row: i + 1, fields });
  });
  return { delimiter, header, records };
}

function csvField(value: string, delimiter: Delimiter): string {
  const needsQuotes = value.includes(delimiter) || /["\r\n]/.test(value) || value !== value.trim();
  return needsQuotes ? `"${value.replace(/"/g, '""')}"` : value;
}

/** CSV text with a header row, CRLF line ends (what spreadsheet programs and most ERP readers expect). */
export function writeCsv(header: readonly string[], rows: readonly (readonly (string | number)[])[], delimiter: Delimiter): string {
  const line = (fields: readonly (string | number)[]) => fields.map((f) => csvField(String(f), delimiter)).join(delimiter);
  return [line(header), ...rows.map(line)].join('\r\n') + '\r\n';
}
