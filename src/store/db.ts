import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema.js';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** Committed SQL migrations; found beside this file in src/ and from the compiled copy in dist/. */
function migrationsFolder(): string {
  const candidates = [
    fileURLToPath(new URL('./migrations', import.meta.url)),
    fileURLToPath(new URL('../../../src/store/migrations', import.meta.url)),
  ];
  const found = candidates.find((dir) => existsSync(join(dir, 'meta', '_journal.json')));
  if (!found) throw new Error(`migrations not found (looked in ${candidates.join(', ')})`);
  return found;
}

export const DB_FILE = 'packdesk.sqlite';

/** Opens (creating if needed) the store in `dataDir`, with WAL, foreign keys and a busy timeout, migrated. */
export function openDb(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const client = new Database(join(dataDir, DB_FILE));
  client.pragma('journal_mode = WAL');
  client.pragma('foreign_keys = ON');
  client.pragma('busy_timeout = 5000');
  client.pragma('synchronous = NORMAL');
  const db = drizzle(client, { schema }) as Db;
  migrate(db, { migrationsFolder: migrationsFolder() });
  return db;
}

const transactionRunners = new WeakMap<Database.Database, Database.Transaction<(fn: () => unknown) => unknown>>();

/** Runs `fn` in one immediate transaction (the writer lock is taken up front, so no upgrade deadlocks). */
export function inTransaction<T>(db: Db, fn: () => T): T {
  let runner = transactionRunners.get(db.$client);
  if (!runner) transactionRunners.set(db.$client, (runner = db.$client.transaction((body: () => unknown) => body())));
  return runner.immediate(fn) as T;
}

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** A prepared statement, prepared once per connection: for hot paths where building a query each time costs too much. */
export function statement(db: Db, sql: string): Database.Statement {
  let cache = statements.get(db.$client);
  if (!cache) statements.set(db.$client, (cache = new Map()));
  let prepared = cache.get(sql);
  if (!prepared) cache.set(sql, (prepared = db.$client.prepare(sql)));
  return prepared;
}
