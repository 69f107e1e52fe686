import type { TestProject } from 'vitest/node';
import { startPostgres, type PostgresServer } from './helpers/postgres.js';

/**
 * Global setup of the projects whose tests use PostgreSQL (see test/helpers/postgres.ts): one server for the run,
 * its admin URL provided to the workers as `postgresUrl`. Every project loads this file into a module graph of its
 * own, so the server is kept on globalThis of Vitest's main process and stopped by the last project to tear down.
 */

const SHARED = Symbol.for('packdesk.test.postgres');
const shared = globalThis as { [SHARED]?: { server: Promise<PostgresServer>; projects: number } };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = (shared[SHARED] ??= { server: startPostgres(), projects: 0 });
  run.projects++;
  project.provide('postgresUrl', (await run.server).url);
  return async () => {
    if (--run.projects > 0) return;
    delete shared[SHARED];
    await (await run.server).stop();
  };
}
