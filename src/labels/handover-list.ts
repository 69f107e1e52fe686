import { shippedFile } from '../runtime/shipped.js';
import { drawCode128, printable, PT_PER_MM } from './drawing.js';

/** What packdesk's own hand-over list shows: whose parcels, to which carrier, and every parcel's number to scan. */
export interface HandoverList {
  dispatchId: string;
  carrier: string;
  channel: string;
  account: string;
  /** When the parcels were handed over, as the station reads it (e.g. `2026-11-26 16:30`). */
  at: string;
  pickup: string | null;
  shipments: {
    reference: string | null;
    recipient: string;
    city: string;
    parcels: { trackingNumber: string; weightKg: number }[];
    cod: { amount: string; currency: string } | null;
  }[];
}

const A4 = { width: 210 * PT_PER_MM, height: 297 * PT_PER_MM };
const MARGIN = 15 * PT_PER_MM;
const ROW = 17 * PT_PER_MM;

/**
 * An A4 list a courier signs: carrier, account and date, one row per parcel with its tracking number as a Code 128,
 * the totals (shipments, parcels, weight, COD by currency) and the signature lines.
 */
export async function renderHandoverList(list: HandoverList): Promise<Buffer> {
  const [{ PDFDocument, rgb }, { default: fontkit }] = await Promise.all([import('pdf-lib'), import('@pdf-lib/fontkit')]);
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const regular = await pdf.embedFont(shippedFile('DejaVuSans.ttf'), { subset: true });
  const bold = await pdf.embedFont(shippedFile('DejaVuSans-Bold.ttf'), { subset: true });
  const black = rgb(0, 0, 0);
  let page = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const text = (value: string, x: number, size: number, font = regular) =>
    page.drawText(printable(value), { x, y, size, font, color: black, maxWidth: A4.width - x - MARGIN });
  const heading = () => {
    text(`Handover list — ${list.carrier}`, MARGIN, 16, bold);
    y -= 20;
    text(`${list.account} · channel ${list.channel} · ${list.at} · ${list.dispatchId}${list.pickup ? ` · pickup ${list.pickup}` : ''}`, MARGIN, 9);
    y -= 18;
  };
  heading();
  const rows = list.shipments.flatMap((s) => s.parcels.map((p, i) => ({ s, p, first: i === 0 })));
  rows.forEach(({ s, p, first }, n) => {
    if (y - ROW < MARGIN + 40 * PT_PER_MM) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
      heading();
    }
    y -= ROW;
    drawCode128(page, p.trackingNumber, { bottom: y + 3 * PT_PER_MM, height: 11 * PT_PER_MM, maxWidth: 70 * PT_PER_MM, left: MARGIN + 8 * PT_PER_MM });
    const textY = y;
    y = textY + 11 * PT_PER_MM;
    text(`${n + 1}`, MARGIN, 9);
    text(p.trackingNumber, MARGIN + 85 * PT_PER_MM, 10, bold);
    y = textY + 6 * PT_PER_MM;
    text(`${p.weightKg} kg${first ? ` · ${s.reference ?? ''} · ${s.recipient}, ${s.city}${s.cod ? ` · COD ${s.cod.amount} ${s.cod.currency}` : ''}` : ''}`, MARGIN + 85 * PT_PER_MM, 8);
    y = textY;
  });
  const weight = rows.reduce((sum, r) => sum + r.p.weightKg, 0);
  const cod = new Map<string, number>();
  for (const s of list.shipments) if (s.cod) cod.set(s.cod.currency, (cod.get(s.cod.currency) ?? 0) + Number(s.cod.amount));
  y -= 12 * PT_PER_MM;
  text(`Shipments: ${list.shipments.length}   Parcels: ${rows.length}   Weight: ${Math.round(weight * 1000) / 1000} kg`, MARGIN, 11, bold);
  y -= 16;
  text(`Cash on delivery: ${cod.size === 0 ? 'none' : [...cod].map(([currency, amount]) => `${amount.toFixed(2)} ${currency}`).join(', ')}`, MARGIN, 11, bold);
  y -= 22 * PT_PER_MM;
  for (const [x, label] of [[MARGIN, 'Handed over by (name, signature)'], [A4.width / 2 + 5 * PT_PER_MM, 'Taken over by the courier (name, signature, time)']] as const) {
    page.drawLine({ start: { x, y: y + 12 }, end: { x: x + 80 * PT_PER_MM, y: y + 12 }, thickness: 0.7, color: black });
    text(label, x, 8);
  }
  return Buffer.from(await pdf.save({ objectsPerTick: Infinity }));
}
