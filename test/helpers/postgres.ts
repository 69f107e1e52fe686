import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { freePort } from './ports.js';

/**
 * A real PostgreSQL for packdesk's tests, from Debian's `postgresql` package, in a throwaway temporary cluster.
 *
 * One server serves the whole run: `test/postgres-global-setup.ts`, listed in a project's `globalSetup`, starts it in
 * Vitest's main process and hands its admin URL to the workers with `provide('postgresUrl')`. Vitest runs a project's
 * global setup only when the run selects files of that project, so runs without database tests start no server.
 * A test asks `testDatabaseUrl()` for a database of its own on that server; databases are never dropped, the cluster
 * goes away as a whole at the end of the run.
 *
 * PostgreSQL refuses to run as root: as root (CI) the cluster belongs to the package's `postgres` user, otherwise to
 * the current user. initdb and the server are spawned with that uid and gid themselves rather than through runuser,
 * whose supervising parent would turn our SIGINT (fast shutdown) into SIGTERM (wait for clients). The server is our
 * own child, not pg_ctl's daemon, so it is stopped with the run.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the run's PostgreSQL server. */
    postgresUrl: string;
  }
}

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres, as the superuser, without password. */
  url: string;
  port: number;
  /** URL of a new empty database with a name of its own. */
  createDatabase(): Promise<string>;
  dropDatabase(url: string): Promise<void>;
  /** Fast shutdown (open connections are cut), then the cluster's directory is removed. */
  stop(): Promise<void>;
}

/** The bin directory of the newest PostgreSQL the Debian packages installed. */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'postgres'))) : [];
  if (!versions.length) throw new Error(`no PostgreSQL in ${root} (apt-get install postgresql)`);
  return join(root, String(Math.max(...versions.map(Number))), 'bin');
}

/** Who runs the cluster: the `postgres` user when we are root, else ourselves (undefined). */
function clusterUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new empty database on the server of `adminUrl`, copied from template0 so nothing created in another leaks in. */
async function createDatabase(adminUrl: string): Promise<string> {
  const name = `packdesk_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE template0`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBin();
  const user = clusterUser();
  // the socket directory and the data directory (initdb creates it with the modes PostgreSQL insists on)
  const root = mkdtempSync(join(tmpdir(), 'packdesk-pg-'));
  if (user) chownSync(root, user.uid, user.gid);
  const dataDir = join(root, 'data');

  let child: ChildProcess | undefined; // initdb, then the server
  let log = '';
  const launch = (program: string, args: string[]) => {
    // a process group of its own, so that killing it also kills initdb's and the server's children
    child = spawn(join(bin, program), args, { cwd: root, ...user, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    // read for errors only: keep the tail, and keep the pipe drained so the program never blocks on it
    child.stderr!.on('data', (chunk: Buffer) => { log = (log + chunk.toString()).slice(-20_000); });
    child.on('error', (err) => { log += `${err.message}\n`; });
    return child;
  };
  // a main process that ends without stopping the server (interrupted, crashed) still takes it and its files along
  const cleanup = () => {
    try {
      if (child?.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // nothing left of the group
    }
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  };
  process.on('exit', cleanup);
  const fail = (message: string) => {
    process.off('exit', cleanup);
    cleanup();
    return new Error(message);
  };

  try {
    const [code] = await once(launch('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--encoding=UTF8', '--no-locale', '--no-sync']), 'close');
    if (code !== 0) throw new Error(`exit code ${code}`);
  } catch (err) {
    throw fail(`initdb failed in ${root}${user ? ' as postgres' : ''} (${(err as Error).message}):\n${log}`);
  }

  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  // the data is thrown away, so nothing needs to survive a crash; 300 connections leave room for parallel workers' pools
  const settings = ['listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=300'];
  const server = launch('postgres', ['-D', dataDir, '-p', String(port), '-k', root, ...settings.flatMap((s) => ['-c', s])]);
  const running = () => server.exitCode === null && server.signalCode === null;

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (!running()) throw fail(`PostgreSQL exited (${server.exitCode ?? server.signalCode}) while starting on port ${port}:\n${log}`);
    try {
      await withClient(url, async () => undefined);
      break;
    } catch (err) {
      if (Date.now() > deadline) throw fail(`PostgreSQL did not accept connections on port ${port} within 30 s (${(err as Error).message}):\n${log}`);
      await sleep(50);
    }
  }

  return {
    url,
    port,
    createDatabase: () => createDatabase(url),
    async dropDatabase(databaseUrl) {
      const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
      await withClient(url, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`));
    },
    async stop() {
      process.off('exit', cleanup);
      if (running()) {
        const exited = once(server, 'exit');
        server.kill('SIGINT');
        await exited;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** URL of a new empty database on the run's server, for a test that needs PostgreSQL. */
export function testDatabaseUrl(): Promise<string> {
  const adminUrl = inject('postgresUrl');
  if (!adminUrl) {
    throw new Error("no PostgreSQL server in this run: add './test/postgres-global-setup.ts' to the project's globalSetup in vitest.config.ts");
  }
  return createDatabase(adminUrl);
}
