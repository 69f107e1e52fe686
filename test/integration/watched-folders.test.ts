import { execFileSync } from 'node:child_process';
import {
  closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync, writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { csvText, filesIn, finishedImports, orderRow, readCsvFile, type ImportRecord } from '../helpers/order-files.js';
import { pplChannel, pplEmulatorControl, type PplStation, startPplStation } from '../helpers/shipments.js';

interface Shipment {
  id: string;
  reference_number: string;
  status: string;
  recipient_contact: Record<string, string>;
  destination_address: Record<string, string>;
  parcels: { tracking_number: string | null; weight_amount: number; length_dimension: number }[];
  cash_on_delivery_amount: number | null;
  has_label: boolean;
}

describe('watched folders: ERP order files become shipments and printed labels, exactly once', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let channel: string;
  let station: PplStation;
  let printerId: string;
  const root = mkdtempSync(join(tmpdir(), 'packdesk-watch-'));
  const printed = join(root, 'printed');

  const shipmentsByReference = async (reference: string): Promise<Shipment[]> => {
    const list = (await a.request('GET', `/v1/shipments?search=${encodeURIComponent(reference)}&per_page=100`)).json().data as { id: string; reference_number: string }[];
    const exact = list.filter((s) => s.reference_number === reference);
    return Promise.all(exact.map(async (s) => (await a.request('GET', `/v1/shipments/${s.id}`)).json().data as Shipment));
  };
  const { shipments: emulated } = pplEmulatorControl(() => emu.url);
  const addFolder = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await a.request('POST', '/v1/watched-folders', { path: join(root, name), shipping_channel_id: channel, label_format: 'pdf', ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; path: string; folders: Record<'in' | 'processing' | 'done' | 'failed' | 'out', string> };
  };

  beforeAll(async () => {
    ({ d, emu, a, channel } = station = await startPplStation('ERP shop'));
    const printer = await a.request('POST', '/v1/printers', { name: 'Label folder', uri: `file://${printed}`, formats: ['pdf'] });
    expect(printer.statusCode, printer.body).toBe(201);
    printerId = printer.json().data.id;
    d.workers.start();
  });
  afterAll(async () => {
    await station.close();
    rmSync(root, { recursive: true, force: true });
  });

  describe('a folder with a printer', () => {
    let folder: Awaited<ReturnType<typeof addFolder>>;
    let first: ImportRecord;
    const utf8Rows = [orderRow('UTF-1001'), orderRow('UTF-1002', { recipient_contact_first_name: 'Řehoř', recipient_contact_last_name: 'Šťastný' }), orderRow('UTF-1003', { cash_on_delivery_amount: 450.5, cash_on_delivery_currency: 'CZK' })];

    beforeAll(async () => {
      folder = await addFolder('eshop', { printer_id: printerId });
    });

    it('creates the folder layout and takes a UTF-8 comma file: three shipments, a result file with tracking numbers, labels printed, the input in done/', async () => {
      for (const sub of ['in', 'processing', 'done', 'failed', 'out'] as const) expect(filesIn(folder.folders[sub])).toEqual([]);
      writeFileSync(join(folder.folders.in, 'orders.csv'), csvText(utf8Rows));
      [first] = await finishedImports(a, folder.id, 1);
      expect(first).toMatchObject({ file_name: 'orders.csv', status: 'done', rows: 3, rows_processed: 3, shipments_created: 3, failed_rows: 0, errors_path: null, orders_already_imported: 0 });
      expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(filesIn(folder.folders.in)).toEqual([]);
      expect(filesIn(folder.folders.processing)).toEqual([]);
      expect(filesIn(folder.folders.done)).toEqual(['orders.csv']);
      expect(filesIn(folder.folders.out)).toEqual(['orders.result.csv']);
      expect(first.result_path).toBe(join(folder.folders.out, 'orders.result.csv'));

      const results = readCsvFile(first.result_path!);
      expect(Object.keys(results[0]!)).toEqual(['reference_number', 'shipment_id', 'status', 'tracking_numbers', 'error']);
      expect(results.map((r) => [r.reference_number, r.status, r.error])).toEqual([['UTF-1001', 'created', ''], ['UTF-1002', 'created', ''], ['UTF-1003', 'created', '']]);
      for (const result of results) {
        const [shipment] = await shipmentsByReference(result.reference_number!);
        expect(shipment!.id).toBe(result.shipment_id);
        expect(result.tracking_numbers).toBe(shipment!.parcels[0]!.tracking_number);
        expect(result.tracking_numbers).toMatch(/^\d{11}$/);
      }
      const [cod] = await shipmentsByReference('UTF-1003');
      expect(cod!.cash_on_delivery_amount).toBe(450.5);
      const [named] = await shipmentsByReference('UTF-1002');
      expect(named!.recipient_contact).toMatchObject({ first_name: 'Řehoř', last_name: 'Šťastný' });

      // the folder's printer gets each label once it exists
      const deadline = Date.now() + 10_000;
      while (filesIn(printed).filter((n) => n.endsWith('.pdf')).length < 3 && Date.now() < deadline) await sleep(100);
      const labels = filesIn(printed).filter((n) => n.endsWith('.pdf'));
      expect(labels).toHaveLength(3);
      const decoded = (await Promise.all(labels.map((n) => decodePdfBarcodes(readFileSync(join(printed, n)))))).flat(2).sort();
      expect(decoded).toEqual(results.map((r) => r.tracking_numbers).sort());
    });

    it('re-dropping the same file creates nothing new; its result file says already imported, with the first shipments', async () => {
      const before = (await emulated()).length;
      writeFileSync(join(folder.folders.in, 'orders.csv'), csvText(utf8Rows));
      const again = (await finishedImports(a, folder.id, 2)).find((i) => i.id !== first.id);
      expect(again).toMatchObject({ status: 'done', rows: 3, shipments_created: 0, orders_already_imported: 3, failed_rows: 0, sha256: first.sha256 });
      expect(filesIn(folder.folders.done)).toEqual(['orders-1.csv', 'orders.csv']);
      expect(again!.result_path).toBe(join(folder.folders.out, 'orders-1.result.csv'));
      const firstResults = readCsvFile(first.result_path!);
      const results = readCsvFile(again!.result_path!);
      expect(results.map((r) => r.status)).toEqual(['already_imported', 'already_imported', 'already_imported']);
      expect(results.map((r) => r.shipment_id)).toEqual(firstResults.map((r) => r.shipment_id));
      expect(results.map((r) => r.tracking_numbers)).toEqual(firstResults.map((r) => r.tracking_numbers));
      for (const r of results) expect(r.error).toContain('already imported');
      expect(await shipmentsByReference('UTF-1001')).toHaveLength(1);
      expect((await emulated()).length).toBe(before);
      // nothing printed twice: the import finished without queueing a print job
      const jobs = (await a.request('GET', `/v1/print-jobs?printer_id=${printerId}&per_page=100`)).json();
      expect(jobs.meta.total).toBe(3);
      expect(filesIn(printed).filter((n) => n.endsWith('.pdf'))).toHaveLength(3);
    });
  });

  it('reads a Windows-1250 file with ; and decimal commas: Czech and Polish names arrive intact; the result is written back in Windows-1250', async () => {
    const folder = await addFolder('cp1250');
    const rows = [
      orderRow('ČP-1', { recipient_contact_first_name: 'Řehoř', recipient_contact_last_name: 'Šťastný', destination_address_street_name: 'Žluťoučká', destination_address_city_name: 'Český Krumlov', destination_address_postal_code: '38101', parcel_weight_amount: 2.75, cash_on_delivery_amount: 1299.5, cash_on_delivery_currency: 'CZK' }),
      orderRow('CP-2', { recipient_contact_first_name: 'Zażółć', recipient_contact_last_name: 'Gęślą', destination_address_street_name: 'Świętokrzyska', destination_address_city_name: 'Łódź', destination_address_postal_code: '90001', destination_address_country_code: 'PL', parcel_weight_amount: 0.5, parcel_length_dimension: 25.5 }),
    ];
    writeFileSync(join(folder.folders.in, 'objednavky.csv'), iconv.encode(csvText(rows, { delimiter: ';', decimalComma: true }), 'windows-1250'));
    const [done] = await finishedImports(a, folder.id, 1);
    expect(done).toMatchObject({ status: 'done', rows: 2, shipments_created: 2, failed_rows: 0 });
    const [czech] = await shipmentsByReference('ČP-1');
    expect(czech!.recipient_contact).toMatchObject({ first_name: 'Řehoř', last_name: 'Šťastný' });
    expect(czech!.destination_address).toMatchObject({ street_name: 'Žluťoučká', city_name: 'Český Krumlov' });
    expect(czech!.parcels[0]!.weight_amount).toBe(2.75);
    expect(czech!.cash_on_delivery_amount).toBe(1299.5);
    const [polish] = await shipmentsByReference('CP-2');
    expect(polish!.recipient_contact).toMatchObject({ first_name: 'Zażółć', last_name: 'Gęślą' });
    expect(polish!.destination_address).toMatchObject({ street_name: 'Świętokrzyska', city_name: 'Łódź', country_code: 'PL' });
    expect(polish!.parcels[0]).toMatchObject({ weight_amount: 0.5, length_dimension: 25.5 });
    expect(polish!.status).toBe('created');
    const raw = readFileSync(done!.result_path!);
    expect(raw.toString('latin1').split('\r\n')[0]).toBe('reference_number;shipment_id;status;tracking_numbers;error');
    expect(raw.includes(Buffer.from([0xc8, 0x50, 0x2d, 0x31]))).toBe(true); // "ČP-1" in Windows-1250
    const results = readCsvFile(done!.result_path!, 'windows-1250');
    expect(results.map((r) => [r.reference_number, r.status])).toEqual([['ČP-1', 'created'], ['CP-2', 'created']]);
    expect(filesIn(folder.folders.done)).toEqual(['objednavky.csv']);
  });

  it('turns rows with the same reference number into one multi-parcel shipment, parcels in file order', async () => {
    const folder = await addFolder('multi');
    const rows = [
      orderRow('MP-1', { parcel_weight_amount: 1 }), orderRow('MP-2', { parcel_weight_amount: 4 }),
      // later rows of an order may leave its order fields empty
      { reference_number: 'MP-1', parcel_weight_amount: 2, parcel_length_dimension: 40, parcel_width_dimension: 30, parcel_height_dimension: 20 },
      orderRow('MP-1', { parcel_weight_amount: 3 }),
    ];
    writeFileSync(join(folder.folders.in, 'multi.csv'), csvText(rows));
    const [done] = await finishedImports(a, folder.id, 1);
    expect(done).toMatchObject({ status: 'done', rows: 4, shipments_created: 2, failed_rows: 0 });
    const [three] = await shipmentsByReference('MP-1');
    expect(three!.parcels.map((p) => p.weight_amount)).toEqual([1, 2, 3]);
    expect(three!.parcels[1]!.length_dimension).toBe(40);
    const numbers = three!.parcels.map((p) => p.tracking_number);
    expect(numbers.every((n) => /^\d{11}$/.test(n ?? ''))).toBe(true);
    const results = readCsvFile(done!.result_path!);
    expect(results.map((r) => r.reference_number)).toEqual(['MP-1', 'MP-2']);
    expect(results[0]!.tracking_numbers.split(' ')).toEqual(numbers);
    const label = await a.request('GET', `/v1/shipments/${three!.id}/label?download=1`);
    expect(await decodePdfBarcodes(label.rawPayload)).toEqual(numbers.map((n) => [n]));
  });

  it('reports bad rows by row number and field path in an errors file beside the input in done/; good orders still ship', async () => {
    const folder = await addFolder('bad-rows');
    const rows = [
      orderRow('BAD-1'),
      orderRow('BAD-2', { recipient_contact_email_address: 'not-an-email' }),
      orderRow('BAD-3'),
      orderRow('BAD-3', { parcel_weight_amount: -2 }),
      orderRow('', { recipient_contact_first_name: 'Nobody' }),
      orderRow('BAD-4', { parcel_weight_amount: 'heavy', destination_address_country_code: 'XX' }),
      orderRow('BAD-5', { recipient_contact_last_name: 'Other' }),
      orderRow('BAD-5', { recipient_contact_last_name: 'Different' }),
    ];
    writeFileSync(join(folder.folders.in, 'mixed.csv'), csvText(rows));
    const [done] = await finishedImports(a, folder.id, 1);
    expect(done).toMatchObject({ status: 'done', rows: 8, shipments_created: 1, failed_rows: 7 });
    expect(filesIn(folder.folders.done)).toEqual(['mixed.csv', 'mixed.errors.csv']);
    expect(done!.errors_path).toBe(join(folder.folders.done, 'mixed.errors.csv'));
    const errors = readCsvFile(done!.errors_path!);
    expect(Object.keys(errors[0]!)).toEqual(['row', 'reference_number', 'field', 'column', 'message']);
    const summary = errors.map((e) => `${e.row} ${e.reference_number} ${e.field} ${e.column}: ${e.message}`);
    expect(summary).toEqual([
      '3 BAD-2 recipient_contact.email_address recipient_contact_email_address: must be a valid e-mail address',
      '5 BAD-3 parcels.1.weight_amount parcel_weight_amount: must be greater than 0',
      '6  reference_number reference_number: is required: rows are grouped into shipments by it',
      '7 BAD-4 parcels.0.weight_amount parcel_weight_amount: must be a number',
      '7 BAD-4 destination_address.country_code destination_address_country_code: must be an ISO 3166-1 alpha-2 country code (e.g. CZ)',
      '9 BAD-5 recipient_contact.last_name recipient_contact_last_name: differs from row 8 of the same order; the rows of an order must agree on its order fields',
    ]);
    // the same messages the API gives for the same body
    const api = await a.request('POST', '/v1/shipments', {
      shipping_channel_id: channel, label_format: 'pdf', sender_contact: { company_name: 'S', email_address: 's@example.cz', phone_number: '+420601111222' },
      recipient_contact: { first_name: 'J', last_name: 'N', email_address: 'not-an-email', phone_number: '+420602333444' },
      origin_address: { street_name: 'A', house_number: '1', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
      destination_address: { street_name: 'B', house_number: '2', city_name: 'Brno', postal_code: '60200', country_code: 'XX' },
      parcels: [{ weight_amount: 'heavy', length_dimension: 1, width_dimension: 1, height_dimension: 1 }, { weight_amount: -2, length_dimension: 1, width_dimension: 1, height_dimension: 1 }],
    });
    expect(api.json().errors).toMatchObject({
      'recipient_contact.email_address': ['must be a valid e-mail address'], 'parcels.0.weight_amount': ['must be a number'],
      'parcels.1.weight_amount': ['must be greater than 0'], 'destination_address.country_code': ['must be an ISO 3166-1 alpha-2 country code (e.g. CZ)'],
    });
    const results = readCsvFile(done!.result_path!);
    expect(results.map((r) => [r.reference_number, r.status])).toEqual([['BAD-1', 'created'], ['BAD-2', 'error'], ['BAD-3', 'error'], ['BAD-4', 'error'], ['BAD-5', 'error']]);
    expect(results[1]!.error).toBe('row 3 recipient_contact.email_address: must be a valid e-mail address');
    expect(await shipmentsByReference('BAD-3')).toEqual([]);
    const listed = (await a.request('GET', `/v1/imports/${done!.id}/errors`)).json().data;
    expect(listed[0]).toEqual({ row: 3, reference_number: 'BAD-2', field: 'recipient_contact.email_address', column: 'recipient_contact_email_address', message: 'must be a valid e-mail address' });
  });

  it('moves a file whose rows all fail to failed/ with its errors file, and an unreadable one too', async () => {
    const folder = await addFolder('all-bad');
    writeFileSync(join(folder.folders.in, 'broken.csv'), csvText([orderRow('NOPE-1', { parcel_weight_amount: 0 }), orderRow('NOPE-2', { recipient_contact_phone_number: '12' })]));
    const [failed] = await finishedImports(a, folder.id, 1);
    expect(failed).toMatchObject({ status: 'failed', rows: 2, shipments_created: 0, failed_rows: 2 });
    expect(filesIn(folder.folders.failed)).toEqual(['broken.csv', 'broken.errors.csv']);
    expect(filesIn(folder.folders.out)).toEqual(['broken.result.csv']);
    expect(readCsvFile(failed!.errors_path!).map((e) => [e.row, e.field])).toEqual([['2', 'parcels.0.weight_amount'], ['3', 'recipient_contact.phone_number']]);

    writeFileSync(join(folder.folders.in, 'empty.csv'), 'reference_number;parcel_weight_amount\r\n');
    const empty = (await finishedImports(a, folder.id, 2)).find((i) => i.file_name === 'empty.csv');
    expect(empty).toMatchObject({ file_name: 'empty.csv', status: 'failed', rows: 0 });
    expect(readCsvFile(empty!.errors_path!)[0]).toMatchObject({ row: '1', field: 'file', message: 'has a header row but no order rows' });
  });

  it('imports a file whose name leaves no room for its result names, under a shorter name', async () => {
    const folder = await addFolder('long-name');
    const stem = `${'á'.repeat(20)}${'x'.repeat(207)}`; // 247 bytes: 20 two-byte letters
    expect(Buffer.byteLength(`${stem}.csv`)).toBe(251);
    writeFileSync(join(folder.folders.in, `${stem}.csv`), csvText([orderRow('LONG-NAME-1')]));
    const [done] = await finishedImports(a, folder.id, 1);
    expect(done).toMatchObject({ status: 'done', file_name: `${stem}.csv`, shipments_created: 1 });
    const [result] = filesIn(folder.folders.out);
    expect(Buffer.byteLength(result!)).toBeLessThanOrEqual(211);
    expect(stem.startsWith(result!.replace(/\.result\.csv$/, ''))).toBe(true);
    expect(filesIn(folder.folders.done)).toHaveLength(1);
  });

  it('reads a file copied in slowly (in chunks over seconds) once, whole', async () => {
    const folder = await addFolder('slow');
    const rows = Array.from({ length: 30 }, (_, i) => orderRow(`SLOW-${i + 1}`));
    const bytes = Buffer.from(csvText(rows));
    const fd = openSync(join(folder.folders.in, 'slow.csv'), 'w');
    const chunks = 8;
    const size = Math.ceil(bytes.length / chunks);
    for (let i = 0; i < chunks; i++) {
      writeSync(fd, bytes.subarray(i * size, (i + 1) * size));
      await sleep(400);
    }
    closeSync(fd);
    const [done] = await finishedImports(a, folder.id, 1);
    await d.workers.imports.runDue(); // a second read would be queued by now, and show up as a second import
    const all = (await a.request('GET', `/v1/imports?watched_folder_id=${folder.id}`)).json().data as ImportRecord[];
    expect(all).toHaveLength(1);
    expect(done).toMatchObject({ status: 'done', rows: 30, shipments_created: 30, failed_rows: 0 });
    expect(done!.sha256).toBe((await import('node:crypto')).createHash('sha256').update(bytes).digest('hex'));
  });

  it('imports an ERP export with its own column names through a mapping (examples/orders.csv with examples/mapping.json)', async () => {
    const mapping = JSON.parse(readFileSync(new URL('../../examples/mapping.json', import.meta.url), 'utf8'));
    const folder = await addFolder('erp', { mapping });
    writeFileSync(join(folder.folders.in, 'orders.csv'), readFileSync(new URL('../../examples/orders.csv', import.meta.url)));
    const [done] = await finishedImports(a, folder.id, 1);
    expect(done).toMatchObject({ status: 'done', failed_rows: 0 });
    const results = readCsvFile(done!.result_path!);
    expect(results.every((r) => r.status === 'created' && r.tracking_numbers !== '')).toBe(true);
    const multi = results.find((r) => r.tracking_numbers.includes(' '));
    expect(multi, 'the example has a multi-parcel order').toBeDefined();
    const record = (await a.request('GET', `/v1/shipments/${multi!.shipment_id}`)).json().data as Shipment & { sender_contact: Record<string, string> };
    expect(record.sender_contact.company_name).toBe(mapping.defaults.sender_contact_company_name);
  });

  describe('the API', () => {
    it('creates, lists, shows, pauses, resumes and removes watched folders; checks them like the API checks shipments', async () => {
      const path = join(root, 'api');
      const created = await a.request('POST', '/v1/watched-folders', { path, shipping_channel_id: channel, label_format: 'zpl', mapping: 'default' });
      expect(created.statusCode, created.body).toBe(201);
      const folder = created.json().data;
      expect(folder).toMatchObject({ path, shipping_channel_id: channel, label_format: 'zpl', printer_id: null, mapping: 'default', status: 'active' });
      expect(folder.id).toMatch(/^wf_/);
      expect(folder.folders).toEqual({ in: join(path, 'in'), processing: join(path, 'processing'), done: join(path, 'done'), failed: join(path, 'failed'), out: join(path, 'out') });
      expect(filesIn(path)).toEqual(['done', 'failed', 'in', 'out', 'processing']);

      const list = await a.request('GET', '/v1/watched-folders?per_page=100');
      expect(list.json().data.map((f: { id: string }) => f.id)).toContain(folder.id);
      expect(list.json().meta).toMatchObject({ current_page: 1, per_page: 100 });
      expect((await a.request('GET', `/v1/watched-folders/${folder.id}`)).json().data).toEqual(folder);

      const paused = await a.request('PATCH', `/v1/watched-folders/${folder.id}`, { status: 'paused' });
      expect(paused.json().data.status).toBe('paused');
      // an active folder given a file at the same moment shows how long the paused one had to take its file
      const control = await addFolder('api-control');
      writeFileSync(join(path, 'in', 'waits.csv'), csvText([orderRow('PAUSED-1')]));
      writeFileSync(join(control.folders.in, 'taken.csv'), csvText([orderRow('ACTIVE-1')]));
      expect(await finishedImports(a, control.id, 1)).toMatchObject([{ file_name: 'taken.csv', status: 'done' }]);
      expect(filesIn(join(path, 'in'))).toEqual(['waits.csv']); // a paused folder takes nothing
      expect((await a.request('GET', '/v1/watched-folders?status=paused')).json().data.map((f: { id: string }) => f.id)).toEqual([folder.id]);
      const resumed = await a.request('PATCH', `/v1/watched-folders/${folder.id}`, { status: 'active' });
      expect(resumed.json().data.status).toBe('active');
      const [done] = await finishedImports(a, folder.id, 1);
      expect(done).toMatchObject({ file_name: 'waits.csv', status: 'done', shipments_created: 1 });
      const [zpl] = await shipmentsByReference('PAUSED-1');
      expect((await a.request('GET', `/v1/shipments/${zpl!.id}`)).json().data.label_format).toBe('zpl');

      expect((await a.request('DELETE', `/v1/watched-folders/${folder.id}`)).statusCode).toBe(204);
      expect((await a.request('GET', `/v1/watched-folders/${folder.id}`)).statusCode).toBe(404);
      expect(filesIn(path)).toEqual(['done', 'failed', 'in', 'out', 'processing']); // the files stay
      expect((await a.request('GET', `/v1/imports/${done!.id}`)).json().data.watched_folder_id).toBeNull();
    });

    it('answers 401 without a key, 403 for another account or a read-only key, 404 for unknown ids, 422 with field paths', async () => {
      const folder = await addFolder('guarded');
      const other = await d.account('Other shop');
      const noKey = await d.app.inject({ method: 'GET', url: '/v1/watched-folders' });
      expect(noKey.statusCode).toBe(401);
      expect((await d.app.inject({ method: 'GET', url: '/v1/imports' })).statusCode).toBe(401);
      expect((await other.request('GET', `/v1/watched-folders/${folder.id}`)).statusCode).toBe(403);
      expect((await other.request('PATCH', `/v1/watched-folders/${folder.id}`, { status: 'paused' })).statusCode).toBe(403);
      expect((await other.request('DELETE', `/v1/watched-folders/${folder.id}`)).statusCode).toBe(403);
      const readOnly = await d.app.inject({
        method: 'POST', url: '/v1/watched-folders', headers: { authorization: `Bearer ${a.readOnlyKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ path: join(root, 'ro'), shipping_channel_id: channel, label_format: 'pdf' }),
      });
      expect(readOnly.statusCode).toBe(403);
      expect((await a.request('GET', '/v1/watched-folders/wf_00000000000000000000')).statusCode).toBe(404);
      expect((await a.request('PATCH', '/v1/watched-folders/wf_00000000000000000000', { status: 'paused' })).statusCode).toBe(404);
      expect((await a.request('GET', '/v1/imports/imp_00000000000000000000')).statusCode).toBe(404);
      const imports = (await a.request('GET', '/v1/imports?per_page=1')).json().data as ImportRecord[];
      expect((await other.request('GET', `/v1/imports/${imports[0]!.id}`)).statusCode).toBe(403);
      expect((await other.request('GET', '/v1/imports')).json().data).toEqual([]);

      const zplPrinter = await a.request('POST', '/v1/printers', { name: 'Zebra folder', uri: `file://${join(root, 'zpl-labels')}`, formats: ['zpl'] });
      const invalid = await a.request('POST', '/v1/watched-folders', {
        path: 'relative/dir', shipping_channel_id: 'ch_nope', label_format: 'pdf', printer_id: zplPrinter.json().data.id,
        mapping: { columns: { Jméno: 'recipient_name' }, defaults: { sender_contact_company_name: 'X', colour: 'red' }, extra: true },
      });
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json().errors).toEqual({
        path: ['must be an absolute path (the daemon resolves nothing against its own working directory)'],
        shipping_channel_id: ['is not a shipping channel of this account'],
        printer_id: ['printer Zebra folder takes zpl labels, not pdf'],
        'mapping.extra': ['is not a mapping key (preset, columns, defaults)'],
        'mapping.columns.Jméno': ['must be an import field such as recipient_contact_last_name or parcel_weight_amount'],
        'mapping.defaults.colour': ['is not an import field such as recipient_contact_last_name or parcel_weight_amount'],
      });
      const missing = await a.request('POST', '/v1/watched-folders', { label_format: 'epl' });
      expect(missing.statusCode).toBe(422);
      // a folder without a channel is one whose orders the shipping rules route
      expect(missing.json().errors).toEqual({ path: ['is required'] });
      const taken = await a.request('POST', '/v1/watched-folders', { path: folder.path, shipping_channel_id: channel, label_format: 'epl' });
      expect(taken.json().errors).toEqual({ path: [`is already watched (${folder.id})`] });
      const nested = await a.request('POST', '/v1/watched-folders', { path: join(folder.path, 'in'), shipping_channel_id: channel, label_format: 'pdf' });
      expect(nested.json().errors.path[0]).toMatch(/^lies inside watched folder wf_/);
      const badPatch = await a.request('PATCH', `/v1/watched-folders/${folder.id}`, { status: 'sleeping', mapping: 'acme' });
      expect(badPatch.statusCode).toBe(422);
      expect(badPatch.json().errors).toMatchObject({ status: ['must be one of active, paused'], mapping: ['must be a mapping object or a preset name (default, shoptet, woocommerce, prestashop, baselinker, pohoda, money-s3)'] });
    });

    it('lists imports newest first with filters and shows one with its result and errors', async () => {
      const list = await a.request('GET', '/v1/imports?per_page=100');
      expect(list.statusCode).toBe(200);
      const imports = list.json().data as ImportRecord[];
      expect(imports.length).toBeGreaterThanOrEqual(8);
      const failed = (await a.request('GET', '/v1/imports?status=failed')).json().data as ImportRecord[];
      expect(failed.length).toBeGreaterThanOrEqual(2);
      expect(failed.every((i) => i.status === 'failed')).toBe(true);
      const one = imports.find((i) => i.file_name === 'multi.csv')!;
      const shown = (await a.request('GET', `/v1/imports/${one.id}`)).json().data;
      expect(shown).toEqual(one);
      const result = await a.request('GET', `/v1/imports/${one.id}/result`);
      expect(result.json().data[0]).toMatchObject({ reference_number: 'MP-1', status: 'created' });
      expect(result.json().data[0].tracking_numbers).toHaveLength(3);
      const csv = await a.request('GET', `/v1/imports/${one.id}/result`, undefined, { accept: 'text/csv' });
      expect(csv.headers['content-type']).toContain('text/csv');
      expect(csv.body.split('\r\n')[0]).toBe('reference_number,shipment_id,status,tracking_numbers,error');
      expect((await a.request('GET', `/v1/imports/${one.id}/errors`)).statusCode).toBe(404);
      const q = (await a.request('GET', '/v1/imports?status=unknown')).statusCode;
      expect(q).toBe(422);
    });
  });
});

describe('watched folders never follow symbolic links: links, FIFOs and linked sub-folders are refused, nothing read or written through them', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let b: TestAccount;
  let aChannel: string;
  let bChannel: string;
  /** The daemon's only files root; `outside` lies beside it. */
  const root = mkdtempSync(join(tmpdir(), 'packdesk-links-'));
  const outside = mkdtempSync(join(tmpdir(), 'packdesk-outside-'));
  type Folder = { id: string; path: string; folders: Record<'in' | 'processing' | 'done' | 'failed' | 'out', string> };
  const addFolder = async (account: TestAccount, channel: string, name: string, extra: Record<string, unknown> = {}): Promise<Folder> => {
    const res = await account.request('POST', '/v1/watched-folders', { path: join(root, name), shipping_channel_id: channel, label_format: 'pdf', ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  const hasShipment = async (account: TestAccount, reference: string) =>
    ((await account.request('GET', `/v1/shipments?search=${reference}`)).json().data as { reference_number: string }[]).some((s) => s.reference_number === reference);
  const importsOf = async (account: TestAccount, folder: Folder) =>
    (await account.request('GET', `/v1/imports?watched_folder_id=${folder.id}`)).json().data as ImportRecord[];
  /** Waits for the first log entry `matches` (the daemon logs JSON lines). */
  const logged = (matches: (entry: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => vi.waitFor(() => {
    const found = d.logText().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).find(matches);
    if (!found) throw new Error(`nothing logged as expected:\n${d.logText()}`);
    return found;
  }, { timeout: 25_000, interval: 100 });
  const aboutFolder = (folder: Folder) => (entry: Record<string, unknown>) => entry.watched_folder_id === folder.id;
  const linkProblem = (dir: string) => `${dir} is a symbolic link, which the daemon never follows`;

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    d = await startTestDaemon({ filesRoots: [root] });
    a = await d.account('ERP shop');
    b = await d.account('Neighbour shop');
    aChannel = await pplChannel(a, emu.urls.ppl!);
    bChannel = await pplChannel(b, emu.urls.ppl!);
    d.workers.start();
  });
  afterAll(async () => {
    await d.workers.stop();
    await d.close();
    await emu.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it("moves links in in/ to a file outside the root, to the data directory's secret.key and to another account's file to failed/ unread, with the reason; no shipment comes of them", async () => {
    const theirs = await addFolder(b, bChannel, 'neighbour', { status: 'paused' });
    const theirFile = join(theirs.folders.in, 'orders.csv');
    writeFileSync(theirFile, csvText([orderRow('THEIRS-1')]));
    const outsideOrders = join(outside, 'orders.csv');
    writeFileSync(outsideOrders, csvText([orderRow('OUTSIDE-1')]));
    // a file like /etc/passwd: a mapping named by its first line would turn every other line into a result line
    const passwd = join(outside, 'passwd');
    writeFileSync(passwd, 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n');
    const secretKey = join(d.dataDir, 'secret.key');
    const targets = { 'outside.csv': outsideOrders, 'passwd.csv': passwd, 'key.csv': secretKey, 'theirs.csv': theirFile };
    const before = new Map(Object.values(targets).map((t) => [t, readFileSync(t)]));
    // an access time older than the modification time is updated by any read (relatime)
    for (const target of [outsideOrders, passwd, theirFile]) utimesSync(target, new Date('2020-01-01T00:00:00Z'), statSync(target).mtime);
    const readBefore = new Map([outsideOrders, passwd, theirFile].map((t) => [t, statSync(t).atimeMs]));

    const folder = await addFolder(a, aChannel, 'links', { mapping: { columns: { 'root:x:0:0:root:/root:/bin/bash': 'reference_number' } } });
    for (const [name, target] of Object.entries(targets)) symlinkSync(target, join(folder.folders.in, name));
    const imports = await finishedImports(a, folder.id, 4);

    expect(imports.map((i) => i.file_name).sort()).toEqual(['key.csv', 'outside.csv', 'passwd.csv', 'theirs.csv']);
    for (const record of imports) {
      expect(record).toMatchObject({ status: 'failed', rows: 0, shipments_created: 0, failed_rows: 0, sha256: '' });
      const stem = record.file_name.replace(/\.csv$/, '');
      expect(record.errors_path).toBe(join(folder.folders.failed, `${stem}.errors.csv`));
      expect(readCsvFile(record.errors_path!)).toEqual([{ row: '1', reference_number: '', field: 'file', column: '', message: 'symbolic links are not imported' }]);
      expect((await a.request('GET', `/v1/imports/${record.id}/errors`)).json().data)
        .toEqual([{ row: 1, reference_number: null, field: 'file', column: null, message: 'symbolic links are not imported' }]);
      expect(readCsvFile(record.result_path!)).toEqual([]);
      // the link itself was moved, still leading where it led
      const moved = join(folder.folders.failed, record.file_name);
      expect(lstatSync(moved).isSymbolicLink()).toBe(true);
      expect(readlinkSync(moved)).toBe(targets[record.file_name as keyof typeof targets]);
    }
    expect(filesIn(folder.folders.in)).toEqual([]);
    expect(filesIn(folder.folders.processing)).toEqual([]);
    expect(filesIn(folder.folders.out)).toEqual(['key.result.csv', 'outside.result.csv', 'passwd.result.csv', 'theirs.result.csv']);

    expect(await hasShipment(a, 'OUTSIDE-1')).toBe(false);
    expect(await hasShipment(a, 'THEIRS-1')).toBe(false);
    for (const [target, atime] of readBefore) expect(statSync(target).atimeMs, `${target} was read`).toBe(atime);
    for (const [target, content] of before) expect(readFileSync(target).equals(content), target).toBe(true);
    const written = [...filesIn(folder.folders.out).map((n) => join(folder.folders.out, n)), ...imports.map((i) => i.errors_path!)];
    const leaks = ['daemon:x:1', 'THEIRS-1', 'OUTSIDE-1', readFileSync(secretKey, 'utf8').trim()];
    for (const path of written) for (const leak of leaks) expect(readFileSync(path, 'utf8')).not.toContain(leak);
    expect(filesIn(theirs.folders.in)).toEqual(['orders.csv']);
  });

  it('moves a FIFO and a directory with an order file\'s name to failed/ without opening them, and imports the file dropped after them', async () => {
    const folder = await addFolder(a, aChannel, 'fifo', { status: 'paused' });
    execFileSync('mkfifo', [join(folder.folders.in, 'pipe.csv')]);
    expect((await a.request('PATCH', `/v1/watched-folders/${folder.id}`, { status: 'active' })).statusCode).toBe(200);
    mkdirSync(join(folder.folders.in, 'folder.csv'));
    writeFileSync(join(folder.folders.in, 'after.csv'), csvText([orderRow('AFTER-FIFO-1')]));
    const imports = await finishedImports(a, folder.id, 3);
    const byName = Object.fromEntries(imports.map((i) => [i.file_name, i]));
    expect(byName['after.csv']).toMatchObject({ status: 'done', shipments_created: 1 });
    for (const name of ['pipe.csv', 'folder.csv']) {
      expect(byName[name]).toMatchObject({ status: 'failed', rows: 0, shipments_created: 0 });
      expect(readCsvFile(byName[name]!.errors_path!).map((e) => e.message)).toEqual(['only regular files are imported']);
    }
    expect(lstatSync(join(folder.folders.failed, 'pipe.csv')).isFIFO()).toBe(true);
    expect(lstatSync(join(folder.folders.failed, 'folder.csv')).isDirectory()).toBe(true);
    expect(filesIn(folder.folders.in)).toEqual([]);
  });

  it('refuses a link found in processing/ when it opens it: the link goes to failed/ unread', async () => {
    const folder = await addFolder(a, aChannel, 'processing-link', { status: 'paused' });
    const target = join(outside, 'processing-target.csv');
    writeFileSync(target, csvText([orderRow('PROCESSING-LINK-1')]));
    // what a file taken into processing/ and swapped for a link before it was read leaves there
    symlinkSync(target, join(folder.folders.processing, 'swapped.csv'));
    expect((await a.request('PATCH', `/v1/watched-folders/${folder.id}`, { status: 'active' })).statusCode).toBe(200);
    const [refused] = await finishedImports(a, folder.id, 1);
    expect(refused).toMatchObject({ file_name: 'swapped.csv', status: 'failed', shipments_created: 0 });
    expect(readCsvFile(refused!.errors_path!).map((e) => e.message)).toEqual(['symbolic links are not imported']);
    expect(lstatSync(join(folder.folders.failed, 'swapped.csv')).isSymbolicLink()).toBe(true);
    expect(filesIn(folder.folders.processing)).toEqual([]);
    expect(await hasShipment(a, 'PROCESSING-LINK-1')).toBe(false);
  });

  it('writes nothing through out/ and failed/ replaced by links to directories outside the root: the files wait in in/, and the log says why', async () => {
    const folder = await addFolder(a, aChannel, 'swapped');
    await logged((e) => aboutFolder(folder)(e) && e.msg === 'watching folder');
    const results = join(outside, 'results');
    const rejects = join(outside, 'rejects');
    for (const [sub, target] of [['out', results], ['failed', rejects]] as const) {
      mkdirSync(target);
      rmSync(folder.folders[sub], { recursive: true });
      symlinkSync(target, folder.folders[sub]);
    }
    const target = join(outside, 'swapped-target.csv');
    writeFileSync(target, csvText([orderRow('SWAPPED-LINKED-1')]));
    writeFileSync(join(folder.folders.in, 'good.csv'), csvText([orderRow('SWAPPED-1')]));
    symlinkSync(target, join(folder.folders.in, 'link.csv'));
    for (const file of ['good.csv', 'link.csv']) {
      const verdict = await logged((e) => aboutFolder(folder)(e) && e.file === file && (String(e.msg).includes('not usable') || e.msg === 'import finished'));
      expect(verdict.msg).toBe('file left in in/: the watched folder is not usable');
      expect(verdict.problems).toEqual([linkProblem(folder.folders.failed), linkProblem(folder.folders.out)]);
    }
    expect(filesIn(results)).toEqual([]);
    expect(filesIn(rejects)).toEqual([]);
    expect(filesIn(folder.folders.in)).toEqual(['good.csv', 'link.csv']);
    expect(await importsOf(a, folder)).toEqual([]);
    expect(await hasShipment(a, 'SWAPPED-1')).toBe(false);
  });

  it("refuses a folder whose in/ is a link to another account's in/: that account's drops stay its own", async () => {
    const theirs = await addFolder(b, bChannel, 'neighbour-drop', { status: 'paused' });
    const mine = await addFolder(a, aChannel, 'stealing', { status: 'paused' });
    rmSync(mine.folders.in, { recursive: true });
    symlinkSync(theirs.folders.in, mine.folders.in);
    writeFileSync(join(theirs.folders.in, 'their-orders.csv'), csvText([orderRow('NEIGHBOUR-1')]));

    expect((await a.request('PATCH', `/v1/watched-folders/${mine.id}`, { status: 'active' })).statusCode).toBe(200);
    const verdict = await logged((e) => aboutFolder(mine)(e) && (e.msg === 'watching folder' || String(e.msg).includes('not usable')));
    expect(verdict.msg).toBe('watched folder not usable; looking again later');
    expect(verdict.problems).toEqual([linkProblem(mine.folders.in)]);

    expect((await b.request('PATCH', `/v1/watched-folders/${theirs.id}`, { status: 'active' })).statusCode).toBe(200);
    const [taken] = await finishedImports(b, theirs.id, 1);
    expect(taken).toMatchObject({ file_name: 'their-orders.csv', status: 'done', shipments_created: 1 });
    expect(await hasShipment(b, 'NEIGHBOUR-1')).toBe(true);
    expect(await importsOf(a, mine)).toEqual([]);
    expect(await hasShipment(a, 'NEIGHBOUR-1')).toBe(false);
  });
});
