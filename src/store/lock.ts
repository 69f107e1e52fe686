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
 * Holds an exclusive SQLite lock on `<dataDir>/daemon.lock` for the life of the daemon, whatever its store: a data
 * directory serves one daemon at a time. The operating system drops the lock when the process dies, even on
 * `kill -9`, so a crash never leaves a stale lock behind; the file keeps the holder's pid and daemon id.
 */
export class DataDirLock {
  /**
   * The daemon that held the lock before, known to be gone now that the lock is ours: its claims on a shared store can
   * be taken back at once (see src/services/leases.ts).
   */
  readonly previousDaemonId: string | undefined;

  private constructor(private readonly db: Database.Database, previousDaemonId: string | undefined) {
    this.previousDaemonId = previousDaemonId;
  }

  static acquire(dataDir: string, daemonId: string): DataDirLock {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const db = new Database(join(dataDir, 'daemon.lock'), sqliteOptions({ timeout: 0 }));
    try {
      db.pragma('journal_mode = DELETE');
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)');
      // a lock file of a version before daemon ids has no such column
      if (!(db.pragma('table_info(holder)') as { name: string }[]).some((c) => c.name === 'daemon_id')) db.exec('ALTER TABLE holder ADD COLUMN daemon_id TEXT');
      const previous = db.transaction(() => {
        const row = db.prepare('SELECT daemon_id FROM holder').get() as { daemon_id: string | null } | undefined;
        db.exec('DELETE FROM holder');
        db.prepare('INSERT INTO holder (pid, daemon_id) VALUES (?, ?)').run(process.pid, daemonId);
        return row?.daemon_id ?? undefined;
      })();
      return new DataDirLock(db, previous);
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
