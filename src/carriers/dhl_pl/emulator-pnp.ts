import { renderTextDocument } from '../emulator/text-pdf.js';

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

/**
 * DHL24's PNP report (Potwierdzenie Nadania Przesyłek, getPnp.html) as the emulator renders it: an A4 list of the
 * day's shipments with each piece number, the totals and the sender's and courier's signature lines. DHL's own
 * layout is not published; the content is what a hand-over confirmation holds.
 */
export function renderPnp(report: PnpReport): Promise<Buffer> {
  const pieces = report.shipments.reduce((n, s) => n + s.pieces.length, 0);
  const weight = report.shipments.reduce((kg, s) => kg + s.weightKg, 0);
  const cod = report.shipments.reduce((sum, s) => sum + Number(s.cod ?? 0), 0);
  return renderTextDocument([
    { text: 'DHL Parcel Polska — Potwierdzenie Nadania Przesyłek (PNP)', bold: true, size: 14 },
    `Data nadania: ${report.date}   Rodzaj przesyłek: ${report.type}   Użytkownik: ${report.login}`,
    `Nadawca: ${report.shipper.join(', ')}`,
    { gap: 0.5 },
    ...report.shipments.flatMap((s, i) => [
      { text: `${i + 1}. List przewozowy ${s.waybill}   ${s.product}   paczek: ${s.pieces.length}   waga: ${s.weightKg} kg${s.cod ? `   pobranie ${s.cod} PLN` : ''}`, bold: true },
      { text: `Odbiorca: ${s.receiver}`, size: 9 },
      ...s.pieces.map((piece) => ({ text: `paczka ${piece}`, size: 9, indent: 20 })),
    ]),
    { gap: 0.5 },
    { text: `Razem: przesyłek ${report.shipments.length}, paczek ${pieces}, waga ${weight} kg, pobrania ${cod.toFixed(2)} PLN`, bold: true },
    { gap: 2 }, 'Podpis nadawcy: ..............................        Podpis kuriera: ..............................',
  ]);
}
