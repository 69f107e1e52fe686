import { rename, type FileHandle } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { NotARegularFile, notARegularFile, openRegularFile } from '../../files/no-follow.js';
import { scanOrderFile, type ScannedFile, type TextEncodingOf } from '../../imports/decode.js';
import type { ServiceContext } from '../context.js';
import { checkDirectoryPlace, realDirectoryProblems } from '../file-places.js';
import { completeImport, writeImportResults } from './finish-import.js';
import { folderLayout, freeStem, moveWithoutOverwrite, orderFilesIn, stemOf, type FolderLayout } from './folder-files.js';
import { failedFile, importOrderFile, type ImportDeps, type ImportedFile, type ImportSettings } from './import-file.js';
import { alreadyImportedOrders, startImportRow, unfinishedImports, type ImportRow } from './records.js';
import { importStatus } from './result-files.js';
import { loadWatchedFolderRow, type WatchedFolderRow } from './watched-folders.js';

export type FolderImportOutcome = 'done' | 'failed' | 'aborted' | 'skipped';

/** The result and errors files of an entry refused unread: no input encoding to answer in. */
const UNREAD_ENCODING: TextEncodingOf = { encoding: 'utf-8', bom: false };

function folderSettings(folder: WatchedFolderRow): ImportSettings {
  return {
    defaults: {
      shipping_channel_id: folder.channelId ?? undefined, label_format: folder.labelFormat,
      print: folder.printerId ? { printer_id: folder.printerId, copies: 1 } : null,
    },
    mapping: folder.mapping as ImportSettings['mapping'],
    target: folder.target,
  };
}

/**
 * The folder's sub-folders under its real path, when the files policy allows the folder (it resolves the folder's own
 * path) and each sub-folder is a real directory, not a symbolic link; otherwise why not is logged, and nothing is
 * read or written there.
 */
async function usableLayout(ctx: ServiceContext, folder: WatchedFolderRow, context: { file?: string; left: string }): Promise<FolderLayout | undefined> {
  const place = await checkDirectoryPlace(ctx, folder.accountId, folder.path);
  const layout = place.realPath === undefined ? undefined : folderLayout(place.realPath);
  const problems = layout ? await realDirectoryProblems(Object.values(layout)) : place.problems;
  if (layout && problems.length === 0) return layout;
  ctx.log.warn({ watched_folder_id: folder.id, path: folder.path, file: context.file, problems }, `${context.left}: the watched folder is not usable`);
  return undefined;
}

interface OpenedOrderFile {
  handle: FileHandle;
  scanned: ScannedFile;
}

/** Opens a file of `processing/` (never through a symbolic link), reads its hash and encoding, and closes it after `use`. */
async function withOrderFile<T>(at: string, use: (file: OpenedOrderFile) => Promise<T>): Promise<T> {
  const handle = await openRegularFile(at);
  try {
    return await use({ handle, scanned: await scanOrderFile(handle) });
  } finally {
    await handle.close();
  }
}

/**
 * Writes `out/<name>.result.csv` (and `<name>.errors.csv` beside the input when rows failed) and moves the input at
 * `at` to `done/` or `failed/`, all under one free name. Nothing is written when either is no longer a real directory.
 */
async function finishInFolder(ctx: ServiceContext, folder: WatchedFolderRow, layout: FolderLayout, row: ImportRow, at: string, file: ImportedFile): Promise<FolderImportOutcome> {
  const status = importStatus(file);
  const target = status === 'done' ? layout.done : layout.failed;
  // looked at again right before writing: a sub-folder swapped for a link since the file was taken gets nothing
  const problems = await realDirectoryProblems([layout.out, target]);
  if (problems.length > 0) {
    ctx.log.warn({ import_id: row.id, watched_folder_id: folder.id, file: row.fileName, problems }, 'import not finished, its file stays where it is: the watched folder is not usable');
    return 'skipped';
  }
  const ext = extname(row.fileName);
  const stem = await freeStem(stemOf(row.fileName), (s) => [join(target, s + ext), join(layout.out, `${s}.result.csv`), join(target, `${s}.errors.csv`)]);
  await writeImportResults(ctx, row, file, { result: join(layout.out, `${stem}.result.csv`), errors: join(target, `${stem}.errors.csv`) });
  await rename(at, join(target, stem + ext));
  await completeImport(ctx, row.id, status);
  ctx.log.info({ import_id: row.id, watched_folder_id: folder.id, file: row.fileName, status, rows: file.rows }, 'import finished');
  return status;
}

