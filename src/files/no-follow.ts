import { constants } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';

/** A file that is not a plain file where one was expected: a symbolic link, a directory, a FIFO, a device … */
export class NotARegularFile extends Error {
  constructor(readonly path: string, readonly reason: 'symbolic link' | 'not a regular file') {
    super(reason === 'symbolic link' ? 'symbolic links are not imported' : 'only regular files are imported');
  }
}

/**
 * Opens a file for reading without following a symbolic link at its last component (O_NOFOLLOW), and without waiting
 * on a FIFO's writer (O_NONBLOCK); anything but a regular file is refused with `NotARegularFile`.
 */
export async function openRegularFile(path: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    // Linux answers ELOOP for a link under O_NOFOLLOW (some systems EMLINK)
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new NotARegularFile(path, 'symbolic link');
    throw err;
  }
  const stats = await handle.stat().catch(async (err: unknown) => {
    await handle.close();
    throw err;
  });
  if (!stats.isFile()) {
    await handle.close();
    throw new NotARegularFile(path, 'not a regular file');
  }
  return handle;
}

/** What is at `path` itself (lstat: a symbolic link is looked at, never followed), unless it is a regular file. */
export async function notARegularFile(path: string): Promise<NotARegularFile | undefined> {
  const stats = await lstat(path);
  if (stats.isSymbolicLink()) return new NotARegularFile(path, 'symbolic link');
  return stats.isFile() ? undefined : new NotARegularFile(path, 'not a regular file');
}

/** Why `path` is no real directory, for people (lstat: a symbolic link to a directory is none); undefined when it is one. */
export async function notARealDirectory(path: string): Promise<string | undefined> {
  try {
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) return 'is a symbolic link, which the daemon never follows';
    return stats.isDirectory() ? undefined : 'is not a directory';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'does not exist';
    throw err;
  }
}
