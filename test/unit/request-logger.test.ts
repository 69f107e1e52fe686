import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/logging.js';
import { requestLoggerWhenUsed } from '../../daemon/http/request-logger.js';

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({ write(chunk, _enc, cb) { lines.push(JSON.parse(String(chunk))); cb(); } });
  return { log: createLogger({ level: 'info', destination: sink }), lines };
}

describe("a request's logger", () => {
  it('is made only when the request logs, and then logs as a child of the daemon\'s logger: request id, redaction, level', () => {
    const { log, lines } = capturedLogger();
    const made = vi.spyOn(log, 'child');
    const quiet = requestLoggerWhenUsed(log, { reqId: 'req-1' }, {});
    const loud = requestLoggerWhenUsed(log, { reqId: 'req-2' }, {});
    expect(made).not.toHaveBeenCalled();

    loud.error({ err: { message: 'boom' }, headers: { authorization: 'Bearer pdk_live_secret' } }, 'unhandled error');
    loud.debug('below the level');
    expect(made).toHaveBeenCalledTimes(1);
    loud.child({ part: 'body' }).warn('late');
    expect(lines).toMatchObject([
      { level: 50, reqId: 'req-2', err: { message: 'boom' }, headers: { authorization: '[redacted]' }, msg: 'unhandled error' },
      { level: 40, reqId: 'req-2', part: 'body', msg: 'late' },
    ]);
    expect(lines).toHaveLength(2);
    expect(quiet.level).toBe('info');
  });
});
