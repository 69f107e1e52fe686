import { setTimeout as sleep } from 'node:timers/promises';
import { PrinterUnavailableError, PrintJobFailedError } from './errors.js';
import type { Resolver } from '../src/net/addresses.js';
import { IppClient, IppConnectError, IppNoAnswerError, isSuccess, NoIppPrinterError, type IppAttributes } from './ipp-client.js';
import { ippPrinterStatus } from './ipp-status.js';
import { unreachableStatus, type DriverFactory, type PrintDocument, type PrinterStatus, type PrintMedia, type PrintOutcome } from './types.js';

/** Media sizes in hundredths of a millimetre (PWG 5101.1): the label at its real size, never fitted onto A4. */
const MEDIA_SIZES: Record<PrintMedia, { 'x-dimension': number; 'y-dimension': number }> = {
  label_100x150mm: { 'x-dimension': 10000, 'y-dimension': 15000 },
  iso_a4: { 'x-dimension': 21000, 'y-dimension': 29700 },
};

/** ZPL and EPL go to a CUPS raw queue untouched. */
const DOCUMENT_FORMATS = { pdf: 'application/pdf', zpl: 'application/vnd.cups-raw', epl: 'application/vnd.cups-raw' } as const;

const STATUS_ATTRIBUTES = ['printer-state', 'printer-state-reasons', 'printer-state-message', 'printer-is-accepting-jobs'];
const JOB_ATTRIBUTES = ['job-id', 'job-name', 'job-state', 'job-state-reasons', 'job-state-message'];
/** IPP job states (RFC 8011 §5.3.7), as names or as their enum numbers. */
const JOB_STATES: Record<number, string> = { 3: 'pending', 4: 'pending-held', 5: 'processing', 6: 'processing-stopped', 7: 'canceled', 8: 'aborted', 9: 'completed' };
const POLL_MS = 200;
/** How long to keep retrying `server-error-busy` within one attempt (the printer finishes another job meanwhile). */
const BUSY_BUDGET_MS = 5000;

function jobState(job: IppAttributes): string {
  const raw = job['job-state'];
  return typeof raw === 'number' ? (JOB_STATES[raw] ?? String(raw)) : String(raw ?? 'unknown');
}

function unreachable(err: unknown, maybeDelivered = false): PrinterUnavailableError {
  const status = unreachableStatus((err as Error).message);
  return new PrinterUnavailableError(status.message, status, maybeDelivered);
}

/**
 * `ipp://` and `ipps://` (IPP Everywhere printers, CUPS queues). PDFs are sent with `media-col` at the label's size;
 * ZPL/EPL as `application/vnd.cups-raw`. The job is named after our print job id, so after a restart the daemon asks
 * the printer (Get-Jobs) whether it already holds the job before sending it again. Names resolve through `resolve`
 * (the system's by default), and an address the outbound address policy forbids is never connected to.
 */
