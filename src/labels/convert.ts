import type { LabelDpi, LabelFormat } from '../domain/labels.js';
import type { Bitmap } from './bitmap.js';
import { bitmapsToPdf } from './bitmap-pdf.js';
import { pdfToLabelBitmaps, renderPdfPages } from './pdf-raster.js';
import { encodePng } from './png.js';
import { eplGraphicLabel, zplGraphicLabel } from './thermal-graphic.js';
import { renderThermalPngs, thermalToLabelBitmaps } from './zpl-raster.js';

/**
 * Offline label conversion (SPEC §6): every label, whatever its format, becomes pixels at the printer's resolution
 * and is written again as one ZPL `^GF` or EPL `GW` graphic per label, or as one 10×15 cm PDF page per label.
 * These functions block while they render: the daemon runs them in a worker thread (conversions.ts).
 */

function labelBitmaps(format: LabelFormat, content: Uint8Array, dpi: LabelDpi): Promise<Bitmap[]> {
  return format === 'pdf' ? pdfToLabelBitmaps(content, dpi) : thermalToLabelBitmaps(format, content, dpi);
}

/** A label of one format written in another, one label (page, `^XA…^XZ` block, `N…P1` print) for each of the source's. */
export async function convertLabel(from: LabelFormat, to: LabelFormat, content: Uint8Array, dpi: LabelDpi): Promise<Buffer> {
  const bitmaps = await labelBitmaps(from, content, dpi);
  if (to === 'pdf') return bitmapsToPdf(bitmaps, dpi);
  if (to === 'zpl') return Buffer.from(bitmaps.map(zplGraphicLabel).join(''), 'latin1');
  return Buffer.concat(bitmaps.map(eplGraphicLabel));
}

/** One PNG per label as it prints: PDF pages in grey as a reader shows them, thermal labels as the printer's dots. */
export async function previewLabel(format: LabelFormat, content: Uint8Array, dpi: LabelDpi): Promise<Buffer[]> {
  if (format !== 'pdf') return renderThermalPngs(format, content, dpi);
  return (await renderPdfPages(content, dpi)).map(encodePng);
}
