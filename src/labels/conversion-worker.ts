import { parentPort } from 'node:worker_threads';
import { renderCommercialInvoice } from '../documents/commercial-invoice.js';
import { convertLabel, previewLabel } from './convert.js';
import { renderHandoverList } from './handover-list.js';
import { renderTestLabel } from './test-label.js';
import type { ConversionRequest, ConversionReply } from './conversions.js';

/** The thread that renders labels, so a slow or hostile page never stalls the daemon's event loop. */
parentPort!.on('message', (request: ConversionRequest) => {
  void answer(request).then((reply) => parentPort!.postMessage(reply, reply.ok ? reply.value.map((b) => b.buffer as ArrayBuffer) : []));
});

async function answer(request: ConversionRequest): Promise<ConversionReply> {
  try {
    const value = request.op === 'convert' ? [await convertLabel(request.from, request.to, request.content, request.dpi)]
      : request.op === 'handover' ? [await renderHandoverList(request.list)]
        : request.op === 'test' ? [await renderTestLabel(request.format, request.label)]
          : request.op === 'invoice' ? [await renderCommercialInvoice(request.invoice)]
            : await previewLabel(request.format, request.content, request.dpi);
    // transferred buffers must own their memory: Buffer.from() may share Node's pool
    return { id: request.id, ok: true, value: value.map((b) => new Uint8Array(b)) };
  } catch (error) {
    const partIndex = (error as { partIndex?: number | null }).partIndex;
    return { id: request.id, ok: false, reason: (error as { reason?: string }).reason ?? `could not be rendered (${(error as Error).message})`, partIndex: partIndex ?? null };
  }
}