export const createIppDriver = (resolve?: Resolver): DriverFactory => (options) => {
  const client = new IppClient(options.uri, options.timeoutMs, resolve);
  const completionWaitMs = options.completionWaitMs ?? 30_000;

  async function status(): Promise<PrinterStatus> {
    const res = await client.execute('Get-Printer-Attributes', { 'requested-attributes': STATUS_ATTRIBUTES });
    if (!isSuccess(res.statusCode)) throw new Error(`Get-Printer-Attributes: ${res.statusCode}`);
    return ippPrinterStatus(res.printer);
  }

  async function statusOrUnavailable(): Promise<PrinterStatus> {
    try {
      return await status();
    } catch (err) {
      if (err instanceof NoIppPrinterError && err.httpStatus === 404) throw new PrintJobFailedError(`no IPP printer at ${options.uri.href}`, true);
      throw unreachable(err);
    }
  }

  /** The job named after ours that the printer holds, if any (newest first; canceled and aborted ones do not count). */
  async function findOurJob(jobName: string): Promise<number | undefined> {
    for (const which of ['not-completed', 'completed']) {
      const res = await client.execute('Get-Jobs', { 'which-jobs': which, 'requested-attributes': JOB_ATTRIBUTES });
      if (!isSuccess(res.statusCode)) continue;
      const ours = res.jobs.filter((j) => j['job-name'] === jobName && !['canceled', 'aborted'].includes(jobState(j)));
      const id = ours.map((j) => Number(j['job-id'])).sort((x, y) => y - x)[0];
      if (id !== undefined) return id;
    }
    return undefined;
  }

  async function submit(document: PrintDocument): Promise<number> {
    const job: IppAttributes = { copies: document.copies };
    if (document.format === 'pdf') job['media-col'] = { 'media-size': MEDIA_SIZES[document.media] };
    const deadline = Date.now() + BUSY_BUDGET_MS;
    for (;;) {
      let res;
      try {
        res = await client.execute('Print-Job', { 'job-name': document.jobId, 'document-format': DOCUMENT_FORMATS[document.format] }, { job, data: document.content });
      } catch (err) {
        throw unreachable(err, err instanceof IppNoAnswerError);
      }
      if (isSuccess(res.statusCode)) return Number(res.jobs[0]?.['job-id']);
      const said = String(res.operationAttributes['status-message'] ?? res.statusCode);
      if (res.statusCode === 'server-error-busy') {
        if (Date.now() < deadline) {
          await sleep(POLL_MS * 2);
          continue;
        }
        const s = await statusOrUnavailable();
        throw new PrinterUnavailableError(`busy with another job (${said})`, s, false, 2000);
      }
      if (res.statusCode.startsWith('server-error')) {
        const s = await statusOrUnavailable();
        throw new PrinterUnavailableError(`the printer cannot take jobs now (${said})`, s);
      }
      throw new PrintJobFailedError(`the printer refused the job: ${said}`, true);
    }
  }

  /** Polls the job until it completes, or leaves it `submitted` after `completionWaitMs`. */
  async function awaitCompletion(ippJobId: number): Promise<PrintOutcome> {
    const deadline = Date.now() + completionWaitMs;
    for (;;) {
      let res;
      try {
        res = await client.execute('Get-Job-Attributes', { 'job-id': ippJobId, 'requested-attributes': JOB_ATTRIBUTES });
      } catch (err) {
        if (err instanceof IppConnectError || err instanceof IppNoAnswerError) {
          return { state: 'submitted', status: unreachableStatus(err.message), message: `job ${ippJobId} is at the printer; it stopped answering` };
        }
        throw err;
      }
      // a printer that forgot an accepted job purged it after finishing (ippeveprinter keeps history about a minute)
      if (res.statusCode === 'client-error-not-found') return { state: 'printed', status: await status().catch(() => unreachableStatus('no answer')) };
      const job = res.jobs[0] ?? {};
      const state = jobState(job);
      const why = String(job['job-state-message'] ?? job['job-state-reasons'] ?? state);
      if (state === 'completed') return { state: 'printed', status: await status().catch(() => unreachableStatus('no answer')) };
      if (state === 'canceled') throw new PrintJobFailedError(`canceled at the printer (${why})`, true);
      if (state === 'aborted') throw new PrintJobFailedError(`the printer aborted the job (${why})`, false);
      if (Date.now() >= deadline) {
        return { state: 'submitted', status: await status().catch(() => unreachableStatus('no answer')), message: `job ${ippJobId} is ${state} at the printer (${why})` };
      }
      await sleep(POLL_MS);
    }
  }

  return {
    name: 'ipp',
    async status() {
      try {
        return await status();
      } catch (err) {
        return unreachableStatus((err as Error).message);
      }
    },

    async print(document) {
      if (document.resumed) {
        let earlier: number | undefined;
        try {
          earlier = await findOurJob(document.jobId);
        } catch (err) {
          throw unreachable(err, true);
        }
        if (earlier !== undefined) return awaitCompletion(earlier);
      }
      const before = await statusOrUnavailable();
      if (before.state !== 'ready') throw new PrinterUnavailableError(before.message, before);
      return awaitCompletion(await submit(document));
    },
  };
};

export const ippDriver = createIppDriver();
