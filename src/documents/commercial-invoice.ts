import type { PDFFont, PDFPage } from 'pdf-lib';
import type { CustomsForCarrier } from '../carriers/types.js';
import type { CustomsContentsType } from '../domain/customs.js';
import { printable, PT_PER_MM } from '../labels/drawing.js';
import { formatMinorUnits } from '../domain/money.js';
import { shippedFile } from '../runtime/shipped.js';

/** A party of the invoice: who exports the goods, who imports them. */
export interface InvoiceParty {
  name: string;
  street: string;
  postalCode: string;
  city: string;
  countryCode: string;
  email?: string;
  phone?: string;
  taxId?: string | null;
}

export interface CommercialInvoice {
  shipmentId: string;
  reference: string | null;
  trackingNumbers: string[];
  carrier: string;
  exporter: InvoiceParty;
  importer: InvoiceParty;
  customs: CustomsForCarrier;
  parcelsWeightKg: number;
}

/** The export reason customs reads, by the declaration's contents type. */
const EXPORT_REASONS: Readonly<Record<CustomsContentsType, string>> = {
  sale: 'Sale of goods',
  gift: 'Gift',
  sample: 'Commercial sample',
  documents: 'Documents',
  return: 'Returned goods',
  other: 'Other',
};

const A4 = { width: 210 * PT_PER_MM, height: 297 * PT_PER_MM };
const MARGIN = 15 * PT_PER_MM;
const WIDTH = A4.width - 2 * MARGIN;
const LINE = 11;
const SMALL = 8;
/** Room the totals, the declaration and the signature take below the table. */
const CLOSING_HEIGHT = 150;
const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** The item table's columns: left edge (from the margin), width, and whether figures align right. */
const COLUMNS = {
  n: { x: 0, width: 16, right: true },
  description: { x: 22, width: 170, right: false },
  hsCode: { x: 196, width: 56, right: false },
  origin: { x: 256, width: 32, right: false },
  quantity: { x: 290, width: 34, right: true },
  unitValue: { x: 328, width: 62, right: true },
  total: { x: 394, width: 64, right: true },
  unitWeight: { x: 462, width: WIDTH - 462, right: true },
} as const;
type Column = keyof typeof COLUMNS;
const HEADINGS: Record<Column, string> = {
  n: '#', description: 'Description', hsCode: 'HS code', origin: 'Origin', quantity: 'Qty', unitValue: 'Unit value', total: 'Line total', unitWeight: 'Unit kg',
};

/** The country's English name (`Czechia`), or what was written where it is no region code. */
function countryName(code: string): string {
  const upper = code.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(upper) ? REGION_NAMES.of(upper) ?? upper : code;
}

const kg = (value: number) => `${Math.round(value * 1000) / 1000} kg`;

/**
 * An A4 commercial invoice as carriers' templates have it: invoice number and date, exporter (EORI, VAT) and importer
 * (tax id), the shipment and its tracking numbers, contents type and incoterm, a table of the items continued onto
 * further pages when long, totals (value, net and gross weight), the export reason, a declaration and a signature line.
 */
