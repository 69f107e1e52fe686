import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiled CLI: `npx tsc -p tsconfig.json` must have run before the tests. */
export const CLI = fileURLToPath(new URL('../../dist/bin/packdesk.js', import.meta.url));

export type Env = Record<string, string>;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** The working directory; the test runner's by default. */
  cwd?: string;
  /** Written to stdin, which is then closed; nothing by default. */
  input?: string;
}

/** The environment of the test runner without any packdesk settings, so only what a test passes counts. */
export function isolatedEnv(): Env {
  const env: Env = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('PACKDESK_')) env[key] = value;
  return env;
}

/** Runs one packdesk command to its end, killing it after 30 s. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, options: RunOptions = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI, ...args], { env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => {}); // a command may exit without reading its input
  child.stdin.end(options.input ?? '');
  return outcome(child, 30_000);
}

/** A child's exit code and everything it wrote, once it ended; killed after `limitMs`. */
function outcome(child: ChildProcess, limitMs: number): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.stdout!.setEncoding('utf8').on('data', (text: string) => { stdout += text; });
    child.stderr!.setEncoding('utf8').on('data', (text: string) => { stderr += text; });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/**
 * Runs one packdesk command in this process: the same program as the executable, with `env` as its environment, `cwd`
 * as its working directory and its output captured. Commands run one at a time; a command that reads stdin needs the
 * real process (`runCli`).
 */
export async function runCliInProcess(args: string[], env: NodeJS.ProcessEnv, options: { cwd?: string } = {}): Promise<CliResult> {
  const { runPackdesk } = await import('../../bin/program.js');
  const saved = { env: process.env, cwd: process.cwd(), exitCode: process.exitCode, out: process.stdout.write, err: process.stderr.write };
  const captured = { stdout: '', stderr: '' };
  const capture = (stream: 'stdout' | 'stderr') => ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    captured[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    done?.();
    return true;
  }) as typeof process.stdout.write;
  process.env = { ...env };
  if (options.cwd) process.chdir(options.cwd);
  process.exitCode = undefined;
  process.stdout.write = capture('stdout');
  process.stderr.write = capture('stderr');
  try {
    const code = await runPackdesk([process.execPath, CLI, ...args]);
    return { code, ...captured };
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    process.exitCode = saved.exitCode;
    process.chdir(saved.cwd);
    process.env = saved.env;
  }
}

/** Runs a command that must succeed in this process and returns its stdout parsed as JSON. */
export async function runCliJsonInProcess<T = unknown>(args: string[], env: NodeJS.ProcessEnv, options: { cwd?: string } = {}): Promise<T> {
  const result = await runCliInProcess(args, env, options);
  if (result.code !== 0) throw new Error(`packdesk ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/**
 * Writes an `npx` into `dir` that runs `npx packdesk …` as the compiled CLI and refuses anything else, so commands
 * printed for people (`npx packdesk shipments show …`) run as printed with `dir` first in PATH, fetching nothing.
 */
export function writeNpxStandIn(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const script = `#!/bin/sh\n[ "$1" = packdesk ] || { echo "npx stand-in: only packdesk, not $1" >&2; exit 127; }\nshift\nexec ${quote(process.execPath)} ${quote(CLI)} "$@"\n`;
  writeFileSync(join(dir, 'npx'), script);
  chmodSync(join(dir, 'npx'), 0o755);
}

/** Runs a shell script (`sh -e`) to its end, killing it after 60 s. */
export function runShell(script: string, env: NodeJS.ProcessEnv, cwd?: string): Promise<CliResult> {
  return outcome(spawn('/bin/sh', ['-e', '-c', script], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] }), 60_000);
}

