import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_PORT, resolveDataDir } from '../paths.js';
import { CliError, EXIT } from './exit-codes.js';
import { collect } from './output.js';
import { action, DATABASE_OPTION, databaseUrlOf, parsePositiveInt } from './run.js';
import {
  daemonCommandLine, environmentLine, packdeskProgram, SERVICE_UNIT_NAME, serviceUnitText, type ServiceScope, type ServiceUnitOptions,
} from './service-unit.js';
import { shellQuote } from './shell-quote.js';

/**
 * The directory standing for `/` when looking for systemd (`run/systemd/system`) and system units (`etc/systemd/system`).
 * Only tests set PACKDESK_SYSTEMD_ROOT: their machine has no systemd.
 */
const systemdRoot = (): string => process.env.PACKDESK_SYSTEMD_ROOT || '/';
/** The systemctl program; PACKDESK_SYSTEMCTL is for tests, which stand a recording script in for it. */
const systemctlProgram = (): string => process.env.PACKDESK_SYSTEMCTL || 'systemctl';

/** Where the unit file of a scope lives: the system's units, or the user's (`$XDG_CONFIG_HOME/systemd/user`). */
export function unitPath(scope: ServiceScope): string {
  if (scope === 'system') return join(systemdRoot(), 'etc', 'systemd', 'system', SERVICE_UNIT_NAME);
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'systemd', 'user', SERVICE_UNIT_NAME);
}

/** Where the daemon's environment (the shared store's URL) is kept for the unit: readable by its owner alone. */
function environmentPath(scope: ServiceScope): string {
  if (scope === 'system') return join(systemdRoot(), 'etc', 'packdesk', 'packdesk.env');
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'packdesk', 'packdesk.env');
}

