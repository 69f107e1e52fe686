import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, runShell, startCliProcess, writeNpxStandIn, type Env } from '../helpers/cli.js';

/** The temporary data directory the demo says it made (step 2). */
const dataDirOf = (stdout: string): string => {
  const dir = /API key in (\S+) \(temporary: removed when the demo stops\)/.exec(stdout)?.[1];
  expect(dir, stdout).toMatch(/packdesk-demo-/);
  return dir!;
};

/** The indented lines under "Try next…": what a person copies. */
const tryNextLines = (stdout: string): string[] => {
  const after = stdout.split('\n').slice(stdout.split('\n').findIndex((line) => line.startsWith('Try next')) + 1);
  return after.slice(0, after.findIndex((line) => !line.startsWith('  '))).map((line) => line.trim());
};

describe('packdesk demo, as a new user runs it from the README', { timeout: 90_000 }, () => {
  let tmp: string;
  let env: Env;

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'packdesk-demo-test-'));
    writeNpxStandIn(join(tmp, 'bin'));
    env = { ...isolatedEnv(), XDG_CONFIG_HOME: join(tmp, 'cfg'), CI: 'true', PATH: `${join(tmp, 'bin')}:${process.env.PATH ?? ''}` };
  });

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('writes the label where it says, suggests npx packdesk commands, and removes its temporary data directory', async () => {
    const desk = join(tmp, 'once');
    mkdirSync(desk);
    const result = await runCli(['demo'], env, { cwd: desk });
    expect(result.code, result.stderr).toBe(0);
    const label = join(desk, 'packdesk-demo-label.pdf');
    expect(result.stdout).toContain(`6. Wrote the merged PDF label to ${label} (`);
    expect(readFileSync(label).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const dataDir = dataDirOf(result.stdout);
    expect(existsSync(dataDir)).toBe(false); // with secret.key and the demo's API key in it
    const lines = tryNextLines(result.stdout);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^npx packdesk demo /);
    expect(lines[0]).toMatch(/^npx packdesk demo --keep-running +# /);
    expect(result.stdout).toContain(`The demo daemon stops now and ${dataDir} is removed; the label stays in ${label}.`);
  });

  it('--keep-running: every "Try next" line works as printed in a new shell; SIGTERM stops it and removes its data', async () => {
    const desk = join(tmp, 'running');
    mkdirSync(desk);
    const demo = await startCliProcess(['demo', '--keep-running'], env, (line) => line.startsWith('The daemon and the emulator keep running'), desk);
    try {
      const stdout = demo.output();
      const dataDir = dataDirOf(stdout);
      expect(existsSync(join(dataDir, 'secret.key'))).toBe(true);
      const lines = tryNextLines(stdout);
      expect(lines[0]).toMatch(/^cd \//);
      expect(lines[1]).toMatch(/^export PACKDESK_URL=http:\/\/127\.0\.0\.1:\d+ PACKDESK_API_KEY=pdk_live_\w+$/);
      for (const line of lines.slice(2)) expect(line).toMatch(/^(npx packdesk |curl -s )/);
      expect(lines.some((line) => line.startsWith('npx packdesk track refresh tp_'))).toBe(true);

      // a new terminal: its own directory, none of the demo's settings; the lines run one after the other, as pasted
      const shell = await runShell(lines.join('\n'), env, tmpdir());
      expect(shell.code, `${shell.stdout}\n${shell.stderr}`).toBe(0);
      expect(shell.stdout).toMatch(/^status\s+in_transit$/m); // track refresh, after the emulator moved the parcel
      expect(shell.stdout).toMatch(/^status\s+shipped$/m); // the shipment follows its parcel
      expect(shell.stdout).toContain('"reference_number":"DEMO-1001"'); // the curl of the API

      expect(await demo.stop('SIGTERM')).toBe(0);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      await demo.stop('SIGKILL');
    }
  });
});
