import { existsSync, readFileSync, statSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startPostgres, testDatabaseUrl } from '../helpers/postgres.js';

const clients: pg.Client[] = [];

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  clients.push(client);
  return client;
}

afterAll(() => Promise.all(clients.map((c) => c.end())));

describe("the tests' PostgreSQL", () => {
  it('gives a test an empty database that takes a table, inserts and selects', async () => {
    const db = await connect(await testDatabaseUrl());
    expect((await db.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).rows).toEqual([{ n: 0 }]);
    await db.query('CREATE TABLE parcels (id serial PRIMARY KEY, tracking text NOT NULL)');
    await db.query('INSERT INTO parcels (tracking) VALUES ($1), ($2)', ['JJD0001', 'JJD0002']);
    expect((await db.query('SELECT id, tracking FROM parcels ORDER BY id')).rows).toEqual([
      { id: 1, tracking: 'JJD0001' },
      { id: 2, tracking: 'JJD0002' },
    ]);
  });

  it('keeps databases apart', async () => {
    const [urlA, urlB] = await Promise.all([testDatabaseUrl(), testDatabaseUrl()]);
    expect(urlA).not.toBe(urlB);
    const [a, b] = await Promise.all([connect(urlA), connect(urlB)]);
    await a.query('CREATE TABLE parcels (tracking text)');
    await a.query("INSERT INTO parcels VALUES ('JJD0001')");
    expect((await b.query("SELECT to_regclass('parcels') AS parcels")).rows).toEqual([{ parcels: null }]);
    // the same name in the other database is another table
    await b.query('CREATE TABLE parcels (tracking text)');
    expect((await b.query('SELECT count(*)::int AS n FROM parcels')).rows).toEqual([{ n: 0 }]);
  });

  it('runs the server as an unprivileged user, also when the tests run as root', async () => {
    const db = await connect(await testDatabaseUrl());
    const { rows: [{ dir, pid }] } = await db.query("SELECT current_setting('data_directory') AS dir, pg_backend_pid() AS pid");
    const owner = statSync(dir).uid;
    const backendUid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
    expect(owner).not.toBe(0);
    expect(backendUid).toBe(owner);
  });

  it('starts a server of its own on request, drops databases and removes everything on stop', async () => {
    const server = await startPostgres();
    const url = await server.createDatabase();
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    const { rows: [{ dir }] } = await admin.query("SELECT current_setting('data_directory') AS dir");
    const exists = 'SELECT count(*)::int AS n FROM pg_database WHERE datname = $1';
    const name = new URL(url).pathname.slice(1);
    expect((await admin.query(exists, [name])).rows).toEqual([{ n: 1 }]);
    await server.dropDatabase(url);
    expect((await admin.query(exists, [name])).rows).toEqual([{ n: 0 }]);
    await admin.end();
    await server.stop();
    expect(existsSync(dir)).toBe(false);
    await expect(new pg.Client({ connectionString: server.url }).connect()).rejects.toThrow(/ECONNREFUSED/);
  });
});
