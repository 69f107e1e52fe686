import type { LabelFormat } from '../domain/labels.js';
import { shippedFile } from '../runtime/shipped.js';
import { code128Modules, drawCode128, eplString, printable, PT_PER_MM, THERMAL_DOTS, thermalModuleDots, zplBarcodeData, zplFieldData } from './drawing.js';

/** What a printer's test label shows: the station, the printer, when, and a Code 128 of the print job id. */
export interface TestLabel {
  stationName: string;
  printerName: string;
  /** The barcode's value (the print job id, so a scan tells which job printed). */
  barcode: string;
  /** ISO 8601 time the test was asked for. */
  at: string;
}

const TITLE = 'packdesk test label';

/** One label in the printer's format: ZPL II or EPL2 at 203 dpi, 4×6 in; PDF at 10×15 cm. */
export async function renderTestLabel(format: LabelFormat, label: TestLabel): Promise<Buffer> {
  if (format === 'zpl') return Buffer.from(zplTestLabel(label), 'utf8');
  if (format === 'epl') return Buffer.from(eplTestLabel(label), 'latin1');
  return pdfTestLabel(label);
}

const DOTS = THERMAL_DOTS;

export function zplTestLabel(label: TestLabel): string {
  const text = (y: number, size: number, value: string) => `^FO${DOTS.margin},${y}^A0N,${size},${size}^FH\\^FD${zplFieldData(value)}^FS`;
  const module = thermalModuleDots(label.barcode);
  const x = Math.floor((DOTS.width - code128Modules(label.barcode) * module) / 2);
  return [
    '^XA', '^CI28', `^PW${DOTS.width}`, `^LL${DOTS.height}`, '^LH0,0',
    text(60, 60, TITLE), `^FO${DOTS.margin},140^GB${DOTS.width - 2 * DOTS.margin},3,3^FS`,
    text(180, 50, label.stationName), text(260, 34, `printer: ${label.printerName}`), text(310, 34, 'format: ZPL II'),
    text(360, 34, label.at),
    `^BY${module},3,220`, `^FO${x},520^BCN,220,Y,N,N^FD>:${zplBarcodeData(label.barcode)}^FS`,
    '^XZ', '',
  ].join('\n');
}

export function eplTestLabel(label: TestLabel): string {
  const text = (y: number, font: number, scale: number, value: string) => `A${DOTS.margin},${y},0,${font},${scale},${scale},N,"${eplString(value)}"`;
  const narrow = thermalModuleDots(label.barcode, 3);
  return [
    '', 'N', `q${DOTS.width}`, `Q${DOTS.height},24`,
    text(60, 5, 1, TITLE), `LO${DOTS.margin},140,${DOTS.width - 2 * DOTS.margin},3`,
    text(180, 4, 2, label.stationName), text(260, 3, 1, `printer: ${label.printerName}`), text(310, 3, 1, 'format: EPL2'),
    text(360, 3, 1, label.at),
    `B${DOTS.margin},520,0,1,${narrow},${narrow * 2},220,B,"${eplString(label.barcode)}"`,
    'P1', '',
  ].join('\n');
}


async function pdfTestLabel(label: TestLabel): Promise<Buffer> {
  const [{ PDFDocument, rgb }, { default: fontkit }] = await Promise.all([import('pdf-lib'), import('@pdf-lib/fontkit')]);
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const regular = await pdf.embedFont(shippedFile('DejaVuSans.ttf'), { subset: true });
  const bold = await pdf.embedFont(shippedFile('DejaVuSans-Bold.ttf'), { subset: true });
  const width = 100 * PT_PER_MM;
  const height = 150 * PT_PER_MM;
  const margin = 6 * PT_PER_MM;
  const page = pdf.addPage([width, height]);
  const black = rgb(0, 0, 0);
  let y = height - margin - 16;
  const write = (value: string, size: number, font = regular) => {
    page.drawText(printable(value), { x: margin, y, size, font, color: black, maxWidth: width - 2 * margin });
    y -= size * 1.6;
  };
  write(TITLE, 16, bold);
  page.drawLine({ start: { x: margin, y: y + 8 }, end: { x: width - margin, y: y + 8 }, thickness: 1, color: black });
  y -= 8;
  write(label.stationName, 18, bold);
  write(`printer: ${label.printerName}`, 10);
  write('format: PDF, 10×15 cm', 10);
  write(label.at, 10);

  // as wide as fits: the job id is long, and thin bars scan badly
  const barBottom = 40 * PT_PER_MM;
  drawCode128(page, label.barcode, { bottom: barBottom, height: 25 * PT_PER_MM, maxWidth: 92 * PT_PER_MM });
  const textWidth = regular.widthOfTextAtSize(label.barcode, 10);
  page.drawText(label.barcode, { x: (width - textWidth) / 2, y: barBottom - 16, size: 10, font: regular, color: black });
  return Buffer.from(await pdf.save({ objectsPerTick: Infinity }));
}
