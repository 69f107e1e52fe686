import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { singleExecutable, sqliteNativeBinding, unpackedFolder } from '../runtime/shipped.js';
import { SqliteStore } from './store.js';

/**
 * Committed SQL migrations of a dialect (`migrations` for SQLite, `migrations-pg` for PostgreSQL); found beside this
 * file in src/ and from the compiled copy in dist/, or in the single executable.
 */
export function migrationsFolder(name: 'migrations' | 'migrations-pg'): string {
  if (singleExecutable()) return unpackedFolder(`${name}.json`);
  const candidates = [
    fileURLToPath(new URL(`./${name}`, import.meta.url)),
    fileURLToPath(new URL(`../../../src/store/${name}`, import.meta.url)),
  ];
  const found = candidates.find((dir) => existsSync(join(dir, 'meta', '_journal.json')));
  if (!found) throw new Error(`migrations not found (looked in ${candidates.join(', ')})`);
  return found;
}

export const DB_FILE = 'packdesk.sqlite';

/** better-sqlite3's options with the driver's addon when packdesk carries it itself (its types know only the path form). */
export function sqliteOptions(options: Database.Options = {}): Database.Options {
  const binding = sqliteNativeBinding();
  return binding ? { ...options, nativeBinding: binding as unknown as string } : options;
}

/** A store made before incremental auto-vacuum is converted at start-up only up to this size (a VACUUM of it takes well under a second). */
export const QUICK_VACUUM_MAX_BYTES = 32 * 1024 * 1024;
/** After a checkpoint the WAL file is cut back to this size, so one large transaction does not leave a large file behind. */
const WAL_SIZE_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * Opens (creating if needed) the store in `dataDir`, with WAL, foreign keys and a busy timeout, migrated. New stores
 * use incremental auto-vacuum, so pages freed by pruning can be handed back to the file system (`releaseFreePages`).
 */
export function openDb(dataDir: string): SqliteStore {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, DB_FILE);
  const client = new Database(path, sqliteOptions());
  // takes effect only on an empty store, and must come before WAL mode writes the file's header
  client.pragma('auto_vacuum = INCREMENTAL');
  client.pragma('journal_mode = WAL');
  client.pragma('busy_timeout = 5000');
  client.pragma('synchronous = NORMAL');
  client.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  // SQLite's way to rebuild a table: with foreign keys off, so dropping the old table sets no child row's key to null
  client.pragma('foreign_keys = OFF');
  migrate(drizzle(client), { migrationsFolder: migrationsFolder('migrations') });
  const broken = client.pragma('foreign_key_check') as unknown[];
  if (broken.length > 0) throw new Error(`the store's migration left ${broken.length} rows whose foreign keys point nowhere`);
  client.pragma('foreign_keys = ON');
  convertSmallStoreToIncrementalVacuum(client, path);
  return new SqliteStore(client);
}

export type AutoVacuumMode = 'none' | 'full' | 'incremental';

export function autoVacuumMode(client: Database.Database): AutoVacuumMode {
  const mode = client.pragma('auto_vacuum', { simple: true }) as number;
  return mode === 2 ? 'incremental' : mode === 1 ? 'full' : 'none';
}

/**
 * A store created before incremental auto-vacuum keeps its freed pages for reuse but never shrinks. A small one is
 * converted with a one-time VACUUM; a large one is left as it is (a VACUUM copies the whole file), and a VACUUM that
 * cannot get the store now (another process writes) is tried again at the next start.
 */
function convertSmallStoreToIncrementalVacuum(client: Database.Database, path: string): void {
  if (client.pragma('auto_vacuum', { simple: true }) !== 0) return;
  if (statSync(path).size > QUICK_VACUUM_MAX_BYTES) return;
  try {
    client.exec('VACUUM');
  } catch {
    // busy: stays as it is until the next start
  }
}

/**
 * Hands up to `maxPages` free pages back to the file system (incremental auto-vacuum); returns how many went. A
 * no-op on a store without incremental auto-vacuum, whose free pages are reused by later writes instead.
 */
export function releaseFreePages(client: Database.Database, maxPages: number): number {
  const before = client.pragma('freelist_count', { simple: true }) as number;
  if (before === 0 || autoVacuumMode(client) !== 'incremental') return 0;
  // exec steps the pragma to its end; a prepared statement's run() would free a single page
  client.exec(`PRAGMA incremental_vacuum(${Math.max(1, Math.floor(maxPages))})`);
  return before - (client.pragma('freelist_count', { simple: true }) as number);
}
