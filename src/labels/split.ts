import { PDFDocument } from 'pdf-lib';
import type { LabelFormat } from '../domain/labels.js';
import { LabelFormatError } from './errors.js';

/**
 * A carrier document holding the labels of all parcels (one page, `^XA…^XZ` block or `N…P` print each), cut into
 * one label per parcel in the carrier's order. ZPL and EPL blocks keep their bytes; PDF pages are copied, not
 * re-rendered. A document whose label count is not `count` is refused: parcels must not get each other's labels.
 */
export async function splitLabels(format: LabelFormat, document: Uint8Array, count: number): Promise<Buffer[]> {
  const parts = format === 'pdf' ? await splitPdf(document) : splitText(format, Buffer.from(document).toString('latin1'));
  if (parts.length !== count) throw new LabelFormatError(null, `holds ${parts.length} labels for ${count} parcels`);
  return parts;
}

async function splitPdf(document: Uint8Array): Promise<Buffer[]> {
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

/** ZPL labels are `^XA…^XZ` blocks; an EPL label runs from an `N` line to its `P<n>` print line. */
function splitText(format: 'zpl' | 'epl', text: string): Buffer[] {
  const blocks = format === 'zpl' ? text.match(/\^XA[\s\S]*?\^XZ/gi) : text.match(/^N\r?\n[\s\S]*?^P\d+[^\n]*\n?/gm);
  return (blocks ?? []).map((block) => Buffer.from(block, 'latin1'));
}
