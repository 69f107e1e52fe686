import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { glsPasswordDigest } from '../../src/carriers/gls/client.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, nextWorkingDay, pdfText, refusalOf, returnShipment, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';

/**
 * GLS returns through MyGLS: the Pick&ReturnService (PRS) on a PrintLabels parcel, GLS collecting the parcel at the
 * customer's (the PickupAddress) and bringing it to the warehouse (the DeliveryAddress), driven through the adapter
 * against its emulator: the request, the label, the tracking to delivered, and GLS's refusals of a bad return.
 */

const provider = findProvider('gls')!;
const adapter = provider.adapter;
const ctx = { channelId: 'ch_gls_returns', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
const PRINT_LABELS = '/gls/ParcelService.svc/json/PrintLabels';


describe('GLS returns: the Pick&ReturnService collects the parcel at the customer\'s and brings it to the warehouse', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  const shippingDate = nextWorkingDay();
  const parcelsSent = () => proxy.calls.filter((c) => c.method === 'POST' && c.path === PRINT_LABELS)
    .map((c) => (JSON.parse(c.body!) as { ParcelList: Record<string, unknown>[] }).ParcelList[0]!);
  const create = (s: ShipmentForCarrier) => adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() });
  const heldByGls = () => emu.emulator('gls').shipments() as { referenceId: string; product: string; pickAndReturn: boolean }[];

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));
  beforeEach(() => {
    emu.emulator('gls').reset();
  });

  it('declares returns', () => {
    expect(provider.capabilities.returns).toBe(true);
  });

  it('returns a delivered parcel with PRS from the customer to the warehouse, naming the outbound parcel on the label, and tracks it to delivered', async () => {
    const outbound = { ...demoShipment(provider, 'sh_gls_out_1', shippingDate), labelComment: 'Křehké' };
    const sent = await create(outbound);
    expect(sent.product).toBe('BusinessParcel');
    expect(parcelsSent().at(-1)!.ServiceList).toEqual([]);
    await advanceEmulatedParcel(emu.url, 'gls', sent.parcels[0]!.trackingNumber, 'delivered');

    const created = await create(returnShipment(outbound, sent, 'sh_gls_ret_1'));
    expect(created.product).toBe('PickAndReturnService');
    const [outboundNumber] = sent.parcels.map((p) => p.trackingNumber);
    expect(parcelsSent().at(-1)).toEqual({
      ClientNumber: 100000001, ClientReference: 'sh_gls_ret_1', Count: 1,
      Content: `Return of GLS parcel ${outboundNumber} · REF-sh_gls_out_1 · Křehké`,
      PickupAddress: {
        Name: 'Řehoř Šťastný', Street: 'Na Příkopě', HouseNumber: '5', HouseNumberInfo: '3', City: 'Praha', ZipCode: '11000', CountryIsoCode: 'CZ',
        ContactName: 'Řehoř Šťastný', ContactPhone: '+420602333444', ContactEmail: 'rehor@example.cz',
      },
      DeliveryAddress: {
        Name: 'Sklad Brno s.r.o.', Street: 'Vídeňská', HouseNumber: '12', City: 'Brno', ZipCode: '63900', CountryIsoCode: 'CZ',
        ContactName: 'Sklad Brno s.r.o.', ContactPhone: '+420601111222', ContactEmail: 'sklad@example.cz',
      },
      PickupDate: expect.stringMatching(/^\/Date\(\d+\)\/$/),
      ServiceList: [{ Code: 'PRS' }],
    });

    const [parcel] = created.parcels;
    expect(parcel!.trackingNumber).not.toBe(outboundNumber);
    expect(await decodePdfBarcodes(parcel!.label)).toEqual([[parcel!.trackingNumber]]);
    const printed = pdfText(parcel!.label);
    expect(printed).toContain('PickAndReturnService');
    expect(printed).toContain(`Return of GLS parcel ${outboundNumber}`);
    expect(printed.indexOf('Řehoř Šťastný'), 'the customer is the sender, printed first').toBeLessThan(printed.indexOf('Sklad Brno s.r.o.'));
    expect(heldByGls().find((s) => s.referenceId === 'sh_gls_ret_1')).toMatchObject({ product: 'PickAndReturnService', pickAndReturn: true });

    await advanceEmulatedParcel(emu.url, 'gls', parcel!.trackingNumber, 'delivered');
    const events = await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx);
    expect(events.map((e) => [e.code, e.status])).toEqual([
      ['51', 'created'], ['83', 'waiting_for_shipment'], ['85', 'waiting_for_shipment'], ['86', 'in_transit'],
      ['02', 'in_transit'], ['03', 'in_transit'], ['04', 'out_for_delivery'], ['05', 'delivered'],
    ]);
    expect(events.find((e) => e.code === '86')!.location, 'collected at the customer\'s depot').toBe('Praha');
    expect(events.at(-1)!.location, 'delivered at the warehouse').toBe('Brno');
  });

  it('is refused by GLS when the courier has no phone to call at the customer\'s, on the return\'s sender contact', async () => {
    const outbound = demoShipment(provider, 'sh_gls_out_3', shippingDate);
    const sent = await create(outbound);
    const back = returnShipment(outbound, sent, 'sh_gls_ret_3');
    const refused = await refusalOf(create({ ...back, sender: { ...back.sender, phone: '' } }));
    expect(refused.errors).toEqual({ 'sender_contact.phone_number': ['GLS: Parcel validation issue: PickupAddress.ContactPhone is required.'] });
    expect(parcelsSent().at(-1)).toMatchObject({ ServiceList: [{ Code: 'PRS' }], PickupAddress: { ContactPhone: '' } });
    expect(heldByGls().some((s) => s.referenceId === 'sh_gls_ret_3'), 'nothing created at GLS').toBe(false);
  });

  it('refuses cash on delivery on a return before asking GLS, and GLS refuses PRS with a CODAmount itself', async () => {
    const outbound = demoShipment(provider, 'sh_gls_out_4', shippingDate);
    const sent = await create(outbound);
    proxy.calls.length = 0;
    const withCod = { ...returnShipment(outbound, sent, 'sh_gls_ret_4'), cashOnDelivery: { amountMinor: 49_900, currency: 'CZK' } };
    const refused = await refusalOf(create(withCod));
    expect(refused.errors).toEqual({ cash_on_delivery_amount: ['GLS product PickAndReturnService cannot carry cash on delivery; choose another product on the channel'] });
    expect(proxy.calls, 'nothing sent to GLS').toEqual([]);

    const address = (name: string, city: string, zip: string) => ({
      Name: name, Street: 'Skladová', HouseNumber: '1', City: city, ZipCode: zip, CountryIsoCode: 'CZ', ContactPhone: '+420601111222',
    });
    const answer = await fetch(`${emu.urls.gls}/ParcelService.svc/json/PrintLabels`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        Username: settings.username, Password: glsPasswordDigest(String(settings.password)), TypeOfPrinter: 'Thermo',
        ParcelList: [{
          ClientNumber: 100000001, ClientReference: 'raw-return-cod', Count: 1, CODAmount: 499, CODCurrency: 'CZK',
          PickupAddress: address('Řehoř', 'Praha', '11000'), DeliveryAddress: address('Sklad', 'Brno', '63900'), ServiceList: [{ Code: 'PRS' }],
        }],
      }),
    });
    expect(answer.status).toBe(200);
    const body = await answer.json() as Record<string, unknown>;
    const why = 'Parcel validation issue: CODAmount must be 0 with the PRS service (Pick&ReturnService): a returned parcel carries no cash on delivery.';
    expect(body).toMatchObject({ Labels: [], PrintLabelsInfoList: [], PrintLabelsErrorList: [{ ErrorCode: 13, ClientReferenceList: ['raw-return-cod'], ErrorDescription: why }] });
    expect(provider.mappers.parseRefusal(200, body).errors).toEqual({ cash_on_delivery_amount: [`GLS: ${why}`] });
    expect(heldByGls().some((s) => s.referenceId === 'raw-return-cod')).toBe(false);
  });

  it('returns a two-parcel shipment as one PRS parcel of Count 2 with ZPL labels, one that scans per parcel', async () => {
    const outbound = { ...demoShipment(provider, 'sh_gls_out_2', shippingDate, 2), labelFormat: 'zpl' as const };
    const sent = await create(outbound);
    const created = await create(returnShipment(outbound, sent, 'sh_gls_ret_2'));
    expect(parcelsSent().at(-1)).toMatchObject({
      Count: 2, ServiceList: [{ Code: 'PRS' }], Content: `Return of GLS parcel ${sent.parcels.map((p) => p.trackingNumber).join(', ')} · REF-sh_gls_out_2`,
    });
    expect(created.parcels).toHaveLength(2);
    for (const p of created.parcels) expect(await decodeZplBarcodes(Buffer.from(p.label).toString('utf8'))).toEqual([[p.trackingNumber]]);
  });
});
