import { readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';

/** The sub-folders of a watched folder (SPEC §7). */
export const SUBFOLDERS = ['in', 'processing', 'done', 'failed', 'out'] as const;
export type Subfolder = (typeof SUBFOLDERS)[number];
export type FolderLayout = Record<Subfolder, string>;

export function folderLayout(path: string): FolderLayout {
  return Object.fromEntries(SUBFOLDERS.map((s) => [s, join(path, s)])) as FolderLayout;
}

const ORDER_FILE_EXTENSIONS = new Set(['.csv', '.txt', '.tsv']);

/**
 * Files the watcher takes from `in/`: .csv, .txt and .tsv. Hidden files, Office lock files (`~$…`) and names an ERP
 * writes under before renaming (`x.csv.part`, `x.csv.tmp`) are left alone.
 */
export function isOrderFileName(name: string): boolean {
  return !name.startsWith('.') && !name.startsWith('~') && ORDER_FILE_EXTENSIONS.has(extname(name).toLowerCase());
}

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

/** Order files waiting in a directory, oldest first (the order they were dropped in). */
export async function orderFilesIn(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
  const files = await Promise.all(entries.filter((e) => e.isFile() && isOrderFileName(e.name)).map(async (e) => {
    try {
      return { name: e.name, at: (await stat(join(dir, e.name))).mtimeMs };
    } catch (err) {
      if (isMissing(err)) return undefined; // taken away while listed
      throw err;
    }
  }));
  return files.filter((f) => f !== undefined).sort((a, b) => a.at - b.at || a.name.localeCompare(b.name)).map((f) => f.name);
}

export function stemOf(name: string): string {
  const ext = extname(name);
  return ext ? basename(name, ext) : name;
}

/**
 * The first `stem`, `stem-1`, `stem-2` … for which none of `taken(stem)` exists: files in target folders are never
 * overwritten.
 */
export async function freeStem(stem: string, paths: (candidate: string) => string[]): Promise<string> {
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? stem : `${stem}-${n}`;
    const taken = await Promise.all(paths(candidate).map(exists));
    if (!taken.includes(true)) return candidate;
  }
}

/** Moves a file into a folder under a name not taken there yet (rename: atomic within one file system). */
export async function moveWithoutOverwrite(from: string, dir: string, name: string): Promise<string> {
  const ext = extname(name);
  const stem = await freeStem(stemOf(name), (s) => [join(dir, s + ext)]);
  const to = join(dir, stem + ext);
  await rename(from, to);
  return to;
}

/** Writes beside the target and renames into place, so a reader never sees half a file. */
export async function writeFileAtomically(path: string, content: Buffer): Promise<void> {
  const temporary = join(path, '..', `.${basename(path)}.${process.pid}.tmp`);
  try {
    await writeFile(temporary, content);
    await rename(temporary, path);
  } catch (err) {
    await unlink(temporary).catch(() => undefined); // not written, or already renamed
    throw err;
  }
}
