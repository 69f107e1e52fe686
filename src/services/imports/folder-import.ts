import { readFile, rename } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { ServiceContext } from '../context.js';
import { checkDirectoryPlace } from '../file-places.js';
import { completeImport, writeImportResults } from './finish-import.js';
import { folderLayout, freeStem, moveWithoutOverwrite, orderFilesIn, stemOf } from './folder-files.js';
import { importOrderFile, sha256Of, type ImportDeps, type ImportSettings } from './import-file.js';
import { alreadyImportedOrders, startImportRow, unfinishedImports, type ImportRow } from './records.js';
import { importStatus } from './result-files.js';
import { loadWatchedFolderRow, type WatchedFolderRow } from './watched-folders.js';

export type FolderImportOutcome = 'done' | 'failed' | 'aborted' | 'skipped';

function folderSettings(folder: WatchedFolderRow): ImportSettings {
  return {
    defaults: {
      shipping_channel_id: folder.channelId, label_format: folder.labelFormat,
      print: folder.printerId ? { printer_id: folder.printerId, copies: 1 } : null,
    },
    mapping: folder.mapping as ImportSettings['mapping'],
  };
}

/**
 * Imports the file at `processing/…`, then writes `out/<name>.result.csv` (and `<name>.errors.csv` beside the input
 * when rows failed) and moves the input to `done/` or `failed/`, all under one free name.
 */
async function importFromProcessing(
  ctx: ServiceContext, deps: ImportDeps, folder: WatchedFolderRow, row: ImportRow, at: string, bytes: Buffer, signal: AbortSignal,
): Promise<FolderImportOutcome> {
  const file = await importOrderFile(ctx, deps, row, bytes, folderSettings(folder), signal);
  if (file === 'aborted') return 'aborted';
  const layout = folderLayout(folder.path);
  const ext = extname(row.fileName);
  const status = importStatus(file);
  const target = status === 'done' ? layout.done : layout.failed;
  const stem = await freeStem(stemOf(row.fileName), (s) => [join(target, s + ext), join(layout.out, `${s}.result.csv`), join(target, `${s}.errors.csv`)]);
  await writeImportResults(ctx, row, file, { result: join(layout.out, `${stem}.result.csv`), errors: join(target, `${stem}.errors.csv`) });
  await rename(at, join(target, stem + ext));
  await completeImport(ctx, row.id, status);
  ctx.log.info({ import_id: row.id, watched_folder_id: folder.id, file: row.fileName, status, rows: file.rows }, 'import finished');
  return status;
}

/** Takes `in/<name>` (a file that stopped growing) into `processing/` and imports it. */
export async function importDroppedFile(ctx: ServiceContext, deps: ImportDeps, folderId: string, name: string, signal: AbortSignal): Promise<FolderImportOutcome> {
  const folder = await loadWatchedFolderRow(ctx, folderId);
  if (!folder || folder.status !== 'active' || signal.aborted) return signal.aborted ? 'aborted' : 'skipped';
  const place = await checkDirectoryPlace(ctx, folder.accountId, folder.path);
  if (place.problems.length > 0) {
    ctx.log.warn({ watched_folder_id: folder.id, path: folder.path, file: name, problems: place.problems }, 'file left in in/: the watched folder is not usable');
    return 'skipped';
  }
  const layout = folderLayout(folder.path);
  let at: string;
  try {
    at = await moveWithoutOverwrite(join(layout.in, name), layout.processing, name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'skipped'; // gone before its turn
    throw err;
  }
  const bytes = await readFile(at);
  const row = await startImportRow(ctx, { accountId: folder.accountId, watchedFolderId: folder.id, fileName: name, sha256: sha256Of(bytes) });
  ctx.log.info({ import_id: row.id, watched_folder_id: folder.id, file: name, bytes: bytes.length }, 'import started');
  return importFromProcessing(ctx, deps, folder, row, at, bytes, signal);
}

/**
 * Finishes what a previous run left: files in `processing/` (a crash or a stop mid-file) resume their import, whose
 * orders already done are found by their keys; an import whose input already left `processing/` is closed.
 */
export async function resumeFolderImports(ctx: ServiceContext, deps: ImportDeps, folder: WatchedFolderRow, signal: AbortSignal): Promise<void> {
  const layout = folderLayout(folder.path);
  const unfinished = await unfinishedImports(ctx, folder.id);
  const resumed = new Set<string>();
  for (const name of await orderFilesIn(layout.processing)) {
    if (signal.aborted) return;
    const at = join(layout.processing, name);
    const bytes = await readFile(at);
    const sha256 = sha256Of(bytes);
    let row = unfinished.find((r) => r.sha256 === sha256 && !resumed.has(r.id));
    if (row) resumed.add(row.id);
    else row = await startImportRow(ctx, { accountId: folder.accountId, watchedFolderId: folder.id, fileName: name, sha256 });
    ctx.log.info({ import_id: row.id, watched_folder_id: folder.id, file: name }, 'resuming import');
    await importFromProcessing(ctx, deps, folder, row, at, bytes, signal);
  }
  for (const row of unfinished.filter((r) => !resumed.has(r.id))) await closeLeftover(ctx, row);
}

/** An unfinished import whose input is no longer in `processing/`: its results were written (a crash came before the last step), or the file was taken away. */
async function closeLeftover(ctx: ServiceContext, row: ImportRow): Promise<void> {
  if (row.resultPath) {
    await completeImport(ctx, row.id, row.shipmentsCreated > 0 || await alreadyImportedOrders(ctx, row) > 0 ? 'done' : 'failed');
    return;
  }
  ctx.log.warn({ import_id: row.id, file: row.fileName }, 'import closed as failed: its file left processing/ before it was finished');
  await completeImport(ctx, row.id, 'failed');
}
