// Watched-folder import: a 10,000-order ERP file (Windows-1250, ";", decimal commas) dropped into a watched folder of a
// daemon process, through the zero-latency PPL emulator, each ZPL label printed on a raw socket listener that answers
// Zebra's ~HS. Figures: orders/s from the drop until the import finished (every shipment created at the carrier, its
// label stored, the result file written) and until every label was printed; the daemon's peak RSS.
// Needs `npm run build`. Prints one JSON line per figure.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import pino from 'pino';
import { dist, log, print, root } from './lib.mjs';

const { openContext, closeContext } = await import(dist('src/services/open.js'));
const { createAccount, createApiKey } = await import(dist('src/services/accounts.js'));
const { startEmulators } = await import(dist('src/carriers/emulator/server.js'));

const ORDERS = Number(process.env.BENCH_IMPORT_ORDERS ?? 10_000);
/** BENCH_IMPORT_PRINT=0: labels are stored only, not printed. */
const PRINT = process.env.BENCH_IMPORT_PRINT !== '0';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// a Zebra stand-in: counts labels and answers each ~HS with a ready host status (as bench/printing.mjs)
const HOST_STATUS = '\x02030,0,0,1218,000,0,0,0,000,0,0,0\x03\r\n\x02001,0,0,0,0,2,6,0,00000000,1,000\x03\r\n\x021234,0\x03\r\n';
let printedLabels = 0;
const zebra = createServer((socket) => {
  socket.setEncoding('latin1');
  socket.on('data', (text) => {
    printedLabels += (text.match(/\^XZ/g) ?? []).length;
    for (let i = text.indexOf('~HS'); i !== -1; i = text.indexOf('~HS', i + 3)) socket.write(HOST_STATUS);
  });
  socket.on('error', () => undefined);
});
await new Promise((resolve) => zebra.listen(0, '127.0.0.1', resolve));

const work = mkdtempSync(join(tmpdir(), 'packdesk-bench-import-'));
const dataDir = join(work, 'data');
const folderPath = join(work, 'erp-drop');
const emulators = await startEmulators({ providers: ['ppl'], port: 0 });
const ctx = openContext({ dataDir, log: pino({ level: 'silent' }) });
const account = await createAccount(ctx, { name: 'bench', plan: 'enterprise' });
const { apiKey } = await createApiKey(ctx, { accountId: account.id });
await closeContext(ctx);

const daemon = spawn(process.execPath, [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []), dist('bin/packdesk.js'), 'daemon', '--data-dir', dataDir, '--port', '0', '--files-root', tmpdir()], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let buffer = '';
  let started = false;
  daemon.stdout.on('data', (chunk) => {
    if (started) return; // keep draining the log, keep none of it
    buffer += chunk;
    for (const line of buffer.split('\n')) {
      try {
        const parsed = JSON.parse(line);
        if (parsed.msg === 'listening') {
          started = true;
          resolve(parsed.url);
        }
      } catch { /* not a complete line */ }
    }
  });
  daemon.once('exit', (code) => reject(new Error(`the daemon exited with ${code}`)));
});
const api = async (method, path, body) => {
  const res = await fetch(url + path, { method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
};
const peakRssMb = () => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${daemon.pid}/status`, 'utf8'))[1]) / 1024);

const channel = (await api('POST', '/v1/shipping-channels', { name: 'PPL', provider: 'ppl', settings: { clientId: 'b', clientSecret: 's', baseUrl: emulators.urls.ppl } })).data;
const printer = (await api('POST', '/v1/printers', { name: 'Zebra', uri: `tcp://127.0.0.1:${zebra.address().port}`, formats: ['zpl'] })).data;
const folder = (await api('POST', '/v1/watched-folders', { path: folderPath, shipping_channel_id: channel.id, label_format: 'zpl', ...(PRINT ? { printer_id: printer.id } : {}) })).data;

const header = [
  'reference_number', 'recipient_contact_first_name', 'recipient_contact_last_name', 'recipient_contact_email_address', 'recipient_contact_phone_number',
  'destination_address_street_name', 'destination_address_house_number', 'destination_address_city_name', 'destination_address_postal_code',
  'destination_address_country_code', 'parcel_weight_amount', 'parcel_length_dimension', 'parcel_width_dimension', 'parcel_height_dimension',
  'sender_contact_company_name', 'sender_contact_email_address', 'sender_contact_phone_number', 'origin_address_street_name',
  'origin_address_house_number', 'origin_address_city_name', 'origin_address_postal_code', 'origin_address_country_code',
];
const lines = [header.join(';')];
for (let i = 1; i <= ORDERS; i++) {
  lines.push([`ERP-${String(i).padStart(6, '0')}`, 'Řehoř', 'Šťastný', `zakaznik${i}@example.cz`, '+420602333444', 'Údolní', String(1 + (i % 90)), 'Brno', '60200', 'CZ',
    `${1 + (i % 9)},${i % 10}`, '30', '20', '10', 'Sklad Praha s.r.o.', 'sklad@example.cz', '+420601111222', 'Skladová', '12', 'Praha', '11000', 'CZ'].join(';'));
}
const bytes = iconv.encode(lines.join('\r\n') + '\r\n', 'windows-1250');
log(`dropping ${ORDERS} orders (${(bytes.length / 1e6).toFixed(1)} MB) into ${folder.folders.in}`);
mkdirSync(folderPath, { recursive: true });
writeFileSync(join(folderPath, '.orders.part'), bytes);
const started = Date.now();
renameSync(join(folderPath, '.orders.part'), join(folder.folders.in, 'orders.csv'));

let done;
while (!done) {
  await sleep(100);
  const [latest] = (await api('GET', `/v1/imports?watched_folder_id=${folder.id}`)).data;
  if (latest && latest.status !== 'processing') done = latest;
}
const importSeconds = (Date.now() - started) / 1000;
if (done.status !== 'done' || done.shipments_created !== ORDERS) throw new Error(`import ended ${JSON.stringify(done)}`);
const result = readFileSync(done.result_path, 'latin1').split('\r\n').filter(Boolean).slice(1);
const created = result.filter((l) => /;created;\d{11};$/.test(l)).length;
if (created !== ORDERS) throw new Error(`${created} of ${ORDERS} result lines say created with a tracking number`);
while (PRINT && printedLabels < ORDERS && Date.now() - started < 600_000) await sleep(50);
const printSeconds = (Date.now() - started) / 1000;
if (PRINT && printedLabels < ORDERS) throw new Error(`${printedLabels} of ${ORDERS} labels printed`);

print({ bench: 'folder-import', orders: ORDERS, file_mb: +(bytes.length / 1e6).toFixed(1), seconds: +importSeconds.toFixed(2), orders_per_second: Math.round(ORDERS / importSeconds), target_per_second: 150, note: 'drop → every shipment created at the carrier with its label stored and the result file written' });
if (PRINT) print({ bench: 'folder-import-printed', orders: ORDERS, seconds: +printSeconds.toFixed(2), orders_per_second: Math.round(ORDERS / printSeconds), note: 'drop → every label printed on one raw ZPL socket (a real Zebra prints a few labels a second)' });
print({ bench: 'folder-import-daemon-peak-rss', orders: ORDERS, peak_rss_mb: peakRssMb(), target_mb: 300 });

daemon.kill('SIGTERM');
await new Promise((r) => daemon.once('exit', r));
await emulators.close();
zebra.close();
rmSync(work, { recursive: true, force: true });
