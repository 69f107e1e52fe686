import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/store/db.js';
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