export async function renderCommercialInvoice(input: CommercialInvoice): Promise<Uint8Array> {
  const [{ PDFDocument, rgb }, { default: fontkit }] = await Promise.all([import('pdf-lib'), import('@pdf-lib/fontkit')]);
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const regular = face(await pdf.embedFont(shippedFile('DejaVuSans.ttf'), { subset: true }));
  const bold = face(await pdf.embedFont(shippedFile('DejaVuSans-Bold.ttf'), { subset: true }));
  const black = rgb(0, 0, 0);
  const { customs } = input;
  let page: PDFPage = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;

  const text = (value: string, x: number, size: number, width: number, font = regular) =>
    page.drawText(fitted(printable(value), font, size, width), { x, y, size, font: font.font, color: black });
  const rightAligned = (value: string, xRight: number, size: number, width: number, font = regular) => {
    const shown = fitted(printable(value), font, size, width);
    page.drawText(shown, { x: xRight - font.width(shown, size), y, size, font: font.font, color: black });
  };
  const rule = (thickness = 0.5) => page.drawLine({ start: { x: MARGIN, y: y - 3 }, end: { x: A4.width - MARGIN, y: y - 3 }, thickness, color: black });
  const cell = (column: Column, value: string, font = regular) => {
    const c = COLUMNS[column];
    if (c.right) rightAligned(value, MARGIN + c.x + c.width, SMALL, c.width, font);
    else text(value, MARGIN + c.x, SMALL, c.width, font);
  };
  const continuedPage = () => {
    page = pdf.addPage([A4.width, A4.height]);
    y = A4.height - MARGIN;
    text(`Commercial invoice ${customs.invoiceNumber} (continued)`, MARGIN, 11, WIDTH, bold);
    y -= 2 * LINE;
  };
  const tableHeading = () => {
    for (const column of Object.keys(COLUMNS) as Column[]) cell(column, HEADINGS[column], bold);
    rule();
    y -= LINE + 2;
  };

  text('Commercial invoice', MARGIN, 16, WIDTH / 2, bold);
  rightAligned(`Invoice no. ${customs.invoiceNumber}`, A4.width - MARGIN, 10, WIDTH / 2, bold);
  y -= 14;
  rightAligned(`Date ${customs.invoiceDate}`, A4.width - MARGIN, 10, WIDTH / 2);
  y -= 2 * LINE;

  const half = WIDTH / 2 - 5 * PT_PER_MM;
  const partyBlock = (title: string, party: InvoiceParty, ids: [string, string | null | undefined][], x: number) => {
    text(title, x, 9, half, bold);
    y -= LINE + 1;
    const lines = [
      party.name, party.street, `${party.postalCode} ${party.city}`, countryName(party.countryCode),
      ...(party.phone ? [`Phone ${party.phone}`] : []), ...(party.email ? [`E-mail ${party.email}`] : []),
      ...ids.flatMap(([label, value]) => (value ? [`${label} ${value}`] : [])),
    ];
    for (const line of lines) {
      text(line, x, 9, half);
      y -= LINE;
    }
  };
  const top = y;
  partyBlock('Exporter', input.exporter, [['EORI', customs.exporterEori], ['VAT no.', customs.exporterVatNumber], ['Tax id', input.exporter.taxId]], MARGIN);
  const exporterBottom = y;
  y = top;
  partyBlock('Importer', input.importer, [['Tax id', customs.importerTaxId ?? input.importer.taxId]], A4.width / 2 + 5 * PT_PER_MM);
  y = Math.min(y, exporterBottom) - LINE;

  const facts: [string, string][] = [
    ['Shipment', `${input.shipmentId}${input.reference ? ` · reference ${input.reference}` : ''}`],
    ['Carrier', input.carrier],
    ['Contents', `${EXPORT_REASONS[customs.contentsType]} · incoterm ${customs.incoterm} · currency ${customs.currency}`],
  ];
  for (const [label, value] of facts) {
    text(label, MARGIN, 9, 30 * PT_PER_MM, bold);
    text(value, MARGIN + 30 * PT_PER_MM, 9, WIDTH - 30 * PT_PER_MM);
    y -= LINE;
  }
  text('Tracking', MARGIN, 9, 30 * PT_PER_MM, bold);
  for (const line of wrapped(input.trackingNumbers.join(', ') || '—', regular, 9, WIDTH - 30 * PT_PER_MM, 6)) {
    text(line, MARGIN + 30 * PT_PER_MM, 9, WIDTH - 30 * PT_PER_MM);
    y -= LINE;
  }
  y -= LINE;
  tableHeading();

  let totalMinor = 0;
  let netWeightKg = 0;
  customs.items.forEach((item, i) => {
    const description = wrapped(printable(item.description), regular, SMALL, COLUMNS.description.width, 2);
    const height = description.length * (LINE - 1) + 2;
    if (y - height < MARGIN + LINE) {
      continuedPage();
      tableHeading();
    }
    const lineMinor = item.quantity * item.unitValueMinor;
    totalMinor += lineMinor;
    netWeightKg += item.quantity * item.unitWeightKg;
    cell('n', String(i + 1));
    cell('hsCode', item.hsCode ?? '—');
    cell('origin', item.originCountry);
    cell('quantity', String(item.quantity));
    cell('unitValue', formatMinorUnits(item.unitValueMinor));
    cell('total', formatMinorUnits(lineMinor));
    cell('unitWeight', String(Math.round(item.unitWeightKg * 1000) / 1000));
    for (const line of description) {
      cell('description', line);
      y -= LINE - 1;
    }
    y -= 2;
  });
  rule(0.7);
  y -= LINE + 4;

  if (y - CLOSING_HEIGHT < MARGIN) continuedPage();
  const totals: [string, string][] = [
    ['Total value', `${formatMinorUnits(totalMinor)} ${customs.currency}`],
    ['Net weight', kg(netWeightKg)],
    ['Gross weight', kg(input.parcelsWeightKg)],
    ['Export reason', EXPORT_REASONS[customs.contentsType]],
  ];
  for (const [label, value] of totals) {
    text(label, MARGIN + 100 * PT_PER_MM, 10, 35 * PT_PER_MM, bold);
    rightAligned(value, A4.width - MARGIN, 10, WIDTH - 135 * PT_PER_MM, label === 'Total value' ? bold : regular);
    y -= LINE + 3;
  }
  y -= LINE;
  for (const line of wrapped('I declare that the information on this invoice is true and correct and that the goods are of the origin shown.', regular, 9, WIDTH, 3)) {
    text(line, MARGIN, 9, WIDTH);
    y -= LINE;
  }
  y -= 12 * PT_PER_MM;
  page.drawLine({ start: { x: MARGIN, y: y + 12 }, end: { x: MARGIN + 90 * PT_PER_MM, y: y + 12 }, thickness: 0.7, color: black });
  text('Signature, name and date (exporter)', MARGIN, 8, 90 * PT_PER_MM);

  const pages = pdf.getPages();
  pages.forEach((p, i) => {
    const label = `Page ${i + 1} of ${pages.length}`;
    p.drawText(label, { x: A4.width - MARGIN - regular.width(label, 7), y: MARGIN / 2, size: 7, font: regular.font, color: black });
  });
  return pdf.save({ objectsPerTick: Infinity });
}

