import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { inpostShipmentRequest } from '../../src/carriers/inpost/request.js';
import { inpostSettings } from '../../src/carriers/inpost/settings.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, nextWorkingDay, pdfText, pointShipment, refusalOf, returnShipment, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';

const provider = findProvider('inpost')!;
const ctx = { channelId: 'ch_inpost_returns', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
const CREATE_PATH = '/inpost/v1/organizations/1234/shipments';

interface HeldShipment { shipmentId: string; reference: string; service: string; isReturn: boolean; sendingMethod: string; comments: string | null; cod: number | null; targetPoint: string | null }


/**
 * A customer sends an InPost parcel back: ShipX's shipment marked `is_return`, by courier (inpost_courier_standard)
 * whatever the outbound's service, the customer handing the labelled parcel in at a PaczkoPunkt (`pop`), the warehouse
 * receiving; the outbound named in `comments`. Its label is bought and printed like any, and it is tracked to the warehouse.
 */
describe('InPost returns: a ShipX shipment marked is_return, by courier to the warehouse', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  const shippingDate = nextWorkingDay();
  const posts = () => proxy.calls.filter((c) => c.method === 'POST' && c.path === CREATE_PATH).map((c) => JSON.parse(c.body!) as Record<string, unknown>);
  const held = () => emu.emulator('inpost').shipments() as unknown as HeldShipment[];
  const create = (s: ShipmentForCarrier) => provider.adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() });
  /** Posts `body` to ShipX's create call as the channel's organization; ShipX's answer. */
  const postRaw = async (body: unknown) => {
    const res = await fetch(`${emu.urls.inpost}/v1/organizations/1234/shipments`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${settings.apiToken}` }, body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { error?: string; details?: unknown } };
  };

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('declares returns', () => {
    expect(provider.capabilities.returns).toBe(true);
  });

  it('returns a delivered courier parcel as is_return from the customer to the warehouse, handed in at a PaczkoPunkt, and tracks it to delivered', async () => {
    const outbound = demoShipment(provider, 'sh_inpost_out_1', shippingDate);
    const sent = await create(outbound);
    await advanceEmulatedParcel(emu.url, 'inpost', sent.parcels[0]!.trackingNumber, 'delivered');

    const created = await create(returnShipment(outbound, sent, 'sh_inpost_ret_1'));
    expect(created.product).toBe('inpost_courier_standard');
    const request = posts().at(-1)!;
    expect(request).toMatchObject({
      is_return: true, service: 'inpost_courier_standard', custom_attributes: { sending_method: 'pop' },
      reference: 'sh_inpost_ret_1', comments: `Return of InPost shipment ${sent.providerShipmentId} · REF-sh_inpost_out_1`,
      sender: { first_name: 'Zofia', last_name: 'Wójcik-Łęcka', phone: '512345678', address: { street: 'Długa', building_number: '12/4', city: 'Kraków', post_code: '31-147' } },
      receiver: { company_name: 'Magazyn Mokotów sp. z o.o.', address: { street: 'Puławska', building_number: '145', city: 'Warszawa', post_code: '02-715' } },
    });
    expect(request).not.toHaveProperty('cod');
    expect(request).not.toHaveProperty('insurance');
    expect(held().find((s) => s.reference === 'sh_inpost_ret_1')).toMatchObject({ shipmentId: created.providerShipmentId, isReturn: true, service: 'inpost_courier_standard', sendingMethod: 'pop' });

    const [parcel] = created.parcels;
    expect(parcel!.trackingNumber).toMatch(/^\d{24}$/);
    expect(parcel!.trackingNumber).not.toBe(sent.parcels[0]!.trackingNumber);
    await advanceEmulatedParcel(emu.url, 'inpost', parcel!.trackingNumber, 'delivered');
    const events = await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx);
    expect(events[0]).toMatchObject({ code: 'confirmed', status: 'created' });
    expect(events.at(-1)).toMatchObject({ code: 'delivered', status: 'delivered' });

    expect(await decodePdfBarcodes(parcel!.label)).toEqual([[parcel!.trackingNumber]]);
    const printed = pdfText(parcel!.label);
    expect(printed).toContain('ZWROT · inpost_courier');
    expect(printed.indexOf('Wójcik-Łęcka'), 'the customer is the sender, printed first').toBeLessThan(printed.indexOf('Magazyn Mokotów sp. z o.o.'));
  });

  it('is refused by InPost when the customer sends from abroad (ShipX Poland), on the customer’s country', async () => {
    const outbound = demoShipment(provider, 'sh_inpost_out_4', shippingDate);
    const sent = await create(outbound);
    const back = returnShipment(outbound, sent, 'sh_inpost_ret_4');
    const abroad = { ...back, sender: { ...back.sender, street: 'Hlavná', houseNumber: '1', city: 'Bratislava', postalCode: '811 01', countryCode: 'SK' } };

    const refused = await refusalOf(create(abroad));
    expect(refused.errors).toMatchObject({ 'origin_address.country_code': ['InPost: sender.address.country_code invalid'] });
    expect(posts().at(-1)).toMatchObject({ is_return: true, sender: { address: { country_code: 'SK' } } });
    expect(held().some((s) => s.reference === 'sh_inpost_ret_4'), 'nothing created at InPost').toBe(false);
  });

  it('refuses cash on delivery on a return before asking InPost, and ShipX refuses a return with COD, into a Paczkomat or without its customer', async () => {
    const outbound = demoShipment(provider, 'sh_inpost_out_5', shippingDate);
    const sent = await create(outbound);
    proxy.calls.length = 0;
    const back = returnShipment(outbound, sent, 'sh_inpost_ret_5');
    const refused = await refusalOf(create({ ...back, cashOnDelivery: { amountMinor: 4990, currency: 'PLN' } }));
    expect(refused.errors).toEqual({ cash_on_delivery_amount: ['InPost returns (is_return) take no cash on delivery'] });
    expect(proxy.calls, 'nothing sent to InPost').toEqual([]);

    const body = inpostShipmentRequest(back, inpostSettings.parse(settings)) as unknown as Record<string, unknown>;
    expect((await postRaw(body)).status, 'the request as the adapter makes it').toBe(201);

    const withCod = await postRaw({ ...body, reference: 'raw-return-cod', cod: { amount: 49.9, currency: 'PLN' }, insurance: { amount: 49.9, currency: 'PLN' } });
    expect(withCod).toEqual({ status: 400, body: expect.objectContaining({ error: 'validation_failed', details: { cod: [{ amount: ['invalid'] }] } }) });

    const intoLocker = await postRaw({ ...body, reference: 'raw-return-locker', service: 'inpost_locker_standard', parcels: [{ template: 'small' }], custom_attributes: { sending_method: 'pop', target_point: 'KRA010' } });
    expect(intoLocker).toEqual({ status: 400, body: expect.objectContaining({ error: 'validation_failed', details: { is_return: ['invalid'] } }) });
    expect(provider.mappers.parseRefusal(intoLocker.status, intoLocker.body).errors).toEqual({ return_of: ['InPost: is_return invalid'] });

    const { sender: _customer, ...withoutCustomer } = body;
    const noSender = await postRaw({ ...withoutCustomer, reference: 'raw-return-no-sender' });
    expect(noSender).toEqual({ status: 400, body: expect.objectContaining({ error: 'validation_failed', details: { sender: ['required'] } }) });
    expect(provider.mappers.parseRefusal(noSender.status, noSender.body).errors).toEqual({ sender_contact: ['InPost: sender required'] });

    // 11731061: a return needs no receiver (the organization receives it)
    const { receiver: _warehouse, ...toOrganization } = body;
    expect((await postRaw({ ...toOrganization, reference: 'raw-return-to-organization' })).status).toBe(201);
    expect(held().filter((s) => s.reference.startsWith('raw-return-')).map((s) => s.reference)).toEqual(['raw-return-to-organization']);
  });

  // last (and labels decoded after the calls): decoding idles the adapter's kept-alive socket past the recording proxy's keep-alive timeout (Node's 5 s)
  it('returns a Paczkomat parcel by courier, not into a locker, and a two-parcel shipment with a ZPL label that scans per parcel', async () => {
    const [locker] = await provider.adapter.pickupPoints!.finder!.search({ countryCode: 'PL', postalCode: '30-005', type: 'locker', limit: 1 }, { baseUrl: settings.baseUrl! }, ctx);
    const toLocker = pointShipment(provider, locker!, null, { id: 'sh_inpost_out_2', shippingDate });
    const sentToLocker = await create(toLocker);
    expect(posts().at(-1)).toMatchObject({ service: 'inpost_locker_standard', custom_attributes: { target_point: locker!.id } });
    await create(returnShipment(toLocker, sentToLocker, 'sh_inpost_ret_2'));
    const lockerReturn = posts().at(-1)!;
    expect(lockerReturn).toMatchObject({ is_return: true, service: 'inpost_courier_standard', custom_attributes: { sending_method: 'pop' } });
    expect(lockerReturn.custom_attributes).not.toHaveProperty('target_point');
    expect(held().find((s) => s.reference === 'sh_inpost_ret_2')).toMatchObject({ isReturn: true, targetPoint: null });

    const outbound = { ...demoShipment(provider, 'sh_inpost_out_3', shippingDate, 2), labelFormat: 'zpl' as const };
    const sent = await create(outbound);
    const created = await create(returnShipment(outbound, sent, 'sh_inpost_ret_3'));
    expect(posts().at(-1)).toMatchObject({ is_return: true, parcels: [{ id: '1', weight: { amount: 1 } }, { id: '2', weight: { amount: 2 } }] });
    expect(created.parcels).toHaveLength(2);
    for (const p of created.parcels) expect(await decodeZplBarcodes(p.label.toString('utf8'))).toEqual([[p.trackingNumber]]);
  });
});
