import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { DHL_PL_EMULATED_POINTS } from '../../src/carriers/dhl_pl/emulator.js';
import { dhlPlService, SERVICE_PATH } from '../../src/carriers/dhl_pl/service.js';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { warsawTime } from '../../src/carriers/local-time.js';
import { findProvider } from '../../src/carriers/registry.js';
import { readSoapBody, soapEnvelope, soapHttpHeaders } from '../../src/carriers/soap.js';
import type { PickupPoint, PickupPointQuery } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, pointShipment, refusalOf, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';
import { soapOperation, xsdErrors } from '../helpers/xsd.js';

const provider = findProvider('dhl_pl')!;
const points = provider.adapter.pickupPoints!;
const finder = points.finder!;
const XSD = fileURLToPath(new URL('../../src/carriers/dhl_pl/fixtures/schema/create-request.xsd', import.meta.url));
const today = () => warsawTime.format(Date.now()).slice(0, 10);

/**
 * Shipping to a DHL POP point or DHL BOX locker with DHL Parcel Poland: getNearestServicepoints finds the points with
 * the channel's login, createShipment sends product SP with the point's SAP number (servicePointAccountNumber), and
 * DHL's tracking tells the parcel waits at the point (DOR_SP) and was collected there (SP_DOR).
 */
