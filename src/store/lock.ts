import Database from 'better-sqlite3';
import { sqliteOptions } from './db.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string, readonly holderPid: number | null) {
    super(`another packdesk daemon${holderPid ? ` (pid ${holderPid})` : ''} is using the data directory ${dataDir}`);
  }
}

/**
 * Holds an exclusive SQLite lock on `<dataDir>/daemon.lock` for the life of the daemon. The operating system
 * drops the lock when the process dies, even on `kill -9`, so a crash never leaves a stale lock behind.
 */
export class DataDirLock {
  private constructor(private readonly db: Database.Database) {}

  static acquire(dataDir: string): DataDirLock {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const db = new Database(join(dataDir, 'daemon.lock'), sqliteOptions({ timeout: 0 }));
    try {
      db.pragma('journal_mode = DELETE');
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)');
      db.transaction(() => {
        db.exec('DELETE FROM holder');
        db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
      })();
      return new DataDirLock(db);
    } catch (err) {
      db.close();
      if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirLockedError(dataDir, readHolder(dataDir));
      throw err;
    }
  }

  release(): void {
    if (this.db.open) this.db.close();
  }
}

function readHolder(dataDir: string): number | null {
  // While the holder lives its lock blocks reads too; the pid is only a hint for the message.
  try {
    const db = new Database(join(dataDir, 'daemon.lock'), sqliteOptions({ readonly: true, timeout: 0 }));
    try {
      return (db.prepare('SELECT pid FROM holder').get() as { pid: number } | undefined)?.pid ?? null;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}
