// Times merging the PDF labels of a 20-parcel shipment, the largest everyday merge on a packing station.
import { performance } from 'node:perf_hooks';
import bwipjs from 'bwip-js';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { mergeLabels } from '../dist/src/labels/index.js';
import { percentile } from './lib.mjs';

const PARCELS = 20;
const WARM_UP_RUNS = 5;
const RUNS = 50;
const TARGET_MS = 50;
const MM = 72 / 25.4;

/** A 10×15 cm label shaped like a carrier's: addresses, routing text, a Code128 and a DataMatrix. */
async function carrierLabel(parcelNumber) {
  const tracking = String(80050527937 + parcelNumber);
  const doc = await PDFDocument.create();
  const page = doc.addPage([100 * MM, 150 * MM]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const top = page.getHeight();
  page.drawText('PPL CZ  Parcel Connect', { x: 16, y: top - 34, size: 16, font: bold });
  page.drawText(`Parcel ${parcelNumber + 1}/${PARCELS}   Weight 2.40 kg   Ref ORD-2024-118${parcelNumber}`, { x: 16, y: top - 52, size: 8, font });
  page.drawText('From: Sklad Brno s.r.o., Hybesova 42, 602 00 Brno, CZ', { x: 16, y: top - 76, size: 8, font });
  page.drawText('To: Jana Novakova', { x: 16, y: top - 104, size: 12, font: bold });
  page.drawText('Vodickova 12, 110 00 Praha 1, CZ   +420 601 234 567', { x: 16, y: top - 120, size: 9, font });
  page.drawRectangle({ x: 16, y: top - 190, width: 120, height: 50, borderWidth: 1.5, borderColor: rgb(0, 0, 0) });
  page.drawText('CZ-110 D4', { x: 24, y: top - 172, size: 20, font: bold });
  const dataMatrix = await doc.embedPng(await bwipjs.toBuffer({ bcid: 'datamatrix', text: `${tracking}|CZ|11000|2.40`, scale: 4 }));
  page.drawImage(dataMatrix, { x: 180, y: top - 200, width: 80, height: 80 });
  const code128 = await doc.embedPng(await bwipjs.toBuffer({ bcid: 'code128', text: tracking, scale: 3, height: 22, includetext: true }));
  const width = 70 * MM;
  page.drawImage(code128, { x: (page.getWidth() - width) / 2, y: 40, width, height: (width * code128.height) / code128.width });
  return doc.save();
}

const parts = await Promise.all(Array.from({ length: PARCELS }, (_, i) => carrierLabel(i)));
for (let run = 0; run < WARM_UP_RUNS; run++) await mergeLabels('pdf', parts);
const timesMs = [];
for (let run = 0; run < RUNS; run++) {
  const start = performance.now();
  const merged = await mergeLabels('pdf', parts);
  timesMs.push(performance.now() - start);
  if (merged.pages !== PARCELS) throw new Error(`merged ${merged.pages} pages, expected ${PARCELS}`);
}
timesMs.sort((a, b) => a - b);
const round = (ms) => Math.round(ms * 100) / 100;
console.log(JSON.stringify({
  bench: 'label-merge-pdf',
  parcels: PARCELS,
  runs: RUNS,
  p50_ms: round(percentile(timesMs, 0.5)),
  p99_ms: round(percentile(timesMs, 0.99)),
  max_ms: round(timesMs[timesMs.length - 1]),
  target_ms: TARGET_MS,
}));
