import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb } from 'pdf-lib';
import { printable, PT_PER_MM } from '../../labels/drawing.js';
import { shippedFile } from '../../runtime/shipped.js';

const A4 = { width: 210 * PT_PER_MM, height: 297 * PT_PER_MM };
const MARGIN = 15 * PT_PER_MM;
const LINE = 14;

/** The emulated courier's hand-over protocol (getProtocol): one A4 page per 50 packages, each line a package number. */
export async function renderCourierProtocol(courier: string, date: string, packages: { number: string; weight: number }[]): Promise<Buffer> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(shippedFile('DejaVuSans.ttf'), { subset: true });
  let page = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const line = (text: string) => {
    if (y < MARGIN) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    }
    page.drawText(printable(text), { x: MARGIN, y, size: 10, font, color: rgb(0, 0, 0) });
    y -= LINE;
  };
  line(`${courier} · Protokół przekazania przesyłek · ${date}`);
  packages.forEach((p, i) => line(`${i + 1}.  ${p.number}  ${p.weight.toFixed(2)} kg`));
  line(`Liczba paczek: ${packages.length}`);
  line('Podpis nadawcy ....................    Podpis kuriera ....................');
  return Buffer.from(await pdf.save({ objectsPerTick: Infinity }));
}
