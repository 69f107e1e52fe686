import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { packdeskProgram, serviceUnitText } from '../../src/cli/service-unit.js';
import { CLI, isolatedEnv, listeningUrl, runCli, runCliInProcess, type Env } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { execStartWords } from '../helpers/systemd-exec.js';

/** Who a system unit runs as when the tests install one: the runner unless it is root (sudo is left out of the env). */
const expectedUser = (): string | undefined => (process.getuid?.() === 0 ? undefined : userInfo().username);

describe('packdesk service on a machine without systemd', () => {
  let tmp: string;
  let env: Env;

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'packdesk-service-'));
    env = { ...isolatedEnv(), XDG_CONFIG_HOME: join(tmp, 'cfg'), CI: 'true' };
    delete env.SUDO_USER;
    // where a machine has systemd, the tests stand an empty root in for it rather than install a real service
    if (existsSync('/run/systemd/system')) env.PACKDESK_SYSTEMD_ROOT = join(tmp, 'no-systemd');
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('prints a unit whose ExecStart starts this packdesk daemon, and what to run, installing nothing', async () => {
    const dataDir = join(tmp, 'station data');
    const port = await freePort();
    const systemUnit = join(env.PACKDESK_SYSTEMD_ROOT ?? '/', 'etc', 'systemd', 'system', 'packdesk.service');
    const existedBefore = existsSync(systemUnit);
    const result = await runCli(['service', 'install', '--data-dir', dataDir, '--port', String(port)], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('nothing was installed');
    const unit = serviceUnitText({ scope: 'system', program: [process.execPath, CLI], dataDir, port, user: expectedUser() });
    expect(result.stdout).toContain(`save this unit as ${systemUnit}:\n\n${unit}`);
    expect(result.stdout).toContain('systemctl daemon-reload\n');
    expect(result.stdout).toContain('systemctl enable --now packdesk\n');
    expect(result.stdout).toContain(`Here, run \`packdesk daemon --data-dir '${dataDir}' --port ${port}\``);
    expect(existsSync(systemUnit)).toBe(existedBefore);
    expect(existsSync(join(tmp, 'cfg'))).toBe(false);

    // the printed ExecStart, read as systemd reads it, runs a daemon on the data directory and port
    const execStart = /^ExecStart=(.*)$/m.exec(result.stdout)![1]!;
    const [command, ...args] = execStartWords(execStart);
    expect([command, ...args]).toEqual([process.execPath, CLI, 'daemon', '--data-dir', dataDir, '--port', String(port)]);
    const daemon = spawn(command!, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((done) => daemon.once('close', done));
    try {
      const listening = await new Promise<{ url: string; data_dir: string }>((done, fail) => {
        let out = '';
        daemon.stdout.setEncoding('utf8').on('data', (text: string) => {
          out += text;
          const line = out.split('\n').find((l) => listeningUrl(l) !== undefined);
          if (line) done(JSON.parse(line) as { url: string; data_dir: string });
        });
        void exited.then((code) => fail(new Error(`the daemon exited ${code}: ${out}`)));
      });
      expect(listening.url).toBe(`http://127.0.0.1:${port}`);
      expect(listening.data_dir).toBe(dataDir);
    } finally {
      daemon.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('prints a user unit and the systemctl --user commands, writing nothing to the user config', async () => {
    const result = await runCliInProcess(['service', 'install', '--user', '--data-dir', join(tmp, 'user data'), '--port', '7433'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('nothing was installed');
    expect(result.stdout).toContain(`save this unit as ${join(tmp, 'cfg', 'systemd', 'user', 'packdesk.service')}:`);
    expect(result.stdout).toContain('\nWantedBy=default.target\n');
    expect(result.stdout).toContain(`--data-dir "${join(tmp, 'user data')}" --port 7433\n`);
    expect(result.stdout).toContain('systemctl --user daemon-reload\n');
    expect(result.stdout).toContain('systemctl --user enable --now packdesk\n');
    expect(existsSync(join(tmp, 'cfg'))).toBe(false);
  });

  it('says the service is not installed, and that uninstall has nothing to remove', async () => {
    const status = await runCliInProcess(['service', 'status', '--user'], env);
    expect(status.code).toBe(3);
    expect(status.stderr).toContain('packdesk is not installed as a user service');
    const uninstall = await runCliInProcess(['service', 'uninstall', '--user'], env);
    expect(uninstall.code).toBe(0);
    expect(uninstall.stdout).toContain('nothing to remove');
  });

  it('refuses a port that is none', async () => {
    const result = await runCliInProcess(['service', 'install', '--port', '70000'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port must be at most 65535');
  });
});

describe('packdesk service with systemd (a recording systemctl stands in)', () => {
  let tmp: string;
  let root: string;
  let calls: string;
  let env: Env;
  const systemUnit = () => join(root, 'etc', 'systemd', 'system', 'packdesk.service');
  const userUnit = () => join(tmp, 'cfg', 'systemd', 'user', 'packdesk.service');
  /** What systemctl was asked since the last reset, one call a line. */
  const asked = (): string[] => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n').filter(Boolean) : []);

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'packdesk-systemd-'));
    root = join(tmp, 'root');
    mkdirSync(join(root, 'run', 'systemd', 'system'), { recursive: true });
    calls = join(tmp, 'calls.log');
    const systemctl = join(tmp, 'systemctl');
    // records each call; `status` answers like systemd (exit 3 when stopped); a failing step says why on stderr
    writeFileSync(systemctl, [
      '#!/bin/sh',
      `echo "$*" >> '${calls}'`,
      `case "$*" in`,
      `  *status*) echo '● packdesk.service - packdesk shipping station'; echo "     Active: $(cat '${tmp}/state')"; [ "$(cat '${tmp}/state')" = 'active (running)' ] || exit 3 ;;`,
      `  *enable*) [ -e '${tmp}/fail-enable' ] && { echo 'Failed to enable unit: Access denied' >&2; exit 1; } ;;`,
      'esac',
      'exit 0',
      '',
    ].join('\n'));
    chmodSync(systemctl, 0o755);
    env = { ...isolatedEnv(), XDG_CONFIG_HOME: join(tmp, 'cfg'), CI: 'true', PACKDESK_SYSTEMD_ROOT: root, PACKDESK_SYSTEMCTL: systemctl };
    delete env.SUDO_USER;
  });
  beforeEach(() => {
    rmSync(calls, { force: true });
    rmSync(join(tmp, 'fail-enable'), { force: true });
    writeFileSync(join(tmp, 'state'), 'active (running)');
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('installs a system unit, reloads systemd, enables and starts it; status shows it; uninstall removes it', async () => {
    const dataDir = join(tmp, 'data');
    const install = await runCliInProcess(['service', 'install', '--data-dir', dataDir, '--port', '7441'], env);
    expect(install.code, install.stderr).toBe(0);
    expect(readFileSync(systemUnit(), 'utf8')).toBe(serviceUnitText({ scope: 'system', program: packdeskProgram(), dataDir, port: 7441, user: expectedUser() }));
    expect(asked()).toEqual(['--version', 'daemon-reload', 'enable --now packdesk']);
    expect(install.stdout).toContain(`Wrote ${systemUnit()}: the daemon on http://127.0.0.1:7441, data in ${dataDir}`);

    rmSync(calls);
    const status = await runCliInProcess(['service', 'status'], env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('● packdesk.service - packdesk shipping station\n     Active: active (running)');
    expect(asked()).toEqual(['--version', 'status --no-pager packdesk']);

    writeFileSync(join(tmp, 'state'), 'inactive (dead)');
    const stopped = await runCliInProcess(['service', 'status'], env);
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toContain('Active: inactive (dead)');
    expect(stopped.stderr).toContain('the packdesk service is not running');

    rmSync(calls);
    const uninstall = await runCliInProcess(['service', 'uninstall'], env);
    expect(uninstall.code, uninstall.stderr).toBe(0);
    expect(existsSync(systemUnit())).toBe(false);
    expect(asked()).toEqual(['--version', 'disable --now packdesk', 'daemon-reload']);
    const after = await runCliInProcess(['service', 'status'], env);
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('packdesk is not installed as a system service');
  });

  it('restarts the daemon when a reinstall changes the unit, and only then', async () => {
    const dataDir = join(tmp, 'data');
    expect((await runCliInProcess(['service', 'install', '--data-dir', dataDir, '--port', '7442'], env)).code).toBe(0);
    rmSync(calls);
    const same = await runCliInProcess(['service', 'install', '--data-dir', dataDir, '--port', '7442'], env);
    expect(same.code, same.stderr).toBe(0);
    expect(asked()).toEqual(['--version', 'daemon-reload', 'enable --now packdesk']);
    rmSync(calls);
    const moved = await runCliInProcess(['service', 'install', '--data-dir', dataDir, '--port', '7443'], env);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain('Rewrote');
    expect(readFileSync(systemUnit(), 'utf8')).toContain(' --port 7443\n');
    expect(asked()).toEqual(['--version', 'daemon-reload', 'enable --now packdesk', 'restart packdesk']);
    expect((await runCliInProcess(['service', 'uninstall'], env)).code).toBe(0);
  });

  it('installs a user unit under XDG_CONFIG_HOME with systemctl --user, and points status without --user at it', async () => {
    const install = await runCliInProcess(['service', 'install', '--user', '--data-dir', join(tmp, 'data'), '--port', '7444'], env);
    expect(install.code, install.stderr).toBe(0);
    const text = readFileSync(userUnit(), 'utf8');
    expect(text).toContain('\nWantedBy=default.target\n');
    expect(text).not.toMatch(/^User=/m);
    expect(asked()).toEqual(['--version', '--user daemon-reload', '--user enable --now packdesk']);
    expect(install.stdout).toContain('loginctl enable-linger');

    const systemStatus = await runCliInProcess(['service', 'status'], env);
    expect(systemStatus.code).toBe(3);
    expect(systemStatus.stderr).toContain('A user unit is installed: add --user.');
    rmSync(calls);
    expect((await runCliInProcess(['service', 'status', '--user'], env)).code).toBe(0);
    expect(asked()).toEqual(['--version', '--user status --no-pager packdesk']);

    rmSync(calls);
    expect((await runCliInProcess(['service', 'uninstall', '--user'], env)).code).toBe(0);
    expect(existsSync(userUnit())).toBe(false);
    expect(asked()).toEqual(['--version', '--user disable --now packdesk', '--user daemon-reload']);
  });

  it('keeps a shared store\'s URL out of the unit, in an environment file only root reads, and serves the station', async () => {
    const url = 'postgres://packdesk:s3cret-"pass"@store.lan/packdesk';
    const envFile = join(root, 'etc', 'packdesk', 'packdesk.env');
    const install = await runCliInProcess(['service', 'install', '--data-dir', join(tmp, 'data'), '--port', '7445', '--database', url, '--station', 'packing 2'], env);
    expect(install.code, install.stderr).toBe(0);
    const unit = readFileSync(systemUnit(), 'utf8');
    expect(unit).toContain(`\nEnvironmentFile=${envFile}\n`);
    expect(unit).toContain(' --port 7445 --station "packing 2"\n');
    expect(readFileSync(envFile, 'utf8')).toBe('PACKDESK_DATABASE_URL="postgres://packdesk:s3cret-\\"pass\\"@store.lan/packdesk"\n');
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    expect(`${unit}${install.stdout}${install.stderr}`).not.toContain('s3cret');
    expect(install.stdout).toContain(`The store's URL is kept in ${envFile}, readable by root alone.`);

    // the same unit with another URL: only the environment file changed, and the daemon restarts to read it
    rmSync(calls);
    const moved = await runCliInProcess(['service', 'install', '--data-dir', join(tmp, 'data'), '--port', '7445', '--station', 'packing 2'],
      { ...env, PACKDESK_DATABASE_URL: 'postgres://packdesk:other@store2.lan/packdesk' });
    expect(moved.code, moved.stderr).toBe(0);
    expect(readFileSync(systemUnit(), 'utf8')).toBe(unit);
    expect(readFileSync(envFile, 'utf8')).toContain('@store2.lan/');
    expect(asked()).toEqual(['--version', 'daemon-reload', 'enable --now packdesk', 'restart packdesk']);

    const refused = await runCliInProcess(['service', 'install', '--data-dir', join(tmp, 'data'), '--database', 'mysql://x:hidden@db/packdesk'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--database: the database URL must start with postgres://');
    expect(refused.stderr).not.toContain('hidden');

    expect((await runCliInProcess(['service', 'uninstall'], env)).code).toBe(0);
    expect(existsSync(envFile)).toBe(false);
  });

  it("fails with systemctl's own words when a step is refused", async () => {
    writeFileSync(join(tmp, 'fail-enable'), '');
    const install = await runCliInProcess(['service', 'install', '--data-dir', join(tmp, 'data')], env);
    expect(install.code).toBe(1);
    expect(install.stderr).toContain('systemctl enable --now packdesk failed: Failed to enable unit: Access denied');
    rmSync(systemUnit());
  });

  it('treats a machine whose systemctl does not run as one without systemd', async () => {
    const result = await runCliInProcess(['service', 'install', '--data-dir', join(tmp, 'data')], { ...env, PACKDESK_SYSTEMCTL: join(tmp, 'no-such-systemctl') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('nothing was installed');
    expect(existsSync(systemUnit())).toBe(false);
  });
});
