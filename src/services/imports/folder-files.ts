import { existsSync, mkdirSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';

/** The sub-folders of a watched folder (SPEC §7). */
export const SUBFOLDERS = ['in', 'processing', 'done', 'failed', 'out'] as const;
export type Subfolder = (typeof SUBFOLDERS)[number];
export type FolderLayout = Record<Subfolder, string>;

export function folderLayout(path: string): FolderLayout {
  return Object.fromEntries(SUBFOLDERS.map((s) => [s, join(path, s)])) as FolderLayout;
}

/** Creates the sub-folders that are missing; throws the file system's error (EACCES, ENOTDIR …). */
export function createFolderLayout(path: string): FolderLayout {
  const layout = folderLayout(path);
  for (const dir of Object.values(layout)) mkdirSync(dir, { recursive: true });
  return layout;
}

const ORDER_FILE_EXTENSIONS = new Set(['.csv', '.txt', '.tsv']);

/**
 * Files the watcher takes from `in/`: .csv, .txt and .tsv. Hidden files, Office lock files (`~$…`) and names an ERP
 * writes under before renaming (`x.csv.part`, `x.csv.tmp`) are left alone.
 */
export function isOrderFileName(name: string): boolean {
  return !name.startsWith('.') && !name.startsWith('~') && ORDER_FILE_EXTENSIONS.has(extname(name).toLowerCase());
}

/** Order files waiting in a directory, oldest first (the order they were dropped in). */
export function orderFilesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && isOrderFileName(e.name))
    .map((e) => ({ name: e.name, at: statSync(join(dir, e.name)).mtimeMs }))
    .sort((a, b) => a.at - b.at || a.name.localeCompare(b.name))
    .map((e) => e.name);
}

export function stemOf(name: string): string {
  const ext = extname(name);
  return ext ? basename(name, ext) : name;
}

/**
 * The first `stem`, `stem-1`, `stem-2` … for which none of `taken(stem)` exists: files in target folders are never
 * overwritten.
 */
export function freeStem(stem: string, paths: (candidate: string) => string[]): string {
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? stem : `${stem}-${n}`;
    if (!paths(candidate).some((p) => existsSync(p))) return candidate;
  }
}

/** Moves a file into a folder under a name not taken there yet (rename: atomic within one file system). */
export function moveWithoutOverwrite(from: string, dir: string, name: string): string {
  const ext = extname(name);
  const stem = freeStem(stemOf(name), (s) => [join(dir, s + ext)]);
  const to = join(dir, stem + ext);
  renameSync(from, to);
  return to;
}

/** Writes beside the target and renames into place, so a reader never sees half a file. */
export function writeFileAtomically(path: string, content: Buffer): void {
  const temporary = join(path, '..', `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, content);
    renameSync(temporary, path);
  } catch (err) {
    if (existsSync(temporary)) unlinkSync(temporary);
    throw err;
  }
}
