import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { DpdPickupPoints } from '../../src/carriers/dpd/emulator-points.js';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierContext, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, pointShipment, refusalOf, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';
import { carrierSchemaErrors } from '../helpers/json-schema.js';

/**
 * DPD Pickup through DPD Group's META-API, driven through the adapter against its emulator: a parcel to a Pickup point
 * goes as Parcel to Shop (product 337) with the point in `receiver.pudoId` (the META-API OpenAPI's `Receiver`, held to
 * that schema), its label, its tracking to the point and out of it, and the refusals of a point on `pickup_point`.
 * The META-API's Pickup Shop Search is not published, so there is no finder and the points come from the emulator's
 * generator; the product table has no cash-on-delivery product to a point, so COD to one is refused before DPD.
 */

const provider = findProvider('dpd')!;
const adapter = provider.adapter;
const SHIPMENT_PATH = '/dpd/shipping/v1/shipment';

/** DPD's published create-shipment schema, kept beside the carrier's fixtures. */
const requestErrors = carrierSchemaErrors('dpd');

/** The emulator's Czech points, to name an open one in Brno and a closed one. */
const points = new DpdPickupPoints();
const czech = Array.from({ length: 300 }, (_, i) => points.get(`CZ${10001 + i}`)!);
const openInBrno = czech.find((p) => p.open && p.city === 'Brno')!;
const closed = czech.find((p) => !p.open)!;

