import { homedir } from 'node:os';
import { resolve } from 'node:path';

/** Without a files root given, the daemon keeps watched folders and printer files in its user's home directory. */
export function defaultFilesRoots(): string[] {
  return [homedir()];
}

/** Files roots: every `--files-root`, else `$PACKDESK_FILES_ROOT` (a `:`-separated list), else the home directory. */
export function resolveFilesRoots(flags: readonly string[], fromEnv = process.env.PACKDESK_FILES_ROOT): string[] {
  const given = flags.length > 0 ? flags : (fromEnv ?? '').split(':').filter((dir) => dir.trim() !== '');
  return given.length > 0 ? given.map((dir) => resolve(dir)) : defaultFilesRoots();
}
