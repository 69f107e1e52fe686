import { cpSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { DB_FILE, migrationsFolder, openDb } from '../../src/store/db.js';
import { accounts } from '../../src/store/schema.js';
import { SecretBox } from '../../src/store/secrets.js';

describe('the store', () => {
  it('opens SQLite in WAL mode with foreign keys, a busy timeout and every migration applied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'packdesk-store-'));
    const store = openDb(dir);
    const db = store.client;
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => (r as { name: string }).name);
    expect(tables).toEqual(expect.arrayContaining(['accounts', 'api_keys', 'shipping_channels', 'webhook_subscriptions', 'events', '__drizzle_migrations']));
    expect(() => db.prepare("INSERT INTO api_keys (id, account_id, key_hash, key_prefix, scope, created_at) VALUES ('k', 'acc_missing', 'h', 'p', 'full', 0)").run())
      .toThrow(/FOREIGN KEY/);
    await store.close();
    // opening again applies nothing twice
    const again = openDb(dir);
    const journal = JSON.parse(readFileSync(new URL('../../src/store/migrations/meta/_journal.json', import.meta.url), 'utf8'));
    expect(again.client.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get()).toEqual({ n: journal.entries.length });
    await again.close();
  });

  it("upgrades a store whose tables are rebuilt without losing the rows that point at them (watched folders' imports)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'packdesk-store-'));
    // the store as release 0030 left it: its migrations up to that one
    const older = join(mkdtempSync(join(tmpdir(), 'packdesk-migrations-')), 'migrations');
    cpSync(migrationsFolder('migrations'), older, { recursive: true });
    const journalPath = join(older, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === '0030_channel_price_list') + 1);
    writeFileSync(journalPath, JSON.stringify(journal));
    const client = new Database(join(dir, DB_FILE));
    client.pragma('foreign_keys = ON');
    migrate(drizzle(client), { migrationsFolder: older });
    client.exec(`INSERT INTO accounts (id, name, plan, created_at) VALUES ('acc_1', 'Shop', 'free', 0);
      INSERT INTO shipping_channels (id, account_id, name, provider, status, settings_enc, created_at, updated_at) VALUES ('ch_1', 'acc_1', 'PPL', 'ppl', 'active', 'x', 0, 0);
      INSERT INTO watched_folders (id, account_id, path, channel_id, label_format, status, created_at, updated_at) VALUES ('wf_1', 'acc_1', '/srv/orders', 'ch_1', 'pdf', 'active', 0, 0);
      INSERT INTO imports (id, account_id, watched_folder_id, file_name, sha256, rows, shipments_created, failed_rows, status, created_at, updated_at)
        VALUES ('imp_1', 'acc_1', 'wf_1', 'orders.csv', 'h', 1, 1, 0, 'done', 0, 0);`);
    client.close();

    const store = openDb(dir);
    expect(store.client.prepare("SELECT watched_folder_id FROM imports WHERE id = 'imp_1'").get()).toEqual({ watched_folder_id: 'wf_1' });
    // the rebuilt table takes a folder whose orders' channels the shipping rules choose
    store.client.prepare("INSERT INTO watched_folders (id, account_id, path, label_format, status, created_at, updated_at) VALUES ('wf_2', 'acc_1', '/srv/b2b', 'pdf', 'active', 0, 0)").run();
    expect(store.client.pragma('foreign_keys', { simple: true })).toBe(1);
    await store.close();
  });

  it("counts a SQLite store's writes, through drizzle and plain statements, and not its reads", async () => {
    const store = openDb(mkdtempSync(join(tmpdir(), 'packdesk-store-')));
    await store.run('CREATE TABLE t (n INTEGER)');
    const before = store.localWrites;
    await store.all('SELECT n FROM t');
    await store.db.select().from(accounts).all();
    expect(store.localWrites).toBe(before);
    await store.run('INSERT INTO t VALUES (1)');
    await store.all('UPDATE t SET n = 2 RETURNING n');
    await store.db.insert(accounts).values({ id: 'acc_w', name: 'w', plan: 'free', rateLimit: 60, createdAt: 0 }).run();
    expect(store.localWrites).toBe(before + 3);
    await store.close();
  });

  it('runs concurrent SQLite transactions one after another, and other work waits for the open one', async () => {
    const store = openDb(mkdtempSync(join(tmpdir(), 'packdesk-store-')));
    await store.run('CREATE TABLE t (n INTEGER)');
    const steps: string[] = [];
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    await Promise.all([1, 2, 3, 4, 5].map((i) => store.transaction(async () => {
      steps.push(`begin ${i}`);
      await store.run('INSERT INTO t VALUES (?)', i);
      await turn();
      steps.push(`end ${i}`);
    })));
    expect(steps).toEqual([1, 2, 3, 4, 5].flatMap((i) => [`begin ${i}`, `end ${i}`]));
    // a statement of other work made while a transaction is open is not taken into it (nor rolled back with it)
    const failing = store.transaction(async () => {
      await store.run('INSERT INTO t VALUES (100)');
      await turn();
      throw new Error('rolled back');
    });
    const outside = store.run('INSERT INTO t VALUES (200)');
    await expect(failing).rejects.toThrow('rolled back');
    await outside;
    expect((await store.all<{ n: number }>('SELECT n FROM t ORDER BY n')).map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 200]);
    await store.close();
  });

  it('encrypts with AES-256-GCM under a 0600 key file, and refuses tampered or foreign ciphertext', () => {
    const dir = mkdtempSync(join(tmpdir(), 'packdesk-secrets-'));
    const box = SecretBox.forDataDir(dir);
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    const sealed = box.seal('clientSecret=hunter2');
    expect(sealed).not.toContain('hunter2');
    expect(box.seal('clientSecret=hunter2')).not.toBe(sealed); // fresh IV every time
    expect(box.open(sealed)).toBe('clientSecret=hunter2');
    expect(SecretBox.forDataDir(dir).open(sealed)).toBe('clientSecret=hunter2'); // the same key file
    const parts = sealed.split(':');
    const flipped = Buffer.from(parts[3]!, 'base64');
    flipped[0] ^= 1;
    expect(() => box.open([...parts.slice(0, 3), flipped.toString('base64')].join(':'))).toThrow();
    const other = SecretBox.forDataDir(mkdtempSync(join(tmpdir(), 'packdesk-secrets-')));
    expect(() => other.open(sealed)).toThrow();
  });
});
