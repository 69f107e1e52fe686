import { lstat, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';

/** The sub-folders of a watched folder (SPEC §7). */
export const SUBFOLDERS = ['in', 'processing', 'done', 'failed', 'out'] as const;
export type Subfolder = (typeof SUBFOLDERS)[number];
export type FolderLayout = Record<Subfolder, string>;

export function folderLayout(path: string): FolderLayout {
  return Object.fromEntries(SUBFOLDERS.map((s) => [s, join(path, s)])) as FolderLayout;
}

const ORDER_FILE_EXTENSIONS = new Set(['.csv', '.txt', '.tsv', '.xml']);

/**
 * Files the watcher takes from `in/`: .csv, .txt, .tsv and .xml. Hidden files, Office lock files (`~$…`) and names an ERP
 * writes under before renaming (`x.csv.part`, `x.csv.tmp`) are left alone.
 */
export function isOrderFileName(name: string): boolean {
  return !name.startsWith('.') && !name.startsWith('~') && ORDER_FILE_EXTENSIONS.has(extname(name).toLowerCase());
}

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** A symbolic link, even a broken one, is something there (lstat). */
async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

/**
 * Entries with an order file's name waiting in a directory, oldest first (the order they were dropped in). Symbolic
 * links, FIFOs and directories are listed too, each by its own time (lstat), so that they are refused, never followed.
 */
export async function orderFilesIn(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
  const files = await Promise.all(entries.filter((e) => isOrderFileName(e.name)).map(async (e) => {
    try {
      return { name: e.name, at: (await lstat(join(dir, e.name))).mtimeMs };
    } catch (err) {
      if (isMissing(err)) return undefined; // taken away while listed
      throw err;
    }
  }));
  return files.filter((f) => f !== undefined).sort((a, b) => a.at - b.at || a.name.localeCompare(b.name)).map((f) => f.name);
}

/** Stems are cut to this many bytes, so `<stem>-N.errors.csv` fits in the 255 bytes a file system takes for a name. */
const MAX_STEM_BYTES = 200;

/** The name without its extension, cut at a character boundary to `MAX_STEM_BYTES`. */
export function stemOf(name: string): string {
  const ext = extname(name);
  let stem = ext ? basename(name, ext) : name;
  while (Buffer.byteLength(stem) > MAX_STEM_BYTES) stem = [...stem].slice(0, -1).join('');
  return stem;
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

/**
 * Writes beside the target and renames into place, so a reader never sees half a file. The temporary file is created
 * new (O_EXCL): a symbolic link left under its name is never written through.
 */
export async function writeFileAtomically(path: string, content: Buffer | AsyncIterable<Uint8Array>): Promise<void> {
  const temporary = join(path, '..', `.${basename(path)}.${process.pid}.tmp`);
  try {
    await unlink(temporary).catch(() => undefined); // a crash's leftover, or a link: removed, never followed
    await writeFile(temporary, content, { flag: 'wx' });
    await rename(temporary, path);
  } catch (err) {
    await unlink(temporary).catch(() => undefined); // not written, or already renamed
    throw err;
  }
}