describe('DPD delivers to DPD Pickup points through the META-API', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  const ctx: CarrierContext = { channelId: 'ch_dpd_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
  const sentShipments = () => proxy.calls.filter((c) => c.method === 'POST' && c.path.startsWith(SHIPMENT_PATH));
  const create = (s: ShipmentForCarrier, extra: Record<string, string> = {}) => adapter.createShipment(s, { ...settings, ...extra }, { ...ctx, progress: memoryProgress() });

  /** The demo parcel to the point `id`, at the point's address as packdesk holds it (the recipient's contact kept). */
  const toPoint = (id: string, cod = false) => pointShipment(
    provider, { id, type: 'parcelshop', address: { ...(points.get(id) ?? openInBrno), countryCode: 'CZ' } }, cod ? { amountMinor: 49_900, currency: 'CZK' } : null,
    { shippingDate: new Date().toISOString().slice(0, 10) },
  );

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('delivers to Pickup parcel shops, and has no search of them', () => {
    expect(adapter.pickupPoints).toEqual({ types: ['parcelshop'] });
  });

  it('ships a parcel to a point as Parcel to Shop with receiver.pudoId, prints a label that scans, and tracks it to the point and out', async () => {
    const shipment = toPoint(openInBrno.id);
    const created = await create(shipment);
    expect(created.product).toBe('337');

    const [call] = sentShipments();
    const sent = JSON.parse(call!.body!) as unknown[];
    expect(requestErrors(sent), 'the request against DPD\'s published schema').toEqual([]);
    expect(sent[0]).toMatchObject({
      shipmentInfos: { productCode: '337' },
      receiver: {
        pudoId: openInBrno.id,
        address: { street: openInBrno.street, houseNumber: openInBrno.houseNumber, city: 'Brno', zipCode: openInBrno.postalCode, country: 'CZ' },
        contact: { phone1: shipment.recipient.phone },
      },
    });
    const [parcel] = created.parcels;
    expect(await decodePdfBarcodes(parcel!.label)).toEqual([[parcel!.trackingNumber]]);

    const advance = (to: string) => advanceEmulatedParcel(emu.url, 'dpd', parcel!.trackingNumber, to);
    const latest = async () => {
      const last = (await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx)).at(-1)!;
      return [last.code, last.status];
    };
    await advance('ready_for_pickup');
    expect(await latest()).toEqual(['ParcelShop', 'ready_for_pickup']);
    await advance('delivered');
    expect(await latest()).toEqual(['Delivered', 'delivered']);
  });

  it('takes a parcel for a point to the point on its way to delivered, never to a courier at a door', async () => {
    const created = await create(toPoint(openInBrno.id));
    const events = await advanceEmulatedParcel(emu.url, 'dpd', created.parcels[0]!.trackingNumber, 'delivered');
    expect(events.map((e) => e.status)).toEqual(['PickedUp', 'BetweenDepots', 'Depot', 'ParcelShop', 'Delivered']);
  });

  it.each([
    ['an unknown point', 'CZ99999', 'PUDO_NOT_FOUND: receiver.pudoId CZ99999: no such Pickup point'],
    ['a closed point', closed.id, `PUDO_CLOSED: receiver.pudoId ${closed.id}: the Pickup point accepts no parcels now`],
  ])('DPD refuses %s, and the adapter puts it on pickup_point', async (_case, id, words) => {
    const refused = await refusalOf(create(toPoint(id)));
    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect(refused.errors).toEqual({ pickup_point: [`DPD: ${words}`] });
    expect(sentShipments()).toHaveLength(1);
  });

  it('refuses before DPD: cash on delivery to a point, a door-only product, an id DPD cannot have, and the point product without a point', async () => {
    const cod = await refusalOf(create(toPoint(openInBrno.id, true)));
    expect(cod.errors).toEqual({ pickup_point: [expect.stringMatching(/^DPD has no cash-on-delivery product to a Pickup point: /)] });
    const express = await refusalOf(create(toPoint(openInBrno.id), { productCode: '179' }));
    expect(express.errors).toEqual({ pickup_point: [expect.stringMatching(/^DPD product 179 delivers to a door only: /)] });
    const badId = await refusalOf(create(toPoint('CZ-10001')));
    expect(badId.errors).toEqual({ pickup_point: ['a DPD Pickup point id has 1 to 20 letters and digits, its country code first (e.g. CZ10234)'] });
    const door = demoShipment(provider, 'sh_dpd_psd_door', new Date().toISOString().slice(0, 10));
    const noPoint = await refusalOf(create(door, { productCode: '337' }));
    expect(noPoint.errors).toEqual({ pickup_point: [expect.stringMatching(/^DPD product 337 delivers to a DPD Pickup point: /)] });
    expect(proxy.calls, 'nothing sent to DPD').toEqual([]);
  });

  it('DPD itself refuses Parcel to Shop without receiver.pudoId, and a door product with one', async () => {
    const login = await fetch(`${emu.urls.dpd}/shipping/v1/login`, {
      method: 'POST', headers: { 'x-dpd-bucode': '015', 'x-dpd-login': String(settings.login), 'x-dpd-password': String(settings.password) },
    });
    const token = login.headers.get('x-dpd-token')!;
    const shipment = (product: string, pudoId?: string) => [{
      customerReferenceNumbers: ['raw'], shipmentInfos: { productCode: product }, numberOfParcels: '1',
      sender: { address: { name1: 'Sklad', street: 'Skladová 12', country: 'CZ', zipCode: '14800', city: 'Praha' } },
      receiver: {
        ...(pudoId ? { pudoId } : {}),
        address: { name1: 'Řehoř', street: 'Údolní 5', country: 'CZ', zipCode: '60200', city: 'Brno' }, contact: { phone1: '+420602333444' },
      },
      parcel: [{ parcelInfos: { weight: '1000' } }],
    }];
    const send = (body: unknown) => fetch(`${emu.urls.dpd}/shipping/v1/shipment?LabelPrintFormat=PDF`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body),
    });
    const withoutPoint = await send(shipment('337'));
    expect(withoutPoint.status).toBe(400);
    expect(await withoutPoint.json()).toEqual([{ errorCode: 'MANDATORY_FIELD', errorMessage: 'receiver.pudoId is mandatory for product 337 (Parcel to Shop)', errorOrigin: 'BU-API' }]);
    const doorWithPoint = await send(shipment('101', openInBrno.id));
    expect(doorWithPoint.status).toBe(400);
    expect(await doorWithPoint.json()).toEqual([{ errorCode: 'ROUTING_15', errorMessage: 'receiver.pudoId: product 101 delivers to an address, not to a Pickup point', errorOrigin: 'BU-API' }]);
  });
});
