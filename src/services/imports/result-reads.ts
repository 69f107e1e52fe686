import type { FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { NotFoundError } from '../../domain/errors.js';
import { NotARegularFile, openRegularFile } from '../../files/no-follow.js';
import { fileErrorCode } from '../../files/places.js';
import { csvValue, readCsvStream, UnreadableFile } from '../../imports/csv-table.js';
import { scanOrderFile } from '../../imports/decode.js';
import type { ServiceContext } from '../context.js';
import { getImportRow } from './records.js';

export interface ImportFileRead {
  fileName: string;
  /** The file as written: the encoding and delimiter of the input it answers. */
  content: Buffer;
  /** Its rows as header → value. */
  rows: Record<string, string>[];
}

/** Result files hold one line per order and errors files one per problem: their lines are short, their rows many. */
const RESULT_FILE_LIMITS = { maxLineChars: 1024 * 1024, maxColumns: 16, maxRows: Number.MAX_SAFE_INTEGER };

/** The result or errors file of a finished import, read back from where it was written. */
export async function readImportFile(ctx: ServiceContext, accountId: string, id: string, which: 'result' | 'errors'): Promise<ImportFileRead> {
  const row = await getImportRow(ctx, accountId, id);
  if (row.status === 'processing') throw new NotFoundError(`Import ${id} is still processing; its ${which} file is written when it finishes.`);
  const path = which === 'result' ? row.resultPath : row.errorsPath;
  if (!path) throw new NotFoundError(which === 'errors' ? `Import ${id} has no errors file: no row failed.` : `Import ${id} has no result file.`);
  let file: FileHandle;
  try {
    file = await openRegularFile(path); // a result file swapped for a link is not read through it
  } catch (err) {
    const code = err instanceof NotARegularFile ? 'not a regular file' : fileErrorCode(err);
    throw new NotFoundError(code === 'ENOENT' ? `The ${which} file of import ${id} is no longer at ${path}.` : `The ${which} file of import ${id} cannot be read at ${path} (${code}).`);
  }
  try {
    return { fileName: basename(path), content: await file.readFile(), rows: await rowsOf(file) };
  } finally {
    await file.close();
  }
}

/** The rows of a result or errors file packdesk wrote, as header → value. */
async function rowsOf(file: FileHandle): Promise<Record<string, string>[]> {
  const table = await readCsvStream(file, await scanOrderFile(file), RESULT_FILE_LIMITS);
  if (table instanceof UnreadableFile) return [];
  const rows: Record<string, string>[] = [];
  for await (const record of table.records) rows.push(Object.fromEntries(table.header.map((h, i) => [h, csvValue(record.fields[i] ?? '')])));
  return rows;
}

export function presentResultRows(rows: Record<string, string>[]) {
  return rows.map((r) => ({
    reference_number: r.reference_number ?? '',
    shipment_id: r.shipment_id || null,
    status: r.status ?? '',
    tracking_numbers: (r.tracking_numbers ?? '').split(' ').filter(Boolean),
    error: r.error || null,
  }));
}

export function presentErrorRows(rows: Record<string, string>[]) {
  return rows.map((r) => ({
    row: Number(r.row),
    reference_number: r.reference_number || null,
    field: r.field ?? '',
    column: r.column || null,
    message: r.message ?? '',
  }));
}
