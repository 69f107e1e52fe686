import { Command } from 'commander';
import pino from 'pino';
import type { ServiceContext } from '../services/context.js';
import { closeContext, openContext } from '../services/open.js';
import { AppError, ValidationError } from '../domain/errors.js';
import { resolveDataDir } from '../paths.js';
import { CliError, EXIT } from './exit-codes.js';
import { argvAsksForJson, printError } from './output.js';

/** Wraps a command action: errors go to stderr (the JSON envelope with `--json`) with the matching exit code. */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<void> | void): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      const cliError = toCliError(err);
      // commander passes the command last; its options (with its parents') say whether --json was given
      const command = args.at(-1);
      const json = command instanceof Command ? command.optsWithGlobals<{ json?: unknown }>().json === true : argvAsksForJson(process.argv.slice(2));
      printError(cliError, json);
      process.exitCode = cliError.exitCode;
    }
  };
}

/**
 * A reader that stopped reading (`packdesk status | head -1`) ends the command quietly with exit 0, as it ends other
 * Unix tools; Node would throw EPIPE from the next write instead.
 */
export function endQuietlyWhenOutputCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(EXIT.ok);
    });
  }
}

/** Any error as a CliError: validation errors of the local store are usage errors, its 404s not found. */
export function toCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof ValidationError) return new CliError(err.message, EXIT.usage, err.errors);
  if (err instanceof AppError) return new CliError(err.message, err.status === 404 ? EXIT.notFound : EXIT.failure);
  return new CliError((err as Error)?.message ?? String(err), EXIT.failure);
}

/** `--database`: a PostgreSQL store several daemons share. */
export const DATABASE_OPTION = ['--database <url>', 'a PostgreSQL store several stations share, postgres://… (else $PACKDESK_DATABASE_URL; else the data directory\'s SQLite)'] as const;

/** The store flags of a command: `--data-dir` and `--database`. */
export interface StoreFlags {
  dataDir?: string;
  database?: string;
}

/** The PostgreSQL store's URL, from `--database` or the environment; undefined for the data directory's SQLite. */
export function databaseUrlOf(flag: string | undefined): string | undefined {
  return flag ?? (process.env.PACKDESK_DATABASE_URL?.trim() || undefined);
}

/** Runs `fn` against the store (for init, accounts and keys): the data directory's SQLite, or `--database`. */
export async function withStore<T>(flags: StoreFlags, fn: (ctx: ServiceContext, dataDir: string) => T | Promise<T>): Promise<T> {
  const dataDir = resolveDataDir(flags.dataDir);
  const databaseUrl = databaseUrlOf(flags.database);
  let store;
  if (databaseUrl) {
    const { PostgresStore } = await import('../store/postgres.js');
    store = await PostgresStore.open(databaseUrl).catch((err: Error) => { throw new CliError(err.message, EXIT.failure); });
  }
  const ctx = openContext({ dataDir, log: pino({ level: 'silent' }), store });
  try {
    return await fn(ctx, dataDir);
  } finally {
    await closeContext(ctx);
  }
}

export function parsePositiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${flag} must be a positive integer`, EXIT.usage);
  return n;
}

/** `path?filters&page=…&per_page=…` from a list command's flags; empty filters are left out. */
export function listPath(path: string, filters: Record<string, string | undefined>, paging: { page?: string; perPage?: string }): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  if (paging.page !== undefined) query.set('page', String(parsePositiveInt(paging.page, '--page')));
  if (paging.perPage !== undefined) query.set('per_page', String(parsePositiveInt(paging.perPage, '--per-page')));
  return query.size ? `${path}?${query}` : path;
}
