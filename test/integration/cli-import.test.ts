import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { csvText, filesIn, orderRow, readCsvFile } from '../helpers/order-files.js';
import { CLI } from '../helpers/processes.js';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

type Env = Record<string, string>;

interface Running {
  child: ChildProcess;
  exited: Promise<number | null>;
  line: string;
}

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

let tmp: string;
let work: string;
let baseEnv: Env;

/** The environment of the test runner without any packdesk settings, so only what a test passes counts. */
function isolatedEnv(): Env {
  const env: Env = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('PACKDESK_')) env[key] = value;
  return env;
}

function cli(args: string[], options: { env?: Env } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...baseEnv, ...options.env }, cwd: work, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end('');
  });
}

async function cliJson<T>(args: string[], options: { env?: Env } = {}): Promise<T> {
  const result = await cli(args, options);
  if (result.code !== 0) throw new Error(`packdesk ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** Runs packdesk under a pseudo-terminal (util-linux `script`), as a person at the desk would. */
function cliOnTerminal(args: string[], env: Env): Promise<CliResult> {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const { CI: _ci, ...withoutCi } = { ...baseEnv, ...env };
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', quoted, '/dev/null'], { env: { ...withoutCi, COLUMNS: '120' }, cwd: work, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr: '' }));
    child.stdin.end('');
  });
}

function startProcess(args: string[], ready: (line: string) => boolean): Promise<Running> {
  const child = spawn(process.execPath, [CLI, ...args], { env: baseEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`packdesk ${args[0]} did not start:\n${output}`)), 20_000);
    void exited.then((code) => reject(new Error(`packdesk ${args[0]} exited with ${code}:\n${output}`)));
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find(ready);
      if (line) {
        clearTimeout(timer);
        resolve({ child, exited, line });
      }
    });
  });
}

describe('packdesk watch and packdesk import against a real daemon and the PPL emulator', () => {
  let emulator: Running;
  let daemon: Running;
  let env: Env;
  let channelId: string;

  /** The folder's imports as `watch show` lists them, once it has one and none is being read. */
  const finishedImportsOf = async (folderId: string) => {
    let imports: NonNullable<Folder['imports']> = [];
    await vi.waitFor(async () => {
      imports = (await cliJson<Folder>(['watch', 'show', folderId, '--json'], { env })).imports ?? [];
      if (!imports.length || imports.some((i) => i.status === 'processing')) throw new Error(`imports of ${folderId}: ${JSON.stringify(imports)}`);
    }, { timeout: 30_000, interval: 200 });
    return imports;
  };

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'packdesk-cli-import-'));
    work = join(tmp, 'desk');
    mkdirSync(work);
    const dataDir = join(tmp, 'data');
    baseEnv = { ...isolatedEnv(), XDG_CONFIG_HOME: join(tmp, 'cfg'), CI: 'true' };
    emulator = await startProcess(['emulate', '--providers', 'ppl', '--port', '0', '--json'], (l) => l.trim().startsWith('{'));
    const pplUrl = (JSON.parse(emulator.line) as { ppl: string }).ppl;
    const apiKey = (await cliJson<{ api_key: string }>(['init', '--data-dir', dataDir, '--yes', '--json'])).api_key;
    daemon = await startProcess(['daemon', '--data-dir', dataDir, '--port', '0', '--files-root', tmp], (l) => l.includes('"msg":"listening"'));
    env = { PACKDESK_URL: (JSON.parse(daemon.line) as { url: string }).url, PACKDESK_API_KEY: apiKey };
    const channel = await cliJson<{ id: string; status: string }>([
      'channels', 'add', '--name', 'PPL', '--provider', 'ppl', '--setting', 'clientId=c1', '--setting', 'clientSecret=s3cret',
      '--setting', `baseUrl=${pplUrl}`, '--json',
    ], { env });
    expect(channel.status).toBe('active');
    channelId = channel.id;
  });

  afterAll(async () => {
    if (daemon) {
      daemon.child.kill('SIGTERM');
      expect(await daemon.exited).toBe(0);
    }
    if (emulator) {
      emulator.child.kill('SIGTERM');
      await emulator.exited;
    }
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  let folderId: string;

  it('watch add (a relative path, the only channel), list, pause, resume and show a folder with its imports', { timeout: 90_000 }, async () => {
    const mappingFile = join(work, 'mapping.json');
    writeFileSync(mappingFile, JSON.stringify({ columns: { Objednávka: 'reference_number' }, defaults: { parcel_length_dimension: 30 } }));
    const folder = await cliJson<Folder>(['watch', 'add', 'erp-drop', '--format', 'zpl', '--mapping', mappingFile, '--json'], { env });
    expect(folder).toMatchObject({ path: join(work, 'erp-drop'), status: 'active', label_format: 'zpl', printer_id: null });
    expect(folder.mapping).toEqual({ columns: { Objednávka: 'reference_number' }, defaults: { parcel_length_dimension: 30 } });
    expect(filesIn(join(work, 'erp-drop'))).toEqual(['done', 'failed', 'in', 'out', 'processing']);

    const list = await cli(['watch', 'list'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(folder.id);
    expect(list.stdout).toContain(join(work, 'erp-drop'));

    const paused = await cli(['watch', 'pause', folder.id], { env });
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toContain(`paused ${folder.id}`);
    // an active folder given a file at the same moment shows how long the paused one had to take its file
    const control = await cliJson<Folder>(['watch', 'add', 'control-drop', '--json'], { env });
    writeFileSync(join(folder.folders.in!, 'orders.csv'), csvText([orderRow('WATCH-1')], { delimiter: ';', decimalComma: true }));
    writeFileSync(join(control.folders.in!, 'orders.csv'), csvText([orderRow('CONTROL-1')]));
    expect(await finishedImportsOf(control.id)).toMatchObject([{ file_name: 'orders.csv', status: 'done' }]);
    expect(filesIn(folder.folders.in!)).toEqual(['orders.csv']);
    expect((await cliJson<{ data: Folder[] }>(['watch', 'list', '--status', 'paused', '--json'], { env })).data.map((f) => f.id)).toEqual([folder.id]);

    const resumed = await cli(['watch', 'resume', folder.id], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const [taken] = await finishedImportsOf(folder.id);
    expect(taken).toMatchObject({ file_name: 'orders.csv', status: 'done' });
    expect(filesIn(folder.folders.out!)).toEqual(['orders.result.csv']);
    const text = await cli(['watch', 'show', folder.id], { env });
    expect(text.stdout).toMatch(/status\s+active/);
    expect(text.stdout).toContain('recent imports');
    expect(text.stdout).toContain('1 column mapped, 1 default');

    const imports = await cli(['imports', 'list', '--folder', folder.id], { env });
    expect(imports.stdout).toContain('orders.csv');
    const one = await cli(['imports', 'show', taken!.id], { env });
    expect(one.stdout).toMatch(/shipments created\s+1/);
    folderId = folder.id;
  });

  it('watch remove stops watching and keeps the files; a bad watch add names the field', { timeout: 60_000 }, async () => {
    const folder = { id: folderId };
    const removed = await cli(['watch', 'remove', folder.id], { env });
    expect(removed.code, removed.stderr).toBe(0);
    const gone = await cli(['watch', 'show', folder.id], { env });
    expect(gone.code).toBe(3);
    expect(gone.stderr).toContain('not found');
    expect(existsSync(join(work, 'erp-drop', 'done', 'orders.csv'))).toBe(true);

    const bad = await cli(['watch', 'add', join(tmp, 'x'), '--channel', 'ch_nope', '--format', 'epl'], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('shipping_channel_id: is not a shipping channel of this account');
  });

  it('watch add outside the daemon\'s --files-root is refused with how to allow it; nothing is created there', { timeout: 60_000 }, async () => {
    const outside = mkdtempSync(join(tmpdir(), 'packdesk-outside-'));
    try {
      const refused = await cli(['watch', 'add', join(outside, 'erp-drop'), '--channel', channelId, '--format', 'pdf'], { env });
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
    const result = await cli(['import', file, '--channel', channelId], { env });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('1 of 3 orders failed');
    expect(result.stdout).toContain('4 rows, 3 orders — 2 shipments created, 0 already imported, 1 rows failed');
    expect(result.stdout).toMatch(/IMP-2\s+│\s+created/);
    expect(result.stdout).toContain('row 5 (IMP-3) recipient_contact.email_address [recipient_contact_email_address]: must be a valid e-mail address');
    expect(result.stdout).not.toContain('\u001b['); // no progress bar without a terminal
    const results = readCsvFile(join(work, 'objednávky.result.csv'), 'windows-1250');
    expect(results.map((r) => [r.reference_number, r.status])).toEqual([['IMP-1', 'created'], ['IMP-2', 'created'], ['IMP-3', 'error']]);
    expect(results[1]!.tracking_numbers.split(' ')).toHaveLength(2);
    expect(readCsvFile(join(work, 'objednávky.errors.csv'), 'windows-1250')).toMatchObject([{ row: '5', field: 'recipient_contact.email_address' }]);

    const again = await cli(['import', file, '--channel', channelId, '--json'], { env });
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
      ['import', other, '--out', out, '--json'], { env });
    expect(json.import.status).toBe('done');
    expect(json.results).toMatchObject([{ reference_number: 'JSON-1', status: 'created' }]);
    expect(json.results[0]!.tracking_numbers[0]).toMatch(/^\d{11}$/);
    expect(json.result_file).toBe(join(out, 'other.result.csv'));
    expect(json.errors_file).toBeNull();
    expect(readFileSync(json.result_file, 'utf8')).toContain('JSON-1,sh_');

    const missing = await cli(['import', join(work, 'nope.csv')], { env });
    expect(missing.code).toBe(2);
  });
});
