import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { LabelFormat } from '../carriers/types.js';

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

const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/** Code 128 subset B: start + one symbol per character + check + stop, 11 modules each but the 13-module stop. */
function code128Modules(value: string): number {
  return 11 * (value.length + 2) + 13;
}

const DOTS = { width: 812, height: 1218, margin: 40 };

export function zplTestLabel(label: TestLabel): string {
  // ^FH\ field data: ZPL's command characters written as hex escapes
  const field = (text: string) => printable(text).replace(/[\\^~]/g, (c) => `\\${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const text = (y: number, size: number, value: string) => `^FO${DOTS.margin},${y}^A0N,${size},${size}^FH\\^FD${field(value)}^FS`;
  const module = Math.max(1, Math.min(4, Math.floor((DOTS.width - 2 * DOTS.margin) / code128Modules(label.barcode))));
  const x = Math.floor((DOTS.width - code128Modules(label.barcode) * module) / 2);
  return [
    '^XA', '^CI28', `^PW${DOTS.width}`, `^LL${DOTS.height}`, '^LH0,0',
    text(60, 60, TITLE), `^FO${DOTS.margin},140^GB${DOTS.width - 2 * DOTS.margin},3,3^FS`,
    text(180, 50, label.stationName), text(260, 34, `printer: ${label.printerName}`), text(310, 34, 'format: ZPL II'),
    text(360, 34, label.at),
    `^BY${module},3,220`, `^FO${x},520^BCN,220,Y,N,N^FD>:${label.barcode.replace(/>/g, '><')}^FS`,
    '^XZ', '',
  ].join('\n');
}

const NON_DECOMPOSING: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', ß: 'ss', Ø: 'O', ø: 'o' };

/** EPL2 text is single-byte: letters folded to ASCII. */
function eplString(value: string): string {
  const ascii = printable(value).normalize('NFD').replace(/[\u0300-\u036f]/g, '')
    .replace(/[ŁłĐđßØø]/g, (c) => NON_DECOMPOSING[c] ?? '?').replace(/[^\x20-\x7e]/g, '?');
  return ascii.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

export function eplTestLabel(label: TestLabel): string {
  const text = (y: number, font: number, scale: number, value: string) => `A${DOTS.margin},${y},0,${font},${scale},${scale},N,"${eplString(value)}"`;
  const narrow = Math.max(1, Math.min(3, Math.floor((DOTS.width - 2 * DOTS.margin) / code128Modules(label.barcode))));
  return [
    '', 'N', `q${DOTS.width}`, `Q${DOTS.height},24`,
    text(60, 5, 1, TITLE), `LO${DOTS.margin},140,${DOTS.width - 2 * DOTS.margin},3`,
    text(180, 4, 2, label.stationName), text(260, 3, 1, `printer: ${label.printerName}`), text(310, 3, 1, 'format: EPL2'),
    text(360, 3, 1, label.at),
    `B${DOTS.margin},520,0,1,${narrow},${narrow * 2},220,B,"${eplString(label.barcode)}"`,
    'P1', '',
  ].join('\n');
}

const PT_PER_MM = 72 / 25.4;
const require = createRequire(import.meta.url);

async function pdfTestLabel(label: TestLabel): Promise<Buffer> {
  const [{ PDFDocument, rgb }, { default: fontkit }, { default: bwipjs }] = await Promise.all([
    import('pdf-lib'), import('@pdf-lib/fontkit'), import('bwip-js'),
  ]);
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const regular = await pdf.embedFont(readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')), { subset: true });
  const bold = await pdf.embedFont(readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')), { subset: true });
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

  const [symbol] = bwipjs.raw('code128', label.barcode, {});
  if (!symbol || !('sbs' in symbol)) throw new Error(`cannot encode ${label.barcode} as Code 128`);
  const pattern = symbol.sbs;
  const modules = pattern.reduce((sum, w) => sum + w, 0);
  // as wide as fits with 10-module quiet zones: the job id is long, and thin bars scan badly
  const module = Math.min((92 * PT_PER_MM) / modules, width / (modules + 20));
  let x = (width - module * modules) / 2;
  const barBottom = 40 * PT_PER_MM;
  pattern.forEach((w, i) => {
    if (i % 2 === 0) page.drawRectangle({ x, y: barBottom, width: w * module, height: 25 * PT_PER_MM, color: black });
    x += w * module;
  });
  const textWidth = regular.widthOfTextAtSize(label.barcode, 10);
  page.drawText(label.barcode, { x: (width - textWidth) / 2, y: barBottom - 16, size: 10, font: regular, color: black });
  return Buffer.from(await pdf.save({ objectsPerTick: Infinity }));
}
