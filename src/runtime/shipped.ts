import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Files packdesk ships beside its code (fonts, the PDF rasteriser's WebAssembly, migrations, the desk page, the SQLite
 * driver's addon): read from node_modules and the package when packdesk runs from npm, and from the executable's own
 * assets when it runs as one file (a Node single executable application, built by scripts/package.mjs).
 */

const require = createRequire(import.meta.url);

interface SingleExecutable {
  isSea(): boolean;
  getAsset(key: string): ArrayBuffer;
}

let sea: SingleExecutable | null | undefined;

/** The running single executable's assets, or null when packdesk runs on an installed Node. */
export function singleExecutable(): SingleExecutable | null {
  if (sea === undefined) {
    try {
      const found = require('node:sea') as SingleExecutable;
      sea = found.isSea() ? found : null;
    } catch {
      sea = null; // a Node without node:sea runs no single executable
    }
  }
  return sea;
}

/** Files of dependencies, by the asset name they have in the single executable. */
export const SHIPPED_FILES = {
  'DejaVuSans.ttf': 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  'DejaVuSans-Bold.ttf': 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  'pdfium.wasm': '@hyzyla/pdfium/pdfium.wasm',
} as const;

export type ShippedFile = keyof typeof SHIPPED_FILES;

export function shippedFile(name: ShippedFile): Buffer {
  const assets = singleExecutable();
  return assets ? Buffer.from(assets.getAsset(name)) : readFileSync(require.resolve(SHIPPED_FILES[name]));
}

/** A text asset of the single executable (the bundles of a folder, the conversion worker's code). */
export function executableAsset(name: string): string {
  return Buffer.from(singleExecutable()!.getAsset(name)).toString('utf8');
}

/** Where the single executable unpacks what must be a file on disk: a directory per content, so versions never mix. */
function unpackRoot(): string {
  const cache = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), '.cache') : tmpdir());
  return join(cache, 'packdesk');
}

/** Writes `files` (relative path → bytes) once under a directory named by their hash, and returns that directory. */
function unpacked(name: string, files: Record<string, Buffer>): string {
  const hash = createHash('sha256');
  for (const [path, bytes] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) hash.update(path).update('\0').update(bytes);
  const dir = join(unpackRoot(), `${name}-${hash.digest('hex').slice(0, 16)}`);
  for (const [path, bytes] of Object.entries(files)) {
    const target = join(dir, path);
    if (existsSync(target) && createHash('sha256').update(readFileSync(target)).digest('hex') === createHash('sha256').update(bytes).digest('hex')) continue;
    mkdirSync(dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.partial`;
    writeFileSync(partial, bytes, { mode: 0o644 });
    renameSync(partial, target); // whole or not at all, also when two processes unpack at once
  }
  return dir;
}

/** A folder the single executable carries as one JSON asset (`{ path: base64 }`), unpacked to disk. */
export function unpackedFolder(asset: string): string {
  const files = JSON.parse(executableAsset(asset)) as Record<string, string>;
  return unpacked(asset.replace(/\.json$/, ''), Object.fromEntries(Object.entries(files).map(([path, base64]) => [path, Buffer.from(base64, 'base64')])));
}

let sqliteAddon: object | undefined;

/**
 * The SQLite driver's native addon for better-sqlite3's `nativeBinding`: in a single executable, unpacked from its
 * assets (checked by hash) and loaded with process.dlopen; undefined otherwise (the driver finds its own build).
 */
export function sqliteNativeBinding(): object | undefined {
  const assets = singleExecutable();
  if (!assets) return undefined;
  if (!sqliteAddon) {
    const dir = unpacked('sqlite', { 'better_sqlite3.node': Buffer.from(assets.getAsset('better_sqlite3.node')) });
    const module = { exports: {} as object };
    process.dlopen(module, join(dir, 'better_sqlite3.node'));
    sqliteAddon = module.exports;
  }
  return sqliteAddon;
}
