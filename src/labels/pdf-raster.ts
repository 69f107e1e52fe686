import { PDFiumLibrary, type PDFiumDocument } from '@hyzyla/pdfium';
import { blankBitmap, inkBox, narrowestBar, placeOnCanvas, thresholdGray, type Bitmap, type Box } from './bitmap.js';
import { LabelFormatError } from './errors.js';
import { shippedFile } from '../runtime/shipped.js';
import type { LabelDpi } from '../domain/labels.js';
import { thermalLabelDots } from './resolution.js';

/**
 * PDF pages as thermal labels, rendered by PDFium compiled to WebAssembly (@hyzyla/pdfium, MIT): no system
 * package, no native addon, the same pixels on every machine.
 */

let library: Promise<PDFiumLibrary> | undefined;

function pdfium(): Promise<PDFiumLibrary> {
  if (!library) {
    const wasm = shippedFile('pdfium.wasm');
    library = PDFiumLibrary.init({ wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer });
  }
  return library;
}

/** No page renders above this many pixels (an A3 page at 300 dpi is 17 million): a hostile page size cannot exhaust memory. */
const MAX_RENDER_PIXELS = 24_000_000;
/** A bar shrunk below two dots prints unevenly at 203 dpi and stops scanning. */
const MIN_BAR_DOTS = 2;

/** Calls `each` with every page index; a page is opened per render (the wrapper closes a page once it rendered it). */
async function withPages<T>(pdf: Uint8Array, each: (doc: PDFiumDocument, pageIndex: number) => Promise<T>): Promise<T[]> {
  const lib = await pdfium();
  let doc;
  try {
    doc = await lib.loadDocument(pdf);
  } catch (error) {
    throw new LabelFormatError(null, `is not a readable PDF (${(error as Error).message})`);
  }
  try {
    const results: T[] = [];
    for (let index = 0; index < doc.getPageCount(); index++) results.push(await each(doc, index));
    return results;
  } finally {
    doc.destroy();
  }
}

async function renderGray(doc: PDFiumDocument, pageIndex: number, dotsPerPoint: number): Promise<{ gray: Uint8Array; width: number; height: number }> {
  const page = doc.getPage(pageIndex);
  const { originalWidth, originalHeight } = page.getOriginalSize();
  const scale = Math.min(dotsPerPoint, Math.sqrt(MAX_RENDER_PIXELS / Math.max(1, originalWidth * originalHeight)));
  const { data, width, height } = await page.render({ scale, colorSpace: 'Gray', render: 'bitmap' });
  return { gray: data, width, height };
}

/** Every page of a PDF at `dpi` in grey, as a reader shows it: for previews. */
export async function renderPdfPages(pdf: Uint8Array, dpi: number): Promise<Array<{ gray: Uint8Array; width: number; height: number }>> {
  return withPages(pdf, (doc, index) => renderGray(doc, index, dpi / 72));
}

/**
 * Every page of a PDF as one 4×6 in label at `dpi`. A page that fits (upright, else turned a quarter) is placed whole
 * and centred; a larger one is trimmed to its ink first; only ink larger than the label is shrunk, and never so far
 * that a barcode's narrowest bar drops below two dots (what does not fit then is cut evenly from both sides).
 */
export async function pdfToLabelBitmaps(pdf: Uint8Array, dpi: LabelDpi): Promise<Bitmap[]> {
  const label = thermalLabelDots(dpi);
  return withPages(pdf, async (doc, index) => {
    const full = await renderGray(doc, index, dpi / 72);
    let bitmap = thresholdGray(full.gray, full.width, full.height);
    const whole: Box = { left: 0, top: 0, width: bitmap.width, height: bitmap.height };
    const placedWhole = placeIfFits(bitmap, whole, label);
    if (placedWhole) return placedWhole;
    let ink = inkBox(bitmap);
    if (!ink) return blankBitmap(label.width, label.height);
    const placedInk = placeIfFits(bitmap, ink, label);
    if (placedInk) return placedInk;

    const upright = Math.min(label.width / ink.width, label.height / ink.height);
    const turned = Math.min(label.width / ink.height, label.height / ink.width);
    const bar = narrowestBar(bitmap, Math.round(dpi / 5));
    const floor = bar === null ? 0 : Math.min(1, MIN_BAR_DOTS / bar);
    const shrink = Math.max(floor, Math.max(upright, turned));
    // rendering again at the smaller scale keeps edges sharp, which scaling the bitmap would blur
    const small = await renderGray(doc, index, (dpi / 72) * shrink);
    bitmap = thresholdGray(small.gray, small.width, small.height);
    ink = inkBox(bitmap) ?? { left: 0, top: 0, width: 0, height: 0 };
    return centred(bitmap, ink, label, turned > upright);
  });
}

function placeIfFits(bitmap: Bitmap, box: Box, label: { width: number; height: number }): Bitmap | null {
  if (box.width <= label.width && box.height <= label.height) return centred(bitmap, box, label, false);
  if (box.height <= label.width && box.width <= label.height) return centred(bitmap, box, label, true);
  return null;
}

function centred(bitmap: Bitmap, box: Box, label: { width: number; height: number }, quarterTurn: boolean): Bitmap {
  const shownWidth = quarterTurn ? box.height : box.width;
  const shownHeight = quarterTurn ? box.width : box.height;
  return placeOnCanvas(bitmap, box, {
    ...label, quarterTurn, left: Math.floor((label.width - shownWidth) / 2), top: Math.floor((label.height - shownHeight) / 2),
  });
}
