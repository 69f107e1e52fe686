import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, StandardFonts, type PDFFont } from 'pdf-lib';
import type { LabelFormat } from '../../domain/labels.js';
import { shippedFile } from '../../runtime/shipped.js';
import {
  code128Modules, drawCode128, eplString, printable, PT_PER_MM, THERMAL_DOTS, thermalModuleDots, zplBarcodeData, zplFieldData,
} from '../../labels/drawing.js';

/** Parsing DejaVu takes most of a label's time: parse each font file once and reuse it for every label. */
const parsedFonts = new Map<Uint8Array, ReturnType<typeof fontkit.create>>();
const cachedFontkit: typeof fontkit = {
  create: (data: Uint8Array) => {
    let font = parsedFonts.get(data);
    if (!font) {
      font = fontkit.create(data);
      // each glyph made first with its character: one first made as a part of another (S of Ś, as a subset is written)
      // would keep none in the shared font, and a later label's text would lose that letter
      for (const codePoint of font.characterSet) font.glyphForCodePoint(codePoint);
      parsedFonts.set(data, font);
    }
    return font;
  },
};

/** What an emulated carrier prints on one parcel's label. */
export interface EmulatedLabel {
  carrier: string;
  trackingNumber: string;
  /** 1-based position of this parcel in its shipment. */
  parcelIndex: number;
  parcelCount: number;
  reference?: string;
  product?: string;
  sender: string[];
  recipient: string[];
  cod?: { amount: string; currency: string };
}

const PAGE = { width: 100 * PT_PER_MM, height: 150 * PT_PER_MM };
const MARGIN = 5 * PT_PER_MM;
const BARCODE = { maxWidth: 80 * PT_PER_MM, height: 25 * PT_PER_MM };
const BLACK = rgb(0, 0, 0);

let fontBytes: { regular: Buffer; bold: Buffer } | undefined;

function dejaVuFonts(): { regular: Buffer; bold: Buffer } {
  fontBytes ??= {
    regular: shippedFile('DejaVuSans.ttf'),
    bold: shippedFile('DejaVuSans-Bold.ttf'),
  };
  return fontBytes;
}

/** Text of the label that may hold letters outside Latin-1 (names, addresses, references). */
function variableText(label: EmulatedLabel): string {
  return [label.carrier, label.product ?? '', label.reference ?? '', ...label.sender, ...label.recipient].join('');
}

/**
 * Helvetica (built into every PDF reader, nothing to embed) when all text fits its WinAnsi encoding, as most
 * Western names do; DejaVu Sans, subset-embedded, when a name needs more (ř, ł, ő …). Embedding is most of a label's cost.
 */
async function labelFonts(pdf: PDFDocument, label: EmulatedLabel): Promise<{ regular: PDFFont; bold: PDFFont }> {
  const helvetica = await pdf.embedFont(StandardFonts.Helvetica);
  try {
    helvetica.encodeText(printable(variableText(label)));
    return { regular: helvetica, bold: await pdf.embedFont(StandardFonts.HelveticaBold) };
  } catch {
    pdf.registerFontkit(cachedFontkit);
    const fonts = dejaVuFonts();
    return { regular: await pdf.embedFont(fonts.regular, { subset: true }), bold: await pdf.embedFont(fonts.bold, { subset: true }) };
  }
}

/** One 10×15 cm PDF page: addresses in DejaVu Sans (Czech/Polish letters), a vector Code 128 of the tracking number. */
async function renderPdfLabel(label: EmulatedLabel): Promise<Buffer> {
  // No metadata update: the same label renders to the same bytes.
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const { regular, bold } = await labelFonts(pdf, label);
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  const textWidth = PAGE.width - 2 * MARGIN;
  const write = (text: string, x: number, y: number, size: number, font: PDFFont, maxWidth = textWidth) =>
    page.drawText(fitText(printable(text), font, size, maxWidth), { x, y, size, font, color: BLACK });
  const rule = (y: number) => page.drawLine({ start: { x: MARGIN, y }, end: { x: PAGE.width - MARGIN, y }, thickness: 1, color: BLACK });

  let y = PAGE.height - MARGIN - 18;
  write(label.carrier, MARGIN, y, 20, bold, textWidth / 2);
  const parcelText = `parcel ${label.parcelIndex}/${label.parcelCount}`;
  page.drawText(parcelText, { x: PAGE.width - MARGIN - bold.widthOfTextAtSize(parcelText, 12), y: y + 4, size: 12, font: bold });
  if (label.product) {
    const product = fitText(printable(label.product), regular, 8, textWidth / 2);
    page.drawText(product, { x: PAGE.width - MARGIN - regular.widthOfTextAtSize(product, 8), y: y - 8, size: 8, font: regular });
  }
  y -= 16;
  rule(y);

  y -= 10;
  write('From:', MARGIN, y, 7, bold);
  for (const line of label.sender.slice(0, 6)) write(line, MARGIN, (y -= 10), 8, regular);
  y -= 8;
  rule(y);

  y -= 11;
  write('To:', MARGIN, y, 8, bold);
  label.recipient.slice(0, 7).forEach((line, i) => write(line, MARGIN, (y -= i === 0 ? 16 : 14), i === 0 ? 13 : 11, i === 0 ? bold : regular));
  y -= 10;
  rule(y);

  if (label.reference) write(`Ref: ${label.reference}`, MARGIN, (y -= 14), 10, regular);
  if (label.cod) {
    y -= 30;
    page.drawRectangle({ x: MARGIN, y, width: textWidth, height: 24, borderColor: BLACK, borderWidth: 1.5 });
    write(`COD ${label.cod.amount} ${label.cod.currency}`, MARGIN + 6, y + 7, 13, bold, textWidth - 12);
  }

  drawCode128(page, label.trackingNumber, { bottom: MARGIN + 14, height: BARCODE.height, maxWidth: BARCODE.maxWidth });
  const numberWidth = bold.widthOfTextAtSize(label.trackingNumber, 11);
  page.drawText(label.trackingNumber, { x: (PAGE.width - numberWidth) / 2, y: MARGIN, size: 11, font: bold });
  return Buffer.from(await pdf.save({ objectsPerTick: Infinity })); // no setTimeout yield every 50 objects
}

