import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { EMULATED_POINTS } from '../../src/carriers/baselinker/emulator-courier.js';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, pointShipment, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';

/**
 * Baselinker (Base.com) to a point: the point goes on the order, addOrder's `delivery_point_id` (with its name,
 * address, postcode and city, api.baselinker.com/?method=addOrder), and the package goes with the channel's point
 * service of the courier's form (createPackage `fields`). Base.com publishes no point search, so the adapter has no
 * finder; the emulated courier (DHL) refuses a point it cannot deliver to, and the adapter maps that to pickup_point.
 */

const provider = findProvider('baselinker')!;
const adapter = provider.adapter;
const ctx = { channelId: 'ch_baselinker_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date());

/** The emulated courier's points, to name an open one that takes COD, a closed one and one that takes none. */
const points = EMULATED_POINTS.all();
const openWithCod = points.find((p) => p.open && p.cashOnDelivery && p.type === 'locker' && p.city === 'Kraków')!;
const closed = points.find((p) => !p.open)!;
const noCod = points.find((p) => p.open && !p.cashOnDelivery)!;

/** Our demo shipment to a point: the recipient's contact, the point's address, as the daemon holds it. */
const toPoint = (id: string, pointId: string, point: { street: string; houseNumber: string; city: string; postalCode: string }, cod: boolean) =>
  pointShipment(provider, { id: pointId, type: 'locker', address: { ...point, countryCode: 'PL' } }, cod ? { amountMinor: 18_900, currency: 'PLN' } : null, { id, shippingDate: today });

describe('Baselinker to a point: delivery_point_id on the order, the point service on the package, refusals on pickup_point', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  /** The `parameters` of each call of a method, in order. */
  const sent = (method: string) => proxy.calls
    .map((c) => new URLSearchParams(c.body ?? ''))
    .filter((form) => form.get('method') === method)
    .map((form) => JSON.parse(form.get('parameters')!) as Record<string, unknown>);

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('delivers to shops and lockers, and has no search of them', () => {
    expect(adapter.pickupPoints).toEqual({ types: ['parcelshop', 'locker'] });
  });

  it('ships a one-parcel COD package to a point with the point on the order and the point service, prints a label that scans, and tracks it to the point and out', async () => {
    const shipment = toPoint('sh_bl_point_1', openWithCod.id, openWithCod, true);
    const created = await adapter.createShipment(shipment, settings, { ...ctx, progress: memoryProgress() });
    expect(created.product).toBe('pop');

    const [order] = sent('addOrder');
    expect(order).toMatchObject({
      delivery_point_id: openWithCod.id, delivery_point_name: openWithCod.id, delivery_point_address: `${openWithCod.street} ${openWithCod.houseNumber}`,
      delivery_point_postcode: openWithCod.postalCode, delivery_point_city: 'Kraków',
      delivery_address: `${openWithCod.street} ${openWithCod.houseNumber}`, delivery_city: 'Kraków', payment_method_cod: '1',
    });
    const [pkg] = sent('createPackage');
    expect(pkg!.fields).toEqual(expect.arrayContaining([{ id: 'service', value: 'pop' }, { id: 'cod', value: '189.00' }]));

    const [parcel] = created.parcels;
    expect(await decodePdfBarcodes(parcel!.label)).toEqual([[parcel!.trackingNumber]]);
    const held = emu.emulator('baselinker').shipments().find((s) => s.id === created.providerShipmentId);
    expect(held).toMatchObject({ pickupPoint: openWithCod.id, cod: 189, product: 'pop' });

    const advance = (to: string) => advanceEmulatedParcel(emu.url, 'baselinker', parcel!.trackingNumber, to);
    const tracked = async () => (await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber, carrierRef: parcel!.carrierRef }, settings, ctx)).at(-1)!;
    await advance('ready_for_pickup');
    expect(await tracked()).toMatchObject({ code: '8', status: 'ready_for_pickup' });
    await advance('delivered');
    expect(await tracked()).toMatchObject({ code: '5', status: 'delivered' });
  });

  it('takes a package for a point to the point on its way to delivered, never out for delivery to a door', async () => {
    const created = await adapter.createShipment(toPoint('sh_bl_point_2', openWithCod.id, openWithCod, false), settings, { ...ctx, progress: memoryProgress() });
    const events = await advanceEmulatedParcel(emu.url, 'baselinker', created.parcels[0]!.trackingNumber, 'delivered');
    expect(events.map((e) => e.tracking_status)).toEqual([2, 11, 8, 5]);
  });

  it.each([
    ['an unknown point', '1169999', false, 'the pickup point 1169999 does not exist'],
    ['a closed point', closed.id, false, `the pickup point ${closed.id} is closed and takes no parcels`],
    ['COD to a point that takes none', noCod.id, true, `the pickup point ${noCod.id} takes no cash on delivery`],
  ])('refuses %s on pickup_point, in the courier\'s words, and deletes the order', async (_case, id, cod, words) => {
    const shipment = toPoint(`sh_bl_bad_${id}`, id, EMULATED_POINTS.get(id) ?? openWithCod, cod);
    const refused = await adapter.createShipment(shipment, settings, { ...ctx, progress: memoryProgress() }).then(() => undefined, (err: unknown) => err);
    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect((refused as CarrierRefusedError).errors).toEqual({ pickup_point: [`Baselinker: Courier API error: ${words}`] });
    expect(sent('deleteOrders')).toHaveLength(1);
  });

  it('refuses a point id longer than an order keeps before asking Base.com; the courier refuses a point with a door service and a point service without a point', async () => {
    const long = { ...demoShipment(provider, 'sh_bl_long_point', today), pickupPoint: { id: 'X'.repeat(41), type: null } };
    const tooLong = await adapter.createShipment(long, settings, { ...ctx, progress: memoryProgress() }).then(() => undefined, (err: unknown) => err);
    expect((tooLong as CarrierRefusedError).errors).toEqual({ pickup_point: [expect.stringMatching(/^a pickup point id on a Base\.com order has 1 to 40 characters/)] });
    expect(proxy.calls, 'nothing sent to Base.com').toEqual([]);

    const { pointService: _none, ...withoutPointService } = settings;
    const doorService = await adapter.createShipment(toPoint('sh_bl_point_door', openWithCod.id, openWithCod, false), withoutPointService, { ...ctx, progress: memoryProgress() })
      .then(() => undefined, (err: unknown) => err);
    expect((doorService as CarrierRefusedError).errors).toEqual({
      pickup_point: [`Baselinker: Courier API error: the order's pickup point ${openWithCod.id} needs service pop; service standard delivers to the door`],
    });

    const noPoint = await adapter.createShipment(demoShipment(provider, 'sh_bl_pop_door', today), { ...settings, service: 'pop' }, { ...ctx, progress: memoryProgress() })
      .then(() => undefined, (err: unknown) => err);
    expect((noPoint as CarrierRefusedError).errors).toEqual({
      pickup_point: ['Baselinker: Courier API error: service pop delivers to a pickup point: the order has no delivery_point_id'],
    });
  });
});
