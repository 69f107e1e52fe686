import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleProxy } from 'drizzle-orm/sqlite-proxy';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrationsFolder } from './db.js';
import * as schema from './schema.js';
import { isTransactionConflict, type Db, type DialectSql, type Store, type TransactionOptions } from './store.js';

const POSTGRES_SQL: DialectSql = {
  like: 'ILIKE',
  skipLocked: ' FOR UPDATE SKIP LOCKED',
  jsonValues: (expr) => sql`json_array_elements_text(${expr}::json)`,
  jsonArrayOf: sql`json_agg(value)::text`,
  // the expression index on lower(reference_number) answers this (migrations-pg)
  equalsIgnoringCase: (column) => `lower(${column}) = lower(?)`,
  // the array's element type is taken from the column it is compared with
  inList: (values) => ({ sql: '= ANY(?)', param: values }),
  // a sequence (migrations-pg), where reading max(seq) would hand concurrent transactions the same number
  nextShipmentSeq: "SELECT nextval('shipment_seq') AS seq",
};

/**
 * PostgreSQL (≥ 15) as the store several daemons share. Queries are the ones every dialect runs: drizzle renders them
 * from schema.ts, and they reach PostgreSQL with their `?` placeholders numbered; the tables are schema-pg.ts's, which
 * keep SQLite's names and storage (test/unit/store-schemas.test.ts holds the two in step).
 *
 * Transactions are SERIALIZABLE unless their caller names a weaker level it can do with (TransactionOptions).
 */

/** Numbers come back as numbers: times are Unix milliseconds in bigint columns, counts are bigint. */
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * Transactions of different daemons run side by side, each locking what it changes (see TransactionOptions). One that
 * conflicts with concurrent work (a serialization failure, a deadlock) is rolled back by PostgreSQL and run again, up to
 * TRANSACTION_ATTEMPTS times, after a random pause that doubles with the attempts; `conflicts` counts both outcomes.
 */
const TRANSACTION_ATTEMPTS = 10;
const RETRY_PAUSE_MS = 5;
const RETRY_PAUSE_MAX_MS = 250;

/** The first key of the advisory locks that put transactions `inTurn` (the second is the turn's name, hashed). */
const TURN_LOCKS = 0x7061636c; // "pacl"

/** A turn's name as a lock key: FNV-1a, as a signed 32-bit integer. */
function turnKey(name: string): number {
  let hash = 0x811c9dc5;
  for (const ch of name) hash = Math.imul(hash ^ ch.codePointAt(0)!, 0x01000193);
  return hash | 0;
}

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Statements prepared on each connection, by the text drizzle or a service renders (the same for the same query shape):
 * the server parses and plans each once per connection rather than at every run. Texts past this many are sent unnamed.
 */
const PREPARED_STATEMENTS = 2000;

/** The store could not be reached or brought up to date; the message names the server, never the URL's password. */
export class StoreUnavailableError extends Error {}

/** `postgres://user@host:port/database`: where a URL points, without its password, for messages and logs. */
export function describeDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StoreUnavailableError('the database URL is not a URL (postgres://user:password@host:port/database)');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new StoreUnavailableError(`the database URL must start with postgres:// (not ${parsed.protocol}//)`);
  }
  return `${parsed.protocol}//${parsed.username ? `${parsed.username}@` : ''}${parsed.host}${parsed.pathname}`;
}

/** Several daemons may start at once: one migrates while the others wait on this advisory lock. */
const MIGRATION_LOCK = 0x7061636b; // "pack"

interface OpenTransaction {
  client: pg.PoolClient;
  afterCommit: (() => void)[];
  announced: Set<string>;
}

/** The channel daemons announce notices on (LISTEN/NOTIFY); a listener that lost its connection connects again after this. */
const NOTICE_CHANNEL = 'packdesk';
const RELISTEN_MS = 1000;

