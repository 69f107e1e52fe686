import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { printable, PT_PER_MM } from '../../labels/drawing.js';
import { shippedFile } from '../../runtime/shipped.js';

/** What the emulated DPD hand-over protocol lists: who hands over, and each parcel's waybill for the courier to tick off. */
export interface EmulatedProtocol {
  documentId: string;
  /** The day it was made, Warsaw time (`YYYY-MM-DD`). */
  date: string;
  sender: string[];
  parcels: { waybill: string; packageId: string; weight: number; cod: string | null }[];
}

const A4 = { width: 210 * PT_PER_MM, height: 297 * PT_PER_MM };
const MARGIN = 15 * PT_PER_MM;
const LINE = 14;

/**
 * The protocol as an A4 PDF in DPD Polska's words ("Protokół przekazania przesyłek"): number, date, sender, one line per
 * parcel, the count and total weight, and the lines the sender and the courier sign.
 */
export async function renderProtocol(protocol: EmulatedProtocol): Promise<Buffer> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const regular = await pdf.embedFont(shippedFile('DejaVuSans.ttf'), { subset: true });
  const bold = await pdf.embedFont(shippedFile('DejaVuSans-Bold.ttf'), { subset: true });
  let page: PDFPage = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const line = (text: string, x = MARGIN, font: PDFFont = regular, size = 10) => {
    if (y < MARGIN + 30 * PT_PER_MM) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    }
    page.drawText(printable(text), { x, y, size, font, color: rgb(0, 0, 0), maxWidth: A4.width - x - MARGIN });
    y -= LINE;
  };
  line('DPD Polska — Protokół przekazania przesyłek', MARGIN, bold, 14);
  line(`Nr protokołu ${protocol.documentId} · Data ${protocol.date}`);
  y -= LINE / 2;
  line('Nadawca', MARGIN, bold);
  for (const l of protocol.sender) line(l);
  y -= LINE / 2;
  line('Lp.   Numer listu przewozowego   Paczka   Waga (kg)   Pobranie', MARGIN, bold);
  protocol.parcels.forEach((p, i) => line(`${i + 1}.   ${p.waybill}   ${p.packageId}   ${p.weight.toFixed(2)}   ${p.cod ?? '—'}`));
  y -= LINE / 2;
  const weight = protocol.parcels.reduce((sum, p) => sum + p.weight, 0);
  line(`Liczba paczek: ${protocol.parcels.length} · Waga łączna: ${weight.toFixed(2)} kg`, MARGIN, bold);
  y -= 3 * LINE;
  line('....................................            ....................................');
  line('Podpis nadawcy                                              Podpis kuriera DPD');
  return Buffer.from(await pdf.save({ objectsPerTick: Infinity }));
}
