import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { buildProgram } from '../../bin/program.js';
import { describeProgram } from '../../src/cli/completion-model.js';
import { isolatedEnv, runCliInProcess } from '../helpers/cli.js';
import type { TestAccount, TestDaemon } from '../helpers/harness.js';
import { filesIn, finishedImports, readCsvFile, type ImportRecord } from '../helpers/order-files.js';
import { type PplStation, startPplStation } from '../helpers/shipments.js';

/** The shop's warehouse: no export holds the sender, so the import's mapping gives it beside the preset. */
const SENDER = {
  sender_contact_company_name: 'Sklad Praha s.r.o.', sender_contact_email_address: 'sklad@example.cz', sender_contact_phone_number: '+420601111222',
  origin_address_street_name: 'Skladová 12', origin_address_city_name: 'Praha', origin_address_postal_code: '11000', origin_address_country_code: 'CZ',
};
/** What the channel gives a parcel that the export leaves without weight or dimensions (no export here measures parcels). */
const PARCEL_DEFAULTS = { weight_amount: 1, length_dimension: 30, width_dimension: 20, height_dimension: 10 };

const fixture = (name: string) => readFileSync(new URL(`../fixtures/presets/${name}`, import.meta.url));

interface Shipment {
  id: string;
  reference_number: string;
  status: string;
  recipient_contact: Record<string, string>;
  destination_address: Record<string, string>;
  cash_on_delivery_amount: number | null;
  cash_on_delivery_currency: string | null;
  parcels: { weight_amount: number; length_dimension: number; tracking_number: string | null }[];
  pickup_point: { provider_point_id: string; type: string | null } | null;
  product: string | null;
}

interface Expected {
  reference: string;
  recipient: Record<string, string>;
  address: Record<string, string>;
  cod: [number, string] | null;
  weights: number[];
}

const person = (first_name: string, last_name: string, phone_number: string) => ({ first_name, last_name, phone_number });

