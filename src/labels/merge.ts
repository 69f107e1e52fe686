import type { PDFDocument } from 'pdf-lib';
import type { LabelFormat } from '../domain/labels.js';
import { eplLabels } from './epl.js';
import { LabelFormatError } from './errors.js';
import { zplLabels } from './zpl.js';

/** All parcels of a shipment in one printable file. */
export interface MergedLabel {
  content: Buffer;
  pages: number;
  mimeType: string;
  extension: LabelFormat;
}

export const LABEL_MIME_TYPES: Readonly<Record<LabelFormat, string>> = {
  pdf: 'application/pdf',
  zpl: 'application/zpl',
  epl: 'application/epl',
};

/** Joins the carrier labels of every parcel, in input order, without re-rendering any of them. */
export async function mergeLabels(format: LabelFormat, parts: Uint8Array[]): Promise<MergedLabel> {
  if (parts.length === 0) throw new LabelFormatError(null, 'No label parts to merge');
  const { content, pages } = format === 'pdf' ? await mergePdfParts(parts) : mergeTextParts(format, parts);
  return { content, pages, mimeType: LABEL_MIME_TYPES[format], extension: format };
}

async function mergePdfParts(parts: Uint8Array[]): Promise<{ content: Buffer; pages: number }> {
  // loaded with the first PDF, as every PDF writer here: a daemon starts without it (~0.17 s of CPU)
  const { PDFDocument } = await import('pdf-lib');
  const sources: PDFDocument[] = [];
  for (const [index, part] of parts.entries()) sources.push(await loadPdfPart(part, index));
  if (sources.length === 1) return { content: Buffer.from(parts[0]!), pages: sources[0]!.getPageCount() };
  const merged = await PDFDocument.create();
  for (const source of sources) {
    const copied = await merged.copyPages(source, source.getPageIndices());
    for (const page of copied) merged.addPage(page);
  }
  // pdf-lib otherwise yields a setTimeout(0) (>= 1 ms) every 50 objects: ~40% of a 20-parcel merge
  return { content: Buffer.from(await merged.save({ objectsPerTick: Infinity })), pages: merged.getPageCount() };
}

async function loadPdfPart(part: Uint8Array, index: number): Promise<PDFDocument> {
  if (!startsWith(part, '%PDF-')) throw new LabelFormatError(index, 'is not a PDF (no %PDF- header)');
  const { EncryptedPDFError, ParseSpeeds, PDFDocument } = await import('pdf-lib');
  let doc: PDFDocument;
  let pageCount: number;
  try {
    doc = await PDFDocument.load(part, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
    // pdf-lib parses garbage after a %PDF- header leniently and only fails once the page tree is read
    pageCount = doc.getPageCount();
  } catch (error) {
    // pdf-lib cannot decrypt, and copying encrypted streams would print garbage
    const reason = error instanceof EncryptedPDFError ? 'is an encrypted PDF' : `is not a readable PDF (${String(error)})`;
    throw new LabelFormatError(index, reason);
  }
  if (pageCount === 0) throw new LabelFormatError(index, 'is a PDF without pages');
  return doc;
}

/** ZPL and EPL are printer command streams: the parts' bytes are joined as they are. */
function mergeTextParts(format: 'zpl' | 'epl', parts: Uint8Array[]): { content: Buffer; pages: number } {
  let pages = 0;
  const chunks: Uint8Array[] = [];
  parts.forEach((part, index) => {
    const partPages = format === 'zpl' ? zplLabels(part).length : countEplLabels(part, index);
    if (partPages === 0) throw new LabelFormatError(index, format === 'zpl' ? 'is not ZPL (no ^XA…^XZ label)' : 'is not EPL (no N line followed by a P print line)');
    pages += partPages;
    if (chunks.length > 0 && !endsWithNewline(chunks[chunks.length - 1]!)) chunks.push(NEWLINE);
    chunks.push(part);
  });
  return { content: Buffer.concat(chunks), pages };
}

const NEWLINE = Uint8Array.of(0x0a);

/** `N…P` labels, read past GW graphics' bytes (labels/epl.ts). */
function countEplLabels(part: Uint8Array, index: number): number {
  try {
    return eplLabels(part).length;
  } catch (error) {
    throw error instanceof LabelFormatError ? new LabelFormatError(index, error.reason) : error;
  }
}

function startsWith(bytes: Uint8Array, prefix: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, prefix.length)).toString('latin1') === prefix;
}

function endsWithNewline(bytes: Uint8Array): boolean {
  return bytes.byteLength > 0 && bytes[bytes.byteLength - 1] === 0x0a;
}
