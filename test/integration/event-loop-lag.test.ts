import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { monitorEventLoopLag } from '../../daemon/http/event-loop.js';
import { startTestDaemon, type TestDaemon } from '../helpers/harness.js';

/** Keeps the loop busy, as a handler that computes too long would. */
function blockTheLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* busy */ }
}

/** Blocks the loop for `ms` until the lag shows it: a block right after the monitor starts or resets has no sample to be late for. */
async function blockUntilMeasured(maxLag: () => number | Promise<number>, ms: number): Promise<void> {
  await vi.waitFor(async () => {
    if ((await maxLag()) >= ms - 50) return;
    blockTheLoop(ms);
    throw new Error(`a ${ms} ms block is not measured yet`);
  }, { timeout: 5_000, interval: 20 });
}

interface Health {
  status: string;
  event_loop: { lag_ms: { p50: number; p99: number; max: number } };
}

describe('event-loop lag in /healthz', () => {
  let d: TestDaemon;
  const health = async (): Promise<Health> => (await d.app.inject({ method: 'GET', url: '/healthz' })).json();

  beforeAll(async () => {
    d = await startTestDaemon();
  });
  afterAll(() => d.close());

  it('reports p50 ≤ p99 ≤ max in ms next to the store and worker health', async () => {
    const body = await health();
    expect(body).toMatchObject({ status: 'ok', store: 'ok' });
    const { p50, p99, max } = body.event_loop.lag_ms;
    for (const figure of [p50, p99, max]) expect(Number.isFinite(figure) && figure >= 0).toBe(true);
    expect(p50).toBeLessThanOrEqual(p99);
    expect(p99).toBeLessThanOrEqual(max);
  });

  it('shows a loop blocked for 300 ms as a max lag of at least 250 ms', async () => {
    await blockUntilMeasured(async () => (await health()).event_loop.lag_ms.max, 300);
    expect((await health()).event_loop.lag_ms.max).toBeLessThan(5_000);
  });

  it('documents the figures in the OpenAPI document', async () => {
    const doc = (await d.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const lag = doc.paths['/healthz'].get.responses['200'].content['application/json'].schema.properties.event_loop.properties.lag_ms;
    expect(Object.keys(lag.properties)).toEqual(['p50', 'p99', 'max']);
    expect(lag.description).toMatch(/window/);
  });
});

describe('monitorEventLoopLag', () => {
  it('keeps the last window after a rotation and forgets it one window later', async () => {
    const lag = monitorEventLoopLag({ windowMs: 3_600_000 });
    try {
      await blockUntilMeasured(() => lag.reading().max, 200);
      lag.rotate();
      expect(lag.reading().max).toBeGreaterThanOrEqual(150);
      lag.rotate();
      expect(lag.reading()).toEqual({ p50: 0, p99: 0, max: 0 });
    } finally {
      lag.stop();
    }
  });

  it('forgets everything on reset', async () => {
    const lag = monitorEventLoopLag({ windowMs: 3_600_000 });
    try {
      await blockUntilMeasured(() => lag.reading().max, 200);
      lag.reset();
      expect(lag.reading()).toEqual({ p50: 0, p99: 0, max: 0 });
    } finally {
      lag.stop();
    }
  });
});
