import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { distanceKm } from '../../src/carriers/emulator/points.js';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierContext, PickupPoint, PickupPointQuery, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, pdfText, pointShipment, refusalOf, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';
import { soapOperation, xsdErrors } from '../helpers/xsd.js';

/**
 * DPD Pickup at DPD Poland, driven through the adapter against its emulator: points found through DPD Polska's point
 * API (mypudo: by post code, by city, near coordinates, one by id), a cash-on-delivery parcel sent to one of them as
 * `services.dpdPickup.pudo` beside `services.cod` in DPD's schema, its label, its tracking to the point and out of it,
 * and DPD's refusals of a point it does not take, on `pickup_point`.
 */

const provider = findProvider('dpd_pl')!;
const service = provider.adapter.pickupPoints!;
const finder = service.finder!;
const XSD = fileURLToPath(new URL('../../src/carriers/dpd_pl/fixtures/schema/create-request.xsd', import.meta.url));
const WARSAW = { lat: 52.2297, lon: 21.0122 };

describe('DPD Poland delivers to DPD Pickup points and lockers', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;

  const ctx: CarrierContext = { channelId: 'ch_dpd_pl_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
  const search = (query: Omit<PickupPointQuery, 'countryCode' | 'limit'> & { limit?: number; countryCode?: string }) =>
    finder.search({ countryCode: 'PL', limit: 20, ...query }, { baseUrl: settings.baseUrl! }, ctx);
  const pointCalls = () => proxy.calls.filter((c) => c.path.includes('/api/pudo/'));

  /** The demo parcel for `point`, to its address (as packdesk fills a destination the shipment left out), with 49.90 PLN to collect. */
  const toPoint = (point: Pick<PickupPoint, 'id' | 'type' | 'address'>, cod: ShipmentForCarrier['cashOnDelivery'] = { amountMinor: 4990, currency: 'PLN' }) =>
    pointShipment(provider, point, cod, { shippingDate: new Date().toISOString().slice(0, 10) });
  const create = (s: ShipmentForCarrier) => provider.adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() });
  /** Every point the emulator's DPD knows near Warsaw, as the finder reads them. */
  const warsawPoints = () => search({ near: WARSAW, limit: 100 });

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('serves parcel shops and lockers, and finds them by post code, by city and near coordinates in DPD\'s point API', async () => {
    expect(service.types).toEqual(['parcelshop', 'locker']);

    const byCode = await search({ postalCode: '30-005' });
    expect(byCode.length).toBeGreaterThan(0);
    for (const p of byCode) {
      expect(p.id).toMatch(/^PL\d{5}$/);
      expect(p.address).toMatchObject({ city: 'Kraków', countryCode: 'PL', postalCode: expect.stringMatching(/^30-00\d$/) });
      expect(['parcelshop', 'locker']).toContain(p.type);
      expect(p.openingHours.length).toBeGreaterThan(0);
      expect(p.location).not.toBeNull();
    }
    expect(pointCalls().map((c) => c.path)).toEqual(['/dpd_pl/api/pudo/list/byaddress']);

    const lockers = await search({ postalCode: '30-005', type: 'locker' });
    expect(lockers.length).toBeGreaterThan(0);
    expect(new Set(lockers.map((p) => p.type))).toEqual(new Set(['locker']));
    // a DPD Pickup Station is open round the clock every day
    expect(lockers[0]!.openingHours).toEqual([1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '00:00', to: '24:00' })));

    const gdansk = await search({ city: 'Gdańsk', type: 'parcelshop', limit: 5 });
    expect(gdansk).toHaveLength(5);
    for (const p of gdansk) expect(p).toMatchObject({ type: 'parcelshop', address: { city: 'Gdańsk' } });

    const near = await search({ near: WARSAW, limit: 5 });
    expect(near).toHaveLength(5);
    const distances = near.map((p) => distanceKm(WARSAW, p.location!));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const p of near) expect(p.address.city).toBe('Warszawa');
    expect(pointCalls().map((c) => c.path).slice(-1)).toEqual(['/dpd_pl/api/pudo/list/bylonglat']);

    // DPD Polska's point API answers Poland's points only
    proxy.calls.length = 0;
    expect(await search({ countryCode: 'CZ', postalCode: '110 00' })).toEqual([]);
    expect(pointCalls()).toEqual([]);
  });

  it('finds one point by its id, and nothing for an id DPD does not know', async () => {
    const [shop] = await search({ city: 'Poznań', type: 'parcelshop', limit: 1 });
    expect(await finder.find(shop!.id, { baseUrl: settings.baseUrl! }, ctx)).toEqual(shop);
    expect(await finder.find('PL99999', { baseUrl: settings.baseUrl! }, ctx)).toBeUndefined();
    expect(pointCalls().map((c) => c.path).slice(-2)).toEqual(['/dpd_pl/api/pudo/details', '/dpd_pl/api/pudo/details']);
  });

  it('sends a cash-on-delivery parcel to a point found by search: dpdPickup.pudo beside cod, a label, ready at the point, then collected', async () => {
    const point = (await search({ postalCode: '00-005', type: 'parcelshop' })).find((p) => p.open && p.cashOnDelivery)!;
    expect(point).toBeDefined();
    proxy.calls.length = 0;

    const created = await create(toPoint(point));

    const sent = proxy.calls.map((c) => soapOperation(c.body)).find((o) => o.name === 'generatePackagesNumbersV4')!;
    expect(xsdErrors(sent.element, XSD), 'the request against DPD\'s schema').toEqual([]);
    expect(sent.element).toContain(`<services><cod><amount>49.90</amount><currency>PLN</currency></cod><dpdPickup><pudo>${point.id}</pudo></dpdPickup></services>`);
    expect(sent.element).toContain(`<receiver><address>${point.address.street} ${point.address.houseNumber}</address><city>${point.address.city}</city>`);

    const [parcel] = created.parcels;
    expect(created.parcels).toHaveLength(1);
    expect((await decodePdfBarcodes(parcel!.label)).flat()).toContain(parcel!.trackingNumber);
    expect(pdfText(parcel!.label)).toContain(`DPD Pickup ${point.id}`);
    expect(emu.emulator('dpd_pl').shipments().find((s) => (s.shipmentNumbers as string[]).includes(parcel!.trackingNumber))).toMatchObject({ pudo: point.id, cod: { amount: '49.90', currency: 'PLN' } });

    const advance = (to: string) => advanceEmulatedParcel(emu.url, 'dpd_pl', parcel!.trackingNumber, to);
    const lastStatus = async () => (await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx)).at(-1)!;
    await advance('ready_for_pickup');
    expect(await lastStatus()).toMatchObject({ status: 'ready_for_pickup', description: 'Przyjęcie przesyłki do punktu Pickup' });
    await advance('delivered');
    expect(await lastStatus()).toMatchObject({ status: 'delivered', code: '190101' });
  });

  it('delivers a door parcel at the door and a point parcel only through its point', async () => {
    const demo = demoShipment(provider, `sh_dpd_door_${Math.random().toString(36).slice(2, 10)}`, new Date().toISOString().slice(0, 10));
    const door = await create({ ...demo, pickupPoint: null });
    const sent = proxy.calls.map((c) => soapOperation(c.body)).find((o) => o.name === 'generatePackagesNumbersV4')!;
    expect(sent.element).not.toContain('dpdPickup');
    const [point] = await search({ postalCode: '00-005', type: 'parcelshop', limit: 1 });
    const toPointParcel = await create(toPoint(point!, null));

    const codesOnTheWay = async (trackingNumber: string) => (await advanceEmulatedParcel(emu.url, 'dpd_pl', trackingNumber, 'delivered')).map((e) => e.businessCode);
    expect(await codesOnTheWay(door.parcels[0]!.trackingNumber)).toEqual(['040101', '330135', '170102', '190101']);
    expect(await codesOnTheWay(toPointParcel.parcels[0]!.trackingNumber)).toEqual(['040101', '330135', '170102', '330170', '190101']);
  });

  it('refuses on pickup_point a point DPD does not know, a closed one, cash on delivery where the point takes none, and a post office', async () => {
    const points = await warsawPoints();
    const somewhere = points[0]!;

    const unknown = await refusalOf(create(toPoint({ ...somewhere, id: 'PL99999' })));
    expect(unknown).toBeInstanceOf(CarrierRefusedError);
    expect(unknown.errors).toEqual({ pickup_point: ['DPD Poland: Incorrect SP point identifier'] });
    expect(unknown.message).toMatch(/^DPD Poland refused the shipment/);

    const closed = (await search({ city: 'Warszawa', limit: 100 })).concat(await search({ city: 'Kraków', limit: 100 })).find((p) => !p.open);
    expect(closed, 'the emulator\'s DPD has closed points').toBeDefined();
    expect((await refusalOf(create(toPoint(closed!)))).errors).toEqual({ pickup_point: ['DPD Poland: Incorrect SP point identifier'] });

    const noCash = (await search({ city: 'Warszawa', limit: 100 })).concat(await search({ city: 'Łódź', limit: 100 })).find((p) => p.open && !p.cashOnDelivery);
    expect(noCash, 'the emulator\'s DPD has points without cash on delivery').toBeDefined();
    expect((await refusalOf(create(toPoint(noCash!)))).errors).toEqual({ pickup_point: ['DPD Poland: Service not available in Pickup points'] });
    // the same point takes the parcel without cash to collect
    expect((await create(toPoint(noCash!, null))).parcels).toHaveLength(1);

    proxy.calls.length = 0;
    const postOffice = await refusalOf(create(toPoint({ ...somewhere, type: 'post_office' })));
    expect(Object.keys(postOffice.errors)).toEqual(['pickup_point']);
    expect(proxy.calls.map((c) => soapOperation(c.body).name), 'refused before DPD is asked').not.toContain('generatePackagesNumbersV4');
  });
});
