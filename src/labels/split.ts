import type { PDFDocument } from 'pdf-lib';
import type { LabelFormat } from '../domain/labels.js';
import { eplLabels } from './epl.js';
import { LabelFormatError } from './errors.js';
import { zplLabels } from './zpl.js';

/**
 * A carrier document holding the labels of all parcels (one page, `^XA…^XZ` block or `N…P` print each), cut into
 * one label per parcel in the carrier's order. ZPL and EPL blocks keep their bytes; PDF pages are copied, not
 * re-rendered. A document whose label count is not `count` is refused: parcels must not get each other's labels.
 */
export async function splitLabels(format: LabelFormat, document: Uint8Array, count: number): Promise<Buffer[]> {
  // ZPL and EPL labels keep their bytes; EPL is read past its GW graphics' bytes (labels/epl.ts)
  const parts = format === 'pdf' ? await splitPdf(document) : format === 'zpl' ? zplLabels(document) : eplLabels(document).map(withoutLeadingBlankLines);
  if (parts.length !== count) throw new LabelFormatError(null, `holds ${parts.length} labels for ${count} parcels`);
  return parts;
}

async function splitPdf(document: Uint8Array): Promise<Buffer[]> {
  const { PDFDocument } = await import('pdf-lib');
  let source: PDFDocument;
  try {
    source = await PDFDocument.load(document, { updateMetadata: false });
  } catch (error) {
    throw new LabelFormatError(null, `is not a readable PDF (${String(error)})`);
  }
  const parts: Buffer[] = [];
  for (const index of source.getPageIndices()) {
    const part = await PDFDocument.create();
    const [page] = await part.copyPages(source, [index]);
    part.addPage(page!);
    parts.push(Buffer.from(await part.save({ objectsPerTick: Infinity })));
  }
  return parts;
}

/** An EPL label without the blank lines a carrier may put before it. */
function withoutLeadingBlankLines(label: Buffer): Buffer {
  let start = 0;
  while (label[start] === 0x0a || label[start] === 0x0d) start++;
  return label.subarray(start);
}