/** An embedded font and the width of a text in it. */
interface Face {
  font: PDFFont;
  width(text: string, size: number): number;
}

/** Widths summed from each character's advance, measured once: fontkit lays out a whole string per call, slow for a long table. */
function face(font: PDFFont): Face {
  const advances = new Map<string, number>();
  const advance = (character: string) => {
    let known = advances.get(character);
    if (known === undefined) advances.set(character, (known = font.widthOfTextAtSize(character, 1)));
    return known;
  };
  return {
    font,
    width: (text, size) => {
      let sum = 0;
      for (const character of text) sum += advance(character);
      return sum * size;
    },
  };
}

/** `value` cut to `width` with an ellipsis where it is longer. */
function fitted(value: string, font: Face, size: number, width: number): string {
  if (font.width(value, size) <= width) return value;
  let [low, high] = [0, value.length];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (font.width(`${value.slice(0, mid).trimEnd()}…`, size) <= width) low = mid;
    else high = mid - 1;
  }
  return `${value.slice(0, low).trimEnd()}…`;
}

/** `value` in at most `maxLines` lines of `width`, broken between words; the last line cut with an ellipsis when more is left. */
function wrapped(value: string, font: Face, size: number, width: number, maxLines: number): string[] {
  const words = value.split(/\s+/).filter((w) => w !== '');
  const lines: string[] = [];
  while (words.length > 0 && lines.length < maxLines - 1) {
    let line = words.shift()!;
    while (words.length > 0 && font.width(`${line} ${words[0]}`, size) <= width) line = `${line} ${words.shift()!}`;
    lines.push(fitted(line, font, size, width));
  }
  if (words.length > 0) lines.push(fitted(words.join(' '), font, size, width));
  return lines.length > 0 ? lines : [''];
}
