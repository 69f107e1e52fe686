import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** Event-loop lag in milliseconds: how late the loop ran a timer due every `resolution` ms. */
export interface LagFigures {
  p50: number;
  p99: number;
  max: number;
}

export interface EventLoopLag {
  /** Each figure is the larger of the current window's and the previous full window's; zeros before the first sample. */
  reading(): LagFigures;
  /** Keeps the current window's figures as the previous window's and starts a new window. */
  rotate(): void;
  /** Forgets every window so far (the daemon's start-up). */
  reset(): void;
  stop(): void;
}

export interface EventLoopLagOptions {
  /** How often the loop is sampled (ms); Node's histogram records the whole interval, which is taken off again. */
  resolutionMs?: number;
  windowMs?: number;
}

export const LAG_WINDOW_MS = 10_000;
const NO_LAG: LagFigures = { p50: 0, p99: 0, max: 0 };

/** Measures the daemon's event-loop lag over recent windows, for `/healthz`. */
export function monitorEventLoopLag(options: EventLoopLagOptions = {}): EventLoopLag {
  const resolutionMs = options.resolutionMs ?? 10;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  let previous: LagFigures = NO_LAG;
  const figuresOf = (h: IntervalHistogram): LagFigures => {
    if (h.count === 0) return NO_LAG;
    const lag = (ns: number) => Math.round(Math.max(0, ns / 1e6 - resolutionMs) * 10) / 10;
    return { p50: lag(h.percentile(50)), p99: lag(h.percentile(99)), max: lag(h.max) };
  };
  const rotate = () => {
    previous = figuresOf(histogram);
    histogram.reset();
  };
  const timer = setInterval(rotate, options.windowMs ?? LAG_WINDOW_MS).unref();
  return {
    reading: () => {
      const current = figuresOf(histogram);
      return { p50: Math.max(current.p50, previous.p50), p99: Math.max(current.p99, previous.p99), max: Math.max(current.max, previous.max) };
    },
    rotate,
    reset: () => {
      previous = NO_LAG;
      histogram.reset();
    },
    stop: () => {
      clearInterval(timer);
      histogram.disable();
    },
  };
}
