// Print-queue throughput: 1,000 ZPL jobs queued, then printed through the durable queue to a raw listener on loopback
// that answers Zebra's ~HS like a printer (each job: status query, label, acknowledging query, all recorded in SQLite).
// Needs `npm run build`. Prints one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { dist, print, root } from './lib.mjs';

const { openContext, closeContext } = await import(dist('src/services/open.js'));
const { createAccount } = await import(dist('src/services/accounts.js'));
const { createPrinter } = await import(dist('src/services/printing/printers.js'));
const { queuePrintJob } = await import(dist('src/services/printing/print-jobs.js'));
const { PrintQueueWorker } = await import(dist('daemon/workers/print-queue.js'));

const JOBS = Number(process.env.BENCH_PRINT_JOBS ?? 1000);

// a Zebra stand-in: counts label bytes and answers each ~HS with a ready host status
const HOST_STATUS = '\x02030,0,0,1218,000,0,0,0,000,0,0,0\x03\r\n\x02001,0,0,0,0,2,6,0,00000000,1,000\x03\r\n\x021234,0\x03\r\n';
let labels = 0;
const listener = createServer((socket) => {
  socket.setEncoding('latin1');
  socket.on('data', (text) => {
    labels += (text.match(/\^XZ/g) ?? []).length;
    for (let i = text.indexOf('~HS'); i !== -1; i = text.indexOf('~HS', i + 3)) socket.write(HOST_STATUS);
  });
  socket.on('error', () => undefined);
});
await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
const uri = `tcp://127.0.0.1:${listener.address().port}`;

const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-bench-print-'));
const ctx = openContext({ dataDir, log: pino({ level: 'silent' }) });
const account = await createAccount(ctx, { name: 'bench', plan: 'enterprise' });
const printer = await createPrinter(ctx, account.id, { name: 'Zebra', uri, formats: ['zpl'] });
await ctx.store.transaction(async () => {
  for (let i = 0; i < JOBS; i++) {
    const zpl = `^XA^CI28^PW812^LL1218^FO40,40^A0N,60,60^FDBENCH ${i}^FS^BY3,3,200^FO80,400^BCN,200,Y,N,N^FD>:BENCH${String(i).padStart(6, '0')}^FS^XZ\n`;
    await queuePrintJob(ctx, { accountId: account.id, printerId: printer.id, format: 'zpl', copies: 1, content: Buffer.from(zpl) });
  }
});

const worker = new PrintQueueWorker(ctx);
const started = process.hrtime.bigint();
await worker.runDue();
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const { n: printed } = await ctx.store.get("SELECT count(*) AS n FROM print_jobs WHERE status = 'printed'");
if (printed !== JOBS || labels !== JOBS) throw new Error(`printed ${printed} jobs, the listener got ${labels} labels; expected ${JOBS}`);
print({ bench: 'print-queue-raw-zpl', jobs: JOBS, printer: 'loopback raw socket answering ~HS', seconds: +seconds.toFixed(2), per_second: Math.round(JOBS / seconds), target_per_second: 200 });

await closeContext(ctx);
listener.close();
rmSync(dataDir, { recursive: true, force: true });
