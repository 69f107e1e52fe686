/**
 * The ADE emulator's hand-over receipt (adePickup_GetReceipt, "potwierdzenie nadania"): an A4 PDF the courier signs,
 * one row per parcel of the pickup. `with_barcodes` prints each parcel number as a Code 128 too; the condensed modes
 * print the numbers only (the modes as github.com/dbojdo/gls-ade src/Model/PickupReceiptModes.php lists them).
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import { drawCode128, printable, PT_PER_MM } from '../../labels/drawing.js';
import { shippedFile } from '../../runtime/shipped.js';

export const RECEIPT_MODES = ['with_barcodes', 'condensed', 'condensed_description_of_pickup'] as const;
export type ReceiptMode = (typeof RECEIPT_MODES)[number];

export interface ReceiptParcel {
  number: string;
  consignId: string;
  recipient: string;
  place: string;
  weightKg: number;
  /** PLN collected on delivery, on the consignment's first parcel only. */
  cod: number | null;
}

export interface EmulatedReceipt {
  pickupId: string;
  account: string;
  /** `YYYY-MM-DD hh:mm:ss`, Warsaw time, as adePickup_Get answers it. */
  datetime: string;
  desc: string;
  parcels: ReceiptParcel[];
}

const A4 = { width: 210 * PT_PER_MM, height: 297 * PT_PER_MM };
const MARGIN = 15 * PT_PER_MM;
const BLACK = rgb(0, 0, 0);

export async function renderReceipt(receipt: EmulatedReceipt, mode: ReceiptMode): Promise<Buffer> {
  // No metadata update: the same receipt renders to the same bytes.
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const regular = await pdf.embedFont(shippedFile('DejaVuSans.ttf'), { subset: true });
  const bold = await pdf.embedFont(shippedFile('DejaVuSans-Bold.ttf'), { subset: true });
  const rowHeight = (mode === 'with_barcodes' ? 16 : 6) * PT_PER_MM;
  let page: PDFPage = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const write = (text: string, x: number, size: number, font = regular) =>
    page.drawText(printable(text), { x, y, size, font, color: BLACK, maxWidth: A4.width - x - MARGIN });

  write(`GLS Poland — potwierdzenie nadania nr ${receipt.pickupId}`, MARGIN, 15, bold);
  y -= 18;
  write(`Klient ADE: ${receipt.account}    Data: ${receipt.datetime}`, MARGIN, 10);
  if (mode !== 'condensed' && receipt.desc) {
    y -= 14;
    write(`Opis: ${receipt.desc}`, MARGIN, 10);
  }
  y -= 20;
  for (const p of receipt.parcels) {
    if (y - rowHeight < MARGIN + 40 * PT_PER_MM) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    }
    write(p.number, MARGIN, 10, bold);
    const cod = p.cod !== null ? `   pobranie ${p.cod.toFixed(2)} PLN` : '';
    write(`przesyłka ${p.consignId}   ${p.recipient}, ${p.place}   ${p.weightKg} kg${cod}`, MARGIN + 32 * PT_PER_MM, 9);
    if (mode === 'with_barcodes') drawCode128(page, p.number, { bottom: y - 12 * PT_PER_MM, height: 10 * PT_PER_MM, maxWidth: 60 * PT_PER_MM, left: MARGIN });
    y -= rowHeight;
  }
  const weight = receipt.parcels.reduce((sum, p) => sum + p.weightKg, 0);
  const cod = receipt.parcels.reduce((sum, p) => sum + (p.cod ?? 0), 0);
  y -= 6;
  write(`Paczek: ${receipt.parcels.length}   Waga: ${weight.toFixed(2)} kg   Pobrania: ${cod.toFixed(2)} PLN`, MARGIN, 11, bold);
  y -= 30 * PT_PER_MM;
  write('Podpis nadawcy ....................................', MARGIN, 10);
  write('Podpis kuriera ....................................', A4.width / 2, 10);
  return Buffer.from(await pdf.save({ objectsPerTick: Infinity }));
}