describe('DHL Parcel Poland pickup points: DHL POP and DHL BOX', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let made = 0;

  const ctx = (timeoutMs = 10_000) => ({ channelId: 'ch_dhl_pl_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs, progress: memoryProgress() });
  const search = (query: Omit<PickupPointQuery, 'countryCode' | 'limit'> & { limit?: number }) => finder.search({ countryCode: 'PL', limit: 20, ...query }, settings, ctx());
  const operations = () => proxy.calls.map((c) => c.soapAction?.split('#')[1]);
  const fault = (mode: string, extra: Record<string, unknown> = {}) => fetch(`${emu.url}/_emulator/dhl_pl/faults`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode, ...extra }),
  });
  /** The demo shipment to `point` as the daemon hands it over: the recipient is the person, at the point's address. */
  const toPoint = (point: Pick<PickupPoint, 'id' | 'type' | 'address'>, cod = true) => pointShipment(
    provider, point, cod ? { amountMinor: 12_950, currency: 'PLN' } : null, { id: `sh_dhlpl_point_${++made}`, shippingDate: today() },
  );
  /** A point the emulator has, as the search would show it. */
  const emulated = (where: (p: (typeof DHL_PL_EMULATED_POINTS)[number]) => boolean) => {
    const p = DHL_PL_EMULATED_POINTS.find(where)!;
    return { id: p.sap, type: p.type, address: { street: p.street, houseNumber: p.houseNumber, city: p.city, postalCode: p.postalCode, countryCode: 'PL' } };
  };

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));
  beforeEach(async () => {
    await fault('none');
    proxy.calls.length = 0;
  });

  it('delivers to DHL POP shops and DHL BOX lockers, found with the channel’s login', () => {
    expect(points.types).toEqual(['parcelshop', 'locker']);
  });

  it('finds the points near a post code: DHL’s numbers, names, addresses, hours and places, asked as the WSDL declares', async () => {
    const found = await search({ postalCode: '30-004' });
    expect(found.length).toBeGreaterThan(1);
    for (const p of found) {
      expect(p.id).toMatch(/^\d{7}$/);
      expect(p.address).toMatchObject({ city: 'Kraków', postalCode: expect.stringMatching(/^30-00\d$/), countryCode: 'PL' });
      expect(p.name).toMatch(/^DHL (POP|BOX 24\/7) /);
      expect(p.location).toEqual({ lat: expect.closeTo(50.06, 0), lon: expect.closeTo(19.94, 0) });
      expect(p.open).toBe(true);
    }
    const shop = found.find((p) => p.type === 'parcelshop')!;
    expect(shop.openingHours.map((h) => h.day)).toEqual(expect.arrayContaining([1, 2, 3, 4, 5]));
    expect(shop.openingHours[0]).toEqual({ day: 1, from: expect.stringMatching(/^\d\d:\d\d$/), to: expect.stringMatching(/^\d\d:\d\d$/) });
    const locker = found.find((p) => p.type === 'locker')!;
    expect(locker.openingHours).toEqual([1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '00:00', to: '23:59' })));

    expect(operations()).toEqual(['getNearestServicepoints']);
    const asked = soapOperation(proxy.calls[0]!.body!).element;
    expect(asked).toContain('<structure><country>PL</country><postcode>30004</postcode><radius>5</radius></structure>');
    expect(xsdErrors(asked, XSD)).toEqual([]);
  });

  it('finds the points in a city, only lockers when asked, at most as many as asked', async () => {
    const inCity = await search({ city: 'Gdańsk', limit: 100 });
    expect(inCity.length).toBeGreaterThan(10);
    expect(new Set(inCity.map((p) => p.address.city))).toEqual(new Set(['Gdańsk']));
    expect(new Set(inCity.map((p) => p.type))).toEqual(new Set(['parcelshop', 'locker']));

    const lockers = await search({ city: 'Gdańsk', type: 'locker', limit: 3 });
    expect(lockers).toHaveLength(3);
    expect(lockers.every((p) => p.type === 'locker' && p.name.startsWith('DHL BOX'))).toBe(true);
  });

  it('refuses a search near coordinates, which DHL does not offer', async () => {
    const near = await refusalOf(search({ near: { lat: 52.2297, lon: 21.0122 } }));
    expect(near.errors).toEqual({ near: [expect.stringMatching(/takes a post code or a city, not coordinates/)] });
    expect(operations()).toEqual([]);
  });

  it('passes on DHL’s refusal of a malformed post code on the search’s postal code', async () => {
    const refused = await refusalOf(search({ postalCode: '3000' }));
    expect(refused.errors).toEqual({ postal_code: ['DHL Parcel Poland: structure.postcode: nieprawidłowy kod pocztowy (3000)'] });
  });

  it('has no lookup by number: DHL publishes none, so packdesk knows a point from a search only', () => {
    expect(finder.find).toBeUndefined();
  });

  it('sends a COD parcel to a point found by search with createShipment, product SP and the point’s number, prints its label and tracks it to collected', async () => {
    const codPoints = new Set(DHL_PL_EMULATED_POINTS.filter((p) => p.cashOnDelivery).map((p) => p.sap));
    const point = (await search({ city: 'Wrocław', type: 'parcelshop' })).find((p) => codPoints.has(p.id))!;
    const s = toPoint(point);
    proxy.calls.length = 0;

    const created = await provider.adapter.createShipment(s, settings, ctx());
    expect(operations()).toEqual(['createShipment', 'getPieceId', 'getLabels']);
    const sent = soapOperation(proxy.calls[0]!.body!).element;
    expect(xsdErrors(sent, XSD)).toEqual([]);
    expect(sent).toContain('<serviceType>SP</serviceType>');
    expect(sent).toContain(`<servicePointAccountNumber>${point.id}</servicePointAccountNumber>`);
    expect(sent).toContain('<specialServices><item><serviceType>COD</serviceType><serviceValue>129.50</serviceValue><collectOnDeliveryForm>BANK_TRANSFER</collectOnDeliveryForm></item><item><serviceType>UBEZP</serviceType><serviceValue>129.50</serviceValue></item></specialServices>');
    expect(sent).toContain(`<preaviso><personName>${s.recipient.personName}</personName><phoneNumber>511222333</phoneNumber>`);
    expect(sent).toContain(`<city>${point.address.city}</city><street>${point.address.street}</street>`);

    expect(created.product).toBe('SP');
    expect(created.providerShipmentId).toMatch(/^\d{11}$/);
    const [parcel] = created.parcels;
    expect(parcel!.trackingNumber).toMatch(/^JJD\d{24}$/);
    expect(await decodePdfBarcodes(parcel!.label)).toEqual([[parcel!.trackingNumber]]);
    const records = (await (await fetch(`${emu.url}/_emulator/dhl_pl/shipments`)).json()) as { shipments: { waybill: string; servicePoint: string; cod: unknown }[] };
    expect(records.shipments.find((r) => r.waybill === created.providerShipmentId)).toMatchObject({ servicePoint: point.id, cod: { amount: '129.50' } });

    const asked = [{ trackingNumber: parcel!.trackingNumber, providerShipmentId: created.providerShipmentId }];
    const last = async () => {
      const [result] = await provider.adapter.track(asked, settings, ctx());
      if (!result?.found) throw new Error('DHL does not know the shipment');
      return result.events[result.events.length - 1]!;
    };
    await advanceEmulatedParcel(emu.url, 'dhl_pl', parcel!.trackingNumber, 'ready_for_pickup');
    expect(await last()).toMatchObject({ code: 'DOR_SP', status: 'ready_for_pickup', text: 'Shipment arrived to DHL POP' });
    await advanceEmulatedParcel(emu.url, 'dhl_pl', parcel!.trackingNumber, 'delivered');
    expect(await last()).toMatchObject({ code: 'SP_DOR', status: 'delivered', text: 'Shipment has been collected from DHL POP' });
  });

  it('collects a point shipment advanced straight to delivered at the point, not at a door', async () => {
    const created = await provider.adapter.createShipment(toPoint(emulated((p) => p.open && p.type === 'locker'), false), settings, ctx());
    await advanceEmulatedParcel(emu.url, 'dhl_pl', created.parcels[0]!.trackingNumber, 'delivered');
    const [result] = await provider.adapter.track([{ trackingNumber: created.parcels[0]!.trackingNumber, providerShipmentId: created.providerShipmentId }], settings, ctx());
    expect(result!.found && result!.events.map((e) => e.code)).toEqual(['EDWP', 'DWP', 'SORT', 'SP_DW', 'DOR_SP', 'SP_DSP', 'SP_DOR']);
  });

  it('creates a point shipment once when the first attempt died after DHL created it, before its number was stored', async () => {
    const s = toPoint(emulated((p) => p.open && p.cashOnDelivery));
    const progress = memoryProgress();
    progress.failSave((saved) => 'shipmentId' in saved);
    await expect(provider.adapter.createShipment(s, settings, { ...ctx(), progress })).rejects.toThrow(/died/);
    const created = await provider.adapter.createShipment(s, settings, { ...ctx(), progress });
    expect(operations().filter((o) => o === 'createShipment'), 'found by its reference, not sent again').toHaveLength(1);
    const records = (await (await fetch(`${emu.url}/_emulator/dhl_pl/shipments`)).json()) as { shipments: { referenceId: string; waybill: string }[] };
    expect(records.shipments.filter((r) => r.referenceId === s.id).map((r) => r.waybill)).toEqual([created.providerShipmentId]);
  });

  it.each([
    ['an unknown point', () => ({ id: '9999999', type: 'parcelshop' as const, address: emulated((p) => p.open).address }), true, /nieznany punkt DHL POP 9999999/],
    ['a closed point', () => emulated((p) => !p.open), false, /jest nieczynny i nie przyjmuje przesyłek/],
    ['cash on delivery to a point that pays none out', () => emulated((p) => p.open && !p.cashOnDelivery), true, /nie wydaje przesyłek za pobraniem/],
  ])('passes on DHL’s refusal of %s on pickup_point', async (_case, pointOf, cod, reason) => {
    const refused = await refusalOf(provider.adapter.createShipment(toPoint(pointOf(), cod), settings, ctx()));
    expect(refused.errors).toEqual({ pickup_point: [expect.stringMatching(reason)] });
    expect(refused.message).toMatch(/^DHL Parcel Poland refused the request: ship\.servicePointAccountNumber: /);
    expect(operations()).toEqual(['createShipment']);
  });

  it('refuses, before calling DHL, a post office, a point named otherwise than by DHL’s number, a point abroad, and product SP without a point', async () => {
    const point = emulated((p) => p.open && p.cashOnDelivery);
    const postOffice = await refusalOf(provider.adapter.createShipment(toPoint({ ...point, type: 'post_office' }), settings, ctx()));
    expect(postOffice.errors).toEqual({ pickup_point: ['DHL Parcel Poland delivers to DHL POP shops and DHL BOX lockers, not to post offices: choose a DHL point'] });
    const named = await refusalOf(provider.adapter.createShipment(toPoint({ ...point, id: 'POP-WAW-01' }), settings, ctx()));
    expect(named.errors).toEqual({ pickup_point: ['DHL Parcel Poland names its points by their SAP number (digits, e.g. 1020348), not POP-WAW-01'] });
    const abroad = await refusalOf(provider.adapter.createShipment(toPoint({ ...point, address: { ...point.address, countryCode: 'CZ' } }, false), settings, ctx()));
    expect(Object.keys(abroad.errors)).toEqual(['pickup_point']);
    const door = demoShipment(provider, `sh_dhlpl_point_${++made}`, today());
    const noPoint = await refusalOf(provider.adapter.createShipment({ ...door, pickupPoint: null }, { ...settings, product: 'SP' }, ctx()));
    expect(noPoint.errors).toEqual({ pickup_point: ["is required with the channel's product SP (delivery to a DHL POP point); choose a point or another product"] });
    expect(operations()).toEqual([]);
  });

  it('refuses in the emulator, as DHL, product SP without a point number, and createShipments with product SP', async () => {
    const service = dhlPlService(false);
    const call = async (operation: string, content: Record<string, unknown>) => readSoapBody(await (await fetch(`${emu.urls.dhl_pl}${SERVICE_PATH}`, {
      method: 'POST', headers: soapHttpHeaders(service, operation), body: soapEnvelope(service, { name: operation, content: content as never }),
    })).text());
    const auth = { username: provider.demo.settings.username, password: provider.demo.settings.password };
    const party = { contact: { personName: 'Jan Kowalski', phoneNumber: '601987654' }, address: { name: 'Jan Kowalski', postalCode: '02796', city: 'Warszawa', street: 'Wąwozowa', houseNumber: '2' } };
    const withoutPoint = await call('createShipment', {
      authData: auth,
      shipment: {
        shipmentInfo: { dropOffType: 'REGULAR_PICKUP', serviceType: 'SP', billing: { shippingPaymentType: 'SHIPPER', billingAccountNumber: '1234567', paymentType: 'BANK_TRANSFER' }, shipmentTime: { shipmentDate: today() }, labelType: 'BLP' },
        content: 'Goods', ship: { shipper: party, receiver: { ...party, address: { country: 'PL', addressType: 'C', ...party.address } } },
        pieceList: { item: [{ type: 'PACKAGE', weight: 1, width: 20, height: 10, length: 30, quantity: 1 }] },
      },
    });
    expect(withoutPoint).toMatchObject({ code: '101', reason: 'ship.servicePointAccountNumber: produkt SP (doręczenie do punktu DHL POP) wymaga numeru punktu' });

    const shipments = await call('createShipments', {
      authData: auth,
      shipments: {
        item: [{
          shipper: { ...party.address, contactPhone: '601987654' }, receiver: { country: 'PL', addressType: 'C', ...party.address, contactPhone: '601987654' },
          pieceList: { item: [{ type: 'PACKAGE', weight: 1, width: 20, height: 10, length: 30, quantity: 1 }] },
          payment: { paymentMethod: 'BANK_TRANSFER', payerType: 'SHIPPER', accountNumber: '1234567' }, service: { product: 'SP' },
          shipmentDate: today(), skipRestrictionCheck: false, content: 'Goods',
        }],
      },
    });
    expect(shipments).toMatchObject({ code: '101', reason: expect.stringMatching(/^service\.product: produkt SP .* użyj createShipment$/) });
  });
});
