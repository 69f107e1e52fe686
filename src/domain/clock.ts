/** Time source, injected everywhere time matters so workers and retries are testable without sleeps. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.parse('2026-11-20T09:00:00Z')) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}

/** ISO 8601 UTC with `Z`, second precision: `2026-11-20T09:15:02Z`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function isoTimeOrNull(ms: number | null | undefined): string | null {
  return ms == null ? null : isoTime(ms);
}
