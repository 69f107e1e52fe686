// Loaded into a daemon a benchmark starts (`node --expose-gc --import bench/memory-probe.mjs …`): on SIGUSR2 it collects
// all garbage and appends what stays (V8 heap in use, memory outside the heap, RSS) as one JSON line to the file named
// by BENCH_MEMORY_PROBE_FILE. What grows after a full collection is kept, not garbage not yet collected.
import { appendFileSync } from 'node:fs';

const file = process.env.BENCH_MEMORY_PROBE_FILE;
if (!file || typeof globalThis.gc !== 'function') throw new Error('memory-probe needs BENCH_MEMORY_PROBE_FILE and node --expose-gc');

const mb = (bytes) => +(bytes / 1024 / 1024).toFixed(1);
process.on('SIGUSR2', () => {
  globalThis.gc();
  const m = process.memoryUsage();
  appendFileSync(file, `${JSON.stringify({ heap_used_mb: mb(m.heapUsed), external_mb: mb(m.external), array_buffers_mb: mb(m.arrayBuffers), rss_mb: mb(m.rss) })}\n`);
});
