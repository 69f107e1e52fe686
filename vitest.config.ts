import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Files that measure time on the event loop (lag under fuzzing, answers while pruning, a webhook's arrival). They run
 * after the rest, two at a time, so the figures they assert are the daemon's own and not the other test files'.
 */
const MEASURED = [
  'test/fuzz/api.fuzz.test.ts',
  'test/integration/event-loop-lag.test.ts',
  'test/integration/retention.test.ts',
  'test/integration/webhook-delivery.test.ts',
];

/**
 * The other files mostly wait: on carriers' emulators, printers, folders and child processes. Twice as many forks as
 * cores keeps both cores busy while they wait (on 2 cores this halves the suite's wall time).
 */
const FORKS = Math.min(8, Math.ceil(1.5 * availableParallelism()));

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
        test: { ...shared, name: 'waiting', isolate: false, include: ['test/**/*.test.ts'], exclude: MEASURED, maxWorkers: FORKS, sequence: { groupOrder: 0 } },
      },
      {
        test: { ...shared, name: 'measured', include: MEASURED, maxWorkers: 2, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
