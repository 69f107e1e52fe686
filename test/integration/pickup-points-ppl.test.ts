import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { distanceKm } from '../../src/carriers/emulator/points.js';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { PplAccessPoints } from '../../src/carriers/ppl/emulator-points.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { PickupPoint } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, pointShipment, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { pplEmulatorControl } from '../helpers/shipments.js';
import { carrierSchemaErrors } from '../helpers/json-schema.js';

const provider = findProvider('ppl')!;
const adapter = provider.adapter;
const finder = adapter.pickupPoints!.finder!;
const ctx = { channelId: 'ch_ppl_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Prague' }).format(new Date());

/** PPL's published schema of the `POST /shipment/batch` body (fixtures/schema/SOURCE.md). */
const batchSchema = carrierSchemaErrors('ppl');

/** Our demo shipment to a point: the recipient's contact, the point's address, as the daemon fills it. */
const toPoint = (id: string, point: Pick<PickupPoint, 'id' | 'type' | 'address'>, cod: boolean) =>
  pointShipment(provider, point, cod ? { amountMinor: 49_900, currency: 'CZK' } : null, { id, shippingDate: today });

describe('PPL ParcelShops and ParcelBoxes: GET /accessPoint, Smart products and tracking at the point', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  const control = pplEmulatorControl(() => emu.url);
  const pointCalls = () => proxy.calls.filter((c) => c.method === 'GET' && c.path === '/ppl/accessPoint').length;
  /** The emulator's own points, to name one out of service and one that takes no payment. */
  const emulated = new PplAccessPoints();

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('delivers to ParcelShops and lockers, and searches them with the channel’s credentials', () => {
    expect(adapter.pickupPoints!.types).toEqual(['parcelshop', 'locker']);
  });

  it('finds ParcelShops near a postal code, lockers in a city, and any point nearest first around coordinates', async () => {
    const shops = await finder.search({ countryCode: 'CZ', postalCode: '602 00', type: 'parcelshop', limit: 5 }, settings, ctx);
    expect(shops.length).toBeGreaterThan(0);
    expect(shops.length).toBeLessThanOrEqual(5);
    for (const p of shops) {
      expect(p).toMatchObject({ type: 'parcelshop', open: true, address: { city: 'Brno', countryCode: 'CZ', postalCode: expect.stringMatching(/^602\d\d$/) } });
      expect(p.id).toMatch(/^KM\d{8}$/);
      expect(p.address.houseNumber).toMatch(/^\d+$/);
      expect(p.location).toEqual({ lat: expect.any(Number), lon: expect.any(Number) });
      expect(p.openingHours.length).toBeGreaterThan(0);
      for (const h of p.openingHours) expect(h).toEqual({ day: expect.any(Number), from: expect.stringMatching(/^\d\d:\d\d$/), to: expect.stringMatching(/^\d\d:\d\d$/) });
      expect(p.openingHours.map((h) => h.day).every((day) => day >= 1 && day <= 6), 'shops close on Sundays').toBe(true);
    }

    const lockers = await finder.search({ countryCode: 'CZ', city: 'Brno', type: 'locker', limit: 10 }, settings, ctx);
    expect(lockers.length).toBe(10);
    for (const p of lockers) expect(p).toMatchObject({ type: 'locker', address: { city: 'Brno' } });
    // a locker is open round the clock, Sunday (PPL's weekDay 1) included
    expect(lockers[0]!.openingHours).toEqual([1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '00:00', to: '24:00' })));

    const prague = { lat: 50.0755, lon: 14.4378 };
    const near = await finder.search({ countryCode: 'CZ', near: prague, limit: 8 }, settings, ctx);
    expect(near).toHaveLength(8);
    const distances = near.map((p) => distanceKm(prague, p.location!));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(distances[7]).toBeLessThan(10);
    expect(new Set(near.map((p) => p.type))).toEqual(new Set(['parcelshop', 'locker']));
    expect(pointCalls()).toBe(3);

    expect(await finder.search({ countryCode: 'CZ', city: 'Brno', type: 'post_office', limit: 5 }, settings, ctx)).toEqual([]);
    expect(pointCalls(), 'PPL has no post offices: nothing asked').toBe(3);
  });

  it('finds a known point by its code, and neither an unknown code nor a point out of service', async () => {
    const [shop] = await finder.search({ countryCode: 'CZ', city: 'Ostrava', type: 'parcelshop', limit: 1 }, settings, ctx);
    expect(await finder.find(shop!.id, settings, ctx)).toEqual(shop);
    expect(await finder.find('KM19999999', settings, ctx)).toBeUndefined();
    expect(await finder.find(closedCode(), settings, ctx), 'PPL lists only points in service').toBeUndefined();
  });

  it('ships a one-parcel COD shipment to a ParcelShop with SMAD and its code, prints a label that scans, and tracks it to the point and out', async () => {
    const [point] = (await finder.search({ countryCode: 'CZ', city: 'Brno', type: 'parcelshop', limit: 20 }, settings, ctx)).filter((p) => p.cashOnDelivery);
    const shipment = toPoint('sh_ppl_point_1', point!, true);

    const created = await adapter.createShipment(shipment, settings, { ...ctx, progress: memoryProgress() });
    expect(created.product).toBe('SMAD');
    const sent = JSON.parse(proxy.calls.find((c) => c.method === 'POST' && c.path === '/ppl/shipment/batch')!.body!) as { shipments: Record<string, unknown>[] };
    expect(sent.shipments[0]).toMatchObject({
      productType: 'SMAD', specificDelivery: { parcelShopCode: point!.id },
      recipient: { street: `${point!.address.street} ${point!.address.houseNumber}`, zipCode: point!.address.postalCode, phone: shipment.recipient.phone },
      cashOnDelivery: { codPrice: 499, codCurrency: 'CZK' },
    });
    expect(batchSchema(sent), 'the request against PPL’s published schema').toEqual([]);
    const [parcel] = created.parcels;
    expect(await decodePdfBarcodes(parcel!.label)).toEqual([[parcel!.trackingNumber]]);
    expect((await control.shipments()).find((s) => s.referenceId === shipment.id)).toMatchObject({ productType: 'SMAD', parcelShopCode: point!.id });

    const tracked = async () => (await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx)).map((e) => e.status);
    expect((await control.advance(parcel!.trackingNumber, 'ready_for_pickup')).status).toBe(200);
    expect((await tracked()).at(-1)).toBe('ready_for_pickup');
    expect(await tracked()).not.toContain('out_for_delivery');
    expect((await control.advance(parcel!.trackingNumber, 'delivered')).status).toBe(200);
    expect((await tracked()).slice(-2)).toEqual(['ready_for_pickup', 'delivered']);
  });

  it('collects a parcel for a locker at the locker when it is advanced straight to delivered', async () => {
    const [locker] = await finder.search({ countryCode: 'CZ', city: 'Plzeň', type: 'locker', limit: 1 }, settings, ctx);
    const created = await adapter.createShipment(toPoint('sh_ppl_point_2', locker!, false), settings, { ...ctx, progress: memoryProgress() });
    expect(created.product).toBe('SMAR');
    const number = created.parcels[0]!.trackingNumber;
    expect((await control.advance(number, 'delivered')).status).toBe(200);
    const [result] = await adapter.track([{ trackingNumber: number }], settings, ctx);
    expect(result!.found && result.events.map((e) => e.code)).toEqual(['900', '150', '500', '300', '343', '450']);
  });

  it.each([
    ['an unknown point', () => 'KM19999999', false, 'Access point KM19999999 does not exist.'],
    ['a point out of service', () => closedCode(), false, 'is out of service.'],
    ['COD to a point that takes no payment', () => noPaymentCode(), true, 'does not accept cash on delivery.'],
  ])('refuses %s on pickup_point, as PPL words it', async (_case, code, cod, words) => {
    const id = code();
    const place = emulated.get(id)?.place;
    const address = place
      ? { street: place.street, houseNumber: place.houseNumber, city: place.city, postalCode: place.postalCode.replace(/\s/g, ''), countryCode: 'CZ' }
      : { street: 'Údolní', houseNumber: '5', city: 'Brno', postalCode: '60200', countryCode: 'CZ' };
    const shipment = toPoint(`sh_ppl_bad_${id}`, { id, type: 'parcelshop', address }, cod);
    const refused = await adapter.createShipment(shipment, settings, { ...ctx, progress: memoryProgress() }).then(() => undefined, (err: unknown) => err);
    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect((refused as CarrierRefusedError).errors).toEqual({ pickup_point: [expect.stringContaining(words)] });
    expect((refused as CarrierRefusedError).errors.pickup_point![0]).toMatch(/^PPL: Access point KM\d{8} /);
  });

  it('refuses a Smart product without a point, and a code no PPL point has, before asking PPL; PPL itself refuses the first', async () => {
    const door = { ...demoShipment(provider, 'sh_ppl_smart_door', today), pickupPoint: null };
    const refused = await adapter.createShipment(door, { ...settings, productType: 'SMAR' }, { ...ctx, progress: memoryProgress() }).then(() => undefined, (err: unknown) => err);
    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect((refused as CarrierRefusedError).errors).toEqual({ pickup_point: [expect.stringMatching(/^PPL product SMAR delivers to a pickup point/)] });
    const tooLong = { ...demoShipment(provider, 'sh_ppl_long_code', today), pickupPoint: { id: 'KM'.padEnd(51, '1'), type: null } };
    const long = await adapter.createShipment(tooLong, settings, { ...ctx, progress: memoryProgress() }).then(() => undefined, (err: unknown) => err);
    expect((long as CarrierRefusedError).errors).toEqual({ pickup_point: ['a PPL access point code has 1 to 50 characters (e.g. KM10000042)'] });
    expect(proxy.calls, 'nothing sent to PPL').toEqual([]);

    const token = await accessToken();
    const body = {
      labelSettings: { format: 'Pdf' },
      shipments: [{
        referenceId: 'raw-smart', productType: 'SMAR',
        sender: { name: 'Sklad', street: 'Skladová 12', city: 'Praha', zipCode: '11000', country: 'CZ' },
        recipient: { name: 'Řehoř', street: 'Údolní 5', city: 'Brno', zipCode: '60200', country: 'CZ', phone: '+420602333444' },
      }],
    };
    const answer = await fetch(`${emu.urls.ppl}/shipment/batch`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ errors: { 'Shipments[0].SpecificDelivery.ParcelShopCode': ['Product SMAR delivers to an access point; the ParcelShopCode field is required.'] } });
  });

  it('answers GET /accessPoint only with a token, and only with Limit and Offset, as PPL declares it', async () => {
    expect((await fetch(`${emu.urls.ppl}/accessPoint?CountryCode=CZ&Limit=5&Offset=0`)).status).toBe(401);
    const bare = await fetch(`${emu.urls.ppl}/accessPoint?CountryCode=CZ`, { headers: { authorization: `Bearer ${await accessToken()}` } });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ title: 'BadRequest', errors: { Limit: ['The Limit field is required.'], Offset: ['The Offset field is required.'] } });
  });

  const accessToken = async () => {
    const { clientId, clientSecret } = provider.demo.settings as { clientId: string; clientSecret: string };
    const res = await fetch(`${emu.urls.ppl}/login/getAccessToken`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };

  /** A Czech point out of service, and one that takes neither cash nor cards. */
  const czech = () => Array.from({ length: 300 }, (_, i) => emulated.get(`KM1${String(i).padStart(7, '0')}`)!);
  const closedCode = () => czech().find((p) => !p.place.open)!.code;
  const noPaymentCode = () => czech().find((p) => p.place.open && !p.cashPayment && !p.cardPayment)!.code;
});
