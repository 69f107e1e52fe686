/**
 * The One by Allegro emulator's pickup protocol of a batch (`GET /batch/{number}/manifest.pdf`, "svozový protokol" in
 * nuty456/WeDoApi): an A4 PDF the driver signs, one row per parcel barcode. One publishes no sample of it; the layout
 * is the emulator's own, in One's Czech.
 */
import { renderTextDocument } from '../emulator/text-pdf.js';

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

export function renderManifest(manifest: EmulatedManifest): Promise<Buffer> {
  const rows = manifest.packages.flatMap((p) => p.barcodes.map((barcode, i) => ({ p, barcode, first: i === 0 })));
  const cod = new Map<string, number>();
  for (const p of manifest.packages) if (p.cashOnDelivery) cod.set(p.cashOnDelivery.currency, (cod.get(p.cashOnDelivery.currency) ?? 0) + p.cashOnDelivery.amount);
  const codTotal = [...cod].map(([currency, amount]) => `${amount.toFixed(2)} ${currency}`).join(', ') || '—';
  const weight = manifest.packages.reduce((sum, p) => sum + p.weight, 0);
  return renderTextDocument([
    { text: 'One by Allegro (WE|DO) — Svozový protokol', bold: true, size: 14 },
    `Dávka ${manifest.number} · vytvořena ${manifest.created} · svoz ${manifest.transportDate}`,
    { gap: 0.5 }, { text: 'Odesílatel', bold: true }, ...manifest.sender,
    { gap: 0.5 }, { text: 'Čárový kód balíku   Zásilka   Příjemce   Hmotnost (kg)   Dobírka', bold: true },
    ...rows.map(({ p, barcode, first }, i) => {
      const paid = p.cashOnDelivery ? `${p.cashOnDelivery.amount.toFixed(2)} ${p.cashOnDelivery.currency}` : '—';
      return `${i + 1}.   ${barcode}   ${p.orderNumber}   ${p.recipient}${first ? `   ${p.weight.toFixed(2)}   ${paid}` : ''}`;
    }),
    { gap: 0.5 },
    { text: `Zásilek: ${manifest.packages.length} · Balíků: ${rows.length} · Hmotnost: ${weight.toFixed(2)} kg · Dobírky: ${codTotal}`, bold: true },
    { gap: 3 }, '....................................            ....................................',
    'Podpis odesílatele                                          Podpis řidiče',
  ]);
}
