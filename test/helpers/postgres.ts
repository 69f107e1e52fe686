import { inject } from 'vitest';
import { createDatabase } from '../../scripts/throwaway-postgres.mjs';

export { startPostgres, type PostgresServer } from '../../scripts/throwaway-postgres.mjs';

/**
 * A real PostgreSQL for packdesk's tests, in a throwaway temporary cluster (scripts/throwaway-postgres.mjs, which the
 * benchmarks share).
 *
 * One server serves the whole run: `test/postgres-global-setup.ts`, listed in a project's `globalSetup`, starts it in
 * Vitest's main process and hands its admin URL to the workers with `provide('postgresUrl')`. Vitest runs a project's
 * global setup only when the run selects files of that project, so runs without database tests start no server.
 * A test asks `testDatabaseUrl()` for a database of its own on that server; databases are never dropped, the cluster
 * goes away as a whole at the end of the run.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the run's PostgreSQL server. */
    postgresUrl: string;
  }
}

/** URL of a new empty database on the run's server, for a test that needs PostgreSQL. */
export function testDatabaseUrl(): Promise<string> {
  const adminUrl = inject('postgresUrl');
  if (!adminUrl) {
    throw new Error("no PostgreSQL server in this run: add './test/postgres-global-setup.ts' to the project's globalSetup in vitest.config.ts");
  }
  return createDatabase(adminUrl);
}