/**
 * An entry that is no regular file (a symbolic link, a FIFO, a device, a directory): moved to `failed/` as it is (a
 * rename moves a link itself, never its target) with the reason in its errors file, and recorded as a failed import.
 * Nothing of it is read, so its import has no content hash.
 */
async function refuseUnread(ctx: ServiceContext, folder: WatchedFolderRow, layout: FolderLayout, at: string, name: string, refused: NotARegularFile): Promise<FolderImportOutcome> {
  const row = await startImportRow(ctx, { accountId: folder.accountId, watchedFolderId: folder.id, fileName: name, sha256: '' });
  ctx.log.warn({ import_id: row.id, watched_folder_id: folder.id, file: name, reason: refused.message }, 'file refused unread');
  return finishInFolder(ctx, folder, layout, row, at, failedFile(UNREAD_ENCODING, { row: 1, message: refused.message }));
}

/**
 * Imports the file `name` at `processing/…` under the import `rowFor` gives for its content. A file swapped for a link
 * or a FIFO since it was looked at is refused when it is opened, unread.
 */
async function importFromProcessing(
  ctx: ServiceContext, deps: ImportDeps, folder: WatchedFolderRow, layout: FolderLayout, at: string, name: string,
  rowFor: (scanned: ScannedFile) => Promise<ImportRow>, signal: AbortSignal,
): Promise<FolderImportOutcome> {
  try {
    return await withOrderFile(at, async (input) => {
      const row = await rowFor(input.scanned);
      const file = await importOrderFile(ctx, deps, row, input.handle, input.scanned, folderSettings(folder), signal);
      return file === 'aborted' ? 'aborted' : finishInFolder(ctx, folder, layout, row, at, file);
    });
  } catch (err) {
    if (err instanceof NotARegularFile && err.path === at) return refuseUnread(ctx, folder, layout, at, name, err);
    throw err;
  }
}

/** Takes `in/<name>` (a file that stopped growing) into `processing/` and imports it; anything but a regular file goes to `failed/` unread. */
export async function importDroppedFile(ctx: ServiceContext, deps: ImportDeps, folderId: string, name: string, signal: AbortSignal): Promise<FolderImportOutcome> {
  const folder = await loadWatchedFolderRow(ctx, folderId);
  if (!folder || folder.status !== 'active' || signal.aborted) return signal.aborted ? 'aborted' : 'skipped';
  const layout = await usableLayout(ctx, folder, { file: name, left: 'file left in in/' });
  if (!layout) return 'skipped';
  const dropped = join(layout.in, name);
  let refused: NotARegularFile | undefined;
  let taken = '';
  try {
    refused = await notARegularFile(dropped);
    if (!refused) taken = await moveWithoutOverwrite(dropped, layout.processing, name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'skipped'; // gone before its turn
    throw err;
  }
  if (refused) return refuseUnread(ctx, folder, layout, dropped, name, refused);
  return importFromProcessing(ctx, deps, folder, layout, taken, name, async (scanned) => {
    const row = await startImportRow(ctx, { accountId: folder.accountId, watchedFolderId: folder.id, fileName: name, sha256: scanned.sha256 });
    ctx.log.info({ import_id: row.id, watched_folder_id: folder.id, file: name, bytes: scanned.size }, 'import started');
    return row;
  }, signal);
}

/**
 * Finishes what a previous run left: files in `processing/` (a crash or a stop mid-file) resume their import, whose
 * orders already done are found by their keys; an import whose input already left `processing/` is closed.
 */
export async function resumeFolderImports(ctx: ServiceContext, deps: ImportDeps, folder: WatchedFolderRow, signal: AbortSignal): Promise<void> {
  const layout = await usableLayout(ctx, folder, { left: 'files left in processing/' });
  if (!layout) return;
  const unfinished = await unfinishedImports(ctx, folder.id);
  const resumed = new Set<string>();
  for (const name of await orderFilesIn(layout.processing)) {
    if (signal.aborted) return;
    await importFromProcessing(ctx, deps, folder, layout, join(layout.processing, name), name, async ({ sha256 }) => {
      let row = unfinished.find((r) => r.sha256 === sha256 && !resumed.has(r.id));
      if (row) resumed.add(row.id);
      else row = await startImportRow(ctx, { accountId: folder.accountId, watchedFolderId: folder.id, fileName: name, sha256 });
      ctx.log.info({ import_id: row.id, watched_folder_id: folder.id, file: name }, 'resuming import');
      return row;
    }, signal);
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
