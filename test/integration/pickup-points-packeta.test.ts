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
import { memoryProgress, pdfText, pointShipment, refusalOf, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';
import { xsdErrors } from '../helpers/xsd.js';

/**
 * Packeta's pickup points and Z-BOXes, driven through the adapter against its emulator: points found in Packeta's
 * point feed (by post code, by city, near coordinates, one by id), a cash-on-delivery packet sent to one of them as
 * `addressId` in Packeta's schema, its label, its tracking to the point and out of it; a shipment of two parcels as
 * two packets (the COD on the first, one label document); and Packeta's refusals of a point it does not take, on
 * `pickup_point`.
 */

const provider = findProvider('packeta')!;
const service = provider.adapter.pickupPoints!;
const finder = service.finder!;
const XSD = fileURLToPath(new URL('../../src/carriers/packeta/fixtures/schema/create-request.xsd', import.meta.url));
const PRAGUE = { lat: 50.0755, lon: 14.4378 };

/** The operation a recorded REST call asked for (its root element), and the call's XML. */
function operationOf(body: string | undefined): { name: string; xml: string } {
  return { name: /^<(\w+)>/.exec(body ?? '')?.[1] ?? '?', xml: body ?? '' };
}

describe('Packeta delivers to its pickup points and Z-BOXes', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;

  const ctx: CarrierContext = { channelId: 'ch_packeta_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
  const search = (query: Omit<PickupPointQuery, 'countryCode' | 'limit'> & { limit?: number; countryCode?: string }) =>
    finder.search({ countryCode: 'CZ', limit: 20, ...query }, settings, ctx);
  const feedCalls = () => proxy.calls.filter((c) => c.path.includes('/v5/'));
  const sent = (operation: string) => proxy.calls.map((c) => operationOf(c.body)).filter((o) => o.name === operation);

  /** The demo shipment for `point`, to its address (as packdesk fills a destination the shipment left out), with 849.00 CZK to collect. */
  const toPoint = (point: Pick<PickupPoint, 'id' | 'type' | 'address'>, cod: ShipmentForCarrier['cashOnDelivery'] = { amountMinor: 84900, currency: 'CZK' }, parcels = 1) =>
    pointShipment(provider, point, cod, { shippingDate: new Date().toISOString().slice(0, 10), parcels });
  const create = (s: ShipmentForCarrier, progress = memoryProgress()) => provider.adapter.createShipment(s, settings, { ...ctx, progress });
  const held = (trackingNumber: string) => emu.emulator('packeta').shipments().find((s) => (s.shipmentNumbers as string[]).includes(trackingNumber)) as
    { referenceId: string; shipmentNumbers: string[]; cancelled: boolean; packets: Record<string, unknown>[] } | undefined;

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('serves pickup points and Z-BOXes, and finds them by post code, by city and near coordinates in Packeta\'s point feed', async () => {
    expect(service.types).toEqual(['parcelshop', 'locker']);

    const byCode = await search({ postalCode: '602 00' });
    expect(byCode.length).toBeGreaterThan(0);
    for (const p of byCode) {
      expect(p.id).toMatch(/^\d+$/);
      expect(p.address).toMatchObject({ city: 'Brno', countryCode: 'CZ', postalCode: expect.stringMatching(/^602 \d0$/) });
      expect(['parcelshop', 'locker']).toContain(p.type);
      expect(p.openingHours.length).toBeGreaterThan(0);
      expect(p.location).not.toBeNull();
    }
    // the feed is two files downloaded with the API key (the password's first 16 characters), and kept
    expect(feedCalls().map((c) => c.path).sort()).toEqual(['/packeta/v5/0123456789abcdef/box.json', '/packeta/v5/0123456789abcdef/branch.json']);

    const boxes = await search({ postalCode: '602 00', type: 'locker' });
    expect(boxes.length).toBeGreaterThan(0);
    expect(new Set(boxes.map((p) => p.type))).toEqual(new Set(['locker']));
    // a Z-BOX is open round the clock every day
    expect(boxes[0]!.openingHours).toEqual([1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '00:00', to: '24:00' })));

    const ostrava = await search({ city: 'Ostrava', type: 'parcelshop', limit: 5 });
    expect(ostrava).toHaveLength(5);
    for (const p of ostrava) expect(p).toMatchObject({ type: 'parcelshop', address: { city: 'Ostrava' } });

    const near = await search({ near: PRAGUE, limit: 5 });
    expect(near).toHaveLength(5);
    const distances = near.map((p) => distanceKm(PRAGUE, p.location!));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const p of near) expect(p.address.city).toBe('Praha');

    // Slovakia, Hungary and Romania are in the same feed; a country Packeta has no points of is not searched
    expect((await search({ countryCode: 'SK', city: 'Bratislava', limit: 3 })).map((p) => p.address.countryCode)).toEqual(['SK', 'SK', 'SK']);
    expect((await search({ countryCode: 'RO', city: 'Cluj-Napoca', limit: 1 }))).toHaveLength(1);
    expect(await search({ countryCode: 'PL', postalCode: '00-001' })).toEqual([]);
    expect(feedCalls(), 'the feed was downloaded once').toHaveLength(2);
  });

  it('finds one point by its id, and nothing for an id Packeta does not know', async () => {
    const [shop] = await search({ city: 'Plzeň', type: 'parcelshop', limit: 1 });
    expect(await finder.find(shop!.id, settings, ctx)).toEqual(shop);
    expect(await finder.find('99999', settings, ctx)).toBeUndefined();
  });

  it('sends a cash-on-delivery packet to a point found by search: addressId in Packeta\'s schema, a label, ready at the point, then picked up', async () => {
    const point = (await search({ postalCode: '110 00', type: 'parcelshop' })).find((p) => p.open)!;
    expect(point).toBeDefined();
    proxy.calls.length = 0;

    const created = await create(toPoint(point));

    const [request] = sent('createPacket');
    expect(sent('createPacket')).toHaveLength(1);
    expect(xsdErrors(request!.xml, XSD), 'the request against Packeta\'s schema').toEqual([]);
    expect(request!.xml).toContain(`<addressId>${point.id}</addressId><cod>849.00</cod><currency>CZK</currency>`);
    // a packet to a point carries no door address
    expect(request!.xml).not.toContain('<zip>');

    const [parcel] = created.parcels;
    expect(created.product).toBe('pickup-point');
    expect(created.parcels).toHaveLength(1);
    expect(parcel!.trackingNumber).toMatch(provider.adapter.trackingNumberPattern!);
    expect((await decodePdfBarcodes(parcel!.label)).flat()).toContain(parcel!.trackingNumber);
    expect(pdfText(parcel!.label)).toContain(`Pickup point ${point.id}`);
    expect(held(parcel!.trackingNumber)!.packets).toEqual([expect.objectContaining({ pointId: point.id, addressId: point.id, cod: '849.00', currency: 'CZK' })]);

    const advance = (to: string) => advanceEmulatedParcel(emu.url, 'packeta', parcel!.trackingNumber, to);
    const lastEvent = async () => (await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber, carrierRef: parcel!.carrierRef }, settings, ctx)).at(-1)!;
    await advance('ready_for_pickup');
    expect(await lastEvent()).toMatchObject({ status: 'ready_for_pickup', code: '5', text: 'ready for pickup' });
    await advance('delivered');
    expect(await lastEvent()).toMatchObject({ status: 'delivered', code: '7', description: 'Packet was picked up by the customer.' });
    // a barcode without the packet id saved with it is tracked by the id the barcode holds
    const [byNumber] = await provider.adapter.track([{ trackingNumber: parcel!.trackingNumber }], settings, ctx);
    expect(byNumber).toMatchObject({ found: true });
  });

  it('sends a 2-parcel shipment as two packets, the COD and value on the first, and cuts one label document per packet', async () => {
    const [box] = await search({ city: 'Brno', type: 'locker', limit: 1 });
    proxy.calls.length = 0;

    const created = await create(toPoint(box!, { amountMinor: 129900, currency: 'CZK' }, 2));

    const packets = sent('createPacket');
    expect(packets).toHaveLength(2);
    for (const p of packets) expect(xsdErrors(p.xml, XSD)).toEqual([]);
    expect(packets[0]!.xml).toContain('<cod>1299.00</cod><currency>CZK</currency><value>1299.00</value><weight>1.000</weight>');
    expect(packets[1]!.xml).not.toContain('<cod>');
    expect(packets[1]!.xml).toContain('<value>0.00</value><weight>2.000</weight>');
    // one call for both labels
    expect(sent('packetsLabelsPdf')).toHaveLength(1);
    const numbers = created.parcels.map((p) => p.trackingNumber);
    for (const [i, parcel] of created.parcels.entries()) expect(await decodePdfBarcodes(parcel.label)).toEqual([[numbers[i]]]);
    const atPacketa = held(numbers[0]!)!;
    expect(atPacketa.shipmentNumbers).toEqual(numbers);
    expect(atPacketa.packets.map((p) => p.number)).toEqual([atPacketa.referenceId, atPacketa.referenceId]);
  });

  it('goes on with the next packet after a crash, never making a packet twice, and cancels the made ones when a later one is refused', async () => {
    const [shop] = await search({ city: 'Olomouc', type: 'parcelshop', limit: 20 }).then((found) => found.filter((p) => p.open));
    const s = toPoint(shop!, null, 2);
    const progress = memoryProgress();
    // the process dies after the first packet was made and saved, before the second is sent
    progress.failSave((saved) => Array.isArray(saved.packets) && saved.packets.length === 1 && saved.sendingSince !== undefined);
    await expect(create(s, progress)).rejects.toThrow(/died/);
    expect(sent('createPacket')).toHaveLength(1);
    const created = await create(s, progress);
    expect(sent('createPacket')).toHaveLength(2);
    const numbers = created.parcels.map((p) => p.trackingNumber);
    expect(held(numbers[0]!)!.shipmentNumbers).toEqual(numbers);
    // both packets are saved before the labels are asked for: a run that dies there fetches the labels only
    expect(progress.state).toEqual({ packets: created.parcels.map((p) => expect.objectContaining({ id: p.carrierRef, barcode: p.trackingNumber })) });
    expect((await create(s, progress)).parcels.map((p) => p.trackingNumber)).toEqual(numbers);
    expect(sent('createPacket')).toHaveLength(2);

    // a Z-BOX takes 10 kg: the second parcel of 12 kg is refused, and the first packet is cancelled
    const [box] = await search({ city: 'Liberec', type: 'locker', limit: 20 }).then((found) => found.filter((p) => p.open));
    const heavy = toPoint(box!, null, 2);
    heavy.parcels[1]!.weightKg = 12;
    proxy.calls.length = 0;
    const refused = await refusalOf(create(heavy));
    expect(refused.errors).toEqual({ parcels: [`Packeta: Pickup point ${box!.id} takes packets up to 10 kg`] });
    expect(sent('cancelPacket')).toHaveLength(1);
    const first = emu.emulator('packeta').shipments().find((r) => r.referenceId === heavy.id)!;
    expect(first).toMatchObject({ cancelled: true });
  });

  it('refuses on pickup_point a point Packeta does not know, a closed one and a post office', async () => {
    const [somewhere] = await search({ near: PRAGUE, limit: 1 });

    const unknown = await refusalOf(create(toPoint({ ...somewhere!, id: '99999' })));
    expect(unknown).toBeInstanceOf(CarrierRefusedError);
    expect(unknown.errors).toEqual({ pickup_point: ['Packeta: Unknown addressId 99999'] });
    expect(unknown.message).toMatch(/^Packeta refused the request \(PacketAttributesFault\)/);

    const cities = ['Praha', 'Brno', 'Ostrava', 'Plzeň', 'Olomouc', 'Liberec', 'České Budějovice', 'Hradec Králové'];
    const closed = (await Promise.all(cities.map((city) => search({ city, limit: 100 })))).flat().find((p) => !p.open);
    expect(closed, 'the emulator\'s Packeta has closed points').toBeDefined();
    expect((await refusalOf(create(toPoint(closed!)))).errors).toEqual({ pickup_point: [`Packeta: Pickup point ${closed!.id} does not accept packets now`] });

    proxy.calls.length = 0;
    const postOffice = await refusalOf(create(toPoint({ ...somewhere!, type: 'post_office' })));
    expect(Object.keys(postOffice.errors)).toEqual(['pickup_point']);
    const notANumber = await refusalOf(create(toPoint({ ...somewhere!, id: 'CZ-79' })));
    expect(Object.keys(notANumber.errors)).toEqual(['pickup_point']);
    expect(sent('createPacket'), 'refused before Packeta is asked').toEqual([]);
  });
});
