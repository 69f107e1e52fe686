import type { Reporter, TestModule } from 'vitest/node';

/** Ends the run with the plain line CI reads: `N passed, N failed` (`, N skipped` when any). */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const mod of testModules) {
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failedHere += 1;
        else skipped += 1;
      }
      // a file that failed to load, or whose set-up failed so its tests never ran, is a failure too
      failed += failedHere || (mod.state() === 'failed' ? 1 : 0);
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
