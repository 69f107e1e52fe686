import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb } from 'pdf-lib';
import { printable, PT_PER_MM } from '../../labels/drawing.js';
import { shippedFile } from '../../runtime/shipped.js';
import type { AllegroEmulatedShipment } from './emulator-views.js';

const A4 = { width: 210 * PT_PER_MM, height: 297 * PT_PER_MM };
const MARGIN = 15 * PT_PER_MM;
const LINE = 14;

/** The emulated carrier's protocol ("Protokół nadania przesyłek"): one line per parcel with its waybill, and the signatures. */
export async function renderAllegroProtocol(shipments: readonly AllegroEmulatedShipment[], day: string): Promise<Buffer> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const regular = await pdf.embedFont(shippedFile('DejaVuSans.ttf'), { subset: true });
  let page = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const line = (text: string, size = 10) => {
    if (y < MARGIN + 20 * PT_PER_MM) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    }
    page.drawText(printable(text), { x: MARGIN, y, size, font: regular, color: rgb(0, 0, 0), maxWidth: A4.width - 2 * MARGIN });
    y -= LINE;
  };
  const carriers = [...new Set(shipments.map((s) => s.request.service.name))].join(', ');
  line(`Wysyłam z Allegro — Protokół nadania przesyłek · ${carriers}`, 13);
  line(`Data ${day}`);
  const parcels = shipments.flatMap((s) => s.parcels.map((p, i) => ({ waybill: p.number, weight: s.request.input.packages[i]!.weight.value })));
  parcels.forEach((p, i) => line(`${i + 1}.   ${p.waybill}   ${p.weight.toFixed(2)} kg`));
  line(`Liczba paczek: ${parcels.length}`);
  y -= 2 * LINE;
  line('Podpis nadawcy ....................            Podpis kuriera ....................');
  return Buffer.from(await pdf.save({ objectsPerTick: Infinity }));
}
