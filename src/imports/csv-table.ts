import type { FileHandle } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { parse, type CsvError } from 'csv-parse';
import { bomBytes, CHUNK_BYTES, textDecoderFor, type TextEncodingOf } from './decode.js';

export type Delimiter = ',' | ';' | '\t';
const DELIMITERS: readonly Delimiter[] = [';', ',', '\t'];

export interface CsvRecord {
  /** Row number as a spreadsheet shows it: the header is row 1, the first order row is row 2. */
  row: number;
  fields: string[];
}

/** How much of a file a reader takes before it gives up on it (the daemon's import limits, see ImportLimits). */
export interface CsvLimits {
  /** Characters in one line (or one quoted value spanning lines). */
  maxLineChars: number;
  /** Values in one row. */
  maxColumns: number;
  /** Rows after the header (blank rows not counted). */
  maxRows: number;
}

/** A file that cannot be read as a table (no header, an unclosed quote, over a limit …): where, and why. */
export class UnreadableFile extends Error {
  constructor(readonly row: number, message: string) {
    super(message);
  }
}

/** A table read as a stream: the header first, then its records one at a time. */
export interface CsvStream {
  delimiter: Delimiter;
  header: string[];
  /** Non-blank rows after the header; throws `UnreadableFile` where the file stops being readable. */
  records: AsyncGenerator<CsvRecord>;
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

/** The parser takes a chunk in one go: a chunk of thousands of tiny values (a line of `a,a,a…`) costs milliseconds each. */
const PARSE_CHUNK_BYTES = 16 * 1024;
/** Records read before the event loop gets its turn again. */
const RECORDS_PER_SLICE = 1_000;

const isBlank = (fields: string[]) => fields.every((f) => f.trim() === '');

/** Decodes the file's bytes into text, refusing a line longer than the limit before it is held whole. */
class DecodeLines extends Transform {
  private readonly decoder;
  private lineChars = 0;
  private line = 1;

  constructor(like: TextEncodingOf, private readonly maxLineChars: number) {
    super({ decodeStrings: true, readableObjectMode: false, encoding: 'utf8' });
    this.decoder = textDecoderFor(like);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pass(this.decoder.write(chunk), done);
  }

  override _flush(done: TransformCallback): void {
    this.pass(this.decoder.end(), done);
  }

  private pass(text: string, done: TransformCallback): void {
    const ends = /\r\n?|\n/g;
    for (let from = 0; ;) {
      const end = ends.exec(text);
      this.lineChars += (end ? end.index : text.length) - from;
      if (this.lineChars > this.maxLineChars) {
        done(new UnreadableFile(this.line, `line ${this.line} is longer than ${this.maxLineChars.toLocaleString('en')} characters`));
        return;
      }
      if (!end) break;
      this.line++;
      this.lineChars = 0;
      from = ends.lastIndex;
    }
    done(null, text);
  }
}

function unreadable(err: unknown, rows: number, limits: CsvLimits): unknown {
  if (err instanceof UnreadableFile) return err;
  const csv = err as CsvError & { lines?: number; records?: number };
  if (typeof csv.code !== 'string' || !csv.code.startsWith('CSV_')) return err;
  // the parser may be a chunk ahead of the records read: it knows the row
  const row = (csv.records ?? rows) + 1;
  if (csv.code === 'CSV_MAX_RECORD_SIZE') return new UnreadableFile(row, `row ${row} holds a value longer than ${limits.maxLineChars.toLocaleString('en')} characters`);
  return new UnreadableFile(csv.lines ?? rows + 1, `not a readable CSV file: ${csv.message}`);
}

/**
 * Reads a CSV file as a stream of records (blank lines skipped), in chunks, with bounded memory whatever the file:
 * a line, a row or a file over `limits` ends the read with `UnreadableFile`. The delimiter is found in the header line.
 */
export async function readCsvStream(file: FileHandle, like: TextEncodingOf, limits: CsvLimits): Promise<CsvStream | UnreadableFile> {
  const start = bomBytes(like).length;
  const head = Buffer.alloc(CHUNK_BYTES);
  const { bytesRead } = await file.read(head, 0, head.length, start);
  const delimiter = detectDelimiter(textDecoderFor(like).write(head.subarray(0, bytesRead)));
  const parser = parse({ delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, max_record_size: limits.maxLineChars });
  const piped = pipeline(file.createReadStream({ start, autoClose: false, highWaterMark: PARSE_CHUNK_BYTES }), new DecodeLines(like, limits.maxLineChars), parser);
  piped.catch(() => undefined); // its error reaches the reader through the parser
  let row = 0;
  const records = async function* (): AsyncGenerator<CsvRecord> {
    try {
      for await (const fields of parser as AsyncIterable<string[]>) {
        // a chunk of short lines holds thousands of records, each read in a microtask: other work gets its turn between slices
        if (++row % RECORDS_PER_SLICE === 0) await yieldToEventLoop();
        if (fields.length > limits.maxColumns) throw new UnreadableFile(row, `row ${row} has ${fields.length.toLocaleString('en')} values; at most ${limits.maxColumns.toLocaleString('en')} are read`);
        yield { row, fields };
      }
    } catch (err) {
      throw unreadable(err, row, limits);
    } finally {
      parser.destroy();
    }
  };
  const all = records();
  let header: CsvRecord | undefined;
  try {
    for (let next = await all.next(); !next.done; next = await all.next()) {
      if (!isBlank(next.value.fields)) {
        header = next.value;
        break;
      }
    }
  } catch (err) {
    if (err instanceof UnreadableFile) return err;
    throw err;
  }
  if (!header) return new UnreadableFile(1, 'the file is empty: a header row and at least one order row are needed');
  const body = async function* (): AsyncGenerator<CsvRecord> {
    let count = 0;
    for await (const record of all) {
      if (isBlank(record.fields)) continue;
      if (++count > limits.maxRows) throw new UnreadableFile(record.row, `has more than ${limits.maxRows.toLocaleString('en')} order rows`);
      yield record;
    }
  };
  return { delimiter, header: header.fields.map((h) => h.trim()), records: body() };
}

/** Values a spreadsheet would run as a formula (OWASP's CSV injection rule), and `'` itself, so reading back is exact. */
const FORMULA_START = /^[=+\-@\t\r']/;

/** A text value as written into a CSV file: formula prefixes neutralised with `'`, quoted where needed. */
function csvField(value: string | number, delimiter: Delimiter): string {
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  const needsQuotes = text.includes(delimiter) || /["\r\n]/.test(text) || text !== text.trim();
  return needsQuotes ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A text value of a CSV file packdesk wrote, as it was before `csvField` neutralised it. */
export function csvValue(written: string): string {
  return written.startsWith("'") && FORMULA_START.test(written.slice(1)) ? written.slice(1) : written;
}

/** One line of a CSV file packdesk writes, with its CRLF end (what spreadsheet programs and most ERP readers expect). */
export function csvLine(fields: readonly (string | number)[], delimiter: Delimiter): string {
  return fields.map((f) => csvField(f, delimiter)).join(delimiter) + '\r\n';
}
