import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle, type SqliteRemoteDatabase } from 'drizzle-orm/sqlite-proxy';
import * as schema from './schema.js';

/**
 * The one way services reach the store, the same on every dialect: drizzle's query builder over `schema.ts` (`db`),
 * plain statements for the few hot or dialect-specific paths, and transactions. Everything is asynchronous; on SQLite
 * the work itself runs synchronously in-process, on PostgreSQL over a connection pool.
 */
export type Db = SqliteRemoteDatabase<typeof schema>;

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  readonly dialect: Dialect;
  /**
   * Several daemons may work on this store at once (PostgreSQL). Claims left by a daemon that died are then taken
   * again when their leases run out, never at another daemon's start: they may be a live daemon's.
   */
  readonly shared: boolean;
  /**
   * How many statements that write this process has run, on a store no other process writes to (SQLite); undefined on
   * a shared store. A value read from the store stays current while this count stays the same.
   */
  readonly localWrites: number | undefined;
  /**
   * Changes whenever another process (the CLI's `keys revoke`, a `sqlite3` shell) committed a write to this SQLite
   * store; undefined on a shared store. With `localWrites`, what was read stays current while both stay the same.
   */
  writesByOthers(): number | undefined;
  readonly db: Db;
  /** The words of SQL the dialects spell differently; statements use them instead of branching. */
  readonly sql: DialectSql;
  /**
   * Runs `fn` in one transaction: every query made while it runs, on `db` or on this store, belongs to it. A call
   * inside a running transaction joins it (and its options). On SQLite the writer lock is taken up front (no upgrade
   * deadlocks) and transactions run one at a time, whatever the options say.
   */
  transaction<T>(fn: () => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Statements run so far, for counting what a use case costs (on PostgreSQL every round trip: BEGIN, COMMIT, locks). */
  readonly statements: number;
  /** Transactions a shared store gave up for a conflict with other work and ran again, and those it ran out of attempts for. */
  readonly conflicts: { retried: number; failed: number };
  /** Runs `fn` once the current transaction has committed (at once outside one); dropped if it rolls back. */
  afterCommit(fn: () => void): void;
  /** Tells the other daemons of a shared store `notice` once the current transaction has committed (see `listen`). */
  announce(notice: string): void;
  /** Calls `listener` with the notices daemons announce on a shared store; resolves to a function that stops it. */
  listen(listener: (notice: string) => void): Promise<() => Promise<void>>;
  /** A plain statement with `?` placeholders; rows come as objects keyed by the selected names. */
  all<T>(sql: string, ...params: unknown[]): Promise<T[]>;
  get<T>(sql: string, ...params: unknown[]): Promise<T | undefined>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, ...params: unknown[]): Promise<number>;
  close(): Promise<void>;
}

/**
 * How a transaction keeps its invariants on a shared store (PostgreSQL); each caller that chooses says why.
 * - `serializable` (the default): as if transactions ran one at a time. A conflict with concurrent work rolls it back
 *   and runs it again.
 * - `read committed`: each statement sees what was committed before it; enough where the use case's rows are its own
 *   (a shipment it inserts, a subject its job holds) or locked by the statements that change them, and where unique
 *   constraints and `ON CONFLICT` decide between concurrent writers.
 * `inTurn`: transactions given the same name run one at a time across daemons (an advisory lock taken before BEGIN, so
 * each one's snapshot follows the previous one's commit), for steps that would otherwise all conflict with each other.
 */
export interface TransactionOptions {
  isolation?: 'serializable' | 'read committed';
  inTurn?: string;
}

/** The driver's error code (SQLite's name, PostgreSQL's SQLSTATE) of a failed statement. */
function driverErrorCode(err: unknown): string | undefined {
  // drizzle wraps the driver's error (DrizzleQueryError) and keeps it as the cause
  const driverError = (err as { cause?: unknown } | null)?.cause ?? err;
  return (driverError as { code?: string } | null)?.code;
}

/**
 * PostgreSQL gave the transaction up for a conflict with other work (a serialization failure, a deadlock): the store
 * runs the whole transaction again, so code inside it must let the error through rather than handle it.
 */
export function isTransactionConflict(err: unknown): boolean {
  const code = driverErrorCode(err);
  return code === '40001' || code === '40P01';
}