/** Runs a command that must succeed and returns its stdout parsed as JSON. */
export async function runCliJson<T = unknown>(args: string[], env: NodeJS.ProcessEnv, options: RunOptions = {}): Promise<T> {
  const result = await runCli(args, env, options);
  if (result.code !== 0) throw new Error(`packdesk ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** A long-running packdesk command, such as `daemon` or `emulate`. */
export interface CliProcess {
  child: ChildProcess;
  /** Resolves with the exit code once the process has ended and its output is read. */
  exited: Promise<number | null>;
  /** The stdout line that told the process was ready. */
  line: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends `signal` (SIGTERM by default) unless the process has ended, and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Spawns a long-running packdesk command (in `cwd`, else the runner's) and waits up to 20 s for a stdout line that `ready` accepts. */
export function startCliProcess(args: string[], env: NodeJS.ProcessEnv, ready: (line: string) => boolean, cwd?: string): Promise<CliProcess> {
  const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  let output = '';
  let partialLine = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => { output += text; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop('SIGKILL');
      reject(new Error(`packdesk ${args[0]} did not start within 20 s:\n${output}`));
    }, 20_000);
    child.once('error', reject);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`packdesk ${args[0]} exited with ${code}:\n${output}`));
    });
    const waitForReady = (text: string) => {
      const lines = (partialLine + text).split('\n');
      partialLine = lines.pop() ?? '';
      const line = lines.find(ready);
      if (line === undefined) return;
      clearTimeout(timer);
      child.stdout.off('data', waitForReady);
      resolve({ child, exited, line, output: () => output, stop });
    };
    child.stdout.setEncoding('utf8').on('data', (text: string) => { output += text; });
    child.stdout.on('data', waitForReady);
  });
}

/** The URL of a daemon's `"msg":"listening"` log line; undefined for any other line. */
export function listeningUrl(line: string): string | undefined {
  try {
    const parsed = JSON.parse(line) as { msg?: unknown; url?: unknown };
    return parsed.msg === 'listening' && typeof parsed.url === 'string' ? parsed.url : undefined;
  } catch {
    return undefined; // not a JSON line
  }
}

export interface DaemonProcess extends CliProcess {
  url: string;
}

/**
 * Starts `packdesk daemon` on a free port and waits for its `listening` line. Watched folders and file: printers may lie
 * in the temporary directory, unless `extraArgs` give their own `--files-root`; webhooks may reach the test receivers on loopback.
 */
export async function startDaemon(dataDir: string, env: NodeJS.ProcessEnv, extraArgs: string[] = []): Promise<DaemonProcess> {
  const filesRoot = extraArgs.includes('--files-root') ? [] : ['--files-root', tmpdir()];
  const daemon = await startCliProcess(['daemon', '--data-dir', dataDir, '--port', '0', '--allow-loopback-webhooks', ...filesRoot, ...extraArgs], env, (line) => listeningUrl(line) !== undefined);
  return { ...daemon, url: listeningUrl(daemon.line)! };
}

/** What `packdesk init --json` prints. */
export interface InitOutput {
  account_id: string;
  api_key: string;
  data_dir: string;
  config_path: string;
  url: string;
}

export interface StationOptions {
  /** Starts the PPL emulator too (`packdesk emulate --providers ppl`). */
  ppl?: boolean;
  /** The name of the account `init` creates. */
  account?: string;
  /** The daemon may use the station's own `tmp` alone for watched folders and file: printers, not the whole temporary directory. */
  filesRootIsTmp?: boolean;
}

/** A daemon on its own data directory in a temporary directory, run through the CLI as a person at the desk would. */
export interface Station {
  tmp: string;
  dataDir: string;
  /** An empty working directory for the commands run by `cli`. */
  desk: string;
  init: InitOutput;
  /** The key of the account `init` created. */
  apiKey: string;
  daemonUrl: string;
  /** The PPL API of the emulator, when asked for with `ppl: true`. */
  pplUrl: string | undefined;
  /** The isolated environment with its own config directory and CI=true, without a daemon address or key. */
  localEnv: Env;
  /** `localEnv` with PACKDESK_URL and PACKDESK_API_KEY of the account `init` created. */
  env: Env;
  /** Runs a command in `desk`, with `env` by default: in this process, or as a real process when it is given stdin `input`. */
  cli(args: string[], env?: Env, input?: string): Promise<CliResult>;
  /** Runs a command that must succeed in `desk` (in this process), with `env` by default, and parses its stdout. */
  cliJson<T = unknown>(args: string[], env?: Env): Promise<T>;
  /** Adds a PPL channel on the emulator. */
  addPplChannel(name?: string): Promise<{ id: string; status: string }>;
  /** Stops the daemon and the emulator with SIGTERM, removes `tmp` and resolves with the daemon's exit code. */
  stop(): Promise<number | null>;
}

/** Creates a temporary station: `packdesk init` (in this process), optionally the PPL emulator, and a daemon. */
export async function startStation(options: StationOptions = {}): Promise<Station> {
  const tmp = mkdtempSync(join(tmpdir(), 'packdesk-cli-'));
  const dataDir = join(tmp, 'data');
  const desk = join(tmp, 'desk');
  mkdirSync(desk);
  const localEnv: Env = { ...isolatedEnv(), XDG_CONFIG_HOME: join(tmp, 'cfg'), CI: 'true' };
  let emulator: CliProcess | undefined;
  let daemon: DaemonProcess | undefined;
  const stop = async () => {
    const code = daemon ? await daemon.stop() : null;
    await emulator?.stop();
    rmSync(tmp, { recursive: true, force: true });
    return code;
  };
  try {
    const account = options.account ? ['--account', options.account] : [];
    const init = await runCliJsonInProcess<InitOutput>(['init', '--data-dir', dataDir, ...account, '--yes', '--json'], localEnv);
    if (options.ppl) emulator = await startCliProcess(['emulate', '--providers', 'ppl', '--port', '0', '--json'], localEnv, (line) => line.trim().startsWith('{'));
    const pplUrl = emulator && (JSON.parse(emulator.line) as { ppl: string }).ppl;
    daemon = await startDaemon(dataDir, localEnv, options.filesRootIsTmp ? ['--files-root', tmp] : []);
    const env: Env = { ...localEnv, PACKDESK_URL: daemon.url, PACKDESK_API_KEY: init.api_key };
    // in this process, as most commands need nothing of their own process; stdin is the real process's to read
    const cli = (args: string[], runEnv = env, input?: string) =>
      (input === undefined ? runCliInProcess(args, runEnv, { cwd: desk }) : runCli(args, runEnv, { cwd: desk, input }));
    const cliJson = <T>(args: string[], runEnv = env) => runCliJsonInProcess<T>(args, runEnv, { cwd: desk });
    return {
      tmp, dataDir, desk, init, apiKey: init.api_key, daemonUrl: daemon.url, pplUrl, localEnv, env, cli, cliJson, stop,
      addPplChannel: (name = 'PPL') => {
        if (!pplUrl) throw new Error('the PPL emulator was not started: pass { ppl: true }');
        return cliJson<{ id: string; status: string }>([
          'channels', 'add', '--name', name, '--provider', 'ppl', '--setting', 'clientId=c1', '--setting', 'clientSecret=s3cret',
          '--setting', `baseUrl=${pplUrl}`, '--json',
        ]);
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
