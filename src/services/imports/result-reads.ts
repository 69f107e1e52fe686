import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { NotFoundError } from '../../domain/errors.js';
import { fileErrorCode } from '../../files/places.js';
import { readCsvTable } from '../../imports/csv-table.js';
import { decodeOrderFile } from '../../imports/decode.js';
import type { ServiceContext } from '../context.js';
import { getImportRow } from './records.js';

export interface ImportFileRead {
  fileName: string;
  /** The file as written: the encoding and delimiter of the input it answers. */
  content: Buffer;
  /** Its rows as header → value. */
  rows: Record<string, string>[];
}

/** The result or errors file of a finished import, read back from where it was written. */
export async function readImportFile(ctx: ServiceContext, accountId: string, id: string, which: 'result' | 'errors'): Promise<ImportFileRead> {
  const row = await getImportRow(ctx, accountId, id);
  if (row.status === 'processing') throw new NotFoundError(`Import ${id} is still processing; its ${which} file is written when it finishes.`);
  const path = which === 'result' ? row.resultPath : row.errorsPath;
  if (!path) throw new NotFoundError(which === 'errors' ? `Import ${id} has no errors file: no row failed.` : `Import ${id} has no result file.`);
  let content: Buffer;
  try {
    content = await readFile(path);
  } catch (err) {
    const code = fileErrorCode(err);
    throw new NotFoundError(code === 'ENOENT' ? `The ${which} file of import ${id} is no longer at ${path}.` : `The ${which} file of import ${id} cannot be read at ${path} (${code}).`);
  }
  const table = readCsvTable(decodeOrderFile(content).text);
  const rows = 'message' in table ? [] : table.records.map((r) => Object.fromEntries(table.header.map((h, i) => [h, r.fields[i] ?? ''])));
  return { fileName: basename(path), content, rows };
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
