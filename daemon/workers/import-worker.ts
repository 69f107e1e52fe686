import { lstat, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { watch, type FSWatcher } from 'chokidar';
import type { ServiceContext } from '../../src/services/context.js';
import { folderLayout, isOrderFileName, orderFilesIn } from '../../src/services/imports/folder-files.js';
import { importDroppedFile, resumeFolderImports } from '../../src/services/imports/folder-import.js';
import type { ImportDeps } from '../../src/services/imports/import-file.js';
import { importSource, loadImportRow, unfinishedImports, uploadsRoot } from '../../src/services/imports/records.js';
import { runUploadedImport, UPLOADED_IMPORT_QUEUED } from '../../src/services/imports/uploads.js';
import {
  activeWatchedFolders, loadWatchedFolderRow, prepareWatchedFolder, WATCHED_FOLDERS_CHANGED, type WatchedFolderRow,
} from '../../src/services/imports/watched-folders.js';
import { servedHere } from '../../src/services/daemons.js';
import { shipmentShapeChecker } from '../routes/shipment-shape.js';

export interface ImportWorkerOptions {
  /** A file in `in/` is read once its size and modification time have not changed for this long. */
  stabilityMs?: number;
  /** Shipments of one file in flight at the carrier at once. */
  window?: number;
  /** Stop waiting for carrier outcomes of a file after this long without any. */
  stallMs?: number;
}

export const DEFAULT_STABILITY_MS = 1500;
const STABILITY_POLL_MS = 100;
/** Folders are compared with the store this often too (a path that was not there at start-up, a missed notice). */
const RESYNC_MS = 30_000;

interface FolderWatch {
  path: string;
  watcher: FSWatcher;
  /** Names in `in/` queued and not started yet. */
  queued: Set<string>;
}

type Task = (signal: AbortSignal) => Promise<unknown>;

/**
 * Resolves true once the entry's size and modification time stayed the same for `stabilityMs`; false if it went away.
 * A symbolic link is looked at itself (lstat), never its target.
 */
async function waitUntilStable(path: string, stabilityMs: number, signal: AbortSignal): Promise<boolean> {
  let last = '';
  let since = performance.now();
  while (!signal.aborted) {
    let seen: string;
    try {
      const stats = await lstat(path);
      seen = `${stats.size}:${stats.mtimeMs}`;
    } catch {
      return false;
    }
    if (seen !== last) {
      last = seen;
      since = performance.now();
    } else if (performance.now() - since >= stabilityMs) {
      return true;
    }
    await sleep(STABILITY_POLL_MS);
  }
  return false;
}

/**
 * Takes order files in: watches `in/` of every active watched folder (a file is read only after it stopped growing),
 * runs uploaded files (`POST /v1/imports`), and on start finishes what a previous run left in `processing/`. Files of
 * one source (a folder, or one account's uploads) are imported one after another.
 */
export class ImportWorker {
  readonly name = 'imports';
  private readonly deps: ImportDeps;
  private readonly watches = new Map<string, FolderWatch>();
  /** Reads of the store under way whose answer may watch a folder or queue a file. */
  private readonly reading = new Set<Promise<void>>();
  /** Folders whose place is being checked before they are watched. */
  private readonly preparing = new Map<string, Promise<void>>();
  private readonly queues = new Map<string, Promise<void>>();
  private readonly running = new Set<Promise<void>>();
  private abort = new AbortController();
  private active = false;
  private resync: NodeJS.Timeout | undefined;

  private readonly stabilityMs: number;

  constructor(private readonly ctx: ServiceContext, options: ImportWorkerOptions = {}) {
    this.deps = { checkShape: shipmentShapeChecker(), window: options.window, stallMs: options.stallMs };
    this.stabilityMs = options.stabilityMs ?? DEFAULT_STABILITY_MS;
  }

  get state(): string {
    return this.active ? `running (${this.watches.size} folders watched, ${this.running.size} files queued or importing)` : 'stopped';
  }

  /** A folder was added, changed or removed, through this daemon or another of its store. */
  private readonly onFolderChanged = () => this.read(() => this.syncAll());
  private readonly onUploadQueued = (importId: string) => this.read(() => this.queueUpload(importId), { import_id: importId });

  start(): void {
    if (this.active) return;
    this.active = true;
    this.abort = new AbortController();
    this.ctx.notices.on(WATCHED_FOLDERS_CHANGED, this.onFolderChanged);
    this.ctx.notices.on(UPLOADED_IMPORT_QUEUED, this.onUploadQueued);
    this.read(async () => {
      await this.syncAll();
      for (const row of await unfinishedImports(this.ctx, null)) await this.queueUpload(row.id);
    });
    this.resync = setInterval(() => this.read(() => this.syncAll()), RESYNC_MS);
    this.resync.unref();
  }

  /** Runs `work` (store reads, then what they call for) in the background; `runDue()` waits for it, a failure is logged. */
  private read(work: () => Promise<void>, context: Record<string, string> = {}): void {
    const done: Promise<void> = work()
      .catch((err: unknown) => this.ctx.log.error({ ...context, err }, 'import worker could not read the store'))
      .finally(() => this.reading.delete(done));
    this.reading.add(done);
  }

  /** Nothing to look at on a job queue: files and notices drive this worker. */
  wake(): void {}

  /** Waits until every folder being checked is watched (or refused) and every queued file is imported. */
  async runDue(): Promise<void> {
    while (this.reading.size > 0 || this.preparing.size > 0 || this.running.size > 0) {
      await Promise.allSettled([...this.reading, ...this.preparing.values(), ...this.running]);
    }
  }

  /** Stops watching and stops imports at the next order; a file stopped midway stays in processing/ and resumes at the next start. */
  async stop(): Promise<void> {
    if (!this.active) return;
    this.active = false;
    clearInterval(this.resync);
    this.ctx.notices.off(WATCHED_FOLDERS_CHANGED, this.onFolderChanged);
    this.ctx.notices.off(UPLOADED_IMPORT_QUEUED, this.onUploadQueued);
    this.abort.abort();
    await Promise.allSettled([...this.watches.keys()].map((id) => this.unwatch(id)));
    await this.runDue();
  }

  private async syncAll(): Promise<void> {
    const active = new Map((await activeWatchedFolders(this.ctx)).map((f) => [f.id, f]));
    for (const id of this.watches.keys()) if (!active.has(id)) void this.unwatch(id);
    for (const folder of active.values()) this.syncFolder(folder.id, folder);
  }

  private syncFolder(folderId: string, row: WatchedFolderRow | undefined): void {
    if (!this.active) return;
    const folder = row && servedHere(this.ctx, row) ? row : undefined; // another station's folder is not watched here
    const watching = this.watches.get(folderId);
    if (watching && (!folder || folder.status !== 'active' || folder.path !== watching.path)) void this.unwatch(folderId);
    if (folder?.status === 'active' && !this.watches.has(folderId) && !this.preparing.has(folderId)) this.prepareAndWatch(folder);
  }

  /** The files policy is asked again (a row of an older version, a symbolic link changed since) before a folder is watched. */
  private prepareAndWatch(folder: WatchedFolderRow): void {
    const prepared = prepareWatchedFolder(this.ctx, folder).then(async (problems) => {
      // read while the folder is still being prepared, so that no sync meanwhile prepares it a second time
      const current = await loadWatchedFolderRow(this.ctx, folder.id);
      this.preparing.delete(folder.id);
      if (!this.active) return;
      if (current?.path !== folder.path) {
        this.syncFolder(folder.id, current); // moved or removed while it was checked
      } else if (problems.length > 0) {
        this.ctx.log.warn({ watched_folder_id: folder.id, path: folder.path, problems }, 'watched folder not usable; looking again later');
      } else {
        this.watchFolder(current);
      }
    }).catch((err: unknown) => {
      this.preparing.delete(folder.id);
      this.ctx.log.error({ watched_folder_id: folder.id, err }, 'watched folder could not be checked; looking again later');
    });
    this.preparing.set(folder.id, prepared);
  }

  private watchFolder(folder: WatchedFolderRow): void {
    if (folder.status !== 'active') return;
    const inbox = folderLayout(folder.path).in;
    // what a previous run left in processing/ is finished before new files are taken
    this.enqueue(folder.id, (signal) => resumeFolderImports(this.ctx, this.deps, folder, signal));
    // a symbolic link is reported as itself and never followed (nor stat'ed through, as awaitWriteFinish would)
    const watcher = watch(inbox, {
      depth: 0, ignoreInitial: true, followSymlinks: false,
      ignored: (path, stats) => stats?.isFile() === true && !isOrderFileName(basename(path)),
    });
    const entry: FolderWatch = { path: folder.path, watcher, queued: new Set() };
    const queueWhenStable = (name: string) => void waitUntilStable(join(inbox, name), this.stabilityMs, this.abort.signal)
      .then((stable) => stable && this.watches.get(folder.id) === entry && this.queueDropped(folder.id, entry, name));
    // links, FIFOs and directories with an order file's name are queued too: the import refuses them unread
    const onEntry = (path: string) => {
      if (dirname(path) === inbox && isOrderFileName(basename(path))) queueWhenStable(basename(path));
    };
    watcher.on('add', onEntry);
    watcher.on('addDir', onEntry);
    watcher.on('error', (err) => this.ctx.log.error({ watched_folder_id: folder.id, err }, 'folder watcher error'));
    // files already there when the watcher started are looked at here (ignoreInitial)
    watcher.once('ready', () => {
      void orderFilesIn(inbox).then(
        (names) => { for (const name of names) queueWhenStable(name); },
        (err: unknown) => this.ctx.log.error({ watched_folder_id: folder.id, err }, 'folder watcher could not list in/'),
      );
    });
    this.watches.set(folder.id, entry);
    this.ctx.log.info({ watched_folder_id: folder.id, path: folder.path }, 'watching folder');
  }

  private async unwatch(folderId: string): Promise<void> {
    const entry = this.watches.get(folderId);
    if (!entry) return;
    this.watches.delete(folderId);
    await entry.watcher.close();
  }

  private queueDropped(folderId: string, entry: FolderWatch, name: string): void {
    if (entry.queued.has(name)) return;
    entry.queued.add(name);
    this.enqueue(folderId, (signal) => {
      entry.queued.delete(name);
      return importDroppedFile(this.ctx, this.deps, folderId, name, signal);
    });
  }

  private async queueUpload(importId: string): Promise<void> {
    const row = await loadImportRow(this.ctx, importId);
    if (!this.active || !row || row.status !== 'processing' || row.watchedFolderId !== null) return;
    // on a shared store, an upload another daemon took is in that daemon's data directory, and imported there
    if (!(await stat(join(uploadsRoot(this.ctx), importId)).then(() => true, () => false))) return;
    this.enqueue(importSource(row), async (signal) => {
      const fresh = await loadImportRow(this.ctx, importId);
      if (fresh?.status === 'processing') await runUploadedImport(this.ctx, this.deps, fresh, signal);
    });
  }

  /** Runs `task` after the tasks of the same source; a failure is logged and the file waits for the next start. */
  private enqueue(source: string, task: Task): void {
    const signal = this.abort.signal;
    const next = (this.queues.get(source) ?? Promise.resolve())
      .then(() => (signal.aborted ? undefined : task(signal)))
      .then(() => undefined, (err: unknown) => this.ctx.log.error({ source, err }, 'import failed; the file stays where it is'));
    this.queues.set(source, next);
    this.running.add(next);
    void next.finally(() => {
      this.running.delete(next);
      if (this.queues.get(source) === next) this.queues.delete(source);
    });
  }
}
