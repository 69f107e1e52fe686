import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AllegroEmulatedPoints } from '../../src/carriers/allegro/emulator-points.js';
import { distanceKm } from '../../src/carriers/emulator/points.js';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { PickupPoint } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { allegroAccessToken, demoShipment, memoryProgress, pointShipment, refusalOf, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';
import { carrierSchemaErrors } from '../helpers/json-schema.js';

const provider = findProvider('allegro')!;
const adapter = provider.adapter;
const finder = adapter.pickupPoints!.finder!;
/** The emulated seller's Allegro One Box method, which delivers to points (src/carriers/allegro/emulator-validation.ts). */
const ONE_BOX = '5e4b2f3c-0b8a-4d2e-9c61-7a1f0d3e8b24';
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date());

/** Allegro's published schema of the create command (fixtures/schema/SOURCE.md). */
const commandSchema = carrierSchemaErrors('allegro');

/** Our demo shipment to a point: the recipient's contact, the point's address, as the daemon fills it. */
const toPoint = (id: string, point: Pick<PickupPoint, 'id' | 'type' | 'address'>, cod: boolean) =>
  pointShipment(provider, point, cod ? { amountMinor: 4_990, currency: 'PLN' } : null, { id, shippingDate: today });

describe('Allegro One Box and points: GET /order/carriers/ALLEGRO/points, receiver.point and tracking at the point', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let accessToken: string;
  const ctx = {
    channelId: 'ch_allegro_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000,
    grant: { accessToken: async () => accessToken, refused: async () => undefined },
  };
  const pointCalls = () => proxy.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/allegro/order/carriers/ALLEGRO/points')).length;
  const emulated = new AllegroEmulatedPoints();

  withCarrierBehindProxy(provider, async (running) => {
    ({ emu, proxy, settings } = running);
    accessToken = await allegroAccessToken(provider, emu);
  }, { deliveryMethodId: ONE_BOX });

  it('delivers to points and lockers and has no look-up by id', () => {
    expect(adapter.pickupPoints!.types).toEqual(['parcelshop', 'locker']);
    expect(finder.find, 'Allegro’s list lacks the other networks its methods deliver to').toBeUndefined();
  });

  it('finds points near a postal code, One Boxes in a city, and any point nearest first around coordinates, from one list a channel', async () => {
    const shops = await finder.search({ countryCode: 'PL', postalCode: '30-004', type: 'parcelshop', limit: 5 }, settings, ctx);
    expect(shops.length).toBeGreaterThan(0);
    expect(shops.length).toBeLessThanOrEqual(5);
    for (const p of shops) {
      expect(p).toMatchObject({ type: 'parcelshop', address: { city: 'Kraków', countryCode: 'PL', postalCode: expect.stringMatching(/^30-00\d$/) } });
      expect(p.id).toMatch(/^\d{10}$/);
      expect(p.address.houseNumber).toMatch(/^\d+$/);
      expect(p.location).toEqual({ lat: expect.any(Number), lon: expect.any(Number) });
      expect(p.openingHours.length).toBeGreaterThan(0);
      expect(p.openingHours.map((h) => h.day).every((day) => day >= 1 && day <= 6), 'shops close on Sundays').toBe(true);
    }

    const lockers = await finder.search({ countryCode: 'PL', city: 'kraków', type: 'locker', limit: 10 }, settings, ctx);
    expect(lockers.length).toBe(10);
    for (const p of lockers) expect(p).toMatchObject({ type: 'locker', name: expect.stringMatching(/^Allegro One Box /), address: { city: 'Kraków' } });
    expect(lockers[0]!.openingHours).toEqual([1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '00:00', to: '24:00' })));

    const warsaw = { lat: 52.2297, lon: 21.0122 };
    const near = await finder.search({ countryCode: 'PL', near: warsaw, limit: 8 }, settings, ctx);
    expect(near).toHaveLength(8);
    const distances = near.map((p) => distanceKm(warsaw, p.location!));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(distances[7]).toBeLessThan(10);
    expect(new Set(near.map((p) => p.type))).toEqual(new Set(['parcelshop', 'locker']));

    // only the points of the channel's carrier (Allegro One), and the whole list is read once an hour
    const ids = new Set([...shops, ...lockers, ...near].map((p) => p.id));
    for (const id of ids) expect(emulated.get(id)!.carriers).toContain('ALLEGRO_ONE_KURIER');
    expect(pointCalls()).toBe(1);
    const courier = { ...settings, deliveryMethodId: provider.demo.settings.deliveryMethodId as string };
    const dpd = await finder.search({ countryCode: 'PL', city: 'Kraków', type: 'parcelshop', limit: 50 }, courier, ctx);
    for (const p of dpd) expect(emulated.get(p.id)!.carriers, 'a DPD channel searches DPD’s points').toContain('DPD');
    expect(dpd.some((p) => !emulated.get(p.id)!.carriers.includes('ALLEGRO_ONE_KURIER'))).toBe(true);
    expect(pointCalls()).toBe(2);

    expect(await finder.search({ countryCode: 'PL', city: 'Kraków', type: 'post_office', limit: 5 }, settings, ctx)).toEqual([]);
    expect(await finder.search({ countryCode: 'CZ', city: 'Praha', limit: 5 }, settings, ctx)).toEqual([]);
  });

  it('marks an overloaded point closed and one that takes no payment without COD', async () => {
    const all = await finder.search({ countryCode: 'PL', near: { lat: 52, lon: 19 }, limit: 1000 }, settings, ctx);
    const closed = all.find((p) => !p.open)!;
    expect(emulated.get(closed.id)!.restrictions).toEqual([{ type: 'OVERLOADED' }]);
    const noCod = all.find((p) => !p.cashOnDelivery)!;
    expect(emulated.get(noCod.id)!.payments).toEqual([]);
  });

  it('ships a one-parcel COD parcel to a One Box with receiver.point, prints a label that scans, and tracks it to the box and out', async () => {
    const [box] = (await finder.search({ countryCode: 'PL', city: 'Łódź', type: 'locker', limit: 20 }, settings, ctx)).filter((p) => p.cashOnDelivery && p.open);
    const shipment = toPoint('sh_allegro_point_1', box!, true);

    const created = await adapter.createShipment(shipment, settings, { ...ctx, progress: memoryProgress() });
    expect(created.product).toBe(ONE_BOX);
    const sent = JSON.parse(proxy.calls.find((c) => c.method === 'POST' && c.path === '/allegro/shipment-management/shipments/create-commands')!.body!) as { input: Record<string, unknown> };
    expect(sent.input).toMatchObject({
      deliveryMethodId: ONE_BOX,
      receiver: {
        point: box!.id, street: `${box!.address.street} ${box!.address.houseNumber}`, postalCode: box!.address.postalCode, city: 'Łódź',
        phone: shipment.recipient.phone, email: shipment.recipient.email,
      },
      cashOnDelivery: { amount: '49.90', currency: 'PLN' },
    });
    expect(commandSchema(sent), 'the command against Allegro’s published schema').toEqual([]);
    const [parcel] = created.parcels;
    expect(await decodePdfBarcodes(parcel!.label)).toEqual([[parcel!.trackingNumber]]);

    const tracked = () => trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx);
    await advanceEmulatedParcel(emu.url, 'allegro', parcel!.trackingNumber, 'ready_for_pickup');
    expect((await tracked()).at(-1)).toMatchObject({ code: 'AVAILABLE_FOR_PICKUP', status: 'ready_for_pickup' });
    await advanceEmulatedParcel(emu.url, 'allegro', parcel!.trackingNumber, 'delivered');
    expect((await tracked()).slice(-2).map((e) => e.status)).toEqual(['ready_for_pickup', 'delivered']);
  });

  it.each([
    ['an unknown point', () => '1299999999', false, 'Pickup point 1299999999 does not exist.'],
    ['an overloaded point', () => pointWhere((p) => p.restrictions.length > 0 && p.carriers.includes('ALLEGRO_ONE_KURIER')), false, 'is overloaded and takes no parcels now.'],
    ['COD to a point that takes no payment', () => pointWhere((p) => p.payments.length === 0 && p.restrictions.length === 0 && p.carriers.includes('ALLEGRO_ONE_KURIER')), true, 'takes no payments'],
    ['a point of another carrier only', () => pointWhere((p) => !p.carriers.includes('ALLEGRO_ONE_KURIER')), false, 'is not served by Allegro One Box.'],
  ])('refuses %s on pickup_point, as Allegro words it', async (_case, id, cod, words) => {
    const point = id();
    const address = { street: 'Polna', houseNumber: '12', city: 'Kraków', postalCode: '30-004', countryCode: 'PL' };
    const refused = await refusalOf(adapter.createShipment(toPoint(`sh_allegro_bad_${point}`, { id: point, type: 'locker', address }, cod), settings, { ...ctx, progress: memoryProgress() }));
    expect(refused.errors).toEqual({ pickup_point: [expect.stringContaining(words)] });
    expect(refused.errors.pickup_point![0]).toMatch(/^Allegro: Pickup point \d{10} /);
  });

  it('refuses a point method without a point, and a point on a door method, on pickup_point', async () => {
    const door = await refusalOf(adapter.createShipment({ ...demoShipment(provider, 'sh_allegro_box_no_point', today), pickupPoint: null }, settings, { ...ctx, progress: memoryProgress() }));
    expect(door.errors).toEqual({ pickup_point: ['Allegro: Allegro One Box delivers to a pickup point; the point id is required.'] });
    const box = pointWhere((p) => p.restrictions.length === 0 && p.carriers.includes('DPD'));
    const courier = { ...settings, deliveryMethodId: provider.demo.settings.deliveryMethodId as string };
    const address = { street: 'Polna', houseNumber: '12', city: 'Kraków', postalCode: '30-004', countryCode: 'PL' };
    const toCourier = await refusalOf(adapter.createShipment(toPoint('sh_allegro_courier_point', { id: box, type: 'parcelshop', address }, false), courier, { ...ctx, progress: memoryProgress() }));
    expect(toCourier.errors).toEqual({ pickup_point: ["Allegro: Allegro Kurier DPD delivers to the receiver's address, not to a pickup point."] });
  });

  it('answers the point list to an application token too, and refuses a carrier it does not know', async () => {
    expect((await fetch(`${emu.urls.allegro}/order/carriers/ALLEGRO/points`)).status).toBe(401);
    const headers = { authorization: `Bearer ${accessToken}`, accept: 'application/vnd.allegro.public.v1+json' };
    const all = (await (await fetch(`${emu.urls.allegro}/order/carriers/ALLEGRO/points`, { headers })).json()) as { points: unknown[] };
    expect(all.points.length).toBe(400);
    const bad = await fetch(`${emu.urls.allegro}/order/carriers/ALLEGRO/points?carriers=INPOST`, { headers });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ errors: [{ code: 'VALIDATION_ERROR', path: 'carriers' }] });
  });

  /** The id of the first emulated point that `matches`. */
  const pointWhere = (matches: (p: NonNullable<ReturnType<AllegroEmulatedPoints['get']>>) => boolean) =>
    Array.from({ length: 400 }, (_, seq) => emulated.get(String(1_200_000_000 + seq))!).find(matches)!.id;
});