interface Outcome {
  /** The exit code; null when systemctl could not be run at all. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs systemctl (with `--user` for user units) to its end, keeping its output. */
function systemctl(scope: ServiceScope, args: string[]): Promise<Outcome> {
  return new Promise((done) => {
    const child = spawn(systemctlProgram(), [...(scope === 'user' ? ['--user'] : []), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => { stdout += text; });
    child.stderr.setEncoding('utf8').on('data', (text: string) => { stderr += text; });
    child.once('error', (err) => done({ code: null, stdout, stderr: err.message }));
    child.once('close', (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}

/** systemd manages this machine: its runtime directory exists and systemctl runs. */
async function systemdPresent(): Promise<boolean> {
  if (!existsSync(join(systemdRoot(), 'run', 'systemd', 'system'))) return false;
  return (await systemctl('system', ['--version'])).code === 0;
}

/** Runs a systemctl step that must succeed, else fails with what systemctl said. */
async function systemctlStep(scope: ServiceScope, args: string[]): Promise<void> {
  const result = await systemctl(scope, args);
  if (result.code === 0) return;
  const said = (result.stderr || result.stdout).trim();
  throw new CliError(`systemctl ${scope === 'user' ? '--user ' : ''}${args.join(' ')} failed${said ? `: ${said}` : ''}`, EXIT.failure);
}

/** The home directory of another user, from /etc/passwd; undefined when it is not listed there. */
function homeOf(user: string): string | undefined {
  try {
    const entry = readFileSync('/etc/passwd', 'utf8').split('\n').map((line) => line.split(':')).find((fields) => fields[0] === user);
    return entry?.[5] || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who a system unit runs the daemon as: the user running the command; under sudo the user who ran sudo; nobody
 * (so root) when that is root itself.
 */
function serviceUser(): string | undefined {
  if (process.getuid?.() !== 0) return userInfo().username;
  const sudoUser = process.env.SUDO_USER;
  return sudoUser && sudoUser !== 'root' ? sudoUser : undefined;
}

/** The daemon's data directory: `--data-dir`, else the one `packdesk init` used for the user the daemon runs as. */
function serviceDataDir(flag: string | undefined, runAs: string | undefined): string {
  if (flag || !runAs || process.getuid?.() !== 0) return resolveDataDir(flag);
  const home = homeOf(runAs);
  if (!home) throw new CliError(`cannot find the home directory of ${runAs} in /etc/passwd: give --data-dir`, EXIT.usage);
  return join(home, '.local', 'share', 'packdesk');
}

const systemctlLine = (scope: ServiceScope, args: string): string => `systemctl ${scope === 'user' ? '--user ' : ''}${args}`;
const installCommand = (scope: ServiceScope): string => `packdesk service install${scope === 'user' ? ' --user' : ''}`;

interface InstallFlags {
  user?: boolean;
  dataDir?: string;
  port: string;
  filesRoot?: string[];
  retentionDays?: string;
  database?: string;
  station?: string;
}

/** The shared store's URL for the unit, checked the way the daemon will read it; its password is never shown. */
async function checkedDatabaseUrl(flag: string | undefined): Promise<string | undefined> {
  const url = databaseUrlOf(flag);
  if (url === undefined) return undefined;
  const { describeDatabaseUrl } = await import('../store/postgres.js');
  try {
    if (/[\x00-\x1f]/.test(url)) throw new Error('the database URL holds a control character');
    describeDatabaseUrl(url);
  } catch (err) {
    throw new CliError(`--database: ${(err as Error).message}`, EXIT.usage);
  }
  return url;
}

/** Writes a file only its owner reads (the daemon's environment, with the store's password). */
function writePrivateFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600); // a file that was there keeps its mode through writeFileSync
}

/** Installs (or prints, without systemd) the unit; enables and starts it. */
async function install(o: InstallFlags): Promise<void> {
  const scope: ServiceScope = o.user ? 'user' : 'system';
  const port = parsePositiveInt(o.port, '--port');
  if (port > 65535) throw new CliError('--port must be at most 65535', EXIT.usage);
  const runAs = scope === 'system' ? serviceUser() : undefined;
  const dataDir = serviceDataDir(o.dataDir, runAs);
  const databaseUrl = await checkedDatabaseUrl(o.database);
  const station = o.station?.trim();
  if (o.station !== undefined && !station) throw new CliError('--station must name a station', EXIT.usage);
  const envPath = environmentPath(scope);
  const unit: ServiceUnitOptions = {
    scope, program: packdeskProgram(), dataDir, port, user: runAs, station,
    filesRoots: o.filesRoot?.map((dir) => resolve(dir)),
    retentionDays: o.retentionDays !== undefined ? parsePositiveInt(o.retentionDays, '--retention-days') : undefined,
    environmentFile: databaseUrl ? envPath : undefined,
  };
  const text = serviceUnitText(unit);
  const path = unitPath(scope);
  if (!(await systemdPresent())) {
    process.stdout.write(
      'systemd is not running on this machine (no /run/systemd/system, or systemctl does not run): nothing was installed.\n'
      + `On a machine with systemd, save this unit as ${path}:\n\n${text}\n`
      + (databaseUrl ? `and the line PACKDESK_DATABASE_URL="<the store's URL>" as ${envPath} (mode 600), ` : '')
      + `and run:\n  ${systemctlLine(scope, 'daemon-reload')}\n  ${systemctlLine(scope, 'enable --now packdesk')}\n`
      + `Here, run \`${daemonCommandLine({ ...unit, program: ['packdesk'] }).map(shellQuote).join(' ')}\``
      + `${databaseUrl ? ' with PACKDESK_DATABASE_URL set' : ''} under whatever starts programs on this machine.\n`,
    );
    return;
  }
  const previous = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const previousEnvironment = existsSync(envPath) ? readFileSync(envPath, 'utf8') : undefined;
  const environment = databaseUrl ? `${environmentLine('PACKDESK_DATABASE_URL', databaseUrl)}\n` : undefined;
  try {
    if (environment) writePrivateFile(envPath, environment);
    else rmSync(envPath, { force: true });
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text, { mode: 0o644 });
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as Error).message;
    throw new CliError(`cannot write ${path} (${code})`, EXIT.failure, undefined,
      scope === 'system' ? 'A system unit needs root: run it with sudo, or install a user unit with --user.' : undefined);
  }
  await systemctlStep(scope, ['daemon-reload']);
  await systemctlStep(scope, ['enable', '--now', 'packdesk']);
  // enable --now leaves a running daemon as it is: one started from an older unit restarts with the new flags
  if (previous !== undefined && (previous !== text || previousEnvironment !== environment)) await systemctlStep(scope, ['restart', 'packdesk']);
  process.stdout.write(
    `${previous === undefined ? 'Wrote' : 'Rewrote'} ${path}: the daemon on http://127.0.0.1:${port}, data in ${dataDir}${runAs ? `, as ${runAs}` : ''}`
    + `${station ? `, station ${station}` : ''}.\n`
    + (databaseUrl ? `The store's URL is kept in ${envPath}, readable by ${scope === 'user' ? 'you' : 'root'} alone.\n` : '')
    + `packdesk is enabled and started. \`packdesk service status${scope === 'user' ? ' --user' : ''}\` shows it, `
    + `\`journalctl${scope === 'user' ? ' --user' : ''} -u packdesk\` its log.\n`
    + (scope === 'user' ? `A user unit runs while you are logged in; \`loginctl enable-linger ${userInfo().username}\` starts it at boot.\n` : ''),
  );
}

/** The error for a scope without the unit, pointing at the other scope when that one has it. */
function notInstalled(scope: ServiceScope): CliError {
  const other: ServiceScope = scope === 'system' ? 'user' : 'system';
  const hint = existsSync(unitPath(other)) ? `A ${other} unit is installed: ${other === 'user' ? 'add --user' : 'leave out --user'}.` : undefined;
  return new CliError(`packdesk is not installed as a ${scope} service (no ${unitPath(scope)}); \`${installCommand(scope)}\` installs it`, EXIT.notFound, undefined, hint);
}

async function status(o: { user?: boolean }): Promise<void> {
  const scope: ServiceScope = o.user ? 'user' : 'system';
  if (!existsSync(unitPath(scope))) throw notInstalled(scope);
  if (!(await systemdPresent())) throw new CliError(`${unitPath(scope)} exists, but systemd is not running on this machine`, EXIT.failure);
  const result = await systemctl(scope, ['status', '--no-pager', 'packdesk']);
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  // systemctl status exits 3 for a unit that is installed but not running
  if (result.code !== 0) throw new CliError(`the packdesk service is not running (${systemctlLine(scope, 'status')} exited ${result.code})`, EXIT.failure);
}

async function uninstall(o: { user?: boolean }): Promise<void> {
  const scope: ServiceScope = o.user ? 'user' : 'system';
  const path = unitPath(scope);
  if (!existsSync(path)) {
    process.stdout.write(`packdesk is not installed as a ${scope} service (no ${path}): nothing to remove.\n`);
    return;
  }
  const present = await systemdPresent();
  if (present) await systemctlStep(scope, ['disable', '--now', 'packdesk']);
  try {
    rmSync(path);
    rmSync(environmentPath(scope), { force: true });
  } catch (err) {
    throw new CliError(`cannot remove ${path} (${(err as { code?: string }).code ?? (err as Error).message})`, EXIT.failure);
  }
  if (present) await systemctlStep(scope, ['daemon-reload']);
  process.stdout.write(`${present ? 'Stopped and disabled packdesk, and removed' : 'Removed'} ${path}.\n`);
}

/** `packdesk service install|status|uninstall`: the daemon as a systemd service. */
export function registerServiceCommands(program: Command): void {
  const service = program.command('service').description('run the daemon as a systemd service: install, status, uninstall');

  service.command('install')
    .description('write a systemd unit for the daemon, enable and start it (without systemd: print the unit and what to do)')
    .option('--user', "a user unit (~/.config/systemd/user) instead of a system unit (/etc/systemd/system, needs root)")
    .option('--data-dir <dir>', 'data directory of the daemon (else the one `packdesk init` uses)')
    .option('--port <port>', 'port the daemon listens on', String(DEFAULT_PORT))
    .option('--files-root <dir>', 'a directory watched folders and file: printers may lie in (repeatable)', collect)
    .option('--retention-days <days>', 'days finished records are kept')
    .option(...DATABASE_OPTION)
    .option('--station <name>', "the station the daemon serves (else the daemon's $PACKDESK_STATION; else the host name)")
    .action(action(install));

  service.command('status')
    .description("the service's state (systemctl status packdesk), or that it is not installed")
    .option('--user', 'the user unit instead of the system unit')
    .action(action(status));

  service.command('uninstall')
    .description('stop and disable the service and remove its unit')
    .option('--user', 'the user unit instead of the system unit')
    .action(action(uninstall));
}
