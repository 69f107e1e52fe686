import { PDFDocument } from 'pdf-lib';
import type { LabelDpi } from '../domain/labels.js';
import { cropToBytes, inkBox, type Bitmap } from './bitmap.js';
import { PT_PER_MM } from './drawing.js';
import { encodePng } from './png.js';

const PAGE = { width: 100 * PT_PER_MM, height: 150 * PT_PER_MM };

/**
 * One 10×15 cm page per thermal label: the label's ink as a 1-bit image at its printed size (a dot stays 1/dpi in),
 * centred; shrunk only if the ink is larger than the page.
 */
export async function bitmapsToPdf(bitmaps: Bitmap[], dpi: LabelDpi): Promise<Buffer> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  for (const bitmap of bitmaps) {
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    const ink = inkBox(bitmap);
    if (!ink) continue;
    const part = cropToBytes(bitmap, ink).bitmap;
    const image = await pdf.embedPng(encodePng(part));
    const natural = { width: (part.width * 72) / dpi, height: (part.height * 72) / dpi };
    const scale = Math.min(1, PAGE.width / natural.width, PAGE.height / natural.height);
    const width = natural.width * scale;
    const height = natural.height * scale;
    page.drawImage(image, { x: (PAGE.width - width) / 2, y: (PAGE.height - height) / 2, width, height });
  }
  return Buffer.from(await pdf.save({ objectsPerTick: Infinity }));
}
