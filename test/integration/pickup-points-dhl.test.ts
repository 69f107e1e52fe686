import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { schemaValidator } from '../../src/carriers/dhl/emulator-validation.js';
import { servicePointSearch } from '../../src/carriers/dhl/points.js';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { distanceKm } from '../../src/carriers/emulator/points.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierContext, PickupPoint, PickupPointQuery, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { memoryProgress, pointShipment, refusalOf, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';

/**
 * DHL Express Service Points through the MyDHL API, driven through the adapter against its emulator: points found with
 * `GET /servicepoints`, a COD shipment sent to one with On Demand Delivery `servicepoint`, its label, its tracking to
 * the point (CC, awaiting collection) and out of it (OK), and DHL's refusals of a point it cannot take.
 */

const provider = findProvider('dhl')!;
const adapter = provider.adapter;
const finder = adapter.pickupPoints!.finder!;
const BRNO = { lat: 49.1951, lon: 16.6068 };

describe('DHL Express Service Points: found with GET /servicepoints, shipped to with On Demand Delivery servicepoint', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  const ctx: CarrierContext = { channelId: 'ch_dhl_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
  const search = (query: Omit<PickupPointQuery, 'limit'> & { limit?: number }) => finder.search({ limit: 10, ...query }, settings, ctx);
  const shipmentBodies = () => proxy.calls.filter((c) => c.method === 'POST' && c.path === '/dhl/shipments').map((c) => JSON.parse(c.body!) as Record<string, unknown>);

  /** The demo's recipient at the point's address (the shipment service fills it so when the order names only the point). */
  const toPoint = (point: PickupPoint, cod: ShipmentForCarrier['cashOnDelivery']) => pointShipment(provider, point, cod);
  const create = (s: ShipmentForCarrier) => adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() });
  const track = async (trackingNumber: string) => {
    const [result] = await adapter.track([{ trackingNumber }], settings, ctx);
    if (!result?.found) throw new Error(`DHL does not know ${trackingNumber}`);
    return result.events;
  };
  const advance = (trackingNumber: string, to: string) => advanceEmulatedParcel(emu.url, 'dhl', trackingNumber, to);
  /** Every emulated point of a country, as DHL answers a look-up by id of each status. */
  const pointsOf = async (countryCode: string, city: string) => search({ countryCode, city, limit: 50 });

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));
  beforeEach(() => {
    emu.emulator('dhl').reset();
  });

  it('declares DHL Express Service Points: shops and 24/7 lockers', () => {
    expect(adapter.pickupPoints?.types).toEqual(['parcelshop', 'locker']);
  });

  it('finds points by postal code, by city and near coordinates, of the type asked, through the channel\'s MyDHL API', async () => {
    const byPostalCode = await search({ countryCode: 'CZ', postalCode: '110 00', limit: 5 });
    expect(byPostalCode).toHaveLength(5);
    for (const p of byPostalCode) {
      expect(p.id).toMatch(/^[A-Z]{3}\d{3}$/);
      expect(p.address).toMatchObject({ city: 'PRAHA', countryCode: 'CZ', postalCode: expect.stringMatching(/^110 \d\d$/) });
      expect(p.address.street).not.toBe('');
      expect(p.address.houseNumber).toMatch(/^\d+$/);
      expect(p.openingHours.length).toBeGreaterThan(0);
      expect(p.location).toEqual({ lat: expect.any(Number), lon: expect.any(Number) });
    }

    const lockersInBrno = await search({ countryCode: 'CZ', city: 'Brno', type: 'locker', limit: 5 });
    expect(lockersInBrno).toHaveLength(5);
    for (const p of lockersInBrno) {
      expect(p).toMatchObject({ type: 'locker', name: expect.stringMatching(/^DHL Express 24\/7 /), address: { city: 'BRNO' } });
      expect(p.openingHours).toEqual([1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '00:00', to: '24:00' })));
    }

    const shopsNearBrno = await search({ countryCode: 'CZ', near: BRNO, type: 'parcelshop', limit: 4 });
    expect(shopsNearBrno.map((p) => [p.type, p.address.city])).toEqual(Array(4).fill(['parcelshop', 'BRNO']));
    const distances = shopsNearBrno.map((p) => distanceKm(BRNO, p.location!));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));

    const searches = proxy.calls.filter((c) => c.path.startsWith('/dhl/servicepoints'));
    expect(searches).toHaveLength(3);
    // DHL geocodes the address; lockers are its 24/7 points; points where a recipient collects a parcel (78,79)
    expect(Object.fromEntries(servicePointSearch({ countryCode: 'cz', city: 'Brno', type: 'locker', limit: 5 }))).toEqual({
      countryCode: 'CZ', address: 'Brno', servicePointResults: '5', capability: '78,79', servicePointTypes: '247', resultUom: 'km',
    });

    // a country where DHL answers none: status 600, no points
    expect(await search({ countryCode: 'FR', city: 'Paris' })).toEqual([]);
  });

  it('finds a point by its Service Point ID, a closed one as closed, and no point for an ID DHL does not know', async () => {
    const points = await pointsOf('CZ', 'Praha');
    const shop = points.find((p) => p.type === 'parcelshop')!;
    expect(await finder.find!(shop.id, settings, ctx)).toEqual(shop);
    expect(await finder.find!('ZZZ999', settings, ctx)).toBeUndefined();
    expect(await finder.find!('not an id', settings, ctx)).toBeUndefined();

    // a search answers open points only (svpStatus A); a look-up by id answers a closed one too, as closed
    const [closed] = await closedPointIds();
    expect(closed).toBeDefined();
    expect(await finder.find!(closed!, settings, ctx)).toMatchObject({ id: closed, open: false });
  });

  it('sends a 1-parcel COD shipment to a Service Point: the request carries On Demand Delivery servicepoint and passes DHL\'s schema, the label decodes, tracking reads ready for pickup, then delivered', async () => {
    const shop = (await search({ countryCode: 'CZ', near: BRNO, type: 'parcelshop', limit: 50 })).find((p) => p.open && p.cashOnDelivery)!;
    const shipment = toPoint(shop, { amountMinor: 129000, currency: 'CZK' });
    const created = await create(shipment);

    const [sent] = shipmentBodies();
    expect(sent).toMatchObject({
      productCode: 'N',
      valueAddedServices: [{ serviceCode: 'KB', value: 1290, currency: 'CZK' }],
      onDemandDelivery: { deliveryOption: 'servicepoint', servicePointId: shop.id },
      customerDetails: {
        receiverDetails: { postalAddress: { cityName: 'BRNO', postalCode: shop.address.postalCode }, contactInformation: { phone: '+420602333444' } },
        buyerDetails: { postalAddress: { cityName: 'BRNO' }, contactInformation: { phone: '+420602333444', email: 'rehor@example.cz' } },
      },
    });
    const validate = schemaValidator();
    expect(validate(sent), JSON.stringify(validate.errors)).toBe(true);
    expect(emu.emulator('dhl').shipments()).toEqual([expect.objectContaining({ servicePointId: shop.id, cashOnDelivery: expect.objectContaining({ value: 1290 }) })]);

    const [parcel] = created.parcels;
    expect((await decodePdfBarcodes(parcel!.label)).flat()).toContain(parcel!.trackingNumber);

    await advance(parcel!.trackingNumber, 'ready_for_pickup');
    const waiting = await track(parcel!.trackingNumber);
    expect(waiting.at(-1)).toMatchObject({ code: 'CC', status: 'ready_for_pickup' });
    await advance(parcel!.trackingNumber, 'delivered');
    const collected = await track(parcel!.trackingNumber);
    expect(collected.at(-1)).toMatchObject({ code: 'OK', status: 'delivered' });
    expect(collected.map((e) => e.code), 'to the delivery facility, to the point, collected: never with a courier').not.toContain('WC');
  });

  it('has a Service Point shipment sent straight on to delivered wait at the point first, awaiting collection', async () => {
    const locker = (await search({ countryCode: 'SK', city: 'Bratislava', type: 'locker', limit: 50 })).find((p) => p.open)!;
    const { parcels: [parcel] } = await create({ ...toPoint(locker, null), labelFormat: 'zpl' });
    await advance(parcel!.trackingNumber, 'delivered');
    const events = await track(parcel!.trackingNumber);
    expect(events.map((e) => [e.code, e.status]).slice(-2)).toEqual([['CC', 'ready_for_pickup'], ['OK', 'delivered']]);
    expect(events.map((e) => e.code)).not.toContain('WC');
  });

  it('refuses a Service Point DHL does not know, a closed one and COD to one that takes no payment, on pickup_point', async () => {
    const points = await pointsOf('CZ', 'Ostrava');
    const open = points.find((p) => p.open)!;
    const cod = { amountMinor: 49900, currency: 'CZK' };

    const unknown = await refusalOf(create(toPoint({ ...open, id: 'ZZZ999' }, null)));
    expect(unknown).toBeInstanceOf(CarrierRefusedError);
    expect(unknown.errors).toEqual({
      pickup_point: ["DHL Express: The Service Point #/onDemandDelivery/servicePointId 'ZZZ999' is not found. Please check the Service Point ID via the /servicepoints service."],
    });

    const closedId = (await closedPointIds())[0]!;
    const closed = (await finder.find!(closedId, settings, ctx))!;
    expect((await refusalOf(create(toPoint(closed, null)))).errors).toEqual({
      pickup_point: [`DHL Express: The Service Point #/onDemandDelivery/servicePointId '${closedId}' is closed and takes no shipments.`],
    });

    const unpaid = (await pointsOf('CZ', 'Praha')).find((p) => !p.cashOnDelivery)!;
    expect((await refusalOf(create(toPoint(unpaid, cod)))).errors).toEqual({
      pickup_point: [`DHL Express: The Service Point #/onDemandDelivery/servicePointId '${unpaid.id}' takes no payment on delivery: send the shipment without service KB or to another Service Point.`],
    });
    expect(emu.emulator('dhl').shipments()).toEqual([]);

    // no post offices, and an id that is no Service Point ID: refused before DHL is asked
    const before = shipmentBodies().length;
    const postOffice = await refusalOf(create({ ...toPoint(open, null), pickupPoint: { id: open.id, type: 'post_office' } }));
    expect(postOffice.errors).toEqual({ pickup_point: ['DHL Express delivers to its Service Points and 24/7 lockers, not to post offices: choose a DHL Express Service Point'] });
    const malformed = await refusalOf(create({ ...toPoint(open, null), pickupPoint: { id: 'PRG-0041', type: null } }));
    expect(Object.keys(malformed.errors)).toEqual(['pickup_point']);
    expect(shipmentBodies()).toHaveLength(before);
  });

  it('answers On Demand Delivery servicepoint without its point id, or without buyerDetails, with MyDHL\'s problem', async () => {
    const [point] = await search({ countryCode: 'CZ', city: 'Praha', limit: 1 });
    const body = provider.mappers.createRequest(toPoint(point!, null), provider.demo.settings) as Record<string, Record<string, unknown>>;
    const post = (request: unknown) => fetch(`${emu.urls.dhl}/shipments`, {
      method: 'POST', body: JSON.stringify(request),
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('station-1:mydhl-secret').toString('base64')}` },
    });
    const withoutId = await post({ ...body, onDemandDelivery: { deliveryOption: 'servicepoint' } });
    expect(withoutId.status).toBe(400);
    expect(await withoutId.json()).toMatchObject({ detail: "#/onDemandDelivery: required key [servicePointId] not found for deliveryOption 'servicepoint'.", title: 'Bad request' });
    const { buyerDetails: _, ...parties } = body.customerDetails!;
    const withoutBuyer = await post({ ...body, customerDetails: parties });
    expect(await withoutBuyer.json()).toMatchObject({ status: '400', detail: '#/customerDetails: required key [buyerDetails] not found when #/onDemandDelivery is used.' });
    expect(emu.emulator('dhl').shipments()).toEqual([]);
  });

  /** The ids of the country's closed points, as a search asked for DHL's status X (closed) answers them. */
  async function closedPointIds(): Promise<string[]> {
    const res = await fetch(`${emu.urls.dhl}/servicepoints?countryCode=CZ&latitude=50.0755&longitude=14.4378&servicePointResults=50&svpStatus=X`, {
      headers: { authorization: `Basic ${Buffer.from('station-1:mydhl-secret').toString('base64')}` },
    });
    const answer = (await res.json()) as { servicePoints: { facilityId: string; svpStatus: string }[] | null };
    return (answer.servicePoints ?? []).map((p) => p.facilityId);
  }
});
