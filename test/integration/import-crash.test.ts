import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { DB_FILE } from '../../src/store/db.js';
import { csvText, filesIn, orderRow, readCsvFile, type ImportRecord } from '../helpers/order-files.js';
import { runCliJsonInProcess } from '../helpers/cli.js';
import { spawnDaemon, type DaemonProcess, processApi } from '../helpers/processes.js';
import { pplEmulatorControl } from '../helpers/shipments.js';

const ORDERS = 200;

/** kill -9 while a 200-order file is being imported, then a restart: every order is exactly one shipment, and the progress survives. */
describe('a daemon killed mid-file', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'packdesk-import-crash-'));
  const dataDir = join(tmp, 'data');
  // beside the data directory: the daemon never watches a folder inside it
  const folderPath = join(tmp, 'erp-drop');
  const env = { XDG_CONFIG_HOME: join(tmp, 'cfg') };
  let emu: RunningEmulators;
  let daemon: DaemonProcess;
  let key: string;

  const api = processApi(() => daemon.url, () => key);
  const { fault, shipments: emulated } = pplEmulatorControl(() => emu.url);
  const imports = async (folderId: string) => (await api(`/v1/imports?watched_folder_id=${folderId}&per_page=100`)).body.data as ImportRecord[];
  const allShipments = async () => {
    const found: { id: string; reference_number: string; status: string }[] = [];
    for (let page = 1; ; page++) {
      const res = await api(`/v1/shipments?per_page=100&page=${page}`);
      found.push(...res.body.data);
      if (page >= res.body.meta.last_page) return found;
    }
  };
  const dropFile = (name: string, content: string) => {
    // written beside and renamed in, as an ERP should; the slow-writer case has its own test
    writeFileSync(join(folderPath, `.${name}.part`), content);
    renameSync(join(folderPath, `.${name}.part`), join(folderPath, 'in', name));
  };

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    key = (await runCliJsonInProcess<{ api_key: string }>(['init', '--data-dir', dataDir, '--yes', '--json'], { ...process.env, ...env })).api_key;
    daemon = await spawnDaemon(dataDir, env);
  });
  afterAll(async () => {
    await daemon?.stop('SIGKILL');
    await emu?.close();
  });

  it('finishes the file after kill -9 and a restart: each order one shipment, the file in done/; a re-drop creates nothing', { timeout: 120_000 }, async () => {
    const channel = await api('/v1/shipping-channels', 'POST', {
      name: 'PPL', provider: 'ppl', settings: { clientId: 'c', clientSecret: 'crash-secret', baseUrl: emu.urls.ppl },
    });
    expect(channel.body.data.status).toBe('active');
    const folder = await api('/v1/watched-folders', 'POST', { path: folderPath, shipping_channel_id: channel.body.data.id, label_format: 'pdf' });
    expect(folder.status).toBe(201);
    const folderId = folder.body.data.id as string;
    await fault({ mode: 'latency', ms: 300 }); // every carrier call is slow, so the kill lands while the file is read
    const references = Array.from({ length: ORDERS }, (_, i) => `CRASH-${String(i + 1).padStart(3, '0')}`);
    const content = csvText(references.map((r, i) => orderRow(r, { parcel_weight_amount: 1 + (i % 5) })), { delimiter: ';', decimalComma: true });
    dropFile('big-order-file.csv', content);

    // kill once some orders are shipments past their carrier step and others not yet stored
    const deadline = Date.now() + 60_000;
    let stored = 0;
    let processed = 0;
    while (Date.now() < deadline) {
      stored = (await api('/v1/shipments?per_page=1')).body.meta.total;
      processed = (await imports(folderId))[0]?.rows_processed ?? 0;
      if (stored >= 20 && processed > 0) break;
      await sleep(50);
    }
    expect(await daemon.stop('SIGKILL')).toBeNull();
    expect(processed).toBeGreaterThan(0);
    expect(stored, "the kill came before every order was stored").toBeLessThan(ORDERS);
    expect(filesIn(join(folderPath, 'processing'))).toEqual(['big-order-file.csv']);
    expect(filesIn(join(folderPath, 'done'))).toEqual([]);
    // the progress is in the store, not only in the memory of the process that died
    const store = new Database(join(dataDir, DB_FILE));
    const kept = store.prepare('SELECT rows_processed AS rowsProcessed, status FROM imports').all() as { rowsProcessed: number; status: string }[];
    store.close();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ status: 'processing' });
    expect(kept[0]!.rowsProcessed).toBeGreaterThan(0);
    expect(kept[0]!.rowsProcessed).toBeLessThan(ORDERS);

    await fault({ mode: 'none' });
    daemon = await spawnDaemon(dataDir, env);
    const before = await imports(folderId);
    expect(before).toHaveLength(1);
    expect(before[0]!.rows_processed, 'the restarted daemon shows how far the import got').toBeGreaterThanOrEqual(kept[0]!.rowsProcessed);
    let finished: ImportRecord | undefined;
    while (Date.now() < deadline + 30_000) {
      finished = (await imports(folderId)).find((i) => i.status !== 'processing');
      if (finished) break;
      await sleep(200);
    }
    expect(finished, 'the import finished after the restart').toBeDefined();
    expect(finished).toMatchObject({
      id: before[0]!.id, status: 'done', rows: ORDERS, rows_processed: ORDERS, shipments_created: ORDERS, failed_rows: 0, orders_already_imported: 0,
    });
    expect(await imports(folderId)).toHaveLength(1);
    expect(filesIn(join(folderPath, 'processing'))).toEqual([]);
    expect(filesIn(join(folderPath, 'done'))).toEqual(['big-order-file.csv']);

    const shipments = await allShipments();
    expect(shipments.map((s) => s.reference_number).sort()).toEqual(references);
    const atCarrier = (await emulated()) as { referenceId: string; state: string }[];
    for (const s of shipments) expect(atCarrier.filter((c) => c.referenceId === s.id && c.state !== 'Canceled'), `${s.reference_number} at the carrier`).toHaveLength(1);
    const results = readCsvFile(finished!.result_path!);
    expect(results.map((r) => r.reference_number)).toEqual(references);
    expect(results.every((r) => r.status === 'created' && /^\d{11}$/.test(r.tracking_numbers))).toBe(true);
    expect(new Set(results.map((r) => r.shipment_id)).size).toBe(ORDERS);

    // the same file again: nothing new, and the result file says so
    dropFile('big-order-file.csv', content);
    let again: ImportRecord | undefined;
    while (Date.now() < deadline + 60_000) {
      again = (await imports(folderId)).find((i) => i.id !== finished!.id && i.status !== 'processing');
      if (again) break;
      await sleep(200);
    }
    expect(again).toMatchObject({ status: 'done', shipments_created: 0, orders_already_imported: ORDERS, sha256: finished!.sha256 });
    const repeated = readCsvFile(again!.result_path!);
    expect(repeated.every((r) => r.status === 'already_imported' && r.error.includes('already imported'))).toBe(true);
    expect(repeated.map((r) => r.shipment_id)).toEqual(results.map((r) => r.shipment_id));
    expect((await api('/v1/shipments?per_page=1')).body.meta.total).toBe(ORDERS);
    expect(filesIn(join(folderPath, 'done'))).toEqual(['big-order-file-1.csv', 'big-order-file.csv']);
  });

  it('stops at SIGTERM mid-file (exit 0, the file left in processing/) and finishes it at the next start', { timeout: 120_000 }, async () => {
    const folderId = ((await api('/v1/watched-folders')).body.data as { id: string }[])[0]!.id;
    const before = (await api('/v1/shipments?per_page=1')).body.meta.total as number;
    await fault({ mode: 'latency', ms: 300 });
    const references = Array.from({ length: 120 }, (_, i) => `DRAIN-${String(i + 1).padStart(3, '0')}`);
    dropFile('drain.csv', csvText(references.map((r) => orderRow(r))));
    const deadline = Date.now() + 60_000;
    while ((await api('/v1/shipments?per_page=1')).body.meta.total === before && Date.now() < deadline) await sleep(50);
    expect(await daemon.stop('SIGTERM')).toBe(0);
    expect(filesIn(join(folderPath, 'processing'))).toEqual(['drain.csv']); // stopped midway, not finished

    await fault({ mode: 'none' });
    daemon = await spawnDaemon(dataDir, env);
    let finished: ImportRecord | undefined;
    while (!finished && Date.now() < deadline + 30_000) {
      finished = (await imports(folderId)).find((i) => i.file_name === 'drain.csv' && i.status !== 'processing');
      if (!finished) await sleep(200);
    }
    expect(finished).toMatchObject({ status: 'done', rows: 120, shipments_created: 120 });
    const drained = (await allShipments()).filter((s) => s.reference_number.startsWith('DRAIN-'));
    expect(drained.map((s) => s.reference_number).sort()).toEqual(references);
    expect(filesIn(join(folderPath, 'done'))).toContain('drain.csv');
  });
});
