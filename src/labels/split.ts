import { PDFDocument } from 'pdf-lib';
import type { LabelFormat } from '../domain/labels.js';
import { eplLabels } from './epl.js';
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

/**
 * ZPL labels are `^XA…^XZ` blocks; an EPL label runs to its `P<n>` print line from its `N` line and the set-up lines
 * before it (blank lines dropped), read binary-safe so a GW graphic's bytes cannot cut it.
 */
function splitText(format: 'zpl' | 'epl', text: string): Buffer[] {
  if (format === 'epl') return eplLabels(Buffer.from(text, 'latin1')).map(withoutLeadingBlankLines);
  const blocks = text.match(/\^XA[\s\S]*?\^XZ/gi);
  return (blocks ?? []).map((block) => Buffer.from(block, 'latin1'));
}

function withoutLeadingBlankLines(label: Buffer): Buffer {
  let start = 0;
  while (label[start] === 0x0a || label[start] === 0x0d) start++;
  return label.subarray(start);
}
