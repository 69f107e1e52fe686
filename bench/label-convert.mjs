// Times converting one 10×15 cm carrier PDF label to ZPL (^GF Z64) and to EPL (GW) at 203 dpi, in the conversion
// thread as the daemon does it, and watches the station's memory over 1,000 conversions.
import { performance } from 'node:perf_hooks';
import { renderLabel } from '../dist/src/carriers/emulator/labels.js';
import { convertLabel } from '../dist/src/labels/convert.js';
import { convertLabelOffThread, stopLabelConversions } from '../dist/src/labels/index.js';
import { log, percentile, print, rssMb } from './lib.mjs';

const RUNS = 300;
const MEMORY_RUNS = 1000;
const TARGET_P50_MS = 60;

/** An emulated carrier's label: DejaVu text with Czech letters, rules, a COD box and a vector Code 128. */
const pdf = await renderLabel('pdf', {
  carrier: 'PPL', trackingNumber: '40990012345', parcelIndex: 1, parcelCount: 2, reference: 'ORD-2026-1183', product: 'PPL Parcel CZ Private',
  sender: ['Sklad Brno s.r.o.', 'Hybešova 42', '602 00 Brno', 'CZ'], recipient: ['Jana Nováková', 'Vodičkova 12', '110 00 Praha 1', 'CZ', '+420 601 234 567'],
  cod: { amount: '1249.50', currency: 'CZK' },
});

const round = (ms) => Math.round(ms * 100) / 100;

async function timeRuns(label, convert) {
  for (let i = 0; i < 10; i++) await convert();
  const times = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    bytes = (await convert()).length;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  print({ bench: label, runs: RUNS, output_bytes: bytes, p50_ms: round(percentile(times, 0.5)), p99_ms: round(percentile(times, 0.99)), max_ms: round(times.at(-1)), target_p50_ms: TARGET_P50_MS });
}

for (const to of ['zpl', 'epl']) {
  log(`pdf → ${to}`);
  await timeRuns(`label-convert-pdf-${to}-thread`, () => convertLabelOffThread('pdf', to, pdf, 203));
  await timeRuns(`label-convert-pdf-${to}-inline`, () => convertLabel('pdf', to, pdf, 203));
}

log(`memory over ${MEMORY_RUNS} conversions`);
const samples = {};
for (let i = 1; i <= MEMORY_RUNS; i++) {
  await convertLabelOffThread('pdf', i % 2 ? 'zpl' : 'epl', pdf, 203);
  if (i === 100 || i === 500 || i === MEMORY_RUNS) samples[`rss_mb_after_${i}`] = rssMb(process.pid);
}
print({ bench: 'label-convert-memory', conversions: MEMORY_RUNS, ...samples, growth_100_to_1000_mb: samples[`rss_mb_after_${MEMORY_RUNS}`] - samples.rss_mb_after_100 });
await stopLabelConversions();
