import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import type { TestAccount, TestDaemon } from '../helpers/harness.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { finishedImports, readCsvFile } from '../helpers/order-files.js';
import { pplEmulatorControl, type PplStation, shipmentBody, startPplStation } from '../helpers/shipments.js';

/**
 * Names, streets, phones and postal codes as shops, ERPs and packers write them, read by one rule for the API, imports,
 * the CLI and the desk; parcels without measurements take their channel's defaults.
 */
describe('orders as people write them', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let channel: string;
  let station: PplStation;
  const root = mkdtempSync(join(tmpdir(), 'packdesk-as-written-'));
  const { shipments: emulated } = pplEmulatorControl(() => emu.url);

  /** A Czech ERP's export as it is written: Windows-1250, ;, one street column, full names, national phones, no dimensions. */
  const ERP_FILE = iconv.encode([
    'Číslo dokladu;Odběratel;Firma;E-mail;Telefon;Ulice;Obec;PSČ;Stát;Hmotnost;Dobírka;Měna',
    'OBJ-2026-0001;Ing. Jan Novák;;jan.novak@example.cz;777 888 999;Vinohradská 1234/56;Praha 2;120 00;CZ;1,25;;',
    'OBJ-2026-0002;Marie Dvořáková;;marie@example.cz;+420 603 123 456;Dlouhá 5a;Brno;602 00;CZ;0,8;1 249,90;CZK',
    'OBJ-2026-0003;;Pekárna U Mlýna s.r.o.;objednavky@pekarna.cz;608 111 222;náměstí Míru 820/9;Olomouc;779 00;CZ;3;;',
    'OBJ-2026-0004;Mgr. Petra Svobodová;;petra@example.cz;00420 731 222 333;Lhota 15;Lhota;273 01;CZ;0,45;;',
    'OBJ-2026-0005;Peter Horváth;;peter@example.sk;0905 123 456;Hlavná 12;Košice;040 01;SK;2,1;35,50;EUR',
  ].join('\r\n'), 'windows-1250');

  /** A watched folder with the ERP's column names; its orders become shipments or wait in the order queue. */
  const erpFolder = async (name: string, target: 'shipments' | 'orders') => {
    const box = await a.request('PATCH', `/v1/shipping-channels/${channel}`, { parcel_defaults: { length_dimension: 35, width_dimension: 25, height_dimension: 15 } });
    expect(box.statusCode, box.body).toBe(200);
    const folder = await a.request('POST', '/v1/watched-folders', {
      path: join(root, name), shipping_channel_id: channel, label_format: 'pdf', target,
      mapping: {
        columns: {
          'Číslo dokladu': 'reference_number', 'Odběratel': 'recipient_contact_name', 'Firma': 'recipient_contact_company_name',
          'E-mail': 'recipient_contact_email_address', 'Telefon': 'recipient_contact_phone_number', 'Ulice': 'destination_address_street_name',
          'Obec': 'destination_address_city_name', 'PSČ': 'destination_address_postal_code', 'Stát': 'destination_address_country_code',
          'Hmotnost': 'parcel_weight_amount', 'Dobírka': 'cash_on_delivery_amount', 'Měna': 'cash_on_delivery_currency',
        },
        defaults: {
          sender_contact_company_name: 'Sklad Praha s.r.o.', sender_contact_email_address: 'sklad@example.cz', sender_contact_phone_number: '601 111 222',
          origin_address_street_name: 'Skladová 12', origin_address_city_name: 'Praha', origin_address_postal_code: '110 00', origin_address_country_code: 'CZ',
        },
      },
    });
    expect(folder.statusCode, folder.body).toBe(201);
    expect(folder.json().data.target).toBe(target);
    return folder.json().data as { id: string; folders: Record<'in' | 'done', string> };
  };

  beforeAll(async () => {
    ({ d, emu, a, channel } = station = await startPplStation('Eshop as written'));
    d.workers.start();
  });
  afterAll(async () => {
    await station.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('creates a shipment from a full name, a street with its number, national phones and a spaced postal code, and sends the carrier their parts', async () => {
    const res = await a.request('POST', '/v1/shipments', shipmentBody(channel, {
      reference_number: 'WRITTEN-1',
      sender_contact: { company_name: 'Sklad Praha s.r.o.', email_address: 'sklad@example.cz', phone_number: '601 111 222' },
      recipient_contact: { name: 'Ing. Jan Novák', email_address: 'jan@example.cz', phone_number: '777 888 999' },
      destination_address: { street_name: 'Vinohradská 1234/56', city_name: 'Praha', postal_code: '120 00', country_code: 'cz' },
    }));
    expect(res.statusCode, res.body).toBe(201);
    const shipment = res.json().data;
    expect(shipment.recipient_contact).toMatchObject({ first_name: 'Ing. Jan', last_name: 'Novák', phone_number: '+420777888999' });
    expect(shipment.recipient_contact.name).toBeUndefined();
    expect(shipment.sender_contact.phone_number).toBe('+420601111222');
    expect(shipment.destination_address).toMatchObject({ street_name: 'Vinohradská', house_number: '1234/56', postal_code: '12000', country_code: 'CZ' });
    await d.runJobs();
    const sent = (await emulated()).find((s: { referenceId: string }) => s.referenceId === shipment.id) as unknown as { recipient: Record<string, string> };
    // PPL takes the street and number in one field, the postal code without its space, the phone as dialled
    expect(sent.recipient).toMatchObject({ name: 'Ing. Jan Novák', street: 'Vinohradská 1234/56', zipCode: '12000', phone: '+420777888999' });
    expect((await a.request('GET', `/v1/shipments/${shipment.id}`)).json().data.status).toBe('created');
  });

  it('reads a Polish street with a flat number and a Polish postal code written without its dash', async () => {
    const res = await a.request('POST', '/v1/shipments', shipmentBody(channel, {
      reference_number: 'WRITTEN-PL',
      recipient_contact: { name: 'Anna Kowalska', email_address: 'anna@example.pl', phone_number: '512 345 678' },
      destination_address: { street_name: 'ul. Marszałkowska 10/5', city_name: 'Warszawa', postal_code: '00590', country_code: 'PL' },
    }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.destination_address).toMatchObject({ street_name: 'ul. Marszałkowska', house_number: '10', apartment_number: '5', postal_code: '00-590' });
    expect(res.json().data.recipient_contact).toMatchObject({ first_name: 'Anna', last_name: 'Kowalska', phone_number: '+48512345678' });
  });

  it('refuses, before any carrier call, a postal code, a phone and a house number that are not there, each on its field in words a packer reads', async () => {
    const res = await a.request('POST', '/v1/shipments', shipmentBody(channel, {
      recipient_contact: { name: 'Marie Nedoručená', email_address: 'marie@example.cz', phone_number: '777 88' },
      destination_address: { street_name: 'Lhota', city_name: 'Lhota', postal_code: '7790', country_code: 'CZ' },
    }));
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors as Record<string, string[]>;
    expect(errors['destination_address.postal_code']).toEqual(['7790 is not a postal code in Czechia (5 digits, like 602 00)']);
    expect(errors['recipient_contact.phone_number']![0]).toContain('777 88 is not a phone number in Czechia');
    expect(errors['destination_address.house_number']![0]).toContain('is required');
    await d.runJobs();
    expect(JSON.stringify(await emulated())).not.toContain('Nedoručená');
  });

  describe("a channel's parcel defaults", () => {
    it('measure the parcels an order leaves unmeasured, keep a weight weighed at the desk, and are refused when the box is given in part', async () => {
      const unmeasured = shipmentBody(channel, { reference_number: 'NO-BOX', parcels: [{}] });
      const refused = await a.request('POST', '/v1/shipments', unmeasured);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors['parcels.0.length_dimension'][0]).toContain("set a box in the channel's parcel_defaults");
      expect(refused.json().errors['parcels.0.weight_amount'][0]).toContain('weigh the parcel');

      const half = await a.request('PATCH', `/v1/shipping-channels/${channel}`, { parcel_defaults: { length_dimension: 30 } });
      expect(half.statusCode).toBe(422);
      expect(Object.keys(half.json().errors).sort()).toEqual(['parcel_defaults.height_dimension', 'parcel_defaults.width_dimension']);

      const box = { weight_amount: 1.2, length_dimension: 30, width_dimension: 20, height_dimension: 15 };
      const set = await a.request('PATCH', `/v1/shipping-channels/${channel}`, { parcel_defaults: box });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json().data.parcel_defaults).toEqual(box);
      const made = await a.request('POST', '/v1/shipments', { ...unmeasured, parcels: [{}, { weight_amount: 2.4 }] });
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json().data.parcels.map((p: Record<string, unknown>) => [p.weight_amount, p.length_dimension, p.width_dimension, p.height_dimension]))
        .toEqual([[1.2, 30, 20, 15], [2.4, 30, 20, 15]]);
      expect((await a.request('PATCH', `/v1/shipping-channels/${channel}`, { parcel_defaults: null })).json().data.parcel_defaults).toBeNull();
    });
  });

  it('ships every order of a Czech ERP export as it is written: Windows-1250, ;, one street column, full names, national phones, no dimensions', async () => {
    const { id, folders } = await erpFolder('erp', 'shipments');
    writeFileSync(join(folders.in, 'objednavky.csv'), ERP_FILE);
    const [done] = await finishedImports(a, id, 1);
    expect(done).toMatchObject({ status: 'done', rows: 5, shipments_created: 5, failed_rows: 0 });
    const results = readCsvFile(done!.result_path!, 'windows-1250');
    expect(results.map((r) => r.error)).toEqual(['', '', '', '', '']);
    const erpShipments = async () => ((await a.request('GET', '/v1/shipments?per_page=100')).json().data as Record<string, Record<string, unknown>>[])
      .filter((s) => String(s.reference_number).startsWith('OBJ-2026-'));
    const shown = await Promise.all((await erpShipments()).map(async (s) => (await a.request('GET', `/v1/shipments/${String(s.id)}`)).json().data));
    const byRef = new Map(shown.map((s: Record<string, Record<string, unknown>>) => [String(s.reference_number), s]));
    expect(byRef.size).toBe(5);
    expect(byRef.get('OBJ-2026-0001')!.recipient_contact).toMatchObject({ first_name: 'Ing. Jan', last_name: 'Novák', phone_number: '+420777888999' });
    expect(byRef.get('OBJ-2026-0001')!.destination_address).toMatchObject({ street_name: 'Vinohradská', house_number: '1234/56', postal_code: '12000' });
    expect(byRef.get('OBJ-2026-0003')!.recipient_contact).toMatchObject({ company_name: 'Pekárna U Mlýna s.r.o.' });
    expect(byRef.get('OBJ-2026-0004')!.destination_address).toMatchObject({ street_name: 'Lhota', house_number: '15' });
    expect(byRef.get('OBJ-2026-0005')!.recipient_contact).toMatchObject({ phone_number: '+421905123456' });

    // the same file again creates nothing
    writeFileSync(join(folders.in, 'objednavky-znovu.csv'), ERP_FILE);
    const again = await finishedImports(a, id, 2);
    expect(again.find((i) => i.file_name === 'objednavky-znovu.csv')).toMatchObject({ status: 'done', shipments_created: 0 });
    expect(await erpShipments()).toHaveLength(5);
  });

  it('queues the same export instead, with target orders: five awaiting orders, shipped one by one with the weighed parcel; the file again queues nothing', async () => {
    const { id, folders } = await erpFolder('erp-queue', 'orders');
    writeFileSync(join(folders.in, 'objednavky.csv'), ERP_FILE);
    const [done] = await finishedImports(a, id, 1);
    expect(done).toMatchObject({ status: 'done', rows: 5, shipments_created: 0, failed_rows: 0 });
    expect(readCsvFile(done!.result_path!, 'windows-1250').map((r) => [r.reference_number, r.status])).toEqual(
      ['0001', '0002', '0003', '0004', '0005'].map((n) => [`OBJ-2026-${n}`, 'queued']));
    const queued = (await a.request('GET', `/v1/orders?status=awaiting&search=obj-2026&per_page=10`)).json().data as Record<string, unknown>[];
    expect(queued.map((o) => o.reference_number)).toEqual(['0001', '0002', '0003', '0004', '0005'].map((n) => `OBJ-2026-${n}`));
    expect(queued.every((o) => o.import_id === done!.id && o.shipping_channel_id === channel)).toBe(true);
    expect(queued[0]).toMatchObject({ recipient_contact: { first_name: 'Ing. Jan', last_name: 'Novák', phone_number: '+420777888999' } });

    const shipped = await a.request('POST', `/v1/orders/${String(queued[1]!.id)}/ship?wait=10`, { parcels: [{ weight_amount: 0.95 }] });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json().data).toMatchObject({ status: 'created', reference_number: 'OBJ-2026-0002', cash_on_delivery_amount: 1249.9 });
    expect(shipped.json().data.parcels[0]).toMatchObject({ weight_amount: 0.95, length_dimension: 35 });
    const label = await a.request('GET', `/v1/shipments/${String(shipped.json().data.id)}/label?download=1`);
    expect(await decodePdfBarcodes(label.rawPayload)).toEqual([[shipped.json().data.parcels[0].tracking_number]]);

    writeFileSync(join(folders.in, 'objednavky-znovu.csv'), ERP_FILE);
    const again = (await finishedImports(a, id, 2)).find((i) => i.file_name === 'objednavky-znovu.csv')!;
    expect(readCsvFile(again.result_path!, 'windows-1250').map((r) => r.status)).toEqual(Array(5).fill('already_imported'));
    expect((await a.request('GET', '/v1/orders?search=obj-2026&per_page=100')).json().meta.total).toBe(5);
  });
});
