import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Column, getTableName, is, SQL, type Table } from 'drizzle-orm';
import { getTableConfig as sqliteTableConfig, SQLiteSyncDialect, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { getTableConfig as pgTableConfig, PgDialect, PgTable } from 'drizzle-orm/pg-core';
import * as sqliteSchema from '../../src/store/schema.js';
import * as pgSchema from '../../src/store/schema-pg.js';

/** Tables whose statements use SQLite's implicit rowid: PostgreSQL has it as an explicit identity column. */
const ROWID_TABLES = ['desk_sessions', 'events', 'idempotency_keys', 'jobs', 'orders', 'print_jobs', 'tracking_parcels', 'tracking_updates', 'webhook_deliveries'];

/** The PostgreSQL type each SQLite column type is stored in: it takes the same parameters and gives back the same values. */
const PG_TYPES: Record<string, { columnType: string; sqlType: string }> = {
  SQLiteText: { columnType: 'PgText', sqlType: 'text' },
  SQLiteTextJson: { columnType: 'PgText', sqlType: 'text' },
  SQLiteInteger: { columnType: 'PgBigInt53', sqlType: 'bigint' },
  SQLiteBoolean: { columnType: 'PgInteger', sqlType: 'integer' },
  SQLiteReal: { columnType: 'PgDoublePrecision', sqlType: 'double precision' },
  SQLiteBlobBuffer: { columnType: 'PgCustomColumn', sqlType: 'bytea' },
};

const sqliteTables = new Map<string, SQLiteTable>(Object.values(sqliteSchema).filter((t) => is(t, SQLiteTable)).map((t) => [getTableName(t), t]));
const pgTables = new Map<string, PgTable>(Object.values(pgSchema).filter((t) => is(t, PgTable)).map((t) => [getTableName(t), t]));

/** What both dialects' table configs have in common. */
interface TableConfig {
  columns: Column[];
  primaryKeys: { columns: Column[] }[];
  foreignKeys: { reference(): { columns: Column[]; foreignTable: Table; foreignColumns: Column[] }; onDelete?: string; onUpdate?: string }[];
  indexes: { config: { name?: string; columns: unknown[]; unique: boolean; where?: SQL } }[];
}

/**
 * A table as the store sees it, with SQL fragments rendered by the table's own dialect. `explicitRowid` leaves out
 * PostgreSQL's rowid column and its unique index, which SQLite has implicitly.
 */
function shape(config: TableConfig, render: (fragment: SQL) => string, explicitRowid = false) {
  const text = (fragment: SQL) => render(fragment.inlineParams());
  const names = (columns: unknown[]) => columns.map((c) => (is(c, SQL) ? text(c) : (c as { name: string }).name));
  const columns = config.columns.filter((c) => !(explicitRowid && c.name === 'rowid'));
  return {
    columns: Object.fromEntries(columns.map((c) => [c.name, {
      notNull: c.notNull, hasDefault: c.hasDefault, default: is(c.default, SQL) ? text(c.default) : c.default, unique: c.isUnique, enumValues: c.enumValues,
    }])),
    primaryKey: [...columns.filter((c) => c.primary).map((c) => c.name), ...config.primaryKeys.flatMap((pk) => names(pk.columns))],
    foreignKeys: config.foreignKeys.map((fk) => {
      const ref = fk.reference();
      return `(${names(ref.columns)}) -> ${getTableName(ref.foreignTable)}(${names(ref.foreignColumns)}) `
        + `on delete ${fk.onDelete ?? 'no action'} on update ${fk.onUpdate ?? 'no action'}`;
    }).sort(),
    indexes: Object.fromEntries(config.indexes
      .filter((i) => !(explicitRowid && i.config.unique && names(i.config.columns).join() === 'rowid'))
      .map((i) => [i.config.name, { columns: names(i.config.columns), unique: i.config.unique, where: i.config.where && text(i.config.where) }])),
  };
}

const sqliteDialect = new SQLiteSyncDialect();
const pgDialect = new PgDialect();

describe('the PostgreSQL store schema', () => {
  it('has the tables of the SQLite one, no more and no fewer', () => {
    expect([...pgTables.keys()].sort()).toEqual([...sqliteTables.keys()].sort());
  });

  it.each([...sqliteTables.keys()])('%s has the same columns, defaults, keys and indexes on both stores', (name) => {
    const pg = pgTables.get(name);
    expect(pg, `schema-pg.ts has no table ${name}`).toBeDefined();
    expect(shape(pgTableConfig(pg!), (f) => pgDialect.sqlToQuery(f).sql, true))
      .toEqual(shape(sqliteTableConfig(sqliteTables.get(name)!), (f) => sqliteDialect.sqlToQuery(f).sql));
  });

  it('stores each column in the PostgreSQL type that takes and gives back what SQLite does', () => {
    const mismatches: string[] = [];
    for (const [name, table] of sqliteTables) {
      const pgColumns = new Map(pgTableConfig(pgTables.get(name)!).columns.map((c) => [c.name, c]));
      for (const column of sqliteTableConfig(table).columns) {
        const expected = PG_TYPES[column.columnType] ?? { columnType: `(no PostgreSQL type for ${column.columnType})`, sqlType: '' };
        const pg = pgColumns.get(column.name);
        const actual = { columnType: pg?.columnType, sqlType: pg?.getSQLType() };
        if (actual.columnType !== expected.columnType || actual.sqlType !== expected.sqlType) {
          mismatches.push(`${name}.${column.name}: ${column.columnType} wants ${JSON.stringify(expected)}, has ${JSON.stringify(actual)}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("has SQLite's implicit rowid as a bigint identity column on exactly the tables whose statements use it", () => {
    const withRowid = [...pgTables].filter(([, t]) => pgTableConfig(t).columns.some((c) => c.name === 'rowid')).map(([name]) => name);
    expect(withRowid.sort()).toEqual(ROWID_TABLES);
    for (const name of ROWID_TABLES) {
      const rowid = pgTableConfig(pgTables.get(name)!).columns.find((c) => c.name === 'rowid')!;
      expect({ table: name, columnType: rowid.columnType, identity: rowid.generatedIdentity?.type })
        .toEqual({ table: name, columnType: 'PgBigInt53', identity: 'byDefault' });
    }
  });
});

const SQLITE_MIGRATIONS = new URL('../../src/store/migrations/', import.meta.url);
const PG_MIGRATIONS = new URL('../../src/store/migrations-pg/', import.meta.url);

/** The tables, indexes and triggers a folder of migrations leaves behind, replayed in order (a table rebuilt under a new name renamed too). */
function objects(folder: URL, quote: string): string[] {
  const left = new Set<string>();
  const name = `${quote}([^${quote}]+)${quote}`;
  const statement = new RegExp(`(CREATE|DROP) (?:UNIQUE |VIRTUAL )?(TABLE|INDEX|TRIGGER) ${name}|ALTER TABLE ${name} RENAME TO ${name}`, 'g');
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.sql')).sort()) {
    for (const [, verb, kind, object, renamed, to] of readFileSync(new URL(file, folder), 'utf8').matchAll(statement)) {
      if (renamed) {
        left.delete(`TABLE ${renamed}`);
        left.add(`TABLE ${to}`);
      } else if (verb === 'CREATE') left.add(`${kind} ${object}`);
      else left.delete(`${kind} ${object}`);
    }
  }
  return [...left].sort();
}

describe('the PostgreSQL migrations', () => {
  it('are journaled: the foundation first, then one entry per committed SQL file', () => {
    const journal = JSON.parse(readFileSync(new URL('meta/_journal.json', PG_MIGRATIONS), 'utf8')) as { dialect: string; entries: { tag: string }[] };
    const files = readdirSync(PG_MIGRATIONS).filter((f) => f.endsWith('.sql')).sort();
    expect(journal.dialect).toBe('postgresql');
    expect(journal.entries.map((e) => `${e.tag}.sql`)).toEqual(files);
    expect(files.slice(0, 2)).toEqual(['0000_foundation.sql', '0001_search_and_counts.sql']);
  });

  it('create every table, index and trigger that the SQLite migrations create, hand-written ones included', () => {
    expect(objects(PG_MIGRATIONS, '"')).toEqual(expect.arrayContaining(objects(SQLITE_MIGRATIONS, '`')));
  });
});
