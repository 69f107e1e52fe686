import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { OnedeliveryPoints } from '../../src/carriers/onedelivery/emulator-points.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';
import { callOneEmulator, demoShipment, memoryProgress, pdfText, refusalOf, returnShipment, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';

/**
 * One by Allegro's return shipment ("zpětná zásilka", `additional_service.reverse_order`, nuty456/WeDoApi
 * `AdditionalService.java`): the courier collects the package at the receiver, the customer, and brings it to the
 * sender, the warehouse; the outbound's order number travels in the comment.
 */

const provider = findProvider('onedelivery')!;
const adapter = provider.adapter;
const ctx = { channelId: 'ch_onedelivery_returns', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Prague' }).format(new Date());
/** An open WEDO POINT of the emulator's, for an outbound that went to a place. */
const openPlace = Array.from({ length: 100 }, (_, i) => new OnedeliveryPoints().get(`VM${String(i + 1).padStart(5, '0')}`)!).find((p) => p.open)!;


describe('One by Allegro returns: a return shipment (reverse_order) from the customer back to the warehouse, labelled and tracked', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  const sentPackages = () => proxy.calls.filter((c) => c.method === 'POST' && c.path === '/onedelivery/package')
    .map((c) => JSON.parse(c.body!) as Record<string, unknown>);
  const create = (s: ShipmentForCarrier) => adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() });
  const held = (orderNumber: string) => emu.emulator('onedelivery').shipments().find((s) => s.orderNumber === orderNumber);

  // sent for processing at creation, so One's courier takes the package and tracking can move
  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running), { sendForProcessing: true });

  it('declares returns', () => {
    expect(provider.capabilities.returns).toBe(true);
  });

  it('returns a delivered two-parcel package as a reverse order collected at the customer, naming the outbound, and tracks it to delivered', async () => {
    const outbound = { ...demoShipment(provider, 'sh_one_out_1', today, 2), reference: 'ORDER-2041' };
    const sent = await create(outbound);
    await advanceEmulatedParcel(emu.url, 'onedelivery', sent.parcels[0]!.trackingNumber, 'delivered');

    const back = { ...returnShipment(outbound, sent, 'sh_one_ret_1'), labelComment: 'Vyzvednout po 16:00' };
    const created = await create(back);
    expect(created.providerShipmentId).not.toBe(sent.providerShipmentId);
    const request = sentPackages().at(-1)!;
    expect(request).toEqual({
      receiver: {
        name: 'Řehoř Šťastný', street: 'Údolní 5', city: 'Brno', postal_code: '60200', state: 'CZ', firstname: 'Řehoř', surname: 'Šťastný',
        email: 'rehor@example.cz', phone: '+420602333444', note: 'Vyzvednout po 16:00',
      },
      sender: { name: 'Sklad Praha s.r.o.', street: 'Skladová 12', city: 'Praha', postal_code: '11000', state: 'CZ', email: 'sklad@example.cz', phone: '+420601111222' },
      reference_number: 'one_ret_1', reference_number2: 'sh_one_ret_1', package_count: 2, weight: 3, value: 0,
      comment: `Return of One by Allegro package ${sent.providerShipmentId} · ORDER-2041`, product: 'M-24-CZ',
      additional_service: { reverse_order: true },
    });
    expect(held(created.providerShipmentId)).toMatchObject({ reverseOrder: true, cashOnDelivery: null, comment: request.comment });

    expect(created.parcels).toHaveLength(2);
    for (const p of created.parcels) expect(await decodePdfBarcodes(p.label)).toEqual([[p.trackingNumber]]);
    const printed = pdfText(created.parcels[0]!.label);
    expect(printed).toContain('zpětná zásilka');
    expect(printed.indexOf('Řehoř Šťastný'), 'the customer, where the courier collects, printed first').toBeLessThan(printed.indexOf('Sklad Praha s.r.o.'));

    const [parcel] = created.parcels;
    await advanceEmulatedParcel(emu.url, 'onedelivery', parcel!.trackingNumber, 'delivered');
    const events = await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx);
    expect(events.map((e) => [e.code, e.status])).toEqual([['DELIVERED', 'delivered']]);
  });

  it('returns a package sent to a WEDO POINT as a door return in ZPL, on the product One picks for a door', async () => {
    const outbound = { ...demoShipment(provider, 'sh_one_out_2', today), pickupPoint: { id: openPlace.code, type: 'parcelshop' as const } };
    const sent = await adapter.createShipment(outbound, { ...settings, product: 'PUP' }, { ...ctx, progress: memoryProgress() });
    expect(sent.product).toBe('PUP');
    const back = { ...returnShipment(outbound, sent, 'sh_one_ret_2'), labelFormat: 'zpl' as const };
    const created = await adapter.createShipment(back, { ...settings, product: 'PUP' }, { ...ctx, progress: memoryProgress() });
    const request = sentPackages().at(-1)!;
    expect(request).not.toHaveProperty('product');
    expect(request).not.toHaveProperty('pup_branch');
    expect(request).toMatchObject({ additional_service: { reverse_order: true } });
    expect(created.product).toBe('M-24-CZ');
    const [parcel] = created.parcels;
    expect(await decodeZplBarcodes(parcel!.label.toString('utf8'))).toEqual([[parcel!.trackingNumber]]);
  });

  it('maps One’s refusal of a return onto the customer, who is One’s receiver', async () => {
    const outbound = demoShipment(provider, 'sh_one_out_3', today);
    const sent = await create(outbound);
    const back = returnShipment(outbound, sent, 'sh_one_ret_3');
    const refused = await refusalOf(create({ ...back, sender: { ...back.sender, postalCode: '799 99' } }));
    expect(refused.errors).toEqual({ 'origin_address.postal_code': ['One by Allegro: postal code 79999 does not exist'] });
    expect(sentPackages().at(-1)).toMatchObject({ receiver: { postal_code: '79999' }, additional_service: { reverse_order: true } });
  });

  it('refuses cash on delivery on a return before asking One, and One refuses a reverse order with COD itself', async () => {
    const outbound = demoShipment(provider, 'sh_one_out_4', today);
    const sent = await create(outbound);
    proxy.calls.length = 0;
    const withCod = { ...returnShipment(outbound, sent, 'sh_one_ret_4'), cashOnDelivery: { amountMinor: 49_900, currency: 'CZK' } };
    const refused = await refusalOf(create(withCod));
    expect(refused.errors).toEqual({ cash_on_delivery_amount: ['One by Allegro return shipments (reverse_order) carry no cash on delivery'] });
    expect(proxy.calls, 'nothing sent to One').toEqual([]);

    const raw = await callOneEmulator(emu.urls.onedelivery!, 'POST', 'package', {
      receiver: { name: 'Řehoř', street: 'Údolní 5', city: 'Brno', postal_code: '60200', state: 'CZ', phone: '+420602333444' },
      package_count: 1, weight: 1, value: 0, additional_service: { reverse_order: true, cash_on_delivery: 499, exchange_order: true },
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      message: 'Invalid package data',
      detail: ['additional_service.cash_on_delivery: not with a return shipment (reverse_order)', 'additional_service.exchange_order: not with a return shipment (reverse_order)'],
    });
  });
});
