import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { createLogger } from '../src/logging.js';
import { resolveFilesRoots } from '../src/files/roots.js';
import { DEFAULT_IMPORT_LIMITS, IMPORT_LIMIT_NAMES, type ImportLimits } from '../src/imports/limits.js';
import { DEFAULT_RETENTION_DAYS } from '../src/services/retention.js';
import { DEFAULT_HOST, DEFAULT_PORT, resolveDataDir } from '../src/paths.js';
import { DataDirLockedError } from '../src/store/lock.js';
import { DEFAULT_HTTP_LIMITS } from './http/limits.js';
import { CliError, EXIT } from '../src/cli/exit-codes.js';
import { action, DATABASE_OPTION, databaseUrlOf, parsePositiveInt, type StoreFlags } from '../src/cli/run.js';

interface DaemonFlags extends StoreFlags {
  station?: string;
  host: string;
  port: string;
  tlsCert?: string;
  tlsKey?: string;
  allowHttpWebhooks?: boolean;
  allowLoopbackWebhooks?: boolean;
  filesRoot?: string[];
  retentionDays?: string;
  importLimit?: string[];
  publicUrl?: string[];
  maxConnectionsPerAddress?: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `--retention-days`, else `$PACKDESK_RETENTION_DAYS` (when not empty), else the default. */
function retentionDaysOf(flag: string | undefined, fromEnv: string | undefined): number {
  if (flag !== undefined) return parsePositiveInt(flag, '--retention-days');
  if (fromEnv !== undefined && fromEnv.trim() !== '') return parsePositiveInt(fromEnv.trim(), 'PACKDESK_RETENTION_DAYS');
  return DEFAULT_RETENTION_DAYS;
}

/** `--import-limit rows=200000 --import-limit file-mib=64`: the daemon's import limits, the defaults for those not given. */
export function importLimitsOf(flags: string[]): ImportLimits {
  const limits = { ...DEFAULT_IMPORT_LIMITS };
  for (const flag of flags) {
    const [name = '', value = ''] = flag.split('=', 2);
    const key = Object.hasOwn(IMPORT_LIMIT_NAMES, name) ? IMPORT_LIMIT_NAMES[name]! : undefined;
    if (!key) throw new CliError(`--import-limit takes NAME=VALUE with NAME one of ${Object.keys(IMPORT_LIMIT_NAMES).join(', ')}`, EXIT.usage);
    const n = parsePositiveInt(value, `--import-limit ${name}`);
    limits[key] = key === 'maxFileBytes' ? n * 2 ** 20 : n;
  }
  return limits;
}

/** `--public-url`s as given, each an http(s) URL. */
function publicUrlsOf(flags: string[]): string[] {
  for (const url of flags) {
    if (!URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol)) throw new CliError(`--public-url must be an http(s) URL, not ${url}`, EXIT.usage);
  }
  return flags;
}

/** `packdesk daemon`: runs in the foreground until SIGTERM/SIGINT, then drains and exits 0. */
export function registerDaemonCommand(program: Command): void {
  program.command('daemon')
    .description('run the packdesk daemon in the foreground')
    .option('--data-dir <dir>', 'data directory (its secret.key seals credentials: every station of one store has the same)')
    .option(...DATABASE_OPTION)
    .option('--station <name>', "the station this daemon serves: its machine's printers and watched folders (else $PACKDESK_STATION; else the host name)")
    .option('--host <host>', 'address to bind', DEFAULT_HOST)
    .option('--port <port>', 'port to listen on', String(DEFAULT_PORT))
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM)')
    .option('--tls-key <file>', 'private key of --tls-cert (PEM)')
    .option('--allow-http-webhooks', 'allow plain-http webhook URLs to non-loopback hosts')
    .option('--allow-loopback-webhooks', "allow webhook URLs to this machine's loopback (127.0.0.0/8, ::1, localhost): accounts then read local services' answers in delivery logs")
    .option(
      '--files-root <dir>',
      'a directory watched folders and file: printers may lie in (repeatable; else $PACKDESK_FILES_ROOT, :-separated; else your home)',
      collect,
    )
    .option(
      '--import-limit <name=value>',
      `how much of an order file is read (repeatable): ${Object.entries(IMPORT_LIMIT_NAMES).map(([name, key]) => `${name}=${key === 'maxFileBytes' ? DEFAULT_IMPORT_LIMITS[key] / 2 ** 20 : DEFAULT_IMPORT_LIMITS[key]}`).join(', ')} by default`,
      collect,
    )
    .option('--public-url <url>', 'an address people open the desk at besides the listen address, e.g. http://station-1.lan:7420 (repeatable)', collect)
    .option('--max-connections-per-address <n>', `open connections one client address may hold (else ${DEFAULT_HTTP_LIMITS.maxConnectionsPerAddress})`)
    .option('--retention-days <days>', `days finished records are kept: delivered events, webhook logs, failed jobs, import uploads (else $PACKDESK_RETENTION_DAYS; else ${DEFAULT_RETENTION_DAYS})`)
    .action(action(async (o: DaemonFlags) => {
      if (Boolean(o.tlsCert) !== Boolean(o.tlsKey)) throw new CliError('--tls-cert and --tls-key go together', EXIT.usage);
      const port = o.port === '0' ? 0 : parsePositiveInt(o.port, '--port');
      const retentionDays = retentionDaysOf(o.retentionDays, process.env.PACKDESK_RETENTION_DAYS);
      const importLimits = importLimitsOf(o.importLimit ?? []);
      const publicUrls = publicUrlsOf(o.publicUrl ?? []);
      const http = o.maxConnectionsPerAddress === undefined ? {} : { maxConnectionsPerAddress: parsePositiveInt(o.maxConnectionsPerAddress, '--max-connections-per-address') };
      const log = createLogger();
      const dataDir = resolveDataDir(o.dataDir);
      // Signals are taken before start-up, so a SIGTERM that arrives while starting still drains cleanly.
      let signalled: ((signal: string) => void) | undefined;
      const stopRequested = new Promise<string>((resolve) => { signalled = resolve; });
      const onSignal = (signal: string) => () => signalled?.(signal);
      process.once('SIGTERM', onSignal('SIGTERM'));
      process.once('SIGINT', onSignal('SIGINT'));
      // loaded here so other commands don't pay for the server stack at start-up
      const { startDaemon, SecretKeyMismatchError, StoreUnavailableError } = await import('./main.js');
      let daemon;
      try {
        daemon = await startDaemon({
          dataDir, databaseUrl: databaseUrlOf(o.database), station: o.station, host: o.host, port, log, allowHttpWebhooks: o.allowHttpWebhooks, allowLoopbackWebhooks: o.allowLoopbackWebhooks, filesRoots: resolveFilesRoots(o.filesRoot ?? []), retentionDays, importLimits, publicUrls, http,
          tls: o.tlsCert && o.tlsKey ? { cert: readFileSync(o.tlsCert), key: readFileSync(o.tlsKey) } : undefined,
        });
      } catch (err) {
        if (err instanceof DataDirLockedError || err instanceof StoreUnavailableError || err instanceof SecretKeyMismatchError) {
          throw new CliError(err.message, EXIT.failure);
        }
        if ((err as { code?: string }).code === 'EADDRINUSE') throw new CliError(`${o.host}:${o.port} is already in use`, EXIT.failure);
        throw err;
      }
      const signal = await stopRequested;
      log.info({ signal }, 'draining');
      await daemon.close();
      log.info('stopped');
    }));
}
