// `npm run bench`: every benchmark in one run, each printing JSON lines with its figures and targets.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = (f) => fileURLToPath(new URL(f, import.meta.url));
for (const script of ['label-merge.mjs', 'label-convert.mjs', 'shipments.mjs', 'tracking.mjs', 'printing.mjs', 'webhooks.mjs', 'import.mjs', 'stations.mjs', 'carrier-latency.mjs', 'scan-to-label.mjs']) {
  process.stderr.write(`# ${script}\n`);
  execFileSync(process.execPath, [here(script)], { stdio: 'inherit' });
}
