/**
 * The One by Allegro emulator's pickup protocol of a batch (`GET /batch/{number}/manifest.pdf`, "svozový protokol" in
 * nuty456/WeDoApi): an A4 PDF the driver signs, one row per parcel barcode. One publishes no sample of it; the layout
 * is the emulator's own, in One's Czech.
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { printable, PT_PER_MM } from '../../labels/drawing.js';
import { shippedFile } from '../../runtime/shipped.js';

export interface ManifestPackage {
  orderNumber: string;
  barcodes: string[];
  recipient: string;
  /** The whole package's kg: One knows no parcel's own weight. */
  weight: number;
  cashOnDelivery: { amount: number; currency: string } | null;
}

export interface EmulatedManifest {
  number: string;
  /** One's Czech times, `YYYY-MM-DD hh:mm:ss`. */
  created: string;
  transportDate: string;
  sender: string[];
  packages: ManifestPackage[];
}

const A4 = { width: 210 * PT_PER_MM, height: 297 * PT_PER_MM };
const MARGIN = 15 * PT_PER_MM;
const LINE = 14;

export async function renderManifest(manifest: EmulatedManifest): Promise<Buffer> {
  // No metadata update: the same batch renders to the same bytes.
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const regular = await pdf.embedFont(shippedFile('DejaVuSans.ttf'), { subset: true });
  const bold = await pdf.embedFont(shippedFile('DejaVuSans-Bold.ttf'), { subset: true });
  let page: PDFPage = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const line = (text: string, font: PDFFont = regular, size = 10) => {
    if (y < MARGIN + 30 * PT_PER_MM) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    }
    page.drawText(printable(text), { x: MARGIN, y, size, font, color: rgb(0, 0, 0), maxWidth: A4.width - 2 * MARGIN });
    y -= LINE;
  };
  line('One by Allegro (WE|DO) — Svozový protokol', bold, 14);
  line(`Dávka ${manifest.number} · vytvořena ${manifest.created} · svoz ${manifest.transportDate}`);
  y -= LINE / 2;
  line('Odesílatel', bold);
  for (const l of manifest.sender) line(l);
  y -= LINE / 2;
  line('Čárový kód balíku   Zásilka   Příjemce   Hmotnost (kg)   Dobírka', bold);
  let row = 0;
  for (const p of manifest.packages) {
    p.barcodes.forEach((barcode, i) => {
      const cod = p.cashOnDelivery ? `${p.cashOnDelivery.amount.toFixed(2)} ${p.cashOnDelivery.currency}` : '—';
      const totals = i === 0 ? `   ${p.weight.toFixed(2)}   ${cod}` : '';
      line(`${++row}.   ${barcode}   ${p.orderNumber}   ${p.recipient}${totals}`);
    });
  }
  y -= LINE / 2;
  const weight = manifest.packages.reduce((sum, p) => sum + p.weight, 0);
  const cod = new Map<string, number>();
  for (const p of manifest.packages) if (p.cashOnDelivery) cod.set(p.cashOnDelivery.currency, (cod.get(p.cashOnDelivery.currency) ?? 0) + p.cashOnDelivery.amount);
  const codTotal = [...cod].map(([currency, amount]) => `${amount.toFixed(2)} ${currency}`).join(', ') || '—';
  line(`Zásilek: ${manifest.packages.length} · Balíků: ${row} · Hmotnost: ${weight.toFixed(2)} kg · Dobírky: ${codTotal}`, bold);
  y -= 3 * LINE;
  line('....................................            ....................................');
  line('Podpis odesílatele                                          Podpis řidiče');
  return Buffer.from(await pdf.save({ objectsPerTick: Infinity }));
}
