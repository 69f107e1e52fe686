// A real PostgreSQL in a throwaway temporary cluster, from Debian's `postgresql` package, for the tests
// (test/helpers/postgres.ts) and the benchmarks (bench/stations.mjs). Plain JavaScript, so both can load it: the
// benchmarks run on Node alone, without a TypeScript loader. Types: throwaway-postgres.d.mts.
//
// PostgreSQL refuses to run as root: as root (CI) the cluster belongs to the package's `postgres` user, otherwise to
// the current user. initdb and the server are spawned with that uid and gid themselves rather than through runuser,
// whose supervising parent would turn our SIGINT (fast shutdown) into SIGTERM (wait for clients). The server is our
// own child, not pg_ctl's daemon, so it is stopped with the process that started it.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/** The bin directory of the newest PostgreSQL the Debian packages installed. */
function postgresBin() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'postgres'))) : [];
  if (!versions.length) throw new Error(`no PostgreSQL in ${root} (apt-get install postgresql)`);
  return join(root, String(Math.max(...versions.map(Number))), 'bin');
}

/** Who runs the cluster: the `postgres` user when we are root, else ourselves (undefined). */
function clusterUser() {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** A TCP port on loopback that nothing listens on right now (PostgreSQL must be told its port). */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new empty database on the server of `adminUrl`, copied from template0 so nothing created in another leaks in. */
export async function createDatabase(adminUrl) {
  const name = `packdesk_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE template0`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** Starts a server on a new cluster in a temporary directory; see throwaway-postgres.d.mts for what it returns. */
export async function startPostgres() {
  const bin = postgresBin();
  const user = clusterUser();
  // the socket directory and the data directory (initdb creates it with the modes PostgreSQL insists on)
  const root = mkdtempSync(join(tmpdir(), 'packdesk-pg-'));
  if (user) chownSync(root, user.uid, user.gid);
  const dataDir = join(root, 'data');

  let child; // initdb, then the server
  let log = '';
  const launch = (program, args) => {
    // a process group of its own, so that killing it also kills initdb's and the server's children
    child = spawn(join(bin, program), args, { cwd: root, ...user, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    // read for errors only: keep the tail, and keep the pipe drained so the program never blocks on it
    child.stderr.on('data', (chunk) => { log = (log + chunk.toString()).slice(-20_000); });
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
  const fail = (message) => {
    process.off('exit', cleanup);
    cleanup();
    return new Error(message);
  };

  try {
    const [code] = await once(launch('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--encoding=UTF8', '--no-locale', '--no-sync']), 'close');
    if (code !== 0) throw new Error(`exit code ${code}`);
  } catch (err) {
    throw fail(`initdb failed in ${root}${user ? ' as postgres' : ''} (${err.message}):\n${log}`);
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
      if (Date.now() > deadline) throw fail(`PostgreSQL did not accept connections on port ${port} within 30 s (${err.message}):\n${log}`);
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
