import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, like, ne } from 'drizzle-orm';
import { parsePrinterUri } from '../../printers/index.js';
import { notARealDirectory } from '../files/no-follow.js';
import { checkPlace, fileErrorCode, type PlaceCheck } from '../files/places.js';
import { printers, watchedFolders } from '../store/schema.js';
import type { ServiceContext } from './context.js';

/** A file system that does not answer within this long is not waited for (an NFS server gone, a hung FUSE mount). */
export const PLACE_CHECK_TIMEOUT_MS = 3000;
const TOO_SLOW = `could not be checked within ${PLACE_CHECK_TIMEOUT_MS / 1000} s (a slow or unresponsive file system)`;

/** The directory of a `file:` printer URI; undefined for other schemes. */
export function filePrinterDirectory(uri: string): string | undefined {
  const parsed = parsePrinterUri(uri);
  return 'uri' in parsed && parsed.uri.protocol === 'file:' ? fileURLToPath(parsed.uri) : undefined;
}

/** Watched folders and `file:` printer directories of every account but this one. */
async function placesOfOtherAccounts(ctx: ServiceContext, accountId: string): Promise<string[]> {
  const folders = await ctx.db.select({ path: watchedFolders.path }).from(watchedFolders).where(ne(watchedFolders.accountId, accountId)).all();
  const filePrinters = await ctx.db.select({ uri: printers.uri }).from(printers)
    .where(and(ne(printers.accountId, accountId), like(printers.uri, 'file:%'))).all();
  return [
    ...folders.map((f) => f.path),
    ...filePrinters.map((p) => filePrinterDirectory(p.uri)).filter((dir): dir is string => dir !== undefined),
  ];
}

/** Real time, not the injected clock: this bounds how long a request waits on a file system. */
async function withinTimeLimit<T>(work: Promise<T>, onExpiry: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<T>((resolve) => { timer = setTimeout(() => resolve(onExpiry), PLACE_CHECK_TIMEOUT_MS); });
  try {
    return await Promise.race([work, expiry]);
  } finally {
    clearTimeout(timer);
  }
}

/** May this account use the directory at `path` (a watched folder, a printer directory)? Answered within 3 s. */
export async function checkDirectoryPlace(ctx: ServiceContext, accountId: string, path: string): Promise<PlaceCheck> {
  const policy = { roots: ctx.options.filesRoots, dataDir: ctx.dataDir, heldByOthers: await placesOfOtherAccounts(ctx, accountId) };
  const work = checkPlace(path, policy).catch((err: unknown) => ({ problems: [`cannot be checked (${fileErrorCode(err)})`], realPath: undefined }));
  return withinTimeLimit(work, { problems: [TOO_SLOW], realPath: undefined });
}

/**
 * Why directories whose place was checked cannot be used as they are, for people: each must be a real directory, as
 * a symbolic link in their place could lead out of the files root or into another account's folder.
 */
export async function realDirectoryProblems(dirs: readonly string[]): Promise<string[]> {
  const problems = await Promise.all(dirs.map(async (dir) => {
    const problem = await notARealDirectory(dir);
    return problem && `${dir} ${problem}`;
  }));
  return problems.filter((p): p is string => p !== undefined);
}

/** Creates directories whose place was checked (each a real directory), within 3 s; answers what went wrong, for people. */
export function createDirectories(dirs: string[]): Promise<string[]> {
  const work = (async () => {
    for (const dir of dirs) {
      await mkdir(dir, { recursive: true }).catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // a link or file in its place: said below
      });
    }
    return realDirectoryProblems(dirs);
  })().catch((err: unknown) => [`cannot be used by the daemon: ${fileErrorCode(err)}`]);
  return withinTimeLimit(work, [TOO_SLOW]);
}

/** Checks the directory at `path` for the account and creates it (with `subfolders` in it) when it may be used. */
export async function prepareDirectory(ctx: ServiceContext, accountId: string, path: string, subfolders: readonly string[] = []): Promise<string[]> {
  const checked = await checkDirectoryPlace(ctx, accountId, path);
  if (!checked.realPath) return checked.problems;
  const real = checked.realPath;
  return createDirectories(subfolders.length > 0 ? subfolders.map((name) => join(real, name)) : [real]);
}
