import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/processes.js';
import { startZebra, type ZebraPrinter } from '../helpers/zebra.js';

interface CliResult { code: number; stdout: string; stderr: string }
type Env = Record<string, string>;
interface Printer { id: string; name: string; status: string; formats: string[]; default_for: string[]; status_detail: Record<string, unknown> | null }
interface Job { id: string; status: string; format: string; copies: number; attempts: number; error: string | null; shipment_id: string | null; kind: string }
interface Shipped { id: string; status: string; label_format: string; print_job?: Job | null }

let baseEnv: Env;
let work: string;

function isolatedEnv(): Env {
  const env: Env = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('PACKDESK_')) env[key] = value;
  return env;
}

function cli(args: string[], env: Env = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...baseEnv, ...env }, cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

async function cliJson<T>(args: string[], env: Env = {}): Promise<T> {
  const r = await cli(args, env);
  if (r.code !== 0) throw new Error(`packdesk ${args.join(' ')} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

function startProcess(args: string[], ready: (line: string) => boolean): Promise<{ child: ChildProcess; exited: Promise<number | null>; line: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: baseEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`packdesk ${args[0]} did not start:\n${output}`)), 20_000);
    void exited.then((code) => reject(new Error(`packdesk ${args[0]} exited with ${code}:\n${output}`)));
    child.stderr!.on('data', (c: Buffer) => { output += c.toString(); });
    child.stdout!.on('data', (c: Buffer) => {
      output += c.toString();
      const line = output.split('\n').find(ready);
      if (line) {
        clearTimeout(timer);
        resolve({ child, exited, line });
      }
    });
  });
}

const SENDER = {
  contact: { company_name: 'Sklad Praha s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' },
  address: { street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
};

// each command is a new node process (about a second here): stories of several commands need more than the default 30 s
describe('packdesk printers, jobs, shipments print and ship printing against a real daemon', { timeout: 90_000 }, () => {
  let tmp: string;
  let emulator: Awaited<ReturnType<typeof startProcess>>;
  let daemon: Awaited<ReturnType<typeof startProcess>>;
  let daemonUrl: string;
  let apiKey: string;
  let env: Env;
  let channelId: string;
  let senderFile: string;
  let zebra: ZebraPrinter;
  let zebraPrinter: Printer;
  let folderPrinter: Printer;
  let folder: string;

  const shipFlags = (reference: string, extra: string[] = []) => [
    'ship', '--channel', channelId, '--format', 'zpl', '--reference', reference, '--recipient-name', 'Jana Nováková',
    '--recipient-email', 'jana@example.cz', '--recipient-phone', '+420604555666', '--street', 'Nádražní', '--house-number', '7',
    '--city', 'Ostrava', '--postal-code', '70200', '--parcel', '1x20x20x20', '--sender-json', senderFile, '--out', join(tmp, `${reference}.zpl`), ...extra,
  ];
  const rawLabel = async (id: string) => {
    const res = await fetch(`${daemonUrl}/v1/shipments/${id}/label?download=1`, { headers: { authorization: `Bearer ${apiKey}` } });
    return Buffer.from(await res.arrayBuffer());
  };
  const occurrences = (haystack: Buffer, needle: Buffer) => {
    let n = 0;
    for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) n += 1;
    return n;
  };

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'packdesk-cli-print-'));
    work = join(tmp, 'desk');
    mkdirSync(work);
    folder = join(tmp, 'labels');
    baseEnv = { ...isolatedEnv(), XDG_CONFIG_HOME: join(tmp, 'cfg'), CI: 'true' };
    senderFile = join(tmp, 'sender.json');
    writeFileSync(senderFile, JSON.stringify(SENDER));
    zebra = await startZebra();
    emulator = await startProcess(['emulate', '--providers', 'ppl', '--port', '0', '--json'], (l) => l.trim().startsWith('{'));
    const pplUrl = (JSON.parse(emulator.line) as { ppl: string }).ppl;
    apiKey = (await cliJson<{ api_key: string }>(['init', '--data-dir', join(tmp, 'data'), '--account', 'Desk Ostrava', '--yes', '--json'])).api_key;
    daemon = await startProcess(['daemon', '--data-dir', join(tmp, 'data'), '--port', '0'], (l) => l.includes('"msg":"listening"'));
    daemonUrl = (JSON.parse(daemon.line) as { url: string }).url;
    env = { PACKDESK_URL: daemonUrl, PACKDESK_API_KEY: apiKey };
    channelId = (await cliJson<{ id: string }>(['channels', 'add', '--name', 'PPL', '--provider', 'ppl', '--setting', 'clientId=c1',
      '--setting', 'clientSecret=s3cret', '--setting', `baseUrl=${pplUrl}`, '--json'], env)).id;
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
    await zebra?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('printers add: a Zebra as the default for its formats, and a folder; bad input exits 1 or 2', async () => {
    zebraPrinter = await cliJson<Printer>(['printers', 'add', '--name', 'Zebra', '--uri', zebra.uri, '--format', 'zpl,epl', '--default', '--json'], env);
    expect(zebraPrinter).toMatchObject({ name: 'Zebra', formats: ['zpl', 'epl'], default_for: ['zpl', 'epl'], status: 'ready' });
    folderPrinter = await cliJson<Printer>(['printers', 'add', '--name', 'Folder', '--uri', pathToFileURL(folder).href, '--format', 'pdf', '--format', 'zpl', '--json'], env);
    expect(folderPrinter).toMatchObject({ default_for: [], status: 'ready' });

    const badUri = await cli(['printers', 'add', '--name', 'Bad', '--uri', 'lpd://x/q', '--format', 'zpl'], env);
    expect(badUri.code).toBe(1);
    expect(badUri.stderr).toMatch(/^ {2}uri: scheme lpd is not supported/m);
    expect((await cli(['printers', 'add', '--name', 'No format', '--uri', zebra.uri], env)).code).toBe(2);
    expect((await cli(['printers', 'add', '--name', 'Gif', '--uri', zebra.uri, '--format', 'gif'], env)).code).toBe(2);
  });

  it('printers list and show: the table, JSON, and paper out from the Zebra host status', async () => {
    const list = await cliJson<{ data: Printer[]; meta: { total: number } }>(['printers', 'list', '--json'], env);
    expect(list.data.map((p) => p.name)).toEqual(['Folder', 'Zebra']);
    const table = await cli(['printers', 'list'], env);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(zebra.uri);
    expect(table.stdout).toContain('page 1 of 1, 2 in all');

    zebra.flags.paperOut = true;
    const human = await cli(['printers', 'show', zebraPrinter.id], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/status\s+offline: paper out/);
    expect(human.stdout).toMatch(/paper out\s+yes/);
    zebra.flags.paperOut = false;
    expect((await cliJson<Printer>(['printers', 'show', zebraPrinter.id, '--json'], env)).status).toBe('ready');
    expect((await cli(['printers', 'show', 'prn_nope'], env)).code).toBe(3);
  });

  it('printers test prints a ZPL and an EPL test label and waits for them', async () => {
    zebra.clear();
    const result = await cli(['printers', 'test', zebraPrinter.id], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.match(/^printed test label \((zpl|epl), pj_\w+\) on prn_/gm)).toHaveLength(2);
    const printed = zebra.labelBytes().toString('utf8');
    expect(printed).toContain('^FH\\^FDDesk Ostrava^FS');
    expect(printed).toContain('"Desk Ostrava"');
  });

  it('printers default moves a format to another printer', async () => {
    const result = await cli(['printers', 'default', folderPrinter.id, '--format', 'pdf'], env);
    expect(result.stdout).toBe(`Folder (${folderPrinter.id}) is the default printer for pdf\n`);
    expect((await cliJson<Printer>(['printers', 'show', folderPrinter.id, '--json', '--cached'], env)).default_for).toEqual(['pdf']);
  });

  it('ship prints the label on the default printer for its format, once', async () => {
    zebra.clear();
    const result = await cli(shipFlags('SHIP-PRINT-1'), env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^printed label \(zpl, pj_\w+\) on Zebra$/m);
    const id = /shipment\s+(sh_\w+)/.exec(result.stdout)![1]!;
    const label = await rawLabel(id);
    expect(zebra.labelBytes().equals(label)).toBe(true);
    expect(readFileSync(join(tmp, 'SHIP-PRINT-1.zpl')).equals(label)).toBe(true);
  });

  it('ship while the printer is down: the job is kept, and the label prints once after the printer is back', async () => {
    await zebra.stop();
    zebra.clear();
    const shipped = await cliJson<Shipped>(shipFlags('SHIP-DOWN', ['--json']), env);
    expect(shipped.status).toBe('created');
    expect(shipped.print_job).toMatchObject({ status: 'queued', attempts: 1, shipment_id: shipped.id });
    expect(shipped.print_job!.error).toContain('ECONNREFUSED');
    const human = await cli(['jobs', 'show', shipped.print_job!.id], env);
    expect(human.stdout).toMatch(/status\s+queued/);

    await sleep(1000);
    await zebra.start();
    const deadline = Date.now() + 30_000;
    let job = shipped.print_job!;
    while (job.status !== 'printed' && Date.now() < deadline) {
      await sleep(250);
      const res = await fetch(`${daemonUrl}/v1/print-jobs/${job.id}`, { headers: { authorization: `Bearer ${apiKey}` } });
      job = ((await res.json()) as { data: Job }).data;
    }
    expect(job.status).toBe('printed');
    expect((await cliJson<Job>(['jobs', 'show', job.id, '--json'], env)).attempts).toBeGreaterThanOrEqual(2);
    await sleep(500);
    expect(occurrences(zebra.labelBytes(), await rawLabel(shipped.id))).toBe(1);
    expect(zebra.labelBytes().length).toBe((await rawLabel(shipped.id)).length);
  }, 90_000);

  it('ship --no-print only saves the label; ship --printer --copies picks another printer', async () => {
    zebra.clear();
    const quiet = await cliJson<Shipped>(shipFlags('NO-PRINT', ['--no-print', '--json']), env);
    expect(quiet).not.toHaveProperty('print_job');
    const jobs = await cliJson<{ data: Job[] }>(['jobs', 'list', '--shipment', quiet.id, '--json'], env);
    expect(jobs.data).toEqual([]);
    const copies = await cliJson<Shipped>(shipFlags('TO-FOLDER', ['--printer', folderPrinter.id, '--copies', '2', '--json']), env);
    expect(copies.print_job).toMatchObject({ status: 'printed', copies: 2, format: 'zpl' });
    expect(existsSync(join(folder, `${copies.print_job!.id}-2.zpl`))).toBe(true);
    expect(zebra.labelBytes().length).toBe(0);
  });

  it('shipments print sends a stored label again, to a printer and in copies', async () => {
    const shipped = await cliJson<Shipped>(shipFlags('REPRINT', ['--no-print', '--json']), env);
    zebra.clear();
    const job = await cliJson<Job>(['shipments', 'print', shipped.id, '--copies', '2', '--json'], env);
    expect(job).toMatchObject({ status: 'printed', copies: 2, shipment_id: shipped.id });
    const label = await rawLabel(shipped.id);
    expect(zebra.labelBytes().equals(Buffer.concat([label, label]))).toBe(true);
    const human = await cli(['shipments', 'print', shipped.id, '--printer', folderPrinter.id], env);
    expect(human.stdout).toMatch(/^printed label \(zpl, pj_\w+\) on prn_\w+$/m);
    expect((await cli(['shipments', 'print', shipped.id, '--copies', '50'], env)).code).toBe(2);
    expect((await cli(['shipments', 'print', 'sh_nope'], env)).code).toBe(3);
  });

  it('jobs list, show and retry', async () => {
    const list = await cliJson<{ data: Job[]; meta: { total: number } }>(['jobs', 'list', '--status', 'printed', '--printer', zebraPrinter.id, '--json'], env);
    expect(list.data.length).toBeGreaterThanOrEqual(4);
    expect(list.data.every((j) => j.status === 'printed')).toBe(true);
    const table = await cli(['jobs', 'list', '--per-page', '100'], env);
    expect(table.stdout).toContain('(test)');
    expect(table.stdout).toMatch(/page 1 of 1, \d+ in all/);
    const shown = await cli(['jobs', 'show', list.data[0]!.id], env);
    expect(shown.stdout).toMatch(/status\s+printed/);
    const retry = await cli(['jobs', 'retry', list.data[0]!.id], env);
    expect(retry.code).toBe(1);
    expect(retry.stderr).toContain('only a failed print job can be retried (this one is printed)');
    expect((await cli(['jobs', 'show', 'pj_nope'], env)).code).toBe(3);
  });

  it('printers remove', async () => {
    const removed = await cli(['printers', 'remove', folderPrinter.id], env);
    expect(removed.stdout).toBe(`removed ${folderPrinter.id}\n`);
    expect((await cli(['printers', 'show', folderPrinter.id], env)).code).toBe(3);
  });
});