/**
 * A statement as drizzle's SQLite builder renders it, in PostgreSQL's spelling: `?` placeholders numbered `$1, $2, …`
 * (question marks in string literals and quoted names stay), and the columns of an ON CONFLICT target without their
 * table (PostgreSQL refuses `"table"."column"` there).
 */
export function toPostgres(sql: string): string {
  return numberPlaceholders(sql).replace(/on conflict \(([^)]*)\)/g, (_, target: string) =>
    `on conflict (${target.replace(/"[^"]+"\./g, '')})`);
}

function numberPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | undefined;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = undefined;
      out += ch;
    } else if (ch === '\'' || ch === '"') {
      quote = ch;
      out += ch;
    } else {
      out += ch === '?' ? `$${++n}` : ch;
    }
  }
  return out;
}

export class PostgresStore implements Store {
  readonly dialect = 'postgres';
  readonly shared = true;
  /** Other daemons write to the store too: nothing read from it can be known current without reading it again. */
  readonly localWrites = undefined;
  readonly sql = POSTGRES_SQL;
  readonly db: Db;
  private readonly inside = new AsyncLocalStorage<OpenTransaction>();
  /** Statements in PostgreSQL's spelling; the named ones are prepared once per connection and run by name after. */
  private readonly statementsBySql = new Map<string, { text: string; name?: string }>();
  private sent = 0;
  readonly conflicts = { retried: 0, failed: 0 };

  private constructor(private readonly pool: pg.Pool, private readonly url: string) {
    this.db = drizzleProxy(async (sql, params, method) => {
      const result = await this.query(sql, params, method !== 'run');
      return { rows: method === 'get' ? result.rows[0] : method === 'run' ? [] : result.rows };
    }, { schema });
  }

