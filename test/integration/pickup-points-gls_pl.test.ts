import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { distanceKm } from '../../src/carriers/emulator/points.js';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { GlsPlClient } from '../../src/carriers/gls_pl/client.js';
import { glsPlSettings } from '../../src/carriers/gls_pl/settings.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierContext, PickupPoint, PickupPointQuery, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { memoryProgress, pdfText, pointShipment, refusalOf, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';
import { soapOperation, xsdErrors } from '../helpers/xsd.js';

/**
 * GLS ParcelShops at GLS Poland, driven through the adapter against the ADE emulator: points found through ADE's own
 * point operations (adeParcelShop_SearchByZip, _GetByCountry, _SearchByID), a parcel sent to one of them as the `sds`
 * flag with `srv_sds.id` in the WSDL's types, its label, its tracking to the point and out of it once a pickup hands it
 * to GLS, and the refusals of a point GLS does not take, on `pickup_point`.
 */

const provider = findProvider('gls_pl')!;
const service = provider.adapter.pickupPoints!;
const finder = service.finder!;
const XSD = fileURLToPath(new URL('../../src/carriers/gls_pl/fixtures/schema/create-request.xsd', import.meta.url));
const WARSAW = { lat: 52.2297, lon: 21.0122 };

describe('GLS Poland delivers to GLS ParcelShops', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;

  const ctx: CarrierContext = { channelId: 'ch_gls_pl_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
  const search = (query: Omit<PickupPointQuery, 'countryCode' | 'limit'> & { limit?: number; countryCode?: string }) =>
    finder.search({ countryCode: 'PL', limit: 20, ...query }, settings, ctx);
  const operations = () => proxy.calls.map((c) => soapOperation(c.body).name);

  /** The demo parcel for `point`, to its address (as packdesk fills a destination the shipment left out). */
  const toPoint = (point: Pick<PickupPoint, 'id' | 'type' | 'address'>, cod: ShipmentForCarrier['cashOnDelivery'] = null) =>
    pointShipment(provider, point, cod, { shippingDate: new Date().toISOString().slice(0, 10) });
  const create = (s: ShipmentForCarrier) => provider.adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() });

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('serves ParcelShops, and finds them by post code in ADE, and by city and near coordinates in ADE\'s country list', async () => {
    expect(service.types).toEqual(['parcelshop']);

    const byCode = await search({ postalCode: '30-005' });
    expect(byCode.length).toBeGreaterThan(0);
    for (const p of byCode) {
      expect(p.id).toMatch(/^PL\d{5}$/);
      expect(p).toMatchObject({ type: 'parcelshop', open: true, cashOnDelivery: false });
      expect(p.address).toMatchObject({ city: 'Kraków', countryCode: 'PL', postalCode: expect.stringMatching(/^30-00\d$/) });
      expect(p.openingHours.length).toBeGreaterThan(0);
      expect(p.location).not.toBeNull();
    }
    expect(operations()).toContain('adeParcelShop_SearchByZip');

    const gdansk = await search({ city: 'Gdańsk', limit: 5 });
    expect(gdansk).toHaveLength(5);
    for (const p of gdansk) expect(p).toMatchObject({ type: 'parcelshop', address: { city: 'Gdańsk' } });

    const near = await search({ near: WARSAW, limit: 5 });
    expect(near).toHaveLength(5);
    const distances = near.map((p) => distanceKm(WARSAW, p.location!));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const p of near) expect(p.address.city).toBe('Warszawa');
    expect(operations().filter((o) => o === 'adeParcelShop_GetByCountry')).toHaveLength(2);

    // GLS Poland has no lockers or post offices to search
    proxy.calls.length = 0;
    expect(await search({ postalCode: '30-005', type: 'locker' })).toEqual([]);
    expect(operations()).not.toContain('adeParcelShop_SearchByZip');
  });

  it('finds one ParcelShop by its id, and nothing for an id ADE does not know', async () => {
    const [shop] = await search({ city: 'Poznań', limit: 1 });
    expect(await finder.find!(shop!.id, settings, ctx)).toEqual(shop);
    expect(await finder.find!('PL99999', settings, ctx)).toBeUndefined();
    expect(operations().filter((o) => o === 'adeParcelShop_SearchByID')).toHaveLength(2);
  });

  it('sends a parcel to a ParcelShop found by search: sds with srv_sds.id, a label, ready at the point, then collected', async () => {
    const [point] = await search({ postalCode: '00-005' });
    proxy.calls.length = 0;

    const created = await create(toPoint(point!));

    const sent = proxy.calls.map((c) => soapOperation(c.body)).find((o) => o.name === 'adePreparingBox_Insert')!;
    expect(xsdErrors(sent.element, XSD), 'the request against the ADE WSDL\'s types').toEqual([]);
    expect(sent.element).toContain(`<srv_bool><sds>1</sds></srv_bool><srv_sds><id>${point!.id}</id></srv_sds>`);
    expect(sent.element).toContain(`<rzipcode>${point!.address.postalCode}</rzipcode><rcity>${point!.address.city}</rcity><rstreet>${point!.address.street} ${point!.address.houseNumber}</rstreet>`);
    expect(created.product).toBe('sds');

    const [parcel] = created.parcels;
    expect(created.parcels).toHaveLength(1);
    expect((await decodePdfBarcodes(parcel!.label)).flat()).toContain(parcel!.trackingNumber);
    expect(pdfText(parcel!.label)).toContain(`GLS ParcelShop ${point!.id}`);

    // GLS receives the consignment when a pickup takes it out of the preparing box
    await new GlsPlClient(glsPlSettings.parse(settings), ctx).createPickup([created.providerShipmentId], 'points');
    const advance = (to: string) => advanceEmulatedParcel(emu.url, 'gls_pl', parcel!.trackingNumber, to);
    const lastStatus = async () => (await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx)).at(-1)!;
    await advance('ready_for_pickup');
    expect(await lastStatus()).toMatchObject({ status: 'ready_for_pickup', code: '12.83' });
    await advance('delivered');
    expect(await lastStatus()).toMatchObject({ status: 'delivered', code: '3.0' });
  });

  it('refuses on pickup_point a ParcelShop ADE does not know, cash on delivery to a ParcelShop, and a locker', async () => {
    const [somewhere] = await search({ near: WARSAW, limit: 1 });

    const unknown = await refusalOf(create(toPoint({ ...somewhere!, id: 'PL99999' })));
    expect(unknown).toBeInstanceOf(CarrierRefusedError);
    expect(Object.keys(unknown.errors)).toEqual(['pickup_point']);
    expect(unknown.errors.pickup_point![0]).toMatch(/^GLS Poland: .*\(err_cons_srv_sds_id_is_invalid\)$/);
    expect(emu.emulator('gls_pl').shipments().some((s) => s.parcelShop === 'PL99999')).toBe(false);

    proxy.calls.length = 0;
    const cod = await refusalOf(create(toPoint(somewhere!, { amountMinor: 4990, currency: 'PLN' })));
    expect(cod.errors).toEqual({ pickup_point: [expect.stringMatching(/no cash on delivery at a ParcelShop/)] });
    const locker = await refusalOf(create(toPoint({ ...somewhere!, type: 'locker' })));
    expect(Object.keys(locker.errors)).toEqual(['pickup_point']);
    expect(operations(), 'refused before ADE is asked').not.toContain('adePreparingBox_Insert');
  });
});
