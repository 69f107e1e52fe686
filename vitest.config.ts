import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Files that measure time on the event loop (lag under fuzzing, answers while pruning, a webhook's arrival). They run
 * after the rest, two at a time, so the figures they assert are the daemon's own and not the other test files'.
 */
const MEASURED = [
  'test/fuzz/api.fuzz.test.ts',
  'test/integration/event-loop-lag.test.ts',
  'test/integration/import-event-loop.test.ts',
  'test/integration/retention.test.ts',
  'test/integration/webhook-delivery.test.ts',
];

/**
 * The other files mostly wait: on carriers' emulators, printers, folders and child processes. Twice as many forks as
 * cores keeps both cores busy while they wait (on 2 cores this halves the suite's wall time).
 */
const FORKS = Math.min(8, Math.ceil(1.5 * availableParallelism()));

/**
 * The service and route suites run a second time with the store on PostgreSQL (test/helpers/harness.ts reads
 * PACKDESK_TEST_STORE), against one server the global setup starts for the run (test/helpers/postgres.ts).
 */
const ON_POSTGRES = [
  'test/integration/carriers-contract/*.test.ts',
  'test/integration/channel-authorization.test.ts',
  'test/integration/channels.test.ts',
  'test/integration/conventions.test.ts',
  'test/integration/desk-sessions.test.ts',
  'test/integration/file-places.test.ts',
  'test/integration/hostile-input.test.ts',
  'test/integration/import-limits.test.ts',
  'test/integration/label-formats.test.ts',
  'test/integration/lease-renewal.test.ts',
  'test/integration/outbound-addresses.test.ts',
  'test/integration/printing.test.ts',
  'test/integration/setting-options.test.ts',
  'test/integration/shipments-ppl.test.ts',
  'test/integration/tracking.test.ts',
  'test/integration/tracking-poller-load.test.ts',
  'test/integration/watched-folders.test.ts',
  'test/integration/webhook-fairness.test.ts',
  'test/integration/webhook-subscriptions.test.ts',
];
const POSTGRES_SETUP = './test/postgres-global-setup.ts';

const shared = {
  pool: 'forks',
  testTimeout: 30_000,
  hookTimeout: 60_000,
} as const;

export default defineConfig({
  test: {
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      {
        test: {
          ...shared, name: 'waiting', isolate: false, include: ['test/**/*.test.ts'], exclude: MEASURED, maxWorkers: FORKS,
          sequence: { groupOrder: 0 }, globalSetup: [POSTGRES_SETUP],
        },
      },
      {
        test: {
          ...shared, name: 'postgres', isolate: false, include: ON_POSTGRES, maxWorkers: FORKS, sequence: { groupOrder: 0 },
          globalSetup: [POSTGRES_SETUP], env: { PACKDESK_TEST_STORE: 'postgres' },
        },
      },
      {
        test: { ...shared, name: 'measured', include: MEASURED, maxWorkers: 2, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
