import { Worker } from 'node:worker_threads';
import type { LabelDpi, LabelFormat } from '../domain/labels.js';
import { LabelFormatError } from './errors.js';
import type { CommercialInvoice } from '../documents/commercial-invoice.js';
import type { HandoverList } from './handover-list.js';
import type { TestLabel } from './test-label.js';
import { executableAsset, singleExecutable } from '../runtime/shipped.js';

/** What the conversion thread is asked (conversion-worker.ts). */
export type ConversionRequest =
  | { id: number; op: 'convert'; from: LabelFormat; to: LabelFormat; content: Uint8Array; dpi: LabelDpi }
  | { id: number; op: 'preview'; format: LabelFormat; content: Uint8Array; dpi: LabelDpi }
  | { id: number; op: 'handover'; list: HandoverList }
  | { id: number; op: 'test'; format: LabelFormat; label: TestLabel }
  | { id: number; op: 'invoice'; invoice: CommercialInvoice };

export type ConversionReply =
  | { id: number; ok: true; value: Uint8Array[] }
  | { id: number; ok: false; reason: string; partIndex: number | null };

type Request = ConversionRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** A page that takes longer than this to render is not a label: the thread is stopped and the label refused. */
const JOB_TIMEOUT_MS = 30_000;
/** The thread holds PDFium and zebrash (~150 MB); it is let go after this long without work. */
const IDLE_MS = 5 * 60_000;

interface Pending {
  resolve(value: Buffer[]): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

let worker: Worker | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

/** The thread's module; a single executable carries it bundled as an asset, run as code. */
function newConversionThread(): Worker {
  if (singleExecutable()) return new Worker(executableAsset('conversion-worker.cjs'), { eval: true });
  // under vitest the modules are TypeScript sources; the thread runs the copy `npm run build` compiled
  return new Worker(import.meta.url.endsWith('.ts')
    ? new URL('../../dist/src/labels/conversion-worker.js', import.meta.url)
    : new URL('./conversion-worker.js', import.meta.url));
}

function startWorker(): Worker {
  const thread = newConversionThread();
  thread.on('message', (reply: ConversionReply) => {
    const job = pending.get(reply.id);
    if (!job) return;
    pending.delete(reply.id);
    clearTimeout(job.timer);
    if (reply.ok) job.resolve(reply.value.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength)));
    else job.reject(new LabelFormatError(reply.partIndex, reply.reason));
    if (pending.size === 0) idleTimer = setTimeout(() => void stopLabelConversions(), IDLE_MS).unref();
  });
  thread.on('error', (error) => failAll(thread, `could not be converted (${error.message})`));
  thread.on('exit', () => failAll(thread, 'could not be converted (the conversion thread stopped)'));
  // after the listeners: adding a 'message' listener refs the thread's port again
  thread.unref();
  return thread;
}

function failAll(thread: Worker, reason: string): void {
  if (worker !== thread) return;
  worker = undefined;
  for (const [id, job] of pending) {
    clearTimeout(job.timer);
    job.reject(new LabelFormatError(null, reason));
    pending.delete(id);
  }
}

function run(request: Request): Promise<Buffer[]> {
  clearTimeout(idleTimer);
  worker ??= startWorker();
  const thread = worker;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      failAll(thread, `could not be converted within ${JOB_TIMEOUT_MS / 1000} s`);
      void thread.terminate();
    }, JOB_TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
    // a copy is sent: the caller keeps its bytes
    thread.postMessage({ ...request, id });
  });
}

/** `content` (one parcel's label in `from`) written as `to` at `dpi`; a LabelFormatError when it cannot be read. */
export async function convertLabelOffThread(from: LabelFormat, to: LabelFormat, content: Uint8Array, dpi: LabelDpi): Promise<Buffer> {
  const [converted] = await run({ op: 'convert', from, to, content, dpi });
  return converted!;
}

/** One PNG per label of a stored label file. */
export function previewLabelOffThread(format: LabelFormat, content: Uint8Array, dpi: LabelDpi): Promise<Buffer[]> {
  return run({ op: 'preview', format, content, dpi });
}

/** A dispatch's hand-over list as a PDF, drawn in the thread: a day of hundreds of parcels never stalls the daemon. */
export async function renderHandoverListOffThread(list: HandoverList): Promise<Buffer> {
  const [pdf] = await run({ op: 'handover', list });
  return pdf!;
}

/** packdesk's commercial invoice of a shipment as a PDF, drawn in the thread: 99 items never stall the daemon. */
export async function renderCommercialInvoiceOffThread(invoice: CommercialInvoice): Promise<Buffer> {
  const [pdf] = await run({ op: 'invoice', invoice });
  return pdf!;
}

/** A printer's test label, drawn in the thread like any label. */
export async function renderTestLabelOffThread(format: LabelFormat, label: TestLabel): Promise<Buffer> {
  const [content] = await run({ op: 'test', format, label });
  return content!;
}

/** Stops the conversion thread (it starts again on the next conversion). */
export async function stopLabelConversions(): Promise<void> {
  const thread = worker;
  if (!thread) return;
  failAll(thread, 'could not be converted (conversions were stopped)');
  await thread.terminate();
}