  /** Connects to the database at `url` and brings its schema up to date. */
  static async open(url: string, options: { maxConnections?: number } = {}): Promise<PostgresStore> {
    const where = describeDatabaseUrl(url);
    const pool = new pg.Pool({
      connectionString: url, types, max: options.maxConnections ?? 10, application_name: 'packdesk', connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // an idle connection the server closed is dropped from the pool; the next query takes a fresh one
    pool.on('error', () => {});
    try {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        try {
          await migrate(drizzlePg(client), { migrationsFolder: migrationsFolder('migrations-pg') });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
        }
      } finally {
        client.release();
      }
    } catch (err) {
      await pool.end();
      throw new StoreUnavailableError(`cannot open the PostgreSQL store at ${where}: ${(err as Error).message}`);
    }
    return new PostgresStore(pool, url);
  }

  /**
   * Ends a transaction in one round trip: its notices, COMMIT and the giving back of its turn's lock. The lock is
   * taken before BEGIN, so the snapshot follows the commit of the transaction before it in turn.
   */
  async transaction<T>(fn: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    if (this.inside.getStore()) return fn();
    const turn = options.inTurn === undefined ? undefined : `${TURN_LOCKS}, ${turnKey(options.inTurn)}`;
    const begin = `BEGIN ISOLATION LEVEL ${options.isolation === 'read committed' ? 'READ COMMITTED' : 'SERIALIZABLE'}`;
    const unlock = turn ? `; SELECT pg_advisory_unlock(${turn})` : '';
    const client = await this.pool.connect();
    let locked = false;
    let lost: Error | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        const open: OpenTransaction = { client, afterCommit: [], announced: new Set() };
        try {
          // the lock of a turn is kept while the transaction is tried again; it cannot share BEGIN's round trip, which
          // must open the transaction block the lock would otherwise have opened
          if (turn && !locked) {
            locked = true;
            await this.send(client, `SELECT pg_advisory_lock(${turn})`);
          }
          await this.send(client, begin);
          const result = await this.inside.run(open, fn);
          // notices are delivered when the transaction commits, not before
          const notices = [...open.announced].map((n) => `SELECT pg_notify('${NOTICE_CHANNEL}', ${client.escapeLiteral(n)}); `).join('');
          await this.send(client, `${notices}COMMIT${unlock}`);
          locked = false;
          for (const notify of open.afterCommit) notify();
          return result;
        } catch (err) {
          await this.send(client, 'ROLLBACK').catch(() => {});
          if (!isTransactionConflict(err)) throw err;
          if (attempt >= TRANSACTION_ATTEMPTS) {
            this.conflicts.failed++;
            throw err;
          }
          this.conflicts.retried++;
          await sleep(Math.random() * Math.min(RETRY_PAUSE_MAX_MS, RETRY_PAUSE_MS * 2 ** attempt));
        }
      }
    } finally {
      if (locked) await this.send(client, `SELECT pg_advisory_unlock(${turn})`).catch((err: Error) => { lost = err; });
      // a connection that could not give the lock back is closed, which gives it back
      client.release(lost);
    }
  }

  afterCommit(fn: () => void): void {
    const open = this.inside.getStore();
    if (open) open.afterCommit.push(fn);
    else fn();
  }

  /** Other daemons write to it all the time: no count can vouch for what was read. */
  writesByOthers(): undefined {
    return undefined;
  }

  announce(notice: string): void {
    const open = this.inside.getStore();
    if (open) open.announced.add(notice);
    // a notice that does not arrive costs a worker's next look at most (they look every second)
    else this.send(this.pool, 'SELECT pg_notify($1, $2)', [NOTICE_CHANNEL, notice]).catch(() => {});
  }

  /** Listens on a connection of its own, connecting again while it runs when the connection is lost. */
  async listen(listener: (notice: string) => void): Promise<() => Promise<void>> {
    let client: pg.Client | undefined;
    let stopped = false;
    let retry: NodeJS.Timeout | undefined;
    const later = () => {
      if (!stopped) retry = setTimeout(() => void connect().catch(later), RELISTEN_MS).unref();
    };
    const connect = async (): Promise<void> => {
      const next = new pg.Client({ connectionString: this.url, application_name: 'packdesk notices' });
      next.on('notification', (message) => { if (message.payload) listener(message.payload); });
      next.on('error', () => void next.end().catch(() => {}));
      next.on('end', () => { if (client === next) later(); });
      await next.connect();
      await next.query(`LISTEN ${NOTICE_CHANNEL}`);
      client = next;
    };
    await connect();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    };
  }

  async all<T>(sql: string, ...params: unknown[]): Promise<T[]> {
    return (await this.query(sql, params, false)).rows as T[];
  }

  async get<T>(sql: string, ...params: unknown[]): Promise<T | undefined> {
    return (await this.query(sql, params, false)).rows[0] as T | undefined;
  }

  async run(sql: string, ...params: unknown[]): Promise<number> {
    return (await this.query(sql, params, false)).rowCount ?? 0;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** A connection of its own, outside the pool's work (LISTEN). */
  connect(): Promise<pg.PoolClient> {
    return this.pool.connect();
  }

  get statements(): number {
    return this.sent;
  }

  /** One round trip to the server. */
  private send(on: pg.Pool | pg.PoolClient, text: string, values: unknown[] = [], arrays = false, name?: string): Promise<pg.QueryResult> {
    this.sent++;
    return on.query({ text, values, ...(name ? { name } : {}), ...(arrays ? { rowMode: 'array' as const } : {}) });
  }

  private query(sql: string, params: unknown[], arrays: boolean): Promise<pg.QueryResult> {
    let statement = this.statementsBySql.get(sql);
    if (statement === undefined) {
      statement = { text: toPostgres(sql) };
      if (this.statementsBySql.size < PREPARED_STATEMENTS) {
        statement.name = `packdesk_${this.statementsBySql.size}`;
        this.statementsBySql.set(sql, statement);
      }
    }
    return this.send(this.inside.getStore()?.client ?? this.pool, statement.text, params, arrays, statement.name);
  }
}
