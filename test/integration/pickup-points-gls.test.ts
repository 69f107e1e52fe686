import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { distanceKm } from '../../src/carriers/emulator/points.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { glsPasswordDigest } from '../../src/carriers/gls/client.js';
import { pickupPointOf, type GlsDeliveryPoint } from '../../src/carriers/gls/points.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierContext, PickupPoint, PickupPointQuery, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { memoryProgress, pointShipment, refusalOf, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';

/**
 * GLS ParcelShops and ParcelLockers through MyGLS, driven through the adapter against its emulator: points found in
 * GLS's public point lists (one file per country, as GLS's map widget reads them), a COD parcel sent to a locker with
 * the PSD service, its label, its tracking to the locker and out of it, and GLS's refusals of a point it cannot take.
 */

const provider = findProvider('gls')!;
const adapter = provider.adapter;
const finder = adapter.pickupPoints!.finder!;
const PRINT_LABELS = '/gls/ParcelService.svc/json/PrintLabels';
const CZ_LIST = '/gls/data/deliveryPoints/cz.json';
const PRAHA = { lat: 50.0755, lon: 14.4378 };
const BRNO = { lat: 49.1951, lon: 16.6068 };

describe('GLS ParcelShops and ParcelLockers: found in GLS\'s point lists, shipped to with the PSD service', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  /** What a point search gets without a channel: only where GLS's lists are (here the emulator, through the proxy). */
  let listSettings: { baseUrl: string };
  const ctx: CarrierContext = { channelId: 'ch_gls_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
  const search = (query: Omit<PickupPointQuery, 'limit'> & { limit?: number }) => finder.search({ limit: 10, ...query }, listSettings, ctx);
  const printLabelsBodies = () => proxy.calls.filter((c) => c.path === PRINT_LABELS).map((c) => JSON.parse(c.body!) as { ParcelList: Record<string, unknown>[] });
  /** GLS's own list of a country, as its map widget reads it. */
  const listed = async (country: string): Promise<GlsDeliveryPoint[]> => {
    const res = await fetch(`${emu.urls.gls}/data/deliveryPoints/${country}.json`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { items: GlsDeliveryPoint[] }).items;
  };

  /** The demo's recipient at the point's address (the shipment service fills it so when the order names only the point). */
  const toPoint = (point: PickupPoint, cod: ShipmentForCarrier['cashOnDelivery']) => pointShipment(provider, point, cod);
  const create = (s: ShipmentForCarrier) => adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() });
  const track = async (trackingNumber: string) => {
    const [result] = await adapter.track([{ trackingNumber }], settings, ctx);
    if (!result?.found) throw new Error(`GLS does not know ${trackingNumber}`);
    return result.events;
  };
  const advance = (trackingNumber: string, to: string) => advanceEmulatedParcel(emu.url, 'gls', trackingNumber, to);

  withCarrierBehindProxy(provider, (running) => {
    ({ emu, proxy, settings } = running);
    listSettings = { baseUrl: `${proxy.url}/gls` };
  });
  beforeEach(() => {
    emu.emulator('gls').reset();
  });

  it('declares GLS ParcelShops and ParcelLockers, found without a channel', () => {
    expect(adapter.pickupPoints?.types).toEqual(['parcelshop', 'locker']);
  });

  it('finds points by postal code, by city and near coordinates, of the type asked, reading each country\'s list once', async () => {
    const byPostalCode = await search({ countryCode: 'CZ', postalCode: '110 00', limit: 5 });
    expect(byPostalCode).toHaveLength(5);
    for (const p of byPostalCode) {
      expect(p.id).toMatch(/^CZ\d{5}-(PARCELSH|PLOCKER)\d{3}$/);
      expect(p.address).toMatchObject({ city: 'Praha', countryCode: 'CZ', postalCode: expect.stringMatching(/^110\d\d$/) });
      expect(p.openingHours.length).toBeGreaterThan(0);
      expect(p.location).toEqual({ lat: expect.any(Number), lon: expect.any(Number) });
    }

    const lockersInBrno = await search({ countryCode: 'CZ', city: 'brno', type: 'locker', limit: 5 });
    expect(lockersInBrno).toHaveLength(5);
    for (const p of lockersInBrno) {
      expect(p).toMatchObject({ type: 'locker', name: expect.stringMatching(/^GLS Locker /), address: { city: 'Brno' } });
      expect(p.openingHours).toEqual([1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '00:00', to: '24:00' })));
    }

    const shopsNearPraha = await search({ countryCode: 'CZ', near: PRAHA, type: 'parcelshop', limit: 4 });
    expect(shopsNearPraha.map((p) => [p.type, p.address.city])).toEqual(Array(4).fill(['parcelshop', 'Praha']));
    const distances = shopsNearPraha.map((p) => distanceKm(PRAHA, p.location!));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(shopsNearPraha[0]!.openingHours[0]).toEqual({ day: 1, from: expect.stringMatching(/^\d\d:\d\d$/), to: expect.stringMatching(/^\d\d:\d\d$/) });

    // another country is another of GLS's lists; a country without MyGLS has none
    expect((await search({ countryCode: 'HU', city: 'Budapest', limit: 3 })).map((p) => p.address.countryCode)).toEqual(['HU', 'HU', 'HU']);
    expect(await search({ countryCode: 'PL', city: 'Kraków' })).toEqual([]);

    const lists = proxy.calls.filter((c) => c.path.startsWith('/gls/data/deliveryPoints/'));
    expect(lists.map((c) => [c.method, c.path]), 'each country\'s whole list read once').toEqual([['GET', CZ_LIST], ['GET', '/gls/data/deliveryPoints/hu.json']]);
  });

  it('finds a point by its id, in whichever country\'s list it is, and no point for an id GLS does not list', async () => {
    const [praha] = await search({ countryCode: 'CZ', postalCode: '11000', limit: 1 });
    expect(await finder.find(praha!.id, listSettings, ctx)).toEqual(praha);
    const [ljubljana] = await search({ countryCode: 'SI', city: 'Ljubljana', limit: 1 });
    expect(ljubljana!.id).toMatch(/^SI\d{4}-/);
    expect(await finder.find(ljubljana!.id, listSettings, ctx)).toEqual(ljubljana);
    expect(await finder.find('CZ99999-PARCELSH999', listSettings, ctx)).toBeUndefined();
  });

  it('tells a point that takes no parcels now and one that takes no cash on delivery, as GLS lists them', async () => {
    const items = await listed('cz');
    const outOfOrder = items.find((i) => i.lockerSaturation === 'outOfOrder')!;
    expect(await finder.find(outOfOrder.id!, listSettings, ctx)).toMatchObject({ id: outOfOrder.id, open: false });
    const unpaid = items.find((i) => !i.features!.some((f) => f.startsWith('accepts')) && i.lockerSaturation !== 'outOfOrder')!;
    expect(await finder.find(unpaid.id!, listSettings, ctx)).toMatchObject({ id: unpaid.id, open: true, cashOnDelivery: false });

    // as GLS lists Romanian points: a break in the day, the number after the street, no payment at the point
    expect(pickupPointOf({
      id: 'RO021622-PLOCKER001', name: 'GLS Locker 1047 Bertis', type: 'parcel-shop',
      contact: { countryCode: 'RO', postalCode: '500170', city: 'Brasov BV', address: 'Str. Stefan Baciu, nr. 64' },
      location: [45.67458427, 25.59989556], hours: [[1, '09:00', '18:00', '13:00', '14:00'], [6, null, null]], features: ['pickup', 'delivery'],
    }, 'ro')).toEqual({
      id: 'RO021622-PLOCKER001', name: 'GLS Locker 1047 Bertis', type: 'parcelshop',
      address: { street: 'Str. Stefan Baciu', houseNumber: '64', city: 'Brasov BV', postalCode: '500170', countryCode: 'RO' },
      openingHours: [{ day: 1, from: '09:00', to: '13:00' }, { day: 1, from: '14:00', to: '18:00' }],
      location: { lat: 45.67458427, lon: 25.59989556 }, cashOnDelivery: false, open: true,
    });
  });

  it('sends a 1-parcel COD shipment to a ParcelLocker with the PSD service: the label decodes, tracking reads ready for pickup, then delivered', async () => {
    const locker = (await search({ countryCode: 'CZ', near: BRNO, type: 'locker', limit: 50 })).find((p) => p.open && p.cashOnDelivery)!;
    const shipment = toPoint(locker, { amountMinor: 129000, currency: 'CZK' });
    const created = await create(shipment);

    const [sent] = printLabelsBodies();
    expect(sent!.ParcelList).toEqual([expect.objectContaining({
      CODAmount: 1290, CODCurrency: 'CZK',
      DeliveryAddress: expect.objectContaining({ Street: locker.address.street, City: 'Brno', ZipCode: locker.address.postalCode, ContactPhone: '+420602333444' }),
      ServiceList: [{ Code: 'PSD', PSDParameter: { StringValue: locker.id } }],
    })]);
    expect(emu.emulator('gls').shipments()).toEqual([expect.objectContaining({ pickupPoint: { id: locker.id, type: 'locker' }, cod: expect.objectContaining({ amount: 1290 }) })]);

    const [parcel] = created.parcels;
    expect((await decodePdfBarcodes(parcel!.label)).flat()).toContain(parcel!.trackingNumber);

    await advance(parcel!.trackingNumber, 'ready_for_pickup');
    const waiting = await track(parcel!.trackingNumber);
    expect(waiting.at(-1)).toMatchObject({ code: '54', text: 'ParcelLocker deposit', status: 'ready_for_pickup' });
    await advance(parcel!.trackingNumber, 'delivered');
    const collected = await track(parcel!.trackingNumber);
    expect(collected.at(-1)).toMatchObject({ code: '05', status: 'delivered' });
    expect(collected.map((e) => e.code), 'out for delivery to the locker, put in it, collected').toEqual(['51', '01', '02', '03', '04', '54', '05']);
  });

  it('has a ParcelShop parcel wait as a ParcelShop deposit before it is collected', async () => {
    const shop = (await search({ countryCode: 'SK', city: 'Bratislava', type: 'parcelshop', limit: 50 })).find((p) => p.open)!;
    const { parcels: [parcel] } = await create({ ...toPoint(shop, null), labelFormat: 'zpl' });
    await advance(parcel!.trackingNumber, 'delivered');
    expect((await track(parcel!.trackingNumber)).map((e) => [e.code, e.status]).slice(-2)).toEqual([['55', 'ready_for_pickup'], ['05', 'delivered']]);
  });

  it('refuses a point GLS does not list, one that takes no parcels now and COD to one that takes none, on pickup_point', async () => {
    const items = await listed('cz');
    const point = (item: GlsDeliveryPoint) => pickupPointOf(item, 'cz')!;
    const cod = { amountMinor: 49900, currency: 'CZK' };
    const open = point(items.find((i) => i.lockerSaturation !== 'outOfOrder')!);

    const unknown = await refusalOf(create(toPoint({ ...open, id: 'CZ99999-PARCELSH999' }, null)));
    expect(unknown).toBeInstanceOf(CarrierRefusedError);
    expect(unknown.errors).toEqual({ pickup_point: ['GLS: Parcel validation issue: PSDParameter.StringValue: there is no ParcelShop or ParcelLocker CZ99999-PARCELSH999.'] });

    const closed = point(items.find((i) => i.lockerSaturation === 'outOfOrder')!);
    expect((await refusalOf(create(toPoint(closed, null)))).errors).toEqual({
      pickup_point: [`GLS: Parcel validation issue: PSDParameter.StringValue: ParcelShop or ParcelLocker ${closed.id} takes no parcels now.`],
    });

    const unpaid = point(items.find((i) => !i.features!.some((f) => f.startsWith('accepts')) && i.lockerSaturation !== 'outOfOrder')!);
    expect((await refusalOf(create(toPoint(unpaid, cod)))).errors).toEqual({
      pickup_point: [`GLS: Parcel validation issue: PSD point ${unpaid.id} takes no cash on delivery: send the parcel without CODAmount or to another point.`],
    });
    expect(emu.emulator('gls').shipments()).toEqual([]);

    // GLS has no post offices: refused before GLS is asked
    const before = printLabelsBodies().length;
    const postOffice = await refusalOf(create({ ...toPoint(open, null), pickupPoint: { id: open.id, type: 'post_office' } }));
    expect(postOffice.errors).toEqual({ pickup_point: ['GLS delivers to its ParcelShops and ParcelLockers, not to post offices: choose a GLS point'] });
    expect(printLabelsBodies()).toHaveLength(before);
  });

  it('answers a PSD service without its point id as MyGLS\'s PrintLabelsErrorList', async () => {
    const parcel = JSON.parse(JSON.stringify(printLabelsRequestOf(toPoint((await search({ countryCode: 'CZ', city: 'Praha', limit: 1 }))[0]!, null))));
    parcel.ServiceList = [{ Code: 'PSD', PSDParameter: {} }];
    const res = await fetch(`${emu.urls.gls}/ParcelService.svc/json/PrintLabels`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'sklad@example.cz', Password: glsPasswordDigest('mygls-password-value'), ParcelList: [parcel], TypeOfPrinter: 'Thermo' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      PrintLabelsInfoList: [],
      PrintLabelsErrorList: [{
        ErrorCode: 13, ErrorDescription: 'Parcel validation issue: PSDParameter.StringValue is required: the id of the ParcelShop or ParcelLocker the PSD service delivers to.',
      }],
    });
    expect(emu.emulator('gls').shipments()).toEqual([]);
  });
});

/** The parcel of the PrintLabels body the adapter builds for a shipment. */
function printLabelsRequestOf(shipment: ShipmentForCarrier): Record<string, unknown> {
  const request = provider.mappers.createRequest(shipment, provider.demo.settings) as { ParcelList: Record<string, unknown>[] };
  return request.ParcelList[0]!;
}
