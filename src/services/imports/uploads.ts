import { mkdir, readFile, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { FieldErrorCollector } from '../../domain/errors.js';
import { openRegularFile } from '../../files/no-follow.js';
import { scanOrderFile } from '../../imports/decode.js';
import { checkMapping } from '../../imports/mapping.js';
import type { ServiceContext } from '../context.js';
import { completeImport, writeImportResults } from './finish-import.js';
import { stemOf, writeFileAtomically } from './folder-files.js';
import { importOrderFile, sha256Of, type ImportDeps, type ImportSettings } from './import-file.js';
import { presentImport, startImportRow, uploadsRoot, type ImportRow, type ImportView } from './records.js';
import { importStatus } from './result-files.js';
import { checkChannel, checkPrinter } from './settings-checks.js';
import type { ImportTarget } from '../../imports/orders.js';

/** Notice sent when an uploaded file waits to be imported (the import worker takes it). */
export const UPLOADED_IMPORT_QUEUED = 'imports:queued';

/** What `POST /v1/imports` takes: the file's bytes and the settings a watched folder would give. */
export interface UploadInput {
  file_name?: string;
  content_base64?: string;
  shipping_channel_id?: string;
  label_format?: string;
  printer_id?: string | null;
  copies?: number;
  mapping?: unknown;
  target?: ImportTarget;
}

const SETTINGS_FILE = '.settings.json';
/** File systems take names of up to 255 bytes; `<stem>.errors.csv` must fit too. */
const MAX_FILE_NAME_BYTES = 200;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/** Uploads and their results are kept beside the store, in the data directory. */
function uploadDir(ctx: ServiceContext, importId: string): string {
  return join(uploadsRoot(ctx), importId);
}

/**
 * Takes an uploaded order file: checks the settings like a watched folder's, keeps the bytes and settings under the
 * data directory (so a restart finishes the import), writes the import row and queues it. The import runs in the
 * background; its row shows the progress.
 */
export async function startUploadedImport(ctx: ServiceContext, accountId: string, input: UploadInput, errors = new FieldErrorCollector()): Promise<ImportView> {
  const fileName = input.file_name?.trim() ?? '';
  if (input.file_name !== undefined && (fileName === '' || basename(fileName) !== fileName || fileName.startsWith('.') || fileName.includes('\\'))) {
    errors.add('file_name', 'must be a plain file name (no directories, not starting with ".")');
  } else if (Buffer.byteLength(fileName) > MAX_FILE_NAME_BYTES) {
    errors.add('file_name', `must be at most ${MAX_FILE_NAME_BYTES} bytes long (its result files add to it)`);
  }
  let bytes = Buffer.alloc(0);
  if (typeof input.content_base64 === 'string') {
    const { maxFileBytes } = ctx.options.importLimits;
    const tooLarge = `must be a file of at most ${maxFileBytes / 2 ** 20} MiB`;
    // every 4 characters of base64 hold 3 bytes: a file far over the limit is refused before it is read
    if (input.content_base64.length > Math.ceil(maxFileBytes / 3) * 4 + 4096) errors.add('content_base64', tooLarge);
    else if (!BASE64.test(input.content_base64)) errors.add('content_base64', 'must be the file encoded as base64');
    else {
      bytes = Buffer.from(input.content_base64, 'base64');
      if (bytes.length > maxFileBytes) errors.add('content_base64', tooLarge);
      else if (bytes.length === 0) errors.add('content_base64', 'must not be empty');
    }
  }
  const labelFormat = input.label_format ?? 'pdf';
  if (input.shipping_channel_id !== undefined) await checkChannel(ctx, accountId, input.shipping_channel_id, errors);
  await checkPrinter(ctx, accountId, input.printer_id, labelFormat, errors);
  const mapping = checkMapping(input.mapping, errors);
  errors.throwIfAny();
  const settings: ImportSettings = {
    defaults: {
      shipping_channel_id: input.shipping_channel_id, label_format: labelFormat,
      print: input.printer_id ? { printer_id: input.printer_id, copies: input.copies ?? 1 } : null,
    },
    mapping,
    target: input.target ?? 'shipments',
  };
  const id = ctx.ids('import');
  const dir = uploadDir(ctx, id);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(join(dir, fileName), bytes);
  await writeFileAtomically(join(dir, SETTINGS_FILE), Buffer.from(JSON.stringify(settings)));
  const row = await startImportRow(ctx, { id, accountId, watchedFolderId: null, fileName, sha256: sha256Of(bytes) });
  ctx.notices.emit(UPLOADED_IMPORT_QUEUED, id);
  return presentImport(ctx, row);
}

/** Runs (or resumes) an uploaded file's import; the result files are kept beside the upload. */
export async function runUploadedImport(ctx: ServiceContext, deps: ImportDeps, row: ImportRow, signal: AbortSignal): Promise<'done' | 'failed' | 'aborted'> {
  const dir = uploadDir(ctx, row.id);
  let settings: ImportSettings;
  let file: FileHandle;
  try {
    settings = JSON.parse(await readFile(join(dir, SETTINGS_FILE), 'utf8')) as ImportSettings;
    file = await openRegularFile(join(dir, row.fileName));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    ctx.log.warn({ import_id: row.id }, 'import closed as failed: its uploaded file is gone');
    await completeImport(ctx, row.id, 'failed');
    return 'failed';
  }
  let imported;
  try {
    imported = await importOrderFile(ctx, deps, row, file, await scanOrderFile(file), settings, signal);
  } finally {
    await file.close();
  }
  if (imported === 'aborted') return 'aborted';
  const stem = stemOf(row.fileName);
  await writeImportResults(ctx, row, imported, { result: join(dir, `${stem}.result.csv`), errors: join(dir, `${stem}.errors.csv`) });
  const status = importStatus(imported);
  await completeImport(ctx, row.id, status);
  ctx.log.info({ import_id: row.id, file: row.fileName, status, rows: imported.rows }, 'import finished');
  return status;
}