/** Each preset's fixture and the shipments its orders are: names split, streets and numbers apart, phones in E.164, postal codes as carriers take them. */
const PRESET_STORIES: { preset: string; file: string; orders: Expected[] }[] = [
  {
    preset: 'shoptet', file: 'shoptet.csv', orders: [
      { reference: '2026000101', recipient: person('Jana', 'Nováková', '+420777888999'), address: { street_name: 'Údolní', house_number: '5', city_name: 'Brno', postal_code: '60200', country_code: 'CZ' }, cod: null, weights: [1.25] },
      { reference: '2026000102', recipient: person('Petra', 'Svobodová', '+420602333444'), address: { street_name: 'Vinohradská', house_number: '1234/56', city_name: 'Praha 2', postal_code: '12000', country_code: 'CZ' }, cod: [1299.5, 'CZK'], weights: [2.4] },
      { reference: '2026000103', recipient: person('Ján', 'Kováč', '+421905123456'), address: { street_name: 'Obchodná', house_number: '12', city_name: 'Bratislava', postal_code: '81106', country_code: 'SK' }, cod: [45.9, 'EUR'], weights: [0.8] },
      { reference: '2026000104', recipient: person('Zofia', 'Wiśniewska', '+48600123456'), address: { street_name: 'ul. Marszałkowska', house_number: '10', apartment_number: '5', city_name: 'Warszawa', postal_code: '00-590', country_code: 'PL' }, cod: null, weights: [3] },
    ],
  },
  {
    preset: 'woocommerce', file: 'woocommerce.csv', orders: [
      { reference: '5101', recipient: person('Krzysztof', 'Nowak', '+48512345678'), address: { street_name: 'ul. Długa', house_number: '5', city_name: 'Kraków', postal_code: '31-147', country_code: 'PL' }, cod: [219.99, 'PLN'], weights: [1] },
      { reference: '5102', recipient: person('Tomáš', 'Dvořák', '+420608111222'), address: { street_name: 'Dlouhá', house_number: '742/12', city_name: 'Praha 1', postal_code: '11000', country_code: 'CZ' }, cod: [890, 'CZK'], weights: [1] },
      { reference: '5103', recipient: person('Lucia', 'Szabóová', '+421911222333'), address: { street_name: 'Hlavná', house_number: '5', city_name: 'Košice', postal_code: '04001', country_code: 'SK' }, cod: [29.9, 'EUR'], weights: [1] },
    ],
  },
  {
    preset: 'prestashop', file: 'prestashop.csv', orders: [
      { reference: 'KHWLILZLL', recipient: person('Vladimír', 'Černý', '+420731123456'), address: { street_name: 'Na Příkopě', house_number: '15', postal_code: '11000', country_code: 'CZ' }, cod: [1520, 'CZK'], weights: [2.5] },
      { reference: 'QNYZXGTVE', recipient: person('Katarína', 'Nováková', '+421948765432'), address: { street_name: 'Národná', house_number: '8', city_name: 'Žilina', postal_code: '01001', country_code: 'SK' }, cod: [39.9, 'EUR'], weights: [0.8] },
      { reference: 'VQMPRJBHT', recipient: { company_name: 'Kwiaciarnia Róża', ...person('Tomasz', 'Zieliński', '+48501234567') }, address: { street_name: 'Aleje Jerozolimskie', house_number: '65', apartment_number: '79', postal_code: '00-697', country_code: 'PL' }, cod: null, weights: [1.2] },
    ],
  },
  {
    preset: 'baselinker', file: 'baselinker.csv', orders: [
      { reference: '8801001', recipient: person('Anna', 'Kowalska', '+48601234567'), address: { street_name: 'ul. Piotrkowska', house_number: '104', apartment_number: '12', city_name: 'Łódź', postal_code: '90-006', country_code: 'PL' }, cod: [234.97, 'PLN'], weights: [2] },
      { reference: '8801002', recipient: person('Martin', 'Černý', '+420736111222'), address: { street_name: 'Husova', house_number: '8', postal_code: '37001', country_code: 'CZ' }, cod: null, weights: [0.5] },
      { reference: '8801003', recipient: person('Mária', 'Horváthová', '+421903555666'), address: { street_name: 'Štúrova', house_number: '27', postal_code: '94901', country_code: 'SK' }, cod: [28.5, 'EUR'], weights: [0.3] },
    ],
  },
  {
    preset: 'pohoda', file: 'pohoda.xml', orders: [
      { reference: 'OBJ-2026-0042', recipient: { company_name: 'Pekárna U Mlýna s.r.o.', ...person('Karel', 'Veselý', '+420777123456') }, address: { street_name: 'Mlýnská', house_number: '7', city_name: 'Olomouc', postal_code: '77900', country_code: 'CZ' }, cod: [2420, 'CZK'], weights: [1] },
      { reference: 'OBJ-2026-0043', recipient: person('Lucie', 'Marková', '+420604555666'), address: { street_name: 'Kounicova', house_number: '966/10', city_name: 'Brno', postal_code: '60200', country_code: 'CZ' }, cod: null, weights: [1] },
      { reference: 'OBJ-2026-0044', recipient: person('Peter', 'Novotný', '+421915222333'), address: { street_name: 'Hlavná', house_number: '21', city_name: 'Prešov', postal_code: '08001', country_code: 'SK' }, cod: [59.9, 'EUR'], weights: [1] },
    ],
  },
  {
    preset: 'money-s3', file: 'money-s3.xml', orders: [
      { reference: '2026-1001', recipient: person('Alena', 'Horáková', '+420603444555'), address: { street_name: 'Jiráskova', house_number: '1520/3', city_name: 'Hradec Králové', postal_code: '50003', country_code: 'CZ' }, cod: [1850, 'CZK'], weights: [2.25] },
      { reference: '2026-1002', recipient: { company_name: 'Sklad Kubát', phone_number: '+420596111222' }, address: { street_name: 'Průmyslová', house_number: '1427/8', city_name: 'Ostrava-Hrabová', postal_code: '72000', country_code: 'CZ' }, cod: null, weights: [12.5] },
      { reference: '2026-1003', recipient: person('Juraj', 'Baláž', '+421907111222'), address: { street_name: 'Hlavná', house_number: '12', city_name: 'Trnava', postal_code: '91701', country_code: 'SK' }, cod: [64.5, 'EUR'], weights: [0.4] },
    ],
  },
];

