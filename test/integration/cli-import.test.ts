import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { csvText, filesIn, orderRow, readCsvFile } from '../helpers/order-files.js';
import { CLI, startStation, type CliResult, type Env, type Station } from '../helpers/cli.js';

interface Folder {
  id: string;
  path: string;
  status: string;
  label_format: string;
  printer_id: string | null;
  mapping: unknown;
  folders: Record<string, string>;
  imports?: { id: string; file_name: string; status: string }[];
}

let station: Station;
let tmp: string;
let work: string;

/** Runs packdesk under a pseudo-terminal (util-linux `script`), as a person at the desk would. */
function cliOnTerminal(args: string[], env: Env): Promise<CliResult> {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const { CI: _ci, ...withoutCi } = env;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', quoted, '/dev/null'], { env: { ...withoutCi, COLUMNS: '120' }, cwd: work, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr: '' }));
    child.stdin.end('');
  });
}

// the commands run in this process (test/helpers/cli.ts); the import on a terminal is a real process under a pseudo-terminal
describe('packdesk watch and packdesk import against a real daemon and the PPL emulator', () => {
  let env: Env;
  let channelId: string;
  const cli = (args: string[]) => station.cli(args);
  const cliJson = <T>(args: string[]) => station.cliJson<T>(args);

  /** The folder's imports as `watch show` lists them, once it has one and none is being read. */
  const finishedImportsOf = async (folderId: string) => {
    let imports: NonNullable<Folder['imports']> = [];
    await vi.waitFor(async () => {
      imports = (await cliJson<Folder>(['watch', 'show', folderId, '--json'])).imports ?? [];
      if (!imports.length || imports.some((i) => i.status === 'processing')) throw new Error(`imports of ${folderId}: ${JSON.stringify(imports)}`);
    }, { timeout: 30_000, interval: 200 });
    return imports;
  };

  beforeAll(async () => {
    station = await startStation({ ppl: true, filesRootIsTmp: true });
    ({ tmp, desk: work, env } = station);
    const channel = await station.addPplChannel();
    expect(channel.status).toBe('active');
    channelId = channel.id;
  });

  afterAll(async () => {
    if (station) expect(await station.stop()).toBe(0);
  });

  let folderId: string;

  it('watch add (a relative path, the only channel), list, pause, resume and show a folder with its imports', { timeout: 90_000 }, async () => {
    const mappingFile = join(work, 'mapping.json');
    writeFileSync(mappingFile, JSON.stringify({ preset: 'default', columns: { Objednávka: 'reference_number' }, defaults: { parcel_length_dimension: 30 } }));
    const folder = await cliJson<Folder>(['watch', 'add', 'erp-drop', '--format', 'zpl', '--mapping', mappingFile, '--json']);
    expect(folder).toMatchObject({ path: join(work, 'erp-drop'), status: 'active', label_format: 'zpl', printer_id: null });
    expect(folder.mapping).toEqual({ preset: 'default', columns: { Objednávka: 'reference_number' }, defaults: { parcel_length_dimension: 30 } });
    expect(filesIn(join(work, 'erp-drop'))).toEqual(['done', 'failed', 'in', 'out', 'processing']);

    const list = await cli(['watch', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(folder.id);
    expect(list.stdout).toContain(join(work, 'erp-drop'));

    const paused = await cli(['watch', 'pause', folder.id]);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toContain(`paused ${folder.id}`);
    // an active folder given a file at the same moment shows how long the paused one had to take its file
    const control = await cliJson<Folder>(['watch', 'add', 'control-drop', '--json']);
    writeFileSync(join(folder.folders.in!, 'orders.csv'), csvText([orderRow('WATCH-1')], { delimiter: ';', decimalComma: true }));
    writeFileSync(join(control.folders.in!, 'orders.csv'), csvText([orderRow('CONTROL-1')]));
    expect(await finishedImportsOf(control.id)).toMatchObject([{ file_name: 'orders.csv', status: 'done' }]);
    expect(filesIn(folder.folders.in!)).toEqual(['orders.csv']);
    expect((await cliJson<{ data: Folder[] }>(['watch', 'list', '--status', 'paused', '--json'])).data.map((f) => f.id)).toEqual([folder.id]);

    const resumed = await cli(['watch', 'resume', folder.id]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const [taken] = await finishedImportsOf(folder.id);
    expect(taken).toMatchObject({ file_name: 'orders.csv', status: 'done' });
    expect(filesIn(folder.folders.out!)).toEqual(['orders.result.csv']);
    const text = await cli(['watch', 'show', folder.id]);
    expect(text.stdout).toMatch(/status\s+active/);
    expect(text.stdout).toContain('recent imports');
    expect(text.stdout).toContain('default, with 1 column mapped, 1 default');

    const imports = await cli(['imports', 'list', '--folder', folder.id]);
    expect(imports.stdout).toContain('orders.csv');
    const one = await cli(['imports', 'show', taken!.id]);
    expect(one.stdout).toMatch(/shipments created\s+1/);
    folderId = folder.id;
  });

  it('watch remove stops watching and keeps the files; a bad watch add names the field', { timeout: 60_000 }, async () => {
    const folder = { id: folderId };
    const removed = await cli(['watch', 'remove', folder.id]);
    expect(removed.code, removed.stderr).toBe(0);
    const gone = await cli(['watch', 'show', folder.id]);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toContain('not found');
    expect(existsSync(join(work, 'erp-drop', 'done', 'orders.csv'))).toBe(true);

    const bad = await cli(['watch', 'add', join(tmp, 'x'), '--channel', 'ch_nope', '--format', 'epl']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('shipping_channel_id: is not a shipping channel of this account');
  });

  it('watch add outside the daemon\'s --files-root is refused with how to allow it; nothing is created there', { timeout: 60_000 }, async () => {
    const outside = mkdtempSync(join(tmpdir(), 'packdesk-outside-'));
    try {
      const refused = await cli(['watch', 'add', join(outside, 'erp-drop'), '--channel', channelId, '--format', 'pdf']);
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toContain(`path: must lie within a directory the daemon may use: ${tmp}; a station admin allows another with \`packdesk daemon --files-root DIR\``);
      expect(existsSync(join(outside, 'erp-drop'))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('import FILE: a Windows-1250 file with a bad row → shipments, a summary, result and errors files beside it, exit 1 for the bad row', { timeout: 60_000 }, async () => {
    const file = join(work, 'objednávky.csv');
    const rows = [
      orderRow('IMP-1', { recipient_contact_first_name: 'Zażółć', recipient_contact_last_name: 'Gęślą', parcel_weight_amount: 2.5 }),
      orderRow('IMP-2'), orderRow('IMP-2', { parcel_weight_amount: 3.25 }),
      orderRow('IMP-3', { recipient_contact_email_address: 'nope' }),
    ];
    writeFileSync(file, iconv.encode(csvText(rows, { delimiter: ';', decimalComma: true }), 'windows-1250'));
    const result = await cli(['import', file, '--channel', channelId]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('1 of 3 orders failed');
    expect(result.stdout).toContain('4 rows, 3 orders — 2 shipments created, 1 invalid\n');
    expect(result.stdout).toMatch(/IMP-2\s+│\s+created/);
    expect(result.stdout).toContain('row 5 (IMP-3) recipient_contact.email_address [recipient_contact_email_address]: must be a valid e-mail address');
    expect(result.stdout).not.toContain('\u001b['); // no progress bar without a terminal
    const results = readCsvFile(join(work, 'objednávky.result.csv'), 'windows-1250');
    expect(results.map((r) => [r.reference_number, r.status])).toEqual([['IMP-1', 'created'], ['IMP-2', 'created'], ['IMP-3', 'error']]);
    expect(results[1]!.tracking_numbers.split(' ')).toHaveLength(2);
    expect(readCsvFile(join(work, 'objednávky.errors.csv'), 'windows-1250')).toMatchObject([{ row: '5', field: 'recipient_contact.email_address' }]);

    const again = await cli(['import', file, '--channel', channelId, '--json']);
    expect(again.code).toBe(1); // the bad row is still bad
    const repeated = JSON.parse(again.stdout) as { import: { shipments_created: number; orders_already_imported: number }; results: { status: string }[] };
    expect(repeated.import).toMatchObject({ shipments_created: 0, orders_already_imported: 2 });
    expect(repeated.results.map((r) => r.status)).toEqual(['already_imported', 'already_imported', 'error']);
  });

  it('import FILE on a terminal shows a progress bar and ends 0 when every order shipped; --json has every result', { timeout: 60_000 }, async () => {
    const file = join(work, 'batch.csv');
    writeFileSync(file, csvText(Array.from({ length: 40 }, (_, i) => orderRow(`TTY-${i + 1}`))));
    const shown = await cliOnTerminal(['import', file, '--format', 'zpl'], env);
    expect(shown.code, shown.stdout).toBe(0);
    expect(shown.stdout).toMatch(/batch\.csv \[[█░]+\] 40\/40 rows \| 40 shipments \| 0 failed rows/);
    expect(shown.stdout).toContain('40 rows, 40 orders — 40 shipments created');
    expect(shown.stdout).toMatch(/created\s+│\s+40/);

    const out = join(tmp, 'results');
    mkdirSync(out);
    const other = join(work, 'other.csv');
    writeFileSync(other, csvText([orderRow('JSON-1')]));
    const json = await cliJson<{ import: { status: string }; results: { reference_number: string; status: string; tracking_numbers: string[] }[]; result_file: string; errors_file: null }>(
      ['import', other, '--out', out, '--json']);
    expect(json.import.status).toBe('done');
    expect(json.results).toMatchObject([{ reference_number: 'JSON-1', status: 'created' }]);
    expect(json.results[0]!.tracking_numbers[0]).toMatch(/^\d{11}$/);
    expect(json.result_file).toBe(join(out, 'other.result.csv'));
    expect(json.errors_file).toBeNull();
    expect(readFileSync(json.result_file, 'utf8')).toContain('JSON-1,sh_');

    const missing = await cli(['import', join(work, 'nope.csv')]);
    expect(missing.code).toBe(2);
  });
});
