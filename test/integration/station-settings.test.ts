import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { pplChannel, shipmentBody } from '../helpers/shipments.js';
import { startZebra, type ZebraPrinter } from '../helpers/zebra.js';

/** Station settings on the daemon: what every desk, `packdesk ship` and order shipping read, and the shift lead's list. */
describe('station settings and the shift lead’s shipments list', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let zebra: ZebraPrinter;
  let a: TestAccount;
  let channel: string;
  let zebraId: string;
  let officeId: string;

  /** A recipient and address only: what a packer scans in; the station gives the rest. */
  const bare = (reference: string, overrides: Record<string, unknown> = {}) => {
    const { shipping_channel_id: _c, label_format: _f, sender_contact: _s, origin_address: _o, ...rest } = shipmentBody('unused', { reference_number: reference });
    return { ...rest, ...overrides };
  };
  const ok = <T = Record<string, unknown>>(res: { statusCode: number; body: string; json(): { data: T } }, status = 200): T => {
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const jobsOf = async (shipmentId: string) => ok<{ printer_id: string; shipment_ids: string[] }[]>(await a.request('GET', `/v1/print-jobs?shipment_id=${shipmentId}`));

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    zebra = await startZebra();
    d = await startTestDaemon();
    a = await d.account('Station warehouse');
    channel = await pplChannel(a, emu.urls.ppl!);
    zebraId = ok<{ id: string }>(await a.request('POST', '/v1/printers', { name: 'Zebra', uri: zebra.uri, formats: ['zpl', 'epl'] }), 201).id;
    officeId = ok<{ id: string }>(await a.request('POST', '/v1/printers', { name: 'Office', uri: pathToFileURL(mkdtempSync(join(tmpdir(), 'office-'))).href, formats: ['pdf'], default_for: ['pdf'] }), 201).id;
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
    await zebra?.stop();
  });

  it('keeps the account’s sender as people write it, and a station’s own values over it', async () => {
    const account = ok(await a.request('PUT', '/v1/station-settings', {
      label_format: null, copies: null, auto_print: null, printers: null,
      sender_contact: { name: 'Sklad Praha s.r.o.', company_name: 'Sklad Praha s.r.o.', email_address: 'sklad@example.cz', phone_number: '601 111 222' },
      origin_address: { street_name: 'Skladová 12', city_name: 'Praha', postal_code: '110 00', country_code: 'cz' },
      shipping_channel_id: channel,
      box_presets: [{ name: 'Small', length_dimension: 30, width_dimension: 20, height_dimension: 10 }],
    }));
    expect(account).toMatchObject({
      sender_contact: { phone_number: '+420601111222' }, origin_address: { street_name: 'Skladová', house_number: '12', postal_code: '11000', country_code: 'CZ' },
      shipping_channel_id: channel, label_format: null, printers: null,
    });
    const station = ok(await a.request('PUT', '/v1/stations/desk-1/settings', {
      label_format: 'zpl', printers: { zpl: zebraId, epl: null }, auto_print: true, copies: 2, sender_contact: null, shipping_channel_id: null,
    }));
    expect(station).toMatchObject({
      station: 'desk-1',
      settings: { label_format: 'zpl', printers: { zpl: zebraId }, auto_print: true, copies: 2, sender_contact: null, shipping_channel_id: null },
      effective: {
        label_format: 'zpl', printers: { zpl: zebraId, pdf: officeId, epl: null }, auto_print: true, copies: 2, shipping_channel_id: channel,
        sender_contact: { company_name: 'Sklad Praha s.r.o.' }, box_presets: [{ name: 'Small' }],
      },
    });
    const stations = ok<{ station: string; served: boolean; settings_updated_at: string | null }[]>(await a.request('GET', '/v1/stations'));
    expect(stations.find((s) => s.station === 'desk-1')).toMatchObject({ served: false, settings_updated_at: expect.any(String) });
    // a station nobody set up works with the account's settings and the defaults
    expect(ok<{ effective: Record<string, unknown> }>(await a.request('GET', '/v1/stations/returns-desk/settings')).effective)
      .toMatchObject({ label_format: 'pdf', copies: 1, auto_print: false, shipping_channel_id: channel, printers: { pdf: officeId, zpl: null } });
    // a printer removed since it was chosen is passed over
    const spare = ok<{ id: string }>(await a.request('POST', '/v1/printers', { name: 'Spare', uri: zebra.uri, formats: ['epl'] }), 201).id;
    ok(await a.request('PUT', '/v1/stations/spare-desk/settings', { printers: { epl: spare } }));
    expect((await a.request('DELETE', `/v1/printers/${spare}`)).statusCode).toBe(204);
    expect(ok<{ effective: { printers: Record<string, string | null> } }>(await a.request('GET', '/v1/stations/spare-desk/settings')).effective.printers.epl).toBeNull();
    // another account sees none of it
    const other = await d.account('Another warehouse');
    expect(ok<{ sender_contact: unknown }>(await other.request('GET', '/v1/station-settings')).sender_contact).toBeNull();
  });

  it('refuses settings no shipment could use, on their fields, and keeps the ones before', async () => {
    const res = await a.request('PUT', '/v1/stations/desk-1/settings', {
      sender_contact: { company_name: 'X', email_address: 'x@example.cz', phone_number: '777 88' },
      origin_address: { street_name: 'Skladová', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
      printers: { pdf: zebraId, zpl: 'prn_missing' }, shipping_channel_id: 'ch_missing',
      box_presets: [{ name: 'A', length_dimension: 1, width_dimension: 1, height_dimension: 1 }, { name: 'A', length_dimension: 2, width_dimension: 2, height_dimension: 2 }],
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual([
      'box_presets.1.name', 'origin_address.house_number', 'printers.pdf', 'printers.zpl', 'sender_contact.phone_number', 'shipping_channel_id',
    ]);
    expect(res.json().errors['printers.pdf'][0]).toMatch(/takes zpl, epl labels, not pdf/);
    expect(ok<{ settings: { label_format: string } }>(await a.request('GET', '/v1/stations/desk-1/settings')).settings.label_format).toBe('zpl');
    for (const name of ['*', 'a%2Fb', 'x'.repeat(65)]) expect((await a.request('GET', `/v1/stations/${name}/settings`)).statusCode, name).toBe(422);
    expect((await a.request('PUT', '/v1/station-settings', { copies: 0 })).statusCode).toBe(422);
    expect((await a.request('PUT', '/v1/station-settings', { printers: { png: zebraId } })).statusCode).toBe(422);
  });

  it('ships a scanned order at a station: its sender, channel and format, printed on its printer', async () => {
    const shipped = ok<Record<string, unknown> & { id: string }>(await a.request('POST', '/v1/shipments', { ...bare('ST-1'), station: 'desk-1' }), 201);
    expect(shipped).toMatchObject({
      shipping_channel_id: channel, label_format: 'zpl', sender_contact: { company_name: 'Sklad Praha s.r.o.', phone_number: '+420601111222' },
      origin_address: { city_name: 'Praha' }, print_plan: { printer_id: zebraId, printer_name: 'Zebra', copies: 2, reason: null }, needs_attention: false,
    });
    await d.runJobs();
    expect((await jobsOf(shipped.id)).map((j) => j.printer_id)).toEqual([zebraId]);
    // a reprint goes to the station's printer for the format too
    expect(ok<{ printer_id: string }>(await a.request('POST', `/v1/shipments/${shipped.id}/print`, { station: 'desk-1' }), 202).printer_id).toBe(zebraId);
    const elsewhere = await a.request('POST', `/v1/shipments/${shipped.id}/print`, { station: 'returns-desk' });
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.json().errors.printer_id[0]).toMatch(/station returns-desk has no printer for zpl labels/);

    // what the body says wins over the station; `print: null` prints nothing
    const asked = ok<Record<string, unknown> & { id: string }>(await a.request('POST', '/v1/shipments', { ...bare('ST-2'), station: 'desk-1', label_format: 'pdf', print: null }), 201);
    expect(asked).toMatchObject({ label_format: 'pdf', print_plan: null });

    // a station that auto-prints with no printer for the format says why nothing prints
    ok(await a.request('PUT', '/v1/stations/epl-desk/settings', { label_format: 'epl', auto_print: true }));
    const unprinted = ok<Record<string, unknown> & { id: string }>(await a.request('POST', '/v1/shipments', { ...bare('ST-3'), station: 'epl-desk' }), 201);
    expect(unprinted.print_plan).toEqual({ printer_id: null, printer_name: null, copies: null, reason: 'no printer for EPL at station epl-desk' });
    await d.runJobs();
    expect(await jobsOf(unprinted.id)).toEqual([]);

    // without a station, what a station would give is required
    const none = await a.request('POST', '/v1/shipments', bare('ST-4'));
    expect(none.statusCode).toBe(422);
    expect(Object.keys(none.json().errors).sort()).toEqual(['label_format', 'origin_address', 'sender_contact', 'shipping_channel_id']);
  });

  it('ships a queued order at a station, the order leaving the sender to it', async () => {
    const order = bare('ST-ORDER');
    const queued = ok<{ id: string; sender_contact: unknown; origin_address: unknown }>(await a.request('POST', '/v1/orders', order), 201);
    expect(queued).toMatchObject({ sender_contact: null, origin_address: null });
    const parcels = [{ weight_amount: 2.4, length_dimension: 30, width_dimension: 20, height_dimension: 10 }];
    const nowhere = await a.request('POST', `/v1/orders/${queued.id}/ship`, { shipping_channel_id: channel, parcels });
    expect(nowhere.statusCode).toBe(422); // no station, no sender
    expect(Object.keys(nowhere.json().errors).sort()).toEqual(['origin_address', 'sender_contact']);
    const shipped = ok<Record<string, unknown>>(await a.request('POST', `/v1/orders/${queued.id}/ship`, { station: 'desk-1', parcels }));
    expect(shipped).toMatchObject({
      shipping_channel_id: channel, label_format: 'zpl', print_plan: { printer_name: 'Zebra' }, parcels: [{ weight_amount: 2.4 }],
      sender_contact: { company_name: 'Sklad Praha s.r.o.' },
    });
  });

  it('marks what the carrier refused as needing attention, and a fix creates the same shipment', async () => {
    const refused = ok<{ id: string }>(await a.request('POST', '/v1/shipments', {
      ...bare('ST-REFUSED', { destination_address: { street_name: 'Údolní 5', city_name: 'Brno', postal_code: '799 99', country_code: 'CZ' } }), station: 'desk-1',
    }), 201);
    await d.runJobs();
    const list = async (query: string) => ok<{ id: string; needs_attention: boolean }[]>(await a.request('GET', `/v1/shipments?${query}`));
    expect((await list('needs_attention=true')).map((s) => s.id)).toEqual([refused.id]);
    expect((await list('search=ST-REFUSED'))[0]!.needs_attention).toBe(true);
    ok(await a.request('PATCH', `/v1/shipments/${refused.id}`, { destination_address: { street_name: 'Údolní 5', city_name: 'Brno', postal_code: '602 00', country_code: 'CZ' } }));
    expect((await list('needs_attention=true'))).toEqual([]); // queued again: in progress, not waiting for a person
    await d.runJobs();
    expect((await list('search=ST-REFUSED')).map((s) => s.id)).toEqual([refused.id]);
    expect(ok<{ status: string }>(await a.request('GET', `/v1/shipments/${refused.id}`)).status).toBe('created');
  });

  it('lists with details, exports the filtered list as CSV, and prints or downloads many labels as one', async () => {
    const items = ok<Record<string, unknown>[]>(await a.request('GET', '/v1/shipments?include=details&search=ST-1'));
    expect(items[0]).toMatchObject({
      reference_number: 'ST-1', recipient_name: 'Řehoř Šťastný', destination_city: 'Brno', destination_country: 'CZ', provider: 'ppl',
      label_format: 'zpl', total_parcels_count: 1, cash_on_delivery_amount: null,
    });
    expect(items[0]!.tracking_number).toMatch(/^\d+$/);
    expect(Object.keys(ok<Record<string, unknown>[]>(await a.request('GET', '/v1/shipments?search=ST-1'))[0]!)).not.toContain('recipient_name');

    const csv = await a.request('GET', '/v1/shipments/export.csv?status=created');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines[0]).toBe('id,reference_number,status,needs_attention,created_at,recipient_name,destination_city,destination_country,provider,shipping_channel_id,tracking_number,parcels,cash_on_delivery_amount,cash_on_delivery_currency,printed_at');
    const created = ok<{ id: string; reference_number: string; label_format?: string }[]>(await a.request('GET', '/v1/shipments?status=created&per_page=100&include=details'));
    expect(lines.length - 1).toBe(created.length);
    expect(lines.find((l) => l.includes(',ST-1,'))).toMatch(/,created,false,.*,Řehoř Šťastný,Brno,CZ,ppl,/);

    const ids = created.map((s) => s.id);
    const mixed = [created.find((s) => s.label_format === 'pdf')!.id, created.find((s) => s.label_format === 'zpl')!.id];
    const pdf = await a.request('GET', `/v1/shipments/labels?ids=${mixed.join(',')}`);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect((await PDFDocument.load(pdf.rawPayload)).getPageCount()).toBe(2); // one parcel each, the thermal one converted
    const missing = await a.request('GET', `/v1/shipments/labels?ids=${ids[0]},sh_missing`);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.ids.join()).toMatch(/sh_missing/);

    const zpl = created.filter((s) => s.label_format === 'zpl').map((s) => s.id);
    const printable = created.filter((s) => s.label_format !== 'epl').map((s) => s.id); // desk-1 has no EPL printer
    const jobs = ok<{ format: string; printer_id: string; shipment_ids: string[]; kind: string }[]>(
      await a.request('POST', '/v1/print-jobs', { shipment_ids: printable, station: 'desk-1' }), 202);
    expect(jobs.map((j) => [j.format, j.printer_id, j.kind]).sort()).toEqual([['pdf', officeId, 'shipment_labels'], ['zpl', zebraId, 'shipment_labels']]);
    expect(jobs.find((j) => j.format === 'zpl')!.shipment_ids).toEqual(zpl);
    const noPrinter = await a.request('POST', '/v1/print-jobs', { shipment_ids: zpl, station: 'returns-desk' });
    expect(noPrinter.statusCode).toBe(422);
    expect(noPrinter.json().errors.printer_id[0]).toMatch(/station returns-desk has no printer for zpl labels/);
  });
});