/** The statement broke a unique index or primary key, on either dialect. */
export function isUniqueViolation(err: unknown): boolean {
  const code = driverErrorCode(err);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

export interface DialectSql {
  /** LIKE without regard to case (SQLite's LIKE is so for ASCII). */
  like: 'LIKE' | 'ILIKE';
  /** Ends the subquery that picks rows to claim: on PostgreSQL rows another daemon is claiming are passed over. */
  skipLocked: string;
  /** A table of the strings in the JSON array (text) `expr` holds, in one column `value`. */
  jsonValues(expr: SQL): SQL;
  /** The JSON array (text) of the `value`s an aggregate query selects. */
  jsonArrayOf: SQL;
  /** `column` equals the one parameter without regard to case. */
  equalsIgnoringCase(column: string): string;
  /** "is one of `values`" as one parameter, for lists of any length: the SQL after the column, and the parameter. */
  inList(values: readonly (string | number)[]): { sql: string; param: unknown };
  /** Selects the `seq` of the next shipment: unique across daemons (SQLite has one writer at a time). */
  nextShipmentSeq: string;
}

const SQLITE_SQL: DialectSql = {
  like: 'LIKE',
  skipLocked: '',
  jsonValues: (expr) => sql`json_each(${expr})`,
  jsonArrayOf: sql`json_group_array(value)`,
  equalsIgnoringCase: (column) => `${column} = ? COLLATE NOCASE`,
  inList: (values) => ({ sql: 'IN (SELECT value FROM json_each(?))', param: JSON.stringify(values) }),
  nextShipmentSeq: 'SELECT coalesce(max(seq), 0) + 1 AS seq FROM shipments',
};

type Method = 'run' | 'all' | 'values' | 'get';

interface OpenTransaction {
  token: object;
  done: Promise<void>;
  afterCommit: (() => void)[];
}

/** Prepared statements kept per connection; drizzle renders the same text for the same query shape. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * SQLite through one better-sqlite3 connection. A transaction owns the connection while it runs: queries from other
 * work wait until it ends, so an awaiting transaction never takes in someone else's writes.
 */
export class SqliteStore implements Store {
  readonly dialect = 'sqlite';
  readonly shared = false;
  readonly sql = SQLITE_SQL;
  readonly db: Db;
  private readonly arrayRows = new Map<string, Database.Statement>();
  private readonly objectRows = new Map<string, Database.Statement>();
  private readonly inside = new AsyncLocalStorage<object>();
  private open: OpenTransaction | undefined;
  private writes = 0;
  private executed = 0;
  private readonly dataVersion: Database.Statement;

  constructor(readonly client: Database.Database) {
    this.db = drizzle((sql, params, method) => this.whenFree(() => this.execute(sql, params, method)), { schema });
    this.dataVersion = client.prepare('PRAGMA data_version').pluck();
  }

  get statements(): number {
    return this.executed;
  }

  get localWrites(): number {
    return this.writes;
  }

  /** SQLite's `data_version`: it moves only for commits of other connections, never for this one's own. */
  writesByOthers(): number {
    return this.dataVersion.get() as number;
  }

  /** One connection, one transaction at a time: nothing conflicts. */
  readonly conflicts = { retried: 0, failed: 0 };

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.open && this.inside.getStore() === this.open.token) return fn();
    // checked and taken in one turn: of several waiting transactions, the first to find it free holds it
    while (this.open) await this.open.done;
    let finished!: () => void;
    const open: OpenTransaction = { token: {}, done: new Promise((resolve) => (finished = resolve)), afterCommit: [] };
    this.open = open;
    let result: T;
    try {
      this.client.exec('BEGIN IMMEDIATE');
      try {
        result = await this.inside.run(open.token, fn);
        this.client.exec('COMMIT');
      } catch (err) {
        if (this.client.inTransaction) this.client.exec('ROLLBACK');
        throw err;
      }
    } finally {
      this.open = undefined;
      finished();
    }
    for (const notify of open.afterCommit) notify();
    return result;
  }

  afterCommit(fn: () => void): void {
    if (this.open && this.inside.getStore() === this.open.token) this.open.afterCommit.push(fn);
    else fn();
  }

  /** One daemon per SQLite store: its own notices are all there is. */
  announce(): void {}

  async listen(): Promise<() => Promise<void>> {
    return async () => {};
  }

  all<T>(sql: string, ...params: unknown[]): Promise<T[]> {
    return this.whenFree(() => this.prepared(sql, this.objectRows).all(...params) as T[]);
  }

  get<T>(sql: string, ...params: unknown[]): Promise<T | undefined> {
    return this.whenFree(() => this.prepared(sql, this.objectRows).get(...params) as T | undefined);
  }

  run(sql: string, ...params: unknown[]): Promise<number> {
    return this.whenFree(() => this.prepared(sql, this.objectRows).run(...params).changes);
  }

  async close(): Promise<void> {
    while (this.open) await this.open.done;
    if (this.client.open) this.client.close();
  }

  /**
   * Runs `work` once no transaction of other work holds the connection, in the same turn as it finds it free, so a
   * transaction that starts meanwhile cannot take it in.
   */
  private async whenFree<T>(work: () => T): Promise<T> {
    while (this.open && this.inside.getStore() !== this.open.token) await this.open.done;
    return work();
  }

  /** drizzle's side: rows as arrays in the order of the selected columns. */
  private execute(sql: string, params: unknown[], method: Method): { rows: unknown[] } {
    const stmt = this.prepared(sql, this.arrayRows);
    if (method === 'run' || !stmt.reader) {
      stmt.run(...params);
      return { rows: [] };
    }
    return { rows: method === 'get' ? stmt.get(...params) as unknown[] : stmt.all(...params) };
  }

  /** A prepared statement of `cache` (rows as arrays for drizzle, as objects for plain statements: each set once). */
  private prepared(sql: string, cache: Map<string, Database.Statement>): Database.Statement {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = this.client.prepare(sql);
      if (cache === this.arrayRows && stmt.reader) stmt.raw(true);
      // the statement prepared longest ago makes room (the hot ones are prepared again at once)
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(sql, stmt);
    }
    // every statement fetched here runs at once
    this.executed++;
    if (!stmt.readonly) this.writes++;
    return stmt;
  }
}
