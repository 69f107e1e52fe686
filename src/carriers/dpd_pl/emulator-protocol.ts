import { renderTextDocument } from '../emulator/text-pdf.js';

/** What the emulated DPD hand-over protocol lists: who hands over, and each parcel's waybill for the courier to tick off. */
export interface EmulatedProtocol {
  documentId: string;
  /** The day it was made, Warsaw time (`YYYY-MM-DD`). */
  date: string;
  sender: string[];
  parcels: { waybill: string; packageId: string; weight: number; cod: string | null }[];
}

/**
 * The protocol as an A4 PDF in DPD Polska's words ("Protokół przekazania przesyłek"): number, date, sender, one line per
 * parcel, the count and total weight, and the lines the sender and the courier sign.
 */
export function renderProtocol(protocol: EmulatedProtocol): Promise<Buffer> {
  const weight = protocol.parcels.reduce((sum, p) => sum + p.weight, 0);
  return renderTextDocument([
    { text: 'DPD Polska — Protokół przekazania przesyłek', bold: true, size: 14 },
    `Nr protokołu ${protocol.documentId} · Data ${protocol.date}`,
    { gap: 0.5 }, { text: 'Nadawca', bold: true }, ...protocol.sender,
    { gap: 0.5 }, { text: 'Lp.   Numer listu przewozowego   Paczka   Waga (kg)   Pobranie', bold: true },
    ...protocol.parcels.map((p, i) => `${i + 1}.   ${p.waybill}   ${p.packageId}   ${p.weight.toFixed(2)}   ${p.cod ?? '—'}`),
    { gap: 0.5 }, { text: `Liczba paczek: ${protocol.parcels.length} · Waga łączna: ${weight.toFixed(2)} kg`, bold: true },
    { gap: 3 }, '....................................            ....................................',
    'Podpis nadawcy                                              Podpis kuriera DPD',
  ]);
}
