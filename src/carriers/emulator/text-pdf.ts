import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { printable, PT_PER_MM } from '../../labels/drawing.js';
import { shippedFile } from '../../runtime/shipped.js';

/** A line of an emulated carrier document: its text (bold, size, indent in points), or `gap` lines of space. */
export type DocumentLine = string | { text: string; bold?: boolean; size?: number; indent?: number } | { gap: number };

const A4 = { width: 210 * PT_PER_MM, height: 297 * PT_PER_MM };
const MARGIN = 15 * PT_PER_MM;
const LINE = 14;

/**
 * The carriers' hand-over documents as their emulators give them (DPD Poland's protocol, DHL24's PNP report, One's
 * pickup protocol): A4 pages of text lines, a new page when one is full. The carriers publish no layout; the
 * text is what a courier signs for. No metadata update: the same document renders to the same bytes.
 */
export async function renderTextDocument(lines: readonly DocumentLine[]): Promise<Buffer> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const regular = await pdf.embedFont(shippedFile('DejaVuSans.ttf'), { subset: true });
  const bold = await pdf.embedFont(shippedFile('DejaVuSans-Bold.ttf'), { subset: true });
  let page: PDFPage = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  for (const line of lines) {
    if (typeof line === 'object' && 'gap' in line) {
      y -= line.gap * LINE;
      continue;
    }
    const { text, bold: isBold = false, size = 10, indent = 0 } = typeof line === 'string' ? { text: line } : line;
    if (y < MARGIN + 2 * LINE) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    }
    const font: PDFFont = isBold ? bold : regular;
    page.drawText(printable(text), { x: MARGIN + indent, y, size, font, color: rgb(0, 0, 0), maxWidth: A4.width - 2 * MARGIN - indent });
    y -= Math.max(LINE, size + 4);
  }
  return Buffer.from(await pdf.save({ objectsPerTick: Infinity }));
}