describe('order exports of shops and ERPs, read by their presets, become shipments exactly once', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let channel: string;
  let station: PplStation;
  const root = mkdtempSync(join(tmpdir(), 'packdesk-presets-'));

  const upload = (file: string, content: Buffer, mapping: unknown) => a.request('POST', '/v1/imports', {
    file_name: file, content_base64: content.toString('base64'), shipping_channel_id: channel, mapping,
  });
  const imported = async (file: string, content: Buffer, mapping: unknown) => {
    const res = await upload(file, content, mapping);
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.id as string;
    await vi.waitFor(async () => expect((await a.request('GET', `/v1/imports/${id}`)).json().data.status).not.toBe('processing'), { timeout: 30_000, interval: 50 });
    return (await a.request('GET', `/v1/imports/${id}`)).json().data as ImportRecord;
  };
  const resultOf = async (id: string) => (await a.request('GET', `/v1/imports/${id}/result`)).json().data as { reference_number: string; shipment_id: string | null; status: string; error: string | null }[];
  const errorsOf = async (id: string) => (await a.request('GET', `/v1/imports/${id}/errors`)).json().data as { row: number; reference_number: string; field: string; column: string; message: string }[];
  const shipment = async (id: string) => (await a.request('GET', `/v1/shipments/${id}`)).json().data as Shipment;
  const withSender = (preset: string) => ({ preset, defaults: SENDER });

  beforeAll(async () => {
    ({ d, emu, a, channel } = station = await startPplStation('Preset shop'));
    const defaults = await a.request('PATCH', `/v1/shipping-channels/${channel}`, { parcel_defaults: PARCEL_DEFAULTS });
    expect(defaults.statusCode, defaults.body).toBe(200);
    d.workers.start();
  });
  afterAll(async () => {
    await station.close();
    rmSync(root, { recursive: true, force: true });
  });

  describe.each(PRESET_STORIES)('$preset: $file', ({ preset, file, orders }) => {
    let first: ImportRecord;

    it('ships every order of the fixture: the recipient as the carrier takes it, COD when paid so, one parcel with the export\'s weight', async () => {
      first = await imported(file, fixture(file), withSender(preset));
      const results = await resultOf(first.id);
      expect(results.map((r) => [r.reference_number, r.status, r.error])).toEqual(orders.map((o) => [o.reference, 'created', null]));
      expect(first).toMatchObject({ status: 'done', shipments_created: orders.length, failed_rows: 0, errors_path: null });
      for (const [i, expected] of orders.entries()) {
        const s = await shipment(results[i]!.shipment_id!);
        expect(s.reference_number).toBe(expected.reference);
        expect(s.recipient_contact, expected.reference).toMatchObject(expected.recipient);
        expect(s.destination_address, expected.reference).toMatchObject(expected.address);
        expect([s.cash_on_delivery_amount, s.cash_on_delivery_currency], expected.reference).toEqual(expected.cod ?? [null, null]);
        expect(s.parcels.map((p) => p.weight_amount), expected.reference).toEqual(expected.weights);
        expect(s.parcels.map((p) => p.length_dimension)).toEqual(expected.weights.map(() => PARCEL_DEFAULTS.length_dimension));
        expect(s.parcels.every((p) => /^\d{11}$/.test(p.tracking_number ?? '')), expected.reference).toBe(true);
      }
    });

    it('creates nothing from the same file again: every order is already imported, with its first shipment', async () => {
      const again = await imported(`again-${file}`, fixture(file), withSender(preset));
      expect(again).toMatchObject({ status: 'done', shipments_created: 0, orders_already_imported: orders.length, sha256: first.sha256 });
      const [before, after] = [await resultOf(first.id), await resultOf(again.id)];
      expect(after.map((r) => r.status)).toEqual(orders.map(() => 'already_imported'));
      expect(after.map((r) => r.shipment_id)).toEqual(before.map((r) => r.shipment_id));
    });
  });

  it('ships the orders of a shop’s export to the pickup point each buyer chose at checkout, and the others to their door', async () => {
    const record = await imported('baselinker-points.csv', fixture('baselinker-points.csv'), withSender('baselinker'));
    expect(record).toMatchObject({ status: 'done', shipments_created: 3, failed_rows: 0 });
    const shipped = await Promise.all((await resultOf(record.id)).map((r) => shipment(r.shipment_id!)));
    expect(shipped.map((s) => [s.reference_number, s.pickup_point?.provider_point_id ?? null, s.pickup_point?.type ?? null, s.product])).toEqual([
      ['8802001', 'KM10000002', 'parcelshop', 'SMAD'], ['8802002', 'KM10000003', 'locker', 'SMAR'], ['8802003', null, null, 'PRIV'],
    ]);
  });

  it('keeps the good orders of a file with a bad row and reports the bad one by row, field and column in words a packer acts on', async () => {
    const text = fixture('woocommerce.csv').toString('utf8').replaceAll(/^"?51(0\d)/gm, '52$1').replaceAll('"512 345 678"', '"512 34"');
    const record = await imported('woocommerce-bad-row.csv', Buffer.from(text), withSender('woocommerce'));
    expect(record).toMatchObject({ status: 'done', shipments_created: 2, failed_rows: 2 });
    const results = await resultOf(record.id);
    expect(results.map((r) => [r.reference_number, r.status])).toEqual([['5201', 'error'], ['5202', 'created'], ['5203', 'created']]);
    expect(await errorsOf(record.id)).toEqual([{
      row: 2, reference_number: '5201', field: 'recipient_contact.phone_number', column: 'Phone (Billing)',
      message: expect.stringMatching(/^512 34 is not a phone number in Poland/),
    }]);
  });

  it('ships an order of more lines than a shipment has parcels as one parcel: its lines are no parcels', async () => {
    const text = iconv.decode(fixture('shoptet.csv'), 'windows-1250').split('\r\n');
    const line = text.find((l) => l.startsWith('2026000101;'))!.replace('2026000101;', '2026000201;');
    const record = await imported('long-order.csv', iconv.encode([text[0], ...Array.from({ length: 55 }, () => line), ''].join('\r\n'), 'windows-1250'), withSender('shoptet'));
    expect(record).toMatchObject({ status: 'done', rows: 55, shipments_created: 1, failed_rows: 0 });
    const [result] = await resultOf(record.id);
    expect((await shipment(result!.shipment_id!)).parcels).toHaveLength(1);
  });

  it('answers a mapping that names no preset with 422 on its field path, and takes one that does', async () => {
    const bad = await upload('orders.csv', fixture('shoptet.csv'), { preset: 'magento', defaults: SENDER });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ 'mapping.preset': ['must be a preset name (default, shoptet, woocommerce, prestashop, baselinker, pohoda, money-s3)'] });
    const folder = await a.request('POST', '/v1/watched-folders', { path: join(root, 'shoptet-drop'), shipping_channel_id: channel, label_format: 'pdf', mapping: 'shoptet' });
    expect(folder.statusCode, folder.body).toBe(201);
    expect(folder.json().data.mapping).toBe('shoptet');
  });

  it('refuses an XML file with a document type whole, with the reason, creating nothing', async () => {
    const xml = fixture('pohoda.xml').toString('utf8').replace('<dat:dataPack ', '<!DOCTYPE dat:dataPack [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<dat:dataPack ')
      .replaceAll('OBJ-2026-00', 'DTD-2026-00');
    const record = await imported('doctype.xml', Buffer.from(xml), withSender('pohoda'));
    expect(record).toMatchObject({ status: 'failed', shipments_created: 0 });
    expect(await errorsOf(record.id)).toEqual([{
      row: 3, reference_number: null, field: 'file', column: null,
      message: 'declares a document type or entities (line 3): XML order files with them are refused, as their entities can expand to far more than the file holds',
    }]);
    expect((await a.request('GET', '/v1/shipments?search=DTD-2026')).json().data).toEqual([]);
  });

  it('takes an XML file dropped into a watched folder of the preset, and answers it with a CSV result file in its encoding', async () => {
    const res = await a.request('POST', '/v1/watched-folders', { path: join(root, 'money'), shipping_channel_id: channel, label_format: 'pdf', mapping: withSender('money-s3') });
    expect(res.statusCode, res.body).toBe(201);
    const folder = res.json().data as { id: string; folders: Record<'in' | 'done' | 'out', string> };
    const renumbered = iconv.encode(iconv.decode(fixture('money-s3.xml'), 'windows-1250').replaceAll('<PrimDoklad>2026-', '<PrimDoklad>WF-'), 'windows-1250');
    writeFileSync(join(folder.folders.in, 'objednavky.xml'), renumbered);
    const [done] = await finishedImports(a, folder.id, 1);
    expect(done).toMatchObject({ status: 'done', rows: 4, shipments_created: 3, failed_rows: 0 });
    expect(filesIn(folder.folders.done)).toEqual(['objednavky.xml']);
    expect(filesIn(folder.folders.out)).toEqual(['objednavky.result.csv']);
    expect(readFileSync(done!.result_path!).toString('latin1').split('\r\n')[0]).toBe('reference_number;shipment_id;status;tracking_numbers;error');
    expect(readCsvFile(done!.result_path!, 'windows-1250').map((r) => [r.reference_number, r.status])).toEqual([['WF-1001', 'created'], ['WF-1002', 'created'], ['WF-1003', 'created']]);
  });

  describe('packdesk import --preset', () => {
    let env: Record<string, string>;
    const work = join(root, 'desk');

    beforeAll(async () => {
      const url = await d.app.listen({ host: '127.0.0.1', port: 0 });
      env = { ...isolatedEnv(), XDG_CONFIG_HOME: join(root, 'cfg'), CI: 'true', PACKDESK_URL: url, PACKDESK_API_KEY: a.key };
      rmSync(work, { recursive: true, force: true });
      writeFileSync(join(root, 'sender.json'), JSON.stringify({ defaults: SENDER }));
    });

    it('imports a shop\'s export by its preset name, with the sender from a mapping file, and writes the result beside it', async () => {
      const file = join(root, 'eshop-export.csv');
      writeFileSync(file, iconv.encode(iconv.decode(fixture('shoptet.csv'), 'windows-1250').replaceAll(/^20260001/gm, '20260003'), 'windows-1250'));
      const run = await runCliInProcess(['import', file, '--preset', 'shoptet', '--mapping', join(root, 'sender.json'), '--channel', channel, '--json'], env);
      expect(run.code, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout) as { import: ImportRecord; results: { reference_number: string; status: string }[] };
      expect(out.import).toMatchObject({ status: 'done', shipments_created: 4 });
      expect(out.results.map((r) => [r.reference_number, r.status])).toEqual(['2026000301', '2026000302', '2026000303', '2026000304'].map((r) => [r, 'created']));
      expect(readCsvFile(join(root, 'eshop-export.result.csv'), 'windows-1250')).toHaveLength(4);
    });

    it('refuses a preset that is none, and --preset beside a preset name in --mapping, as usage errors', async () => {
      const none = await runCliInProcess(['import', join(root, 'eshop-export.csv'), '--preset', 'magento'], env);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('Allowed choices are default, shoptet, woocommerce, prestashop, baselinker, pohoda, money-s3');
      const both = await runCliInProcess(['import', join(root, 'eshop-export.csv'), '--preset', 'shoptet', '--mapping', 'pohoda', '--channel', channel], env);
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('--preset shoptet takes --mapping as a JSON file of columns and defaults to add to it, not "pohoda"');
    });

    it('lists the presets in its help and completes --preset to them', async () => {
      const help = await runCliInProcess(['import', '--help'], env);
      expect(help.stdout.replace(/\s+/g, ' ')).toContain('(choices: "default", "shoptet", "woocommerce", "prestashop", "baselinker", "pohoda", "money-s3")');
      const importCommand = describeProgram(buildProgram()).subcommands.find((c) => c.name === 'import')!;
      expect(importCommand.options.find((o) => o.flags.includes('--preset'))!.value)
        .toEqual({ kind: 'words', words: ['default', 'shoptet', 'woocommerce', 'prestashop', 'baselinker', 'pohoda', 'money-s3'] });
    });
  });
});
