import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { PSEUDO_FILE_SYSTEMS, SYSTEM_DIRECTORIES } from './system-places.js';

/**
 * The files policy: where the daemon may keep a watched folder or a `file:` printer's directory for an account. Every
 * check is asynchronous (a slow file system never blocks the event loop), and nothing is created here.
 */
export interface FilesPolicy {
  /** The directories a station admin allows (`packdesk daemon --files-root DIR`). */
  roots: readonly string[];
  /** The daemon's own data directory (the store, uploads): never used, contained or lain in. */
  dataDir: string;
  /** Watched folders and printer directories of other accounts. */
  heldByOthers: readonly string[];
}

export interface PlaceCheck {
  /** Why the daemon may not use the directory, for people; empty when it may. */
  problems: string[];
  /** The directory with every symbolic link resolved, when it may be used: what to create and write. */
  realPath: string | undefined;
}

const WIDEN_FILES_ROOTS = 'packdesk daemon --files-root DIR';

/** True when `inner` is `outer` or lies under it. */
export function isWithin(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);
}

/** `EACCES`, `ENOTDIR` …: the file system's word for what went wrong. */
export function fileErrorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

const refused = (problem: string): PlaceCheck => ({ problems: [problem], realPath: undefined });

/** The path itself, or its nearest ancestor that exists (a symbolic link at the end is not followed). */
async function nearestExisting(path: string): Promise<string> {
  for (let at = path; ; at = dirname(at)) {
    try {
      await fs.lstat(at);
      return at;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || at === dirname(at)) throw err;
    }
  }
}

async function realOrResolved(path: string): Promise<string> {
  try {
    return await fs.realpath(path);
  } catch {
    return resolve(path);
  }
}

/** The name of the kernel or pseudo file system `path` is on; statfs magic numbers are Linux's (elsewhere the path rule alone). */
async function pseudoFileSystemOf(path: string): Promise<string | undefined> {
  if (process.platform !== 'linux' || typeof fs.statfs !== 'function') return undefined;
  try {
    const { type } = await fs.statfs(path);
    return PSEUDO_FILE_SYSTEMS.get(Number(type) >>> 0);
  } catch {
    return undefined;
  }
}

function systemDirectoryOf(path: string): string | undefined {
  return SYSTEM_DIRECTORIES.find((dir) => isWithin(path, dir));
}

function dataDirProblem(path: string, dataDir: string): string | undefined {
  if (path === dataDir) return "is the daemon's data directory";
  if (isWithin(path, dataDir)) return "lies inside the daemon's data directory";
  if (isWithin(dataDir, path)) return "contains the daemon's data directory";
  return undefined;
}

/**
 * May the daemon use the directory at `path` (a watched folder, a `file:` printer's directory) for an account? Checked
 * in this order: an absolute path; its real location (symbolic links resolved) within a files root; not a system
 * directory nor on a pseudo file system; not the data directory; a directory (or creatable under one) the daemon can
 * write; not held by another account.
 */
export async function checkPlace(path: string, policy: FilesPolicy): Promise<PlaceCheck> {
  if (!isAbsolute(path)) return refused('must be an absolute path (the daemon resolves nothing against its own working directory)');
  const wanted = resolve(path);
  let existing: string;
  let realExisting: string;
  try {
    existing = await nearestExisting(wanted);
    realExisting = await fs.realpath(existing);
  } catch (err) {
    const code = fileErrorCode(err);
    return refused(code === 'ENOENT' ? 'leads through a broken symbolic link' : `cannot be checked (${code})`);
  }
  const real = join(realExisting, relative(existing, wanted));

  const problems: string[] = [];
  const roots = await Promise.all(policy.roots.map(realOrResolved));
  if (!roots.some((root) => isWithin(real, root))) {
    const leads = real === wanted ? '' : ` (it leads to ${real})`;
    problems.push(`must lie within a directory the daemon may use${leads}: ${policy.roots.join(', ')}; a station admin allows another with \`${WIDEN_FILES_ROOTS}\``);
  }
  const system = systemDirectoryOf(wanted) ?? systemDirectoryOf(real);
  if (system) problems.push(`lies in ${system}, a system directory the daemon never writes to`);
  const pseudo = await pseudoFileSystemOf(realExisting);
  if (pseudo) problems.push(`is on a ${pseudo} file system, which the daemon never writes to`);
  if (problems.length > 0) return { problems, realPath: undefined };

  const ownData = dataDirProblem(real, await realOrResolved(policy.dataDir));
  if (ownData) return refused(ownData);

  try {
    if (!(await fs.stat(realExisting)).isDirectory()) {
      return refused(existing === wanted ? 'is a file, not a directory' : `lies under ${existing}, which is a file, not a directory`);
    }
    await fs.access(realExisting, constants.W_OK);
  } catch (err) {
    const code = fileErrorCode(err);
    if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') return refused(`cannot be checked (${code})`);
    return refused(existing === wanted ? 'is not writable by the daemon' : `cannot be created: ${existing} is not writable by the daemon`);
  }

  const held = (await Promise.all(policy.heldByOthers.map(async (p) => [resolve(p), await realOrResolved(p)]))).flat();
  const overlaps = (other: string) => [wanted, real].some((mine) => isWithin(mine, other) || isWithin(other, mine));
  if (held.some(overlaps)) return refused('is used by another account');
  return { problems: [], realPath: real };
}