function fitText(text: string, font: PDFFont, size: number, maxWidth: number): string {
  if (font.widthOfTextAtSize(text, size) <= maxWidth) return text;
  let cut = text;
  while (cut.length > 0 && font.widthOfTextAtSize(`${cut}…`, size) > maxWidth) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** One ZPL II label (203 dpi, 4×6 in, UTF-8) with a Code 128 of the tracking number in subset B. */
function renderZplLabel(label: EmulatedLabel): string {
  const { width, margin } = THERMAL_DOTS;
  const lines: string[] = ['^XA', '^CI28', `^PW${width}`, `^LL${THERMAL_DOTS.height}`, '^LH0,0'];
  const text = (x: number, y: number, size: number, value: string) =>
    lines.push(`^FO${x},${y}^A0N,${size},${size}^FH\\^FD${zplFieldData(value)}^FS`);
  const rule = (y: number) => lines.push(`^FO${margin},${y}^GB${width - 2 * margin},3,3^FS`);
  layoutThermal(label, text, rule, (y, h) => lines.push(`^FO${margin},${y}^GB${width - 2 * margin},${h},4^FS`));
  const moduleDots = thermalModuleDots(label.trackingNumber);
  const x = Math.max(0, Math.floor((width - code128Modules(label.trackingNumber) * moduleDots) / 2));
  lines.push(`^BY${moduleDots},3,200`, `^FO${x},910^BCN,200,Y,N,N^FD>:${zplBarcodeData(label.trackingNumber)}^FS`, '^XZ');
  return lines.join('\n') + '\n';
}

/** One EPL2 label (203 dpi, 4×6 in, ASCII text) with a Code 128 of the tracking number. */
function renderEplLabel(label: EmulatedLabel): string {
  const { width, height, margin } = THERMAL_DOTS;
  const lines: string[] = ['', 'N', `q${width}`, `Q${height},24`];
  // EPL's resident fonts 1–5 grow from 8×12 to 32×48 dots: pick the one nearest the ZPL size
  const font = (size: number) => (size >= 60 ? 5 : size >= 40 ? 4 : size >= 30 ? 3 : 2);
  const text = (x: number, y: number, size: number, value: string) => lines.push(`A${x},${y},0,${font(size)},1,1,N,"${eplString(value)}"`);
  const rule = (y: number) => lines.push(`LO${margin},${y},${width - 2 * margin},3`);
  layoutThermal(label, text, rule, (y, h) => lines.push(`X${margin},${y},4,${width - margin},${y + h}`));
  const narrow = thermalModuleDots(label.trackingNumber, 3);
  const x = Math.max(0, Math.floor((width - code128Modules(label.trackingNumber) * narrow) / 2));
  lines.push(`B${x},910,0,1,${narrow},${narrow * 2},200,B,"${eplString(label.trackingNumber)}"`, 'P1', '');
  return lines.join('\n');
}

/** The text of a thermal label, the same in ZPL and EPL: carrier, parcel n/m, addresses, reference, COD box. */
function layoutThermal(
  label: EmulatedLabel,
  text: (x: number, y: number, size: number, value: string) => void,
  rule: (y: number) => void,
  box: (y: number, height: number) => void,
): void {
  const { margin } = THERMAL_DOTS;
  text(margin, 40, 70, label.carrier);
  text(520, 40, 40, `parcel ${label.parcelIndex}/${label.parcelCount}`);
  if (label.product) text(520, 90, 24, label.product.slice(0, 24));
  rule(130);
  text(margin, 150, 24, 'From:');
  label.sender.slice(0, 6).forEach((line, i) => text(margin, 180 + i * 28, 24, line));
  rule(360);
  text(margin, 380, 28, 'To:');
  label.recipient.slice(0, 7).forEach((line, i) => text(margin, 420 + i * 44, i === 0 ? 44 : 36, line));
  rule(740);
  if (label.reference) text(margin, 760, 30, `Ref: ${label.reference}`);
  if (label.cod) {
    box(805, 70);
    text(margin + 20, 822, 40, `COD ${label.cod.amount} ${label.cod.currency}`);
  }
}

/** The label in the carrier's chosen format, as the bytes its API would send. */
export async function renderLabel(format: LabelFormat, label: EmulatedLabel): Promise<Buffer> {
  if (format === 'zpl') return Buffer.from(renderZplLabel(label), 'utf8');
  if (format === 'epl') return Buffer.from(renderEplLabel(label), 'latin1');
  return renderPdfLabel(label);
}
