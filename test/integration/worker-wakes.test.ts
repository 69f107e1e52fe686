import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HAND_OVER } from '../../src/services/dispatches.js';
import { EVENT_RECORDED } from '../../src/services/events.js';
import { workQueued } from '../../src/services/jobs.js';
import { PRINT_JOBS } from '../../src/services/printing/printers.js';
import { CREATE_AT_CARRIER } from '../../src/services/shipments/create.js';
import { TRACKING_CHECKS } from '../../src/services/tracking/manage.js';
import { startTestDaemon, type TestDaemon } from '../helpers/harness.js';

/**
 * Work queued wakes the worker of its kind, on this daemon and (through the store's notices) on every other: a queued
 * shipment must not send the print queue, the tracking poller and the rest to the store as well.
 */
describe('what queued work wakes', () => {
  let d: TestDaemon;

  beforeAll(async () => {
    d = await startTestDaemon();
  });
  afterAll(async () => {
    await d.workers.stop();
    await d.close();
  });

  it('wakes only the worker of the kind of work queued', () => {
    const spies = d.workers.all.map((w) => ({ name: w.name, wake: vi.spyOn(w, 'wake') }));
    d.workers.start();
    // the handlers run inside emit: what woke is known when it returns, before any look of a worker can end
    const woken = (notice: string) => {
      for (const s of spies) s.wake.mockClear();
      d.ctx.notices.emit(notice);
      return spies.filter((s) => s.wake.mock.calls.length > 0).map((s) => s.name);
    };
    expect(woken(workQueued(CREATE_AT_CARRIER))).toEqual(['shipment_creation']);
    expect(woken(workQueued(HAND_OVER))).toEqual(['dispatch_hand_over']);
    expect(woken(workQueued(TRACKING_CHECKS))).toEqual([d.workers.tracking.name]);
    expect(woken(workQueued(PRINT_JOBS))).toEqual([d.workers.printing.name]);
    expect(woken(EVENT_RECORDED)).toEqual([d.workers.webhooks.name]);
  });
});
