import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { printable, PT_PER_MM } from '../../labels/drawing.js';
import { shippedFile } from '../../runtime/shipped.js';

/** One shipment on the emulated PNP report: its waybill, its pieces' numbers and what the courier checks. */
export interface PnpShipment {
  waybill: string;
  product: string;
  pieces: readonly string[];
  weightKg: number;
  receiver: string;
  cod: string | null;
}

export interface PnpReport {
  date: string;
  type: string;
  login: string;
  shipper: readonly string[];
  shipments: readonly PnpShipment[];
}

const A4 = { width: 210 * PT_PER_MM, height: 297 * PT_PER_MM };
const MARGIN = 15 * PT_PER_MM;
const LINE = 13;
const BLACK = rgb(0, 0, 0);

/**
 * DHL24's PNP report (Potwierdzenie Nadania Przesyłek, getPnp.html) as the emulator renders it: an A4 list of the
 * day's shipments with each piece number, the totals and the sender's and courier's signature lines. DHL's own
 * layout is not published; the content is what a hand-over confirmation holds.
 */
export async function renderPnp(report: PnpReport): Promise<Buffer> {
  // No metadata update: the same report renders to the same bytes.
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(shippedFile('DejaVuSans.ttf'), { subset: true });
  const bold = await pdf.embedFont(shippedFile('DejaVuSans-Bold.ttf'), { subset: true });
  let page: PDFPage = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const write = (text: string, size = 10, face: PDFFont = font, x = MARGIN) => {
    if (y < MARGIN + 3 * LINE) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    }
    page.drawText(printable(text), { x, y, size, font: face, color: BLACK });
    y -= size + 4;
  };

  write('DHL Parcel Polska — Potwierdzenie Nadania Przesyłek (PNP)', 14, bold);
  write(`Data nadania: ${report.date}   Rodzaj przesyłek: ${report.type}   Użytkownik: ${report.login}`);
  write(`Nadawca: ${report.shipper.join(', ')}`);
  y -= LINE / 2;
  report.shipments.forEach((s, i) => {
    const cod = s.cod ? `   pobranie ${s.cod} PLN` : '';
    write(`${i + 1}. List przewozowy ${s.waybill}   ${s.product}   paczek: ${s.pieces.length}   waga: ${s.weightKg} kg${cod}`, 10, bold);
    write(`Odbiorca: ${s.receiver}`, 9);
    for (const piece of s.pieces) write(`paczka ${piece}`, 9, font, MARGIN + 20);
  });
  y -= LINE / 2;
  const pieces = report.shipments.reduce((n, s) => n + s.pieces.length, 0);
  const weight = report.shipments.reduce((kg, s) => kg + s.weightKg, 0);
  const cod = report.shipments.reduce((sum, s) => sum + Number(s.cod ?? 0), 0);
  write(`Razem: przesyłek ${report.shipments.length}, paczek ${pieces}, waga ${weight} kg, pobrania ${cod.toFixed(2)} PLN`, 10, bold);
  y -= 2 * LINE;
  write('Podpis nadawcy: ..............................        Podpis kuriera: ..............................');
  return Buffer.from(await pdf.save({ objectsPerTick: Infinity }));
}
