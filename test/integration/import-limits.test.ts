import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { uploadsRoot } from '../../src/services/imports/records.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { csvText, orderRow } from '../helpers/order-files.js';
import { pplChannel } from '../helpers/shipments.js';

/** Small limits, so that files over them stay small in a test. */
const LIMITS = { maxFileBytes: 64 * 1024, maxRows: 20, maxLineChars: 4_000, maxColumns: 40 };

describe('order files over the import limits, hostile values in them, and imports that fail for good', () => {
  let d: TestDaemon;
  let a: TestAccount;
  let emu: RunningEmulators;
  let channel: string;

  const upload = (content: string | Buffer, extra: Record<string, unknown> = {}) => a.request('POST', '/v1/imports', {
    file_name: 'orders.csv', content_base64: Buffer.from(content).toString('base64'), shipping_channel_id: channel, ...extra,
  });
  const finished = async (content: string | Buffer) => {
    const res = await upload(content);
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.id as string;
    await vi.waitFor(async () => expect((await a.request('GET', `/v1/imports/${id}`)).json().data.status).not.toBe('processing'), { timeout: 20_000, interval: 50 });
    return (await a.request('GET', `/v1/imports/${id}`)).json().data as { id: string; status: string; shipments_created: number; rows: number };
  };
  const errorsOf = async (id: string) => (await a.request('GET', `/v1/imports/${id}/errors`)).json().data as { row: number; field: string; message: string }[];

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    d = await startTestDaemon({ importLimits: LIMITS });
    a = await d.account('Limits warehouse');
    channel = await pplChannel(a, emu.urls.ppl!);
    d.workers.imports.start();
    d.workers.shipments.start();
  });
  afterAll(async () => {
    await d.workers.stop();
    await d.close();
    await emu.close();
  });

  it('refuses an upload over the file size limit, or named too long for its result files, at once with 422, and keeps nothing of it', async () => {
    const uploads = () => (existsSync(uploadsRoot(d.ctx)) ? readdirSync(uploadsRoot(d.ctx)).length : 0);
    const before = uploads();
    const res = await upload(csvText(Array.from({ length: 400 }, (_, i) => orderRow(`BIG-${i}`))));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors.content_base64).toEqual(['must be a file of at most 0.0625 MiB']);
    const named = await upload(csvText([orderRow('NAMED-1')]), { file_name: `${'ř'.repeat(123)}.csv` });
    expect(named.statusCode, named.body).toBe(422);
    expect(named.json().errors.file_name).toEqual(['must be at most 200 bytes long (its result files add to it)']);
    expect(uploads()).toBe(before);
  });

  it('ends a file over the row, line or column limit as failed with the reason, creating no shipment', async () => {
    const cases: [string, string][] = [
      [csvText(Array.from({ length: 21 }, (_, i) => orderRow(`ROWS-${i}`))), 'has more than 20 order rows'],
      [csvText([orderRow('LINE-1', { recipient_contact_last_name: 'x'.repeat(5_000) })]), 'line 2 is longer than 4,000 characters'],
      [`reference_number,${Array.from({ length: 50 }, (_, i) => `metadata_c${i}`).join(',')}\r\nCOLS-1\r\n`, 'row 1 has 51 values; at most 40 are read'],
    ];
    for (const [content, reason] of cases) {
      const imported = await finished(content);
      expect(imported, reason).toMatchObject({ status: 'failed', shipments_created: 0 });
      expect((await errorsOf(imported.id)).map((e) => [e.field, e.message]), reason).toEqual([['file', reason]]);
    }
    expect((await a.request('GET', '/v1/shipments?search=ROWS-')).json().data).toEqual([]);
  });

  it('fails an import for good, naming why, once the daemon stopped during it three times, and never runs it again', async () => {
    await d.workers.imports.stop();
    const res = await upload(csvText([orderRow('CRASHED-1')]));
    const id = res.json().data.id as string;
    // three runs began and none ended: the daemon died each time (as an out-of-memory crash would)
    await d.ctx.store.run('UPDATE imports SET attempts = 3 WHERE id = ?', id);
    d.workers.imports.start();
    await vi.waitFor(async () => expect((await a.request('GET', `/v1/imports/${id}`)).json().data.status).toBe('failed'), { timeout: 20_000, interval: 50 });
    expect(await errorsOf(id)).toEqual([expect.objectContaining({
      field: 'file', message: 'could not be imported: the daemon stopped 3 times while importing it (a crash or a kill); it is not tried again',
    })]);
    expect((await a.request('GET', '/v1/shipments?search=CRASHED-1')).json().data).toEqual([]);
    // a restart begins no run of it: its count of runs stays where failing it left it
    const runs = async () => Number((await d.ctx.store.get<{ attempts: number }>('SELECT attempts FROM imports WHERE id = ?', id))!.attempts);
    const before = await runs();
    await d.workers.imports.stop();
    d.workers.imports.start();
    await d.workers.imports.runDue();
    expect(await runs()).toBe(before);
    expect((await a.request('GET', `/v1/imports/${id}`)).json().data.status).toBe('failed');
  });

  it('neutralises formula prefixes in the result CSV, and gives the references back as they were', async () => {
    const references = ['=1+1', '+420777', '-5', '@SUM(A1)', "'quoted"];
    const imported = await finished(csvText([...references, '\t=HYPERLINK("x")'].map((r) => orderRow(r))));
    expect(imported.shipments_created).toBe(6);
    const csv = await a.request('GET', `/v1/imports/${imported.id}/result`, undefined, { accept: 'text/csv' });
    const starts = csv.body.split('\r\n').slice(1, -1).map((line) => line.replace(/^"/, '').split(',')[0]);
    expect(starts).toEqual(["'=1+1", "'+420777", "'-5", "'@SUM(A1)", "''quoted", "'=HYPERLINK(\"\"x\"\")\""]);
    const json = (await a.request('GET', `/v1/imports/${imported.id}/result`)).json().data as { reference_number: string }[];
    expect(json.map((r) => r.reference_number)).toEqual([...references, '=HYPERLINK("x")']);
  });

  it('refuses mapping presets named like object properties, on uploads and watched folders', async () => {
    for (const mapping of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const res = await upload(csvText([orderRow('PRESET-1')]), { mapping });
      expect(res.statusCode, `${mapping}: ${res.body}`).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['mapping']);
      const folder = await a.request('POST', '/v1/watched-folders', { path: join(d.dataDir, '..', `folder-${mapping}`), shipping_channel_id: channel, mapping });
      expect(folder.statusCode, `${mapping}: ${folder.body}`).toBe(422);
      expect(folder.json().errors).toHaveProperty('mapping');
    }
  });
});
