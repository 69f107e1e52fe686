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

/**
 * Paczkomat lockers and PaczkoPunkt shops at InPost, driven through the adapter against its emulator: points found in
 * ShipX's public point list (by post code, by city, near coordinates, one by name), a cash-on-delivery parcel sent to
 * one as `inpost_locker_standard` with `custom_attributes.target_point` and a size template, its label, its tracking
 * into the locker and out of it, ShipX's refusals of a point on `pickup_point`, and a shipment whose answer was lost
 * found again by its reference instead of being made twice.
 */

const provider = findProvider('inpost')!;
const service = provider.adapter.pickupPoints!;
const finder = service.finder!;
const WARSAW = { lat: 52.2297, lon: 21.0122 };
const CREATE_PATH = '/inpost/v1/organizations/1234/shipments';

interface HeldShipment { referenceId: string; shipmentNumbers: string[]; targetPoint: string | null; cod: number | null; templates: (string | null)[]; service: string }

describe('InPost delivers to Paczkomat lockers and PaczkoPunkt shops', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;

  const ctx: CarrierContext = { channelId: 'ch_inpost_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
  const search = (query: Omit<PickupPointQuery, 'countryCode' | 'limit'> & { limit?: number; countryCode?: string }) =>
    finder.search({ countryCode: 'PL', limit: 20, ...query }, { baseUrl: settings.baseUrl! }, ctx);
  const pointCalls = () => proxy.calls.filter((c) => c.path.startsWith('/inpost/v1/points'));
  const posts = () => proxy.calls.filter((c) => c.method === 'POST' && c.path === CREATE_PATH);
  const held = () => emu.emulator('inpost').shipments() as unknown as HeldShipment[];

  /** The demo parcel for `point`, to its address (as packdesk fills a destination the shipment left out), with 49.90 PLN to collect. */
  const toPoint = (point: Pick<PickupPoint, 'id' | 'type' | 'address'>, cod: ShipmentForCarrier['cashOnDelivery'] = { amountMinor: 4990, currency: 'PLN' }, parcels = 1) =>
    pointShipment(provider, point, cod, { shippingDate: new Date().toISOString().slice(0, 10), parcels });
  const create = (s: ShipmentForCarrier, progress = memoryProgress()) => provider.adapter.createShipment(s, settings, { ...ctx, progress });
  const cityPoints = async (...cities: string[]) => (await Promise.all(cities.map((city) => search({ city, limit: 100 })))).flat();

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('serves lockers and PaczkoPunkt shops, and finds them by post code, by city and near coordinates in ShipX\'s point list', async () => {
    expect(service.types).toEqual(['locker', 'parcelshop']);

    const byCode = await search({ postalCode: '30-005' });
    expect(byCode.length).toBeGreaterThan(0);
    for (const p of byCode) {
      expect(p.id).toMatch(/^(POP-)?KRA\d{3}$/);
      expect(p.address).toMatchObject({ city: 'Kraków', countryCode: 'PL', postalCode: expect.stringMatching(/^30-00\d$/) });
      expect(['locker', 'parcelshop']).toContain(p.type);
      expect(p.openingHours.length).toBeGreaterThan(0);
      expect(p.location).not.toBeNull();
    }
    expect(pointCalls().map((c) => c.path)).toEqual(['/inpost/v1/points']);

    const lockers = await search({ postalCode: '30-005', type: 'locker' });
    expect(lockers.length).toBeGreaterThan(0);
    expect(new Set(lockers.map((p) => p.type))).toEqual(new Set(['locker']));
    // a Paczkomat is open round the clock every day
    expect(lockers[0]!.openingHours).toEqual([1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '00:00', to: '24:00' })));

    const gdansk = await search({ city: 'Gdańsk', type: 'parcelshop', limit: 5 });
    expect(gdansk).toHaveLength(5);
    for (const p of gdansk) expect(p).toMatchObject({ type: 'parcelshop', id: expect.stringMatching(/^POP-GDA\d{3}$/), address: { city: 'Gdańsk' } });

    const near = await search({ near: WARSAW, limit: 5 });
    expect(near).toHaveLength(5);
    const distances = near.map((p) => distanceKm(WARSAW, p.location!));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const p of near) expect(p.address.city).toBe('Warszawa');

    // ShipX Poland's points are in Poland only
    proxy.calls.length = 0;
    expect(await search({ countryCode: 'CZ', postalCode: '110 00' })).toEqual([]);
    expect(await search({ postalCode: '30-005', type: 'post_office' })).toEqual([]);
    expect(pointCalls()).toEqual([]);
  });

  it('finds one point by its name, and nothing for a name InPost does not know', async () => {
    const [shop] = await search({ city: 'Poznań', type: 'parcelshop', limit: 1 });
    expect(await finder.find(shop!.id, { baseUrl: settings.baseUrl! }, ctx)).toEqual(shop);
    expect(await finder.find('XXX999', { baseUrl: settings.baseUrl! }, ctx)).toBeUndefined();
    expect(pointCalls().map((c) => c.path).slice(-2)).toEqual([`/inpost/v1/points/${shop!.id}`, '/inpost/v1/points/XXX999']);
  });

  it('sends a cash-on-delivery parcel to a Paczkomat found by search: target_point and a size template, a label, ready in the locker, then collected', async () => {
    const point = (await search({ postalCode: '00-005', type: 'locker' })).find((p) => p.open && p.cashOnDelivery)!;
    expect(point).toBeDefined();
    proxy.calls.length = 0;

    const created = await create(toPoint(point));

    const [sent] = posts();
    const body = JSON.parse(sent!.body!) as Record<string, unknown>;
    expect(body).toMatchObject({
      service: 'inpost_locker_standard',
      custom_attributes: { target_point: point.id, sending_method: 'dispatch_order' },
      parcels: [{ template: 'medium' }], // the demo parcel, 30 × 20 × 10 cm, is a B
      cod: { amount: 49.9, currency: 'PLN' },
      receiver: { email: 'zofia@example.pl', phone: '512345678' },
    });
    // the recipient collects at the locker: ShipX gets no door address for them
    expect(body.receiver).not.toHaveProperty('address');

    const [parcel] = created.parcels;
    expect(created.parcels).toHaveLength(1);
    expect(created.product).toBe('inpost_locker_standard');
    expect((await decodePdfBarcodes(parcel!.label)).flat()).toContain(parcel!.trackingNumber);
    expect(pdfText(parcel!.label)).toContain(`Paczkomat ${point.id}`);
    expect(held().find((s) => s.shipmentNumbers.includes(parcel!.trackingNumber))).toMatchObject({ targetPoint: point.id, cod: 49.9, templates: ['medium'] });

    const advance = (to: string) => advanceEmulatedParcel(emu.url, 'inpost', parcel!.trackingNumber, to);
    const lastStatus = async () => (await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx)).at(-1)!;
    await advance('ready_for_pickup');
    expect(await lastStatus()).toMatchObject({ status: 'ready_for_pickup', code: 'ready_to_pickup' });
    await advance('delivered');
    expect(await lastStatus()).toMatchObject({ status: 'delivered', code: 'delivered' });
  });

  it('refuses on pickup_point a point InPost does not know, a closed one and cash on delivery where the point takes none; on parcels a second parcel', async () => {
    const points = await cityPoints('Warszawa', 'Kraków', 'Łódź', 'Wrocław');
    const somewhere = points.find((p) => p.open && p.cashOnDelivery)!;

    const unknown = await refusalOf(create(toPoint({ ...somewhere, id: 'XXX999' })));
    expect(unknown).toBeInstanceOf(CarrierRefusedError);
    expect(unknown.errors).toEqual({ pickup_point: ['InPost: custom_attributes.target_point does_not_exist'] });
    expect(unknown.message).toMatch(/^InPost refused the request/);

    const closed = points.find((p) => !p.open);
    expect(closed, 'the emulator\'s InPost has closed points').toBeDefined();
    expect((await refusalOf(create(toPoint(closed!)))).errors).toEqual({ pickup_point: ['InPost: custom_attributes.target_point invalid_box_machine_status'] });

    const noCash = points.find((p) => p.open && !p.cashOnDelivery);
    expect(noCash, 'the emulator\'s InPost has points without payments').toBeDefined();
    expect((await refusalOf(create(toPoint(noCash!)))).errors).toEqual({ pickup_point: ['InPost: custom_attributes.target_point invalid_box_machine_function'] });
    // the same point takes the parcel without cash to collect
    expect((await create(toPoint(noCash!, null))).parcels).toHaveLength(1);

    // a locker shipment is one parcel: two are refused on `parcels`, and a post office on `pickup_point`, before ShipX is asked
    proxy.calls.length = 0;
    const two = await refusalOf(create(toPoint(somewhere, null, 2)));
    expect(Object.keys(two.errors)).toEqual(['parcels']);
    expect(two.errors.parcels![0]).toMatch(/one parcel a shipment to a Paczkomat/);
    expect(Object.keys((await refusalOf(create(toPoint({ ...somewhere, type: 'post_office' })))).errors)).toEqual(['pickup_point']);
    expect(posts()).toEqual([]);
  });

  it('finds a shipment whose answer was lost by its reference, and waits for its label instead of making a second one', async () => {
    const [point] = (await search({ city: 'Katowice', type: 'locker', limit: 20 })).filter((p) => p.open);
    const shipment = toPoint(point!, null);
    const progress = memoryProgress();
    // the process dies after ShipX made the shipment and before its id was stored
    progress.failSave((saved) => saved.shipmentId !== undefined);
    await expect(create(shipment, progress)).rejects.toThrow(/process died/);
    expect(progress.state).toHaveProperty('sendingSince');

    const again = await create(shipment, progress);

    expect(posts()).toHaveLength(1);
    expect(proxy.calls.map((c) => `${c.method} ${c.path}`)).toContain(`GET ${CREATE_PATH}`);
    const mine = held().filter((s) => s.referenceId === shipment.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.shipmentNumbers).toEqual(again.parcels.map((p) => p.trackingNumber));
  });
});
