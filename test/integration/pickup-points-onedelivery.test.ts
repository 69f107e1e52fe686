import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { OnedeliveryPoints } from '../../src/carriers/onedelivery/emulator-points.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { callOneEmulator, demoShipment, memoryProgress, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';

/**
 * One by Allegro's WEDO POINT (bridge.intime.cz/doc/restapi-pup.html): a package to a pickup place is product PUP with
 * the place's code in `pup_branch` and the recipient's mobile in `pup_contact`. One publishes no list of its places
 * in a readable shape, so the adapter has no finder and the places come from the emulator's own generator.
 */

const provider = findProvider('onedelivery')!;
const adapter = provider.adapter;
const ctx = { channelId: 'ch_onedelivery_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Prague' }).format(new Date());

/** The emulator's places, to name an open one that collects COD, a closed one and one that collects none. */
const places = new OnedeliveryPoints();
const czech = Array.from({ length: 300 }, (_, i) => places.get(`VM${String(i + 1).padStart(5, '0')}`)!);
const openWithCod = czech.find((p) => p.open && p.cashOnDelivery && p.city === 'Brno')!;
const closed = czech.find((p) => !p.open)!;
const noCod = czech.find((p) => p.open && !p.cashOnDelivery)!;

/** Our demo shipment to a place: the recipient's contact, the place's address, as the daemon holds it. */
function toPlace(id: string, code: string, place: { street: string; houseNumber: string; city: string; postalCode: string }, cod: boolean): ShipmentForCarrier {
  const s = demoShipment(provider, id, today);
  return {
    ...s, recipient: { ...s.recipient, street: place.street, houseNumber: place.houseNumber, city: place.city, postalCode: place.postalCode, countryCode: 'CZ' },
    cashOnDelivery: cod ? { amountMinor: 49_900, currency: 'CZK' } : null,
    pickupPoint: { id: code, type: 'parcelshop' },
  };
}

describe('One by Allegro WEDO POINT: product PUP with pup_branch, refusals on pickup_point, tracking at the place', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  const sentPackages = () => proxy.calls.filter((c) => c.method === 'POST' && c.path === '/onedelivery/package');

  // sent for processing at creation, so One's courier takes the package and tracking can move
  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running), { sendForProcessing: true });

  it('delivers to pickup places, and has no search of them', () => {
    expect(adapter.pickupPoints).toEqual({ types: ['parcelshop'] });
  });

  it('ships a one-parcel COD package to a place as PUP with its code, prints a label that scans, and tracks it to the place and out', async () => {
    const shipment = toPlace('sh_one_point_1', openWithCod.code, openWithCod, true);
    const created = await adapter.createShipment(shipment, settings, { ...ctx, progress: memoryProgress() });
    expect(created.product).toBe('PUP');

    const [call] = sentPackages();
    const sent = JSON.parse(call!.body!) as Record<string, unknown>;
    expect(sent).toMatchObject({
      product: 'PUP', pup_branch: openWithCod.code, pup_contact: shipment.recipient.phone,
      receiver: { street: `${openWithCod.street} ${openWithCod.houseNumber}`, city: 'Brno', postal_code: openWithCod.postalCode.replace(/\s/g, ''), state: 'CZ' },
      additional_service: { cash_on_delivery: 499 },
    });
    const [parcel] = created.parcels;
    expect(await decodePdfBarcodes(parcel!.label)).toEqual([[parcel!.trackingNumber]]);
    const held = emu.emulator('onedelivery').shipments().find((s) => s.orderNumber === created.providerShipmentId);
    expect(held).toMatchObject({ pupBranch: openWithCod.code, cashOnDelivery: 499 });

    const advance = (to: string) => advanceEmulatedParcel(emu.url, 'onedelivery', parcel!.trackingNumber, to);
    const tracked = async () => (await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx)).map((e) => [e.code, e.status]);
    await advance('ready_for_pickup');
    expect(await tracked()).toEqual([['STORED', 'ready_for_pickup']]);
    await advance('delivered');
    expect(await tracked()).toEqual([['DELIVERED', 'delivered']]);
  });

  it('stores a package for a place at the place on its way to delivered, never out for delivery to a door', async () => {
    const created = await adapter.createShipment(toPlace('sh_one_point_2', openWithCod.code, openWithCod, false), settings, { ...ctx, progress: memoryProgress() });
    const number = created.parcels[0]!.trackingNumber;
    const events = await advanceEmulatedParcel(emu.url, 'onedelivery', number, 'delivered');
    expect(events.map((e) => e.code)).toEqual(['PICKED_UP', 'IN_DEPOT', 'STORED', 'DELIVERED']);
  });

  it.each([
    ['an unknown place', 'VM99999', false, 'pickup place VM99999 does not exist'],
    ['a closed place', closed.code, false, `pickup place ${closed.code} takes no packages now`],
    ['COD to a place that collects none', noCod.code, true, `pickup place ${noCod.code} collects no cash on delivery`],
  ])('refuses %s on pickup_point, as One words it', async (_case, id, cod, words) => {
    const shipment = toPlace(`sh_one_bad_${id}`, id, places.get(id) ?? { street: 'Údolní', houseNumber: '5', city: 'Brno', postalCode: '60200' }, cod);
    const refused = await adapter.createShipment(shipment, settings, { ...ctx, progress: memoryProgress() }).then(() => undefined, (err: unknown) => err);
    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect((refused as CarrierRefusedError).errors).toEqual({ pickup_point: [`One by Allegro: ${words}`] });
    expect(sentPackages()).toHaveLength(1);
  });

  it('refuses PUP without a place and a code longer than One keeps before asking One; One itself refuses PUP without pup_branch', async () => {
    const door = demoShipment(provider, 'sh_one_pup_door', today);
    const refused = await adapter.createShipment(door, { ...settings, product: 'PUP' }, { ...ctx, progress: memoryProgress() }).then(() => undefined, (err: unknown) => err);
    expect((refused as CarrierRefusedError).errors).toEqual({ pickup_point: [expect.stringMatching(/^One by Allegro product PUP delivers to a WEDO POINT pickup place: /)] });
    const long = { ...demoShipment(provider, 'sh_one_long_code', today), pickupPoint: { id: 'VM000000001', type: null } };
    const tooLong = await adapter.createShipment(long, settings, { ...ctx, progress: memoryProgress() }).then(() => undefined, (err: unknown) => err);
    expect((tooLong as CarrierRefusedError).errors).toEqual({ pickup_point: ['a One by Allegro pickup place code has 1 to 10 characters (e.g. VM00075)'] });
    expect(proxy.calls, 'nothing sent to One').toEqual([]);

    const raw = await callOneEmulator(emu.urls.onedelivery!, 'POST', 'package', {
      receiver: { name: 'Řehoř', street: 'Údolní 5', city: 'Brno', postal_code: '60200', state: 'CZ', phone: '+420602333444' },
      package_count: 1, weight: 1, value: 0, product: 'PUP',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ message: 'Invalid package data', detail: ['pup_branch: required for product PUP', 'pup_contact: required for product PUP'] });
  });
});
