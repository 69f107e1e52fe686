import { existsSync, lstatSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * System directories the fuzz names as watched folders and `file:` printer places, which a daemon must leave as they
 * are (not /dev/shm or /tmp: other programs come and go there).
 */
export const SYSTEM_PLACES = ['/', '/etc', '/dev'];

export type PlacesSnapshot = Map<string, Set<string>>;

export function snapshotPlaces(places: string[] = SYSTEM_PLACES): PlacesSnapshot {
  return new Map(places.filter((p) => existsSync(p)).map((p) => [p, new Set(readdirSync(p))]));
}

/** Takes away a directory tree that holds nothing but directories; leaves anything with a file in it. */
function removeEmptyTree(path: string): boolean {
  if (!statSync(path).isDirectory()) return false;
  const emptied = readdirSync(path).map((name) => removeEmptyTree(join(path, name))).every(Boolean);
  if (emptied) rmdirSync(path);
  return emptied;
}

/**
 * What appeared in the places since the snapshot. Directory trees without a file are taken away again, so a daemon
 * that makes folders where it must not leaves no trace on the machine; files are left for a person to look at.
 */
export function newInPlaces(before: PlacesSnapshot): string[] {
  // device nodes, sockets and links come and go in /dev by themselves; a daemon makes directories and files
  const appeared = [...before].flatMap(([place, names]) => readdirSync(place).filter((name) => !names.has(name)).map((name) => join(place, name)))
    .filter((path) => {
      const entry = lstatSync(path, { throwIfNoEntry: false });
      return entry !== undefined && (entry.isDirectory() || entry.isFile());
    });
  for (const path of appeared) removeEmptyTree(path);
  return appeared;
}
