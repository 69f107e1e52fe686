import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { singleExecutable } from '../runtime/shipped.js';

/** A system unit (`/etc/systemd/system`, started at boot) or a user unit (the user's own systemd manager). */
export type ServiceScope = 'system' | 'user';

export interface ServiceUnitOptions {
  scope: ServiceScope;
  /** The command line that runs packdesk, before `daemon`: the single executable, or Node and the CLI script. */
  program: string[];
  /** Absolute data directory of the daemon. */
  dataDir: string;
  port: number;
  /** `--files-root` directories, absolute. */
  filesRoots?: string[];
  retentionDays?: number;
  /** `--station`: the station the daemon serves. */
  station?: string;
  /**
   * The file systemd reads the daemon's environment from (`EnvironmentFile=`): it holds PACKDESK_DATABASE_URL, whose
   * password must not stand in the world-readable unit.
   */
  environmentFile?: string;
  /** The user a system unit runs the daemon as (`User=`); without one it runs as root. User units run as their owner. */
  user?: string;
}

/** The name of the unit file in either scope. */
export const SERVICE_UNIT_NAME = 'packdesk.service';

/** Characters systemd takes literally in an unquoted ExecStart word. */
const PLAIN_WORD = /^[A-Za-z0-9_@+=:,./-]+$/;

/**
 * One ExecStart argument as systemd reads it back: `%` and `$` doubled (specifiers, variables), and any other
 * word with characters outside PLAIN_WORD double-quoted with C escapes, so spaces, quotes and backslashes survive.
 */
export function quoteExecArgument(arg: string): string {
  const literal = arg.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  if (PLAIN_WORD.test(arg)) return literal;
  const escaped = literal.replace(/[\\"\n\t\r]|[\x00-\x1f\x7f]/g, (c) => {
    if (c === '\\') return '\\\\';
    if (c === '"') return '\\"';
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
  return `"${escaped}"`;
}

/** The daemon's command line in the unit: the program, `daemon` and the flags the options give. */
export function daemonCommandLine(o: ServiceUnitOptions): string[] {
  return [
    ...o.program, 'daemon', '--data-dir', o.dataDir, '--port', String(o.port),
    ...(o.filesRoots ?? []).flatMap((dir) => ['--files-root', dir]),
    ...(o.retentionDays !== undefined ? ['--retention-days', String(o.retentionDays)] : []),
    ...(o.station !== undefined ? ['--station', o.station] : []),
  ];
}

/** The text of packdesk's systemd unit: pure, so what `packdesk service install` writes can be checked without systemd. */
export function serviceUnitText(o: ServiceUnitOptions): string {
  const system = o.scope === 'system';
  return [
    '# Written by `packdesk service install`; `packdesk service uninstall` removes it.',
    '[Unit]',
    'Description=packdesk shipping station',
    // network-online.target is a unit of the system manager only
    ...(system ? ['Wants=network-online.target', 'After=network-online.target'] : []),
    '',
    '[Service]',
    ...(system && o.user ? [`User=${o.user}`] : []),
    ...(o.environmentFile ? [`EnvironmentFile=${o.environmentFile}`] : []),
    `ExecStart=${daemonCommandLine(o).map(quoteExecArgument).join(' ')}`,
    'Restart=on-failure',
    'KillSignal=SIGTERM',
    '',
    '[Install]',
    `WantedBy=${system ? 'multi-user.target' : 'default.target'}`,
    '',
  ].join('\n');
}

/**
 * An environment file's line setting `name` to `value` as systemd reads it back: double-quoted, with the characters
 * systemd unescapes there (`"`, `\\`, backtick, `$`) escaped.
 */
export function environmentLine(name: string, value: string): string {
  return `${name}="${value.replace(/["\\`$]/g, (c) => `\\${c}`)}"`;
}

/** The command line that runs this same packdesk: the single executable, else Node and the absolute CLI script. */
export function packdeskProgram(): string[] {
  if (singleExecutable()) return [process.execPath]; // the single executable is packdesk itself
  const script = resolve(process.argv[1] ?? 'packdesk');
  let real = script;
  try {
    real = realpathSync(script); // npm's bin links point into the package; the unit keeps the package's own file
  } catch {
    // a script that is gone cannot be resolved further; the unit names it as it was run
  }
  return [process.execPath, real];
}
