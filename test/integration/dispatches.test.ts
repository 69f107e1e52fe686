import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { nextWorkingDay } from '../helpers/dispatch-adapter.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { parcelsOf, pplChannel, shipmentBody } from '../helpers/shipments.js';

/** The end of the day: a channel's created shipments handed over in a dispatch, with a document the courier signs. */
describe('dispatches: the end-of-day hand-over', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let channel: string;
  let folder: string;
  let printerId: string;

  const ok = <T = Record<string, unknown>>(res: { statusCode: number; body: string; json(): { data: T } }, status = 200): T => {
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const ship = async (reference: string, overrides: Record<string, unknown> = {}) => {
    d.clock.advance(1);
    const created = ok<{ id: string }>(await a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: reference, ...overrides })), 201);
    await d.runJobs();
    return ok<{ id: string; status: string; parcels: { tracking_number: string }[] }>(await a.request('GET', `/v1/shipments/${created.id}`));
  };
  const eventsOf = async (id: string) => (await d.ctx.store.all<{ type: string }>('SELECT type FROM events WHERE resource_id = ? ORDER BY rowid', id)).map((e) => e.type);

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl', 'spx', 'dpd_pl'], port: 0 });
    d = await startTestDaemon();
    a = await d.account('End of day warehouse');
    channel = await pplChannel(a, emu.urls.ppl!);
    folder = mkdtempSync(join(tmpdir(), 'protocols-'));
    printerId = ok<{ id: string }>(await a.request('POST', '/v1/printers', { name: 'Office', uri: pathToFileURL(folder).href, formats: ['pdf'] }), 201).id;
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
  });

  it('hands over every created shipment of the channel once, with packdesk’s list whose barcodes are every parcel', async () => {
    const shipped = [await ship('EOD-1'), await ship('EOD-2', { parcels: parcelsOf(2), cash_on_delivery_amount: 1249.9, cash_on_delivery_currency: 'CZK' }), await ship('EOD-3')];
    expect(shipped.map((s) => s.status)).toEqual(['created', 'created', 'created']);
    expect(ok<{ shipping_channel_id: string; shipments_count: number }[]>(await a.request('GET', '/v1/dispatches/waiting'))).toEqual([{ shipping_channel_id: channel, shipments_count: 3 }]);

    const made = ok<{ id: string; status: string; shipments_count: number; parcels_count: number; capabilities: unknown }>(
      await a.request('POST', '/v1/dispatches', { shipping_channel_id: channel, print: { printer_id: printerId } }), 201);
    expect(made).toMatchObject({ status: 'pending', shipments_count: 3, parcels_count: 4, capabilities: { close: false, protocol: false, pickup: true } });
    // nothing is left for a second dispatch of the channel
    const again = await a.request('POST', '/v1/dispatches', { shipping_channel_id: channel });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.shipment_ids[0]).toMatch(/no created shipment of this channel waits/);

    await d.runJobs();
    const done = ok<Record<string, unknown>>(await a.request('GET', `/v1/dispatches/${made.id}`));
    expect(done).toMatchObject({
      status: 'dispatched', document_source: 'packdesk', has_document: true, weight_kg: 1.5 + 1 + 2 + 1.5,
      cash_on_delivery_totals: [{ currency: 'CZK', amount: 1249.9 }],
    });
    expect(ok<{ dispatch_id: string }>(await a.request('GET', `/v1/shipments/${shipped[0]!.id}`)).dispatch_id).toBe(made.id);
    expect(await eventsOf(made.id)).toEqual(['dispatch.created', 'dispatch.updated']);

    const document = await a.request('GET', `/v1/dispatches/${made.id}/document`);
    expect(document.headers['content-type']).toBe('application/pdf');
    const numbers = shipped.flatMap((s) => s.parcels.map((p) => p.tracking_number));
    expect((await decodePdfBarcodes(document.rawPayload)).flat().sort()).toEqual(numbers.sort());
    // printed where asked, as the document itself
    const jobs = ok<{ kind: string; dispatch_id: string; status: string }[]>(await a.request('GET', `/v1/print-jobs?printer_id=${printerId}`));
    expect(jobs).toMatchObject([{ kind: 'dispatch_document', dispatch_id: made.id, status: 'printed' }]);
    expect(readFileSync(join(folder, readdirSync(folder)[0]!)).equals(document.rawPayload)).toBe(true);
    expect(ok<unknown[]>(await a.request('GET', '/v1/dispatches/waiting'))).toEqual([]);
  });

  it('makes a channel’s dispatch by itself at its dispatch_at, once a day', async () => {
    const own = await pplChannel(a, emu.urls.ppl!);
    const local = (ms: number) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
    expect((await a.request('PATCH', `/v1/shipping-channels/${own}`, { dispatch_at: '25:00' })).statusCode).toBe(422);
    const set = ok<{ dispatch_at: string }>(await a.request('PATCH', `/v1/shipping-channels/${own}`, { dispatch_at: local(d.clock.now() + 60_000) }));
    expect(set.dispatch_at).toMatch(/^\d\d:\d\d$/);
    await ship('CLOCK-1', { shipping_channel_id: own });
    const ofChannel = async () => ok<{ id: string; shipments_count: number }[]>(await a.request('GET', `/v1/dispatches?shipping_channel_id=${own}`));
    expect(await ofChannel()).toEqual([]); // not yet its time
    d.clock.advance(2 * 60_000);
    await d.runJobs();
    const [made] = await ofChannel();
    expect(made).toMatchObject({ shipments_count: 1 });
    expect(ok<{ status: string }>(await a.request('GET', `/v1/dispatches/${made!.id}`)).status).toBe('dispatched');
    // later the same day: what was shipped since waits for tomorrow's, or a dispatch by hand
    await ship('CLOCK-2', { shipping_channel_id: own });
    d.clock.advance(60 * 60_000);
    await d.runJobs();
    expect(await ofChannel()).toHaveLength(1);
    d.clock.advance(24 * 3600_000);
    await d.runJobs();
    expect((await ofChannel()).map((x) => x.shipments_count)).toEqual([1, 1]);
  });

  it('takes the shipments named, refuses what it cannot hand over on its field, and a courier the carrier books none of', async () => {
    const [first, second] = [await ship('EOD-4'), await ship('EOD-5')];
    const pending = ok<{ id: string }>(await a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: 'EOD-PENDING' })), 201);
    const refused = await a.request('POST', '/v1/dispatches', { shipping_channel_id: channel, shipment_ids: [first.id, pending.id, 'sh_missing'] });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors).sort()).toEqual(['shipment_ids.1', 'shipment_ids.2']);
    const courier = await a.request('POST', '/v1/dispatches', { shipping_channel_id: channel, pickup: { date: '2020-01-01', from: '14:00', to: '12:00' } });
    expect(courier.statusCode).toBe(422);
    expect(Object.keys(courier.json().errors).sort()).toEqual(['pickup.date', 'pickup.to']);
    // a carrier that books no courier through its API is told so before anything is made
    const spx = findProvider('spx')!;
    const spxChannel = ok<{ id: string }>(await a.request('POST', '/v1/shipping-channels', { name: 'SPX', provider: 'spx', settings: { ...spx.demo.settings, baseUrl: emu.urls.spx } }), 201).id;
    const noCourier = await a.request('POST', '/v1/dispatches', { shipping_channel_id: spxChannel, pickup: { date: '2099-01-01', from: '12:00', to: '14:00' } });
    expect(noCourier.statusCode).toBe(422);
    expect(noCourier.json().errors.pickup[0]).toMatch(/SP Express takes no courier booking/);

    const one = ok<{ shipments: { id: string }[] }>(await a.request('POST', '/v1/dispatches', { shipping_channel_id: channel, shipment_ids: [first.id] }), 201);
    expect(one.shipments.map((s) => s.id)).toEqual([first.id]);
    const named = await a.request('POST', '/v1/dispatches', { shipping_channel_id: channel, shipment_ids: [first.id] });
    expect(named.statusCode).toBe(422); // already in a dispatch
    await d.runJobs();
    // the rest waits for the next dispatch
    const rest = ok<{ id: string; shipments: { id: string }[] }>(await a.request('POST', '/v1/dispatches', { shipping_channel_id: channel }), 201);
    expect(rest.shipments.map((s) => s.id)).toContain(second.id);
    expect(rest.shipments.map((s) => s.id)).not.toContain(first.id);
    expect(ok<{ id: string }[]>(await a.request('GET', `/v1/dispatches?shipping_channel_id=${channel}&per_page=100`)).length).toBeGreaterThanOrEqual(3);
    const other = await d.account('Someone else');
    expect((await other.request('GET', `/v1/dispatches/${rest.id}`)).statusCode).toBe(403);
    expect((await other.request('POST', '/v1/dispatches', { shipping_channel_id: channel })).statusCode).toBe(422);
  });

  it('offers the carrier’s courier windows for the address the waiting shipments leave from, where the carrier publishes them', async () => {
    const windowsOf = (channelId: string, date: string) => a.request('GET', `/v1/dispatches/pickup-windows?shipping_channel_id=${channelId}&date=${date}`);
    const day = nextWorkingDay(d.clock.now());
    // PPL books couriers but publishes no windows: any window may be asked for
    expect(ok(await windowsOf(channel, day))).toEqual({ offered: false, windows: [] });

    const dpd = findProvider('dpd_pl')!;
    const dpdChannel = ok<{ id: string }>(await a.request('POST', '/v1/shipping-channels', { name: 'DPD PL', provider: 'dpd_pl', settings: { ...dpd.demo.settings, baseUrl: emu.urls.dpd_pl } }), 201).id;
    const none = await windowsOf(dpdChannel, day);
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.shipping_channel_id[0]).toMatch(/no created shipment/);
    const { cash_on_delivery_currency: _currency, ...parties } = dpd.demo.shipment;
    const made = ok<{ id: string }>(await a.request('POST', '/v1/shipments', { ...parties, shipping_channel_id: dpdChannel, label_format: 'pdf', parcels: parcelsOf(1) }), 201);
    await d.runJobs();
    expect(ok<{ status: string }>(await a.request('GET', `/v1/shipments/${made.id}`)).status).toBe('created');
    // DPD Poland's getCourierOrderAvailability ranges for the sender's postcode, each a window on the day
    const offered = ok<{ offered: boolean; windows: { date: string; from: string; to: string }[] }>(await windowsOf(dpdChannel, day));
    expect(offered.offered).toBe(true);
    expect(offered.windows.length).toBeGreaterThan(0);
    for (const w of offered.windows) expect(w).toEqual({ date: day, from: expect.stringMatching(/^\d\d:\d\d$/), to: expect.stringMatching(/^\d\d:\d\d$/) });

    const past = await windowsOf(dpdChannel, '2020-01-01');
    expect(past.statusCode).toBe(422);
    expect(past.json().errors.date[0]).toMatch(/is in the past/);
    const spx = ok<{ id: string }[]>(await a.request('GET', '/v1/shipping-channels?provider=spx')).at(0)?.id;
    const noCourier = await windowsOf(spx!, day);
    expect(noCourier.statusCode).toBe(422);
    expect(noCourier.json().errors.shipping_channel_id[0]).toMatch(/SP Express takes no courier booking/);
    expect((await (await d.account('Elsewhere')).request('GET', `/v1/dispatches/pickup-windows?shipping_channel_id=${dpdChannel}&date=${day}`)).statusCode).toBe(422);
  });
});
