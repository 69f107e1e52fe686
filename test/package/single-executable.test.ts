import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';
import { decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';

const PACKAGE_SCRIPT = fileURLToPath(new URL('../../scripts/package.mjs', import.meta.url));

/** packdesk as one file (`npm run package`), run where there is no Node: an empty directory and an environment without it. */
describe('the single executable', () => {
  let tmp: string;
  let binary: string;
  let desk: string;
  /** Only what a station gives any program: no PATH to node, a home of its own. */
  let env: NodeJS.ProcessEnv;

  const run = (args: string[], timeout = 60_000) => execFileSync(binary, args, { cwd: desk, env, encoding: 'utf8', timeout });

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'packdesk-sea-'));
    desk = join(tmp, 'desk');
    mkdirSync(desk);
    binary = join(desk, `packdesk-${process.platform}-${process.arch}`);
    execFileSync(process.execPath, [PACKAGE_SCRIPT, '--out', binary], { stdio: 'ignore', timeout: 120_000 });
    env = { HOME: join(tmp, 'home'), PATH: join(tmp, 'no-node-here'), LANG: 'C.UTF-8' };
  }, 150_000);
  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('is one file of at most 130 MB that tells its version without a Node on the PATH', () => {
    expect(statSync(binary).size).toBeLessThanOrEqual(130_000_000);
    expect(run(['--version']).trim()).toBe(VERSION);
  });

  it('runs the demo from an empty directory: its steps, and a PDF label whose barcodes are the tracking numbers', () => {
    const out = run(['demo']);
    expect(out).toContain('3. Started the packdesk daemon');
    const numbers = [...out.matchAll(/tracking number (\S+)/g)].map((m) => m[1]!);
    expect(numbers).toHaveLength(2);
    return expect(decodePdfBarcodes(readFileSync(join(desk, 'packdesk-demo-label.pdf')))).resolves.toEqual(numbers.map((n) => [n]));
  });

  it('converts a carrier\'s PDF to ZPL in its own conversion thread (MRW gives only PDF)', async () => {
    const out = run(['demo', '--provider', 'mrw', '--format', 'zpl', '--out', 'mrw.zpl']);
    expect(out).toContain('converted offline');
    const numbers = [...out.matchAll(/tracking number (\S+)/g)].map((m) => m[1]!);
    const zpl = readFileSync(join(desk, 'mrw.zpl'), 'utf8');
    expect(zpl).toMatch(/\^GFA,\d+,\d+,\d+,:Z64:/);
    expect(await decodeZplBarcodes(zpl)).toEqual(numbers.map((n) => [n]));
  });

  it('writes itself into the service unit: ExecStart runs the executable, not a Node', () => {
    const printed = run(['service', 'install', '--data-dir', join(tmp, 'station'), '--port', '7421']);
    expect(printed).toContain(`ExecStart=${binary} daemon --data-dir ${join(tmp, 'station')} --port 7421`);
  });

  it('serves the API and the desk page from a data directory it migrates itself, and stops cleanly on SIGTERM', async () => {
    const dataDir = join(tmp, 'station');
    const init = JSON.parse(run(['init', '--data-dir', dataDir, '--yes', '--json'])) as { api_key: string };
    const daemon = spawn(binary, ['daemon', '--data-dir', dataDir, '--port', '0'], { cwd: desk, env });
    const exited = new Promise<number | null>((resolve) => daemon.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        daemon.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const line = output.split('\n').find((l) => l.includes('"msg":"listening"'));
          if (line) resolve((JSON.parse(line) as { url: string }).url);
        });
        void exited.then((code) => reject(new Error(`the daemon exited ${code}: ${output}`)));
      });
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      const script = /src="(\/assets\/desk-\w+\.js)"/.exec(await page.text())?.[1];
      expect((await fetch(`${url}${script}`)).status).toBe(200);
      const account = await fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${init.api_key}` } });
      expect(account.status).toBe(200);
    } finally {
      daemon.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
