import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { distanceKm } from '../../src/carriers/emulator/points.js';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { PosteDeliveryPoints } from '../../src/carriers/poste_italiane/emulator-points.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { PickupPoint } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { memoryProgress, pointShipment, refusalOf, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';

const provider = findProvider('poste_italiane')!;
const adapter = provider.adapter;
const finder = adapter.pickupPoints!.finder!;
const ctx = { channelId: 'ch_poste_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
const WAYBILL_PATH = '/poste_italiane/postalandlogistics/parcel/waybill';

/** Our demo shipment to a point: the recipient's contact, the point's address, as the daemon fills it. */
const toPoint = (id: string, point: Pick<PickupPoint, 'id' | 'address'> & { type: PickupPoint['type'] | null }, cod: boolean, parcels = 1) =>
  pointShipment(provider, point, cod ? { amountMinor: 4_990, currency: 'EUR' } : null, { id, shippingDate: today, parcels });

describe('Poste Italiane Punto Poste, lockers and post offices: parcel/deliveryPoint, point services and tracking at the point', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  const pointCalls = () => proxy.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/poste_italiane/postalandlogistics/parcel/deliveryPoint'));
  const emulated = new PosteDeliveryPoints();
  const advance = (number: string, to: string) => advanceEmulatedParcel(emu.url, 'poste_italiane', number, to);

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('delivers to Punto Poste shops, lockers and post offices, searched with the channel’s session and never looked up by code', () => {
    expect(adapter.pickupPoints!.types).toEqual(['parcelshop', 'locker', 'post_office']);
    expect(finder.find, 'Poste has no look-up of one point').toBeUndefined();
  });

  it('finds Punto Poste shops by CAP, every type by CAP nearest first, and nothing without a CAP', async () => {
    const shops = await finder.search({ countryCode: 'IT', postalCode: '00118', type: 'parcelshop', limit: 5 }, settings, ctx);
    expect(shops.length).toBeGreaterThan(0);
    expect(shops.length).toBeLessThanOrEqual(5);
    for (const p of shops) {
      expect(p).toMatchObject({ type: 'parcelshop', address: { city: 'ROMA', countryCode: 'IT', postalCode: expect.stringMatching(/^001\d\d$/) } });
      expect(p.id).toMatch(/^Z\d{4}$/);
      expect(p.name).toMatch(/^PUNTO POSTE /);
      expect(p.address.houseNumber).toMatch(/^\d+$/);
      expect(p.location!.lat).toBeCloseTo(41.9, 0);
      expect(p.location!.lon).toBeCloseTo(12.5, 0);
      expect(p.openingHours.slice(0, 5).map((h) => h.day)).toEqual([1, 2, 3, 4, 5]);
      expect(p.openingHours.every((h) => h.day <= 6), 'Poste gives no Sunday').toBe(true);
    }
    expect(pointCalls(), 'one search: the CAP and RTZ').toHaveLength(1);

    const milan = { lat: 45.4642, lon: 9.19 };
    const any = await finder.search({ countryCode: 'IT', postalCode: '20121', near: milan, limit: 30 }, settings, ctx);
    expect(new Set(any.map((p) => p.type))).toEqual(new Set(['parcelshop', 'locker', 'post_office']));
    const distances = any.map((p) => distanceKm(milan, p.location!));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    const locker = any.find((p) => p.type === 'locker')!;
    expect(locker.id).toMatch(/^L\d{4}$/);
    expect(locker.openingHours).toContainEqual({ day: 1, from: '00:00', to: '24:00' });
    expect(any.find((p) => p.type === 'post_office')!.id).toMatch(/^\d{5}$/);
    expect(pointCalls(), 'one search per type: RTZ, APT, FMP').toHaveLength(4);

    expect(await finder.search({ countryCode: 'IT', city: 'Roma', limit: 5 }, settings, ctx)).toEqual([]);
    expect(await finder.search({ countryCode: 'IT', near: milan, limit: 5 }, settings, ctx)).toEqual([]);
    expect(pointCalls(), 'Poste searches by CAP only: nothing asked').toHaveLength(4);
  });

  it('ships a one-parcel COD shipment to a Punto Poste with APT000947 and its code, prints a label that scans, and tracks it to the point and out', async () => {
    const [point] = await finder.search({ countryCode: 'IT', postalCode: '20121', type: 'parcelshop', limit: 1 }, settings, ctx);
    const shipment = toPoint('sh_poste_point_1', point!, true);

    const created = await adapter.createShipment(shipment, settings, { ...ctx, progress: memoryProgress() });
    const sent = JSON.parse(proxy.calls.find((c) => c.method === 'POST' && c.path === WAYBILL_PATH)!.body!) as { waybills: { data: Record<string, unknown> }[] };
    expect(sent.waybills[0]!.data).toMatchObject({
      services: { APT000947: { node: point!.id, name: '' }, APT000918: { amount: '49.90', paymentMode: 'CON' } },
      receiver: { address: point!.address.street, streetNumber: point!.address.houseNumber, zipCode: point!.address.postalCode, phone: expect.any(String) },
    });
    const [parcel] = created.parcels;
    expect(await decodePdfBarcodes(parcel!.label)).toEqual([[parcel!.trackingNumber]]);

    const tracked = async () => (await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx)).map((e) => e.status);
    await advance(parcel!.trackingNumber, 'ready_for_pickup');
    expect((await tracked()).at(-1)).toBe('ready_for_pickup');
    expect(await tracked()).not.toContain('out_for_delivery');
    await advance(parcel!.trackingNumber, 'delivered');
    expect((await tracked()).slice(-2)).toEqual(['ready_for_pickup', 'delivered']);
  });

  it.each([
    ['an unknown point', () => 'Z9999', 'parcelshop' as const, /^Poste Italiane: Punto di consegna Z9999 inesistente/],
    ['a locker code sent as a Punto Poste', () => emulated.codes().find((c) => c.startsWith('L'))!, 'parcelshop' as const, /inesistente/],
    ['a full point', () => emulated.codes().find((c) => !emulated.get(c)!.open)!, null, /non disponibile/],
  ])('refuses %s on pickup_point, as Poste words it', async (_case, code, asType, words) => {
    const id = code();
    const place = emulated.get(id);
    const type = asType ?? place!.type;
    const address = { street: 'Via Roma', houseNumber: '5', city: 'Roma', postalCode: '00118', countryCode: 'IT' };
    const refused = await refusalOf(adapter.createShipment(toPoint(`sh_poste_bad_${id}`, { id, type, address }, false), settings, { ...ctx, progress: memoryProgress() }));
    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect(refused.errors).toEqual({ pickup_point: [expect.stringMatching(words)] });
  });

  it('refuses a point without a type and two parcels to a locker and an empty code, before asking Poste', async () => {
    const address = { street: 'Via Roma', houseNumber: '5', city: 'Roma', postalCode: '00118', countryCode: 'IT' };
    const untyped = await refusalOf(adapter.createShipment(toPoint('sh_poste_untyped', { id: 'Z1001', type: null, address }, false), settings, { ...ctx, progress: memoryProgress() }));
    expect(untyped.errors).toEqual({ pickup_point: [expect.stringMatching(/^Poste Italiane: give the point's type/)] });
    const twoToLocker = await refusalOf(adapter.createShipment(toPoint('sh_poste_two', { id: 'L1001', type: 'locker', address }, false, 2), settings, { ...ctx, progress: memoryProgress() }));
    expect(twoToLocker.errors).toEqual({ pickup_point: ['Poste Italiane: a Punto Poste Locker takes one parcel per shipment, not 2'] });
    expect(proxy.calls, 'nothing sent to Poste').toEqual([]);

    const shipment = toPoint('sh_poste_nonode', { id: 'Z1001', type: 'parcelshop', address }, false);
    const refused = await refusalOf(adapter.createShipment({ ...shipment, pickupPoint: { id: ' ', type: 'parcelshop' } }, settings, { ...ctx, progress: memoryProgress() }));
    expect(refused.errors).toEqual({ pickup_point: ['Poste Italiane: the point\'s code is empty'] });
  });
});
