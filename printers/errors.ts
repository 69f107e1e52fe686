import type { PrinterStatus } from './types.js';

/**
 * The printer cannot take the job now (unreachable, paper out, head open, paused, stopped, busy): the job stays
 * queued and is retried with backoff.
 */
export class PrinterUnavailableError extends Error {
  constructor(
    message: string,
    readonly status: PrinterStatus,
    /** The printer may hold the job (an answer was lost, or it could not be asked): look for it before sending again. */
    readonly maybeDelivered = false,
    /** Retry sooner than the backoff (e.g. an IPP printer busy with another job). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'PrinterUnavailableError';
  }
}

/** This job failed at the printer: `permanent` when sending it again cannot help (unsupported format or media). */
export class PrintJobFailedError extends Error {
  constructor(message: string, readonly permanent: boolean, readonly status?: PrinterStatus) {
    super(message);
    this.name = 'PrintJobFailedError';
  }
}
