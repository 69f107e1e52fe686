import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that measure time on the event loop (lag under fuzzing, answers while pruning, a webhook's arrival). They run
 * after the rest, one at a time, so the figures they assert are the daemon's own and not the other test files' (two at
 * a time, the fuzz run beside a 5,000-row import once made the import's p99 111 ms against ~45 ms alone).
 */
const MEASURED = [
  'test/fuzz/api.fuzz.test.ts',
  'test/integration/event-loop-lag.test.ts',
  'test/integration/import-event-loop.test.ts',
  'test/integration/retention.test.ts',
  'test/integration/webhook-delivery.test.ts',
];

/**
 * Files that start real processes where the process is the point: packdesk daemons and commands (kill -9, signals,
 * exit codes, a terminal), shells, a browser, an IPP printer, PostgreSQL servers, the single executable.
 */
const STARTS_PROCESSES = [
  'test/browser/*.test.ts',
  'test/package/*.test.ts',
  'test/integration/cli*.test.ts',
  'test/integration/*crash.test.ts',
  'test/integration/daemon.test.ts',
  'test/integration/openapi.test.ts',
  'test/integration/postgres-server.test.ts',
  'test/integration/printing.test.ts',
  'test/integration/stations.test.ts',
  'test/integration/tracking-restart.test.ts',
];

/**
 * `npm run test:fast` (`--mode fast`) runs the rest on SQLite: it leaves to `npm test` the files that start processes,
 * MEASURED, the PostgreSQL runs, and the two in-process files that take longest (each provider's story decoding every
 * label format, a generated TypeScript client compiled twice).
 */
const NOT_FAST = [...STARTS_PROCESSES, ...MEASURED, 'test/integration/carriers-contract/*.test.ts', 'test/integration/openapi-client.test.ts'];

/**
 * The files that take longest (`project:path`), started before the rest so that none of them starts last and ends the
 * run alone, as it would on a fresh clone, where Vitest orders by size. Those that mostly wait (a kill -9 and a
 * restart, leases running out) alternate with those that mostly compute (the carriers' story), so the cores stay busy.
 */
const LONGEST = [
  'waiting:test/integration/stations.test.ts',
  'waiting:test/integration/carriers-contract/part-3.test.ts',
  'waiting:test/integration/crash.test.ts',
  'waiting:test/integration/carriers-contract/part-4.test.ts',
  'waiting:test/integration/import-crash.test.ts',
  'waiting:test/integration/openapi-client.test.ts',
  'postgres:test/integration/tracking-poller-load.test.ts',
  'waiting:test/integration/watched-folders.test.ts',
  'postgres:test/integration/watched-folders.test.ts',
  'waiting:test/browser/desk.test.ts',
  'waiting:test/package/single-executable.test.ts',
  'waiting:test/integration/carriers-contract/part-1.test.ts',
  'waiting:test/integration/carriers-contract/part-2.test.ts',
];

/** Vitest's order (by an earlier run's failures and durations, else larger files first), the LONGEST first in their group. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONGEST.indexOf(`${spec.project.name}:${relative(spec.project.config.root, spec.moduleId)}`);
      return at === -1 ? LONGEST.length : at;
    };
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    return sorted.map((spec, i) => ({ spec, i }))
      .sort((a, b) => group(a.spec) - group(b.spec) || rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}

/** The other files mostly wait: on carriers' emulators, printers, folders and child processes. 1.5 forks per core keep the cores busy. */
const FORKS = Math.min(8, Math.ceil(1.5 * availableParallelism()));

/**
 * The service and route suites run a second time with the store on PostgreSQL (test/helpers/harness.ts reads
 * PACKDESK_TEST_STORE), against one server the global setup starts for the run (test/helpers/postgres.ts). The
 * carriers' story runs on SQLite alone: it tests each adapter against its emulator, and the store work of a shipment's
 * life is the same for every carrier, run on PostgreSQL by shipments-ppl, tracking and label-formats.
 */
const ON_POSTGRES = [
  'test/integration/channel-authorization.test.ts',
  'test/integration/channels.test.ts',
  'test/integration/conventions.test.ts',
  'test/integration/customs.test.ts',
  'test/integration/desk-sessions.test.ts',
  'test/integration/dispatches.test.ts',
  'test/integration/file-places.test.ts',
  'test/integration/hostile-input.test.ts',
  'test/integration/import-counts.test.ts',
  'test/integration/import-limits.test.ts',
  'test/integration/label-formats.test.ts',
  'test/integration/lease-renewal.test.ts',
  'test/integration/orders.test.ts',
  'test/integration/outbound-addresses.test.ts',
  'test/integration/prices.test.ts',
  'test/integration/printing.test.ts',
  'test/integration/returns.test.ts',
  'test/integration/setting-options.test.ts',
  'test/integration/shipments-ppl.test.ts',
  'test/integration/shared-store-wait.test.ts',
  'test/integration/shipping-rules.test.ts',
  'test/integration/station-settings.test.ts',
  'test/integration/statement-counts.test.ts',
  'test/integration/stations-concurrency.test.ts',
  'test/integration/tracking.test.ts',
  'test/integration/tracking-poller-load.test.ts',
  'test/integration/watched-folders.test.ts',
  'test/integration/webhook-claim-memory.test.ts',
  'test/integration/webhook-fairness.test.ts',
  'test/integration/webhook-subscriptions.test.ts',
];
const POSTGRES_SETUP = './test/postgres-global-setup.ts';
const DNS_SD_SETUP = './test/dns-sd-global-setup.ts';

const shared = {
  pool: 'forks',
  testTimeout: 30_000,
  hookTimeout: 60_000,
} as const;

export default defineConfig(({ mode }) => {
  const fast = mode === 'fast';
  const waiting = {
    test: {
      ...shared, name: 'waiting', isolate: false, include: ['test/**/*.test.ts'], exclude: fast ? NOT_FAST : MEASURED,
      maxWorkers: FORKS, sequence: { groupOrder: 0 }, globalSetup: [POSTGRES_SETUP, DNS_SD_SETUP],
    },
  };
  const postgres = {
    test: {
      ...shared, name: 'postgres', isolate: false, include: ON_POSTGRES, maxWorkers: FORKS, sequence: { groupOrder: 0 },
      globalSetup: [POSTGRES_SETUP], env: { PACKDESK_TEST_STORE: 'postgres' },
    },
  };
  const measured = { test: { ...shared, name: 'measured', include: MEASURED, maxWorkers: 1, sequence: { groupOrder: 1 } } };
  return {
    test: {
      reporters: ['default', './test/helpers/summary-reporter.ts'],
      sequence: { sequencer: LongestFirst },
      projects: fast ? [waiting] : [waiting, postgres, measured],
    },
  };
});
