import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, rmdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** Places a symbolic link in a files root may lead to, and the folder the links are made in. */
export interface LinkTargets {
  /** Where the links are made (inside a files root). */
  at: string;
  dataDir: string;
  /** A directory outside every files root. */
  outside: string;
  /** A watched folder of another account. */
  othersFolder: string;
  /** A directory inside the files root the links may rightly lead to. */
  inside: string;
}

/**
 * Symbolic links that lead out of the files root (to /etc, /, /proc/self, /dev/shm, the data directory, a directory
 * outside the roots, relatively up and out), to another account's folder, to a file, nowhere, round in a loop, and
 * one that stays inside; answers the paths to name through them (the links, and places under them).
 */
export function makeLinkedPlaces(targets: LinkTargets): string[] {
  mkdirSync(targets.at, { recursive: true });
  mkdirSync(targets.outside, { recursive: true });
  const file = join(targets.at, 'plain-file.txt');
  writeFileSync(file, 'not a directory\n');
  const links: Record<string, string> = {
    'to-etc': '/etc', 'to-root': '/', 'to-proc': '/proc/self', 'to-dev-shm': '/dev/shm', 'to-data': targets.dataDir, 'to-outside': targets.outside,
    'up-and-out': relative(targets.at, dirname(targets.outside)), 'to-others': targets.othersFolder, 'to-file': file, dangling: join(targets.outside, 'nowhere'),
    loop: 'loop', 'to-link-to-etc': 'to-etc', 'to-inside': targets.inside,
  };
  for (const [name, to] of Object.entries(links)) symlinkSync(to, join(targets.at, name));
  return [
    ...Object.keys(links).map((name) => join(targets.at, name)),
    join(targets.at, 'to-etc', 'ssh'), join(targets.at, 'to-outside', 'new-folder'), join(targets.at, 'to-data', 'uploads'),
    join(targets.at, 'dangling', 'below'), join(targets.at, 'to-file', 'below'), join(targets.at, 'to-inside', 'new-folder'),
    // `..` after a link: taken lexically it stays in the root, the kernel follows the link first and leaves it
    `${targets.at}/to-inside/../../..`, `${targets.at}/to-inside/../../../outside`, join(targets.at, 'up-and-out', 'x'),
  ];
}

/** Nothing where no file can be: absent, or a name longer than the file system takes (ENAMETOOLONG). */
function lstatOrNothing(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * Where the path leads once every symbolic link is followed, for a path that may not exist yet (from its nearest
 * existing ancestor), also through a dangling link (to where creating it would lead). A loop leads to itself.
 */
function realPlace(path: string, hops = 0): string {
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), relative(at, path));
    } catch {
      const entry = lstatOrNothing(at);
      if (entry?.isSymbolicLink() && hops < 40) return realPlace(join(resolve(dirname(at), readlinkSync(at)), relative(at, path)), hops + 1);
      if (at === dirname(at)) return path;
    }
  }
}

/**
 * Why a watched folder (`path`) or `file:` printer (`uri`) the daemon accepted, in a 2xx answer's `data` (one or a
 * list), names a place it must not use: outside the files root once symbolic links are followed, or no directory at all.
 */
export function acceptedPlaceProblem(answerText: string, filesRoot: string): string | undefined {
  let data: unknown;
  try {
    data = (JSON.parse(answerText) as { data?: unknown }).data;
  } catch {
    return undefined; // the oracle judges what is no JSON
  }
  const root = realpathSync(filesRoot);
  for (const item of Array.isArray(data) ? data : [data]) {
    const { path, uri } = (item ?? {}) as { path?: unknown; uri?: unknown };
    let place: string | undefined;
    if (typeof path === 'string') place = path;
    else if (typeof uri === 'string' && uri.startsWith('file:')) {
      try {
        place = fileURLToPath(uri);
      } catch (err) {
        return `accepted the printer URI ${uri}, which names no directory (${(err as Error).message})`;
      }
    }
    if (place === undefined) continue;
    const real = realPlace(place);
    if (!isAbsolute(place) || (real !== root && !real.startsWith(`${root}${sep}`))) return `accepted ${place}, which leads to ${real}, outside the files root`;
  }
  return undefined;
}
