import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierContext, CarrierParty, CustomsForCarrier, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, nextWorkingDay, pdfText, refusalOf, returnShipment, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';
import { carrierSchemaErrors } from '../helpers/json-schema.js';

/**
 * DPD returns through DPD Group's META-API, driven through the adapter against its emulator: the return of a
 * delivered parcel goes as 2C Return (332, "META API — Specification and description" 1.2, Product mapping) from the
 * customer back to the warehouse, naming the outbound DPD shipment among the customer references printed on the
 * label, held to the META-API OpenAPI; it is tracked like any parcel to delivered. The product tables give 332 to no
 * account of DPD CZ (business unit 015, the demo's): a return there is refused, before DPD and by DPD.
 */

const provider = findProvider('dpd')!;
const adapter = provider.adapter;
const SHIPMENT_PATH = '/dpd/shipping/v1/shipment';

/** DPD's published create-shipment schema, kept beside the carrier's fixtures (compiled once). */
const requestErrors = carrierSchemaErrors('dpd');

const LEIPZIG_WAREHOUSE: CarrierParty = {
  companyName: 'Lager Leipzig GmbH', personName: null, email: 'lager@example.de', phone: '+49341555000',
  street: 'Lagerstraße', houseNumber: '3', apartmentNumber: null, city: 'Leipzig', postalCode: '04109', countryCode: 'DE',
};
const BERLIN_CUSTOMER: CarrierParty = {
  companyName: null, personName: 'Anna Schmidt', email: 'anna@example.de', phone: '+4930555011',
  street: 'Kastanienallee', houseNumber: '7', apartmentNumber: null, city: 'Berlin', postalCode: '10435', countryCode: 'DE',
};
const ZURICH_CUSTOMER: CarrierParty = {
  companyName: null, personName: 'Lukas Meier', email: 'lukas.meier@example.ch', phone: '+41445550101',
  street: 'Bahnhofstrasse', houseNumber: '45', apartmentNumber: null, city: 'Zürich', postalCode: '8001', countryCode: 'CH',
};


describe('DPD returns: 2C Return (332) back to the warehouse, labelled and tracked like any parcel', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  const ctx: CarrierContext = { channelId: 'ch_dpd_returns', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
  const shippingDate = nextWorkingDay();
  const create = (s: ShipmentForCarrier, channel = settings) => adapter.createShipment(s, channel, { ...ctx, progress: memoryProgress() });
  const sentShipments = () => proxy.calls.filter((c) => c.method === 'POST' && c.path.startsWith(SHIPMENT_PATH)).map((c) => JSON.parse(c.body!) as Record<string, unknown>[]);
  /** A German warehouse's parcels to a customer in Berlin. */
  const outboundShipment = (id: string, parcels = 1): ShipmentForCarrier => ({
    ...demoShipment(provider, id, shippingDate, parcels), sender: LEIPZIG_WAREHOUSE, recipient: BERLIN_CUSTOMER,
  });
  const atDpd = (reference: string) => (emu.emulator('dpd').shipments() as { customerReferenceNumbers: string[]; productCode: string }[])
    .find((s) => s.customerReferenceNumbers[0] === reference);

  // DPD Germany (business unit 001), whose product tables have 2C Return, shipping its B2C product 327
  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running), { buCode: '001', productCode: '327' });

  it('declares returns', () => {
    expect(provider.capabilities.returns).toBe(true);
  });

  it('returns a delivered parcel as 332 from the customer to the warehouse, naming the outbound shipment among its references, and tracks it to delivered', async () => {
    const outbound = outboundShipment('sh_dpd_out_1');
    const sent = await create(outbound);
    expect(sent.product).toBe('327');
    await advanceEmulatedParcel(emu.url, 'dpd', sent.parcels[0]!.trackingNumber, 'delivered');

    const created = await create(returnShipment(outbound, sent, 'sh_dpd_ret_1'));
    expect(created.product).toBe('332');
    const request = sentShipments().at(-1)!;
    expect(requestErrors(request), 'the request against DPD\'s published schema').toEqual([]);
    expect(request[0]).toMatchObject({
      customerReferenceNumbers: ['sh_dpd_ret_1', 'REF-sh_dpd_out_1', sent.providerShipmentId],
      shipmentInfos: { productCode: '332' }, numberOfParcels: '1',
      sender: { address: { name1: 'Anna Schmidt', street: 'Kastanienallee', zipCode: '10435', city: 'Berlin', country: 'DE' }, contact: { phone1: '+4930555011' } },
      receiver: { address: { companyName: 'Lager Leipzig GmbH', street: 'Lagerstraße', zipCode: '04109', city: 'Leipzig', country: 'DE' } },
    });
    expect(request[0]).not.toHaveProperty('mpsCompleteDelivery');
    expect(request[0]!.parcel).toEqual([expect.not.objectContaining({ cod: expect.anything() })]);

    const [parcel] = created.parcels;
    expect(parcel!.trackingNumber).not.toBe(sent.parcels[0]!.trackingNumber);
    expect(await decodePdfBarcodes(parcel!.label)).toEqual([[parcel!.trackingNumber]]);
    const printed = pdfText(parcel!.label);
    expect(printed).toContain('332 2C Return');
    expect(printed).toContain('Ref: sh_dpd_ret_1 / REF-sh_dpd_out_1');
    expect(printed.indexOf('Anna Schmidt'), 'the customer is the sender, printed first').toBeLessThan(printed.indexOf('Lager Leipzig GmbH'));
    expect(atDpd('sh_dpd_ret_1')).toMatchObject({ productCode: '332' });

    await advanceEmulatedParcel(emu.url, 'dpd', parcel!.trackingNumber, 'delivered');
    const events = await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx);
    expect(events.map((e) => e.status)).toEqual(['created', 'in_transit', 'in_transit', 'in_transit', 'out_for_delivery', 'delivered']);
  });

  it('returns from Switzerland with the customs declaration of a return (exportReason s02), the warehouse\'s EORI with the warehouse', async () => {
    const customs: CustomsForCarrier = {
      contentsType: 'sale', incoterm: 'DAP', invoiceNumber: 'RE-2026-77', invoiceDate: shippingDate, currency: 'EUR',
      exporterEori: 'DE123456789012345', exporterVatNumber: null, importerTaxId: null,
      items: [{ description: 'Wool scarf', hsCode: '611710', quantity: 1, unitValueMinor: 3900, unitWeightKg: 0.3, originCountry: 'DE', sku: 'SC-3' }],
    };
    const outbound = { ...outboundShipment('sh_dpd_out_3'), recipient: ZURICH_CUSTOMER, customs };
    const sent = await create(outbound);
    const back = { ...returnShipment(outbound, sent, 'sh_dpd_ret_3'), customs: { ...customs, contentsType: 'return' as const } };
    expect((await create(back)).product).toBe('332');
    const request = sentShipments().at(-1)!;
    expect(requestErrors(request)).toEqual([]);
    expect(request[0]).toMatchObject({
      shipmentInfos: { productCode: '332' },
      sender: { address: { country: 'CH' } }, receiver: { address: { country: 'DE' }, legalEntity: { businessType: 'B', eori: 'DE123456789012345' } },
      international: {
        exportReason: 's02', customsAmount: { amount: 39, currency: 'EUR' }, interInvoiceLines: [{ content: 'Wool scarf', exportTarifCode: '611710' }],
        exporter: { address: { name1: 'Lukas Meier', country: 'CH' } }, importer: { address: { companyName: 'Lager Leipzig GmbH' }, eori: 'DE123456789012345' },
      },
    });
    expect(request[0]!.sender).not.toHaveProperty('legalEntity');
    expect((request[0]!.international as { exporter: object }).exporter).not.toHaveProperty('eori');
  });

  it('refuses a return on a channel of DPD CZ before asking DPD, and DPD itself refuses 332 there, both on the channel', async () => {
    const czech = { ...settings, buCode: '015', productCode: '101' };
    const outbound = demoShipment(provider, 'sh_dpd_out_4', shippingDate);
    const sent = await create(outbound, czech);
    proxy.calls.length = 0;
    const refused = await refusalOf(create(returnShipment(outbound, sent, 'sh_dpd_ret_4'), czech));
    expect(refused.errors).toEqual({
      shipping_channel_id: ['DPD\'s product tables give 2C Return (332) to no account of business unit 015: return with a channel of a business unit that has it'],
    });
    expect(proxy.calls, 'nothing sent to DPD').toEqual([]);

    const body = provider.mappers.createRequest(returnShipment(outbound, sent, 'sh_dpd_ret_4'), settings);
    const answer = await postAsBusinessUnit('015', body);
    expect(answer.status).toBe(400);
    const errors = await answer.json();
    expect(errors).toEqual([{ errorCode: 'ROUTING_15', errorMessage: 'shipmentInfos.productCode 332: service combination not possible in business unit 015', errorOrigin: 'BU-API' }]);
    expect(provider.mappers.parseRefusal(400, errors).errors).toEqual({
      shipping_channel_id: ['DPD: ROUTING_15: shipmentInfos.productCode 332: service combination not possible in business unit 015'],
    });
    expect(atDpd('sh_dpd_ret_4'), 'nothing created at DPD').toBeUndefined();
  });

  it('refuses cash on delivery on a return before asking DPD, and DPD refuses 332 with COD itself, on the amount', async () => {
    const outbound = outboundShipment('sh_dpd_out_5');
    const sent = await create(outbound);
    proxy.calls.length = 0;
    const withCod = { ...returnShipment(outbound, sent, 'sh_dpd_ret_5'), cashOnDelivery: { amountMinor: 4_990, currency: 'EUR' } };
    const refused = await refusalOf(create(withCod));
    expect(refused.errors).toEqual({ cash_on_delivery_amount: ['DPD product 332 cannot carry cash on delivery; choose another product on the channel'] });
    expect(proxy.calls, 'nothing sent to DPD').toEqual([]);

    const [plain] = provider.mappers.createRequest(returnShipment(outbound, sent, 'sh_dpd_ret_5'), settings) as { parcel: object[] }[];
    const cod = { amount: { amount: 49.9, currency: 'EUR' }, collectType: 's0' };
    const answer = await postAsBusinessUnit('001', [{ ...plain, mpsCompleteDelivery: 's2', parcel: [{ ...plain!.parcel[0], cod }] }]);
    expect(answer.status).toBe(400);
    const errors = await answer.json();
    expect(errors).toEqual([{ errorCode: 'ROUTING_15', errorMessage: 'parcel[0].cod: product 332 carries no cash on delivery (use its COD product)', errorOrigin: 'BU-API' }]);
    expect(Object.keys(provider.mappers.parseRefusal(400, errors).errors)).toEqual(['cash_on_delivery_amount']);
  });

  it('returns a two-parcel shipment as one 332 shipment with ZPL labels, one that scans per parcel', async () => {
    const outbound = { ...outboundShipment('sh_dpd_out_2', 2), labelFormat: 'zpl' as const };
    const sent = await create(outbound);
    const created = await create(returnShipment(outbound, sent, 'sh_dpd_ret_2'));
    expect(created.product).toBe('332');
    const request = sentShipments().at(-1)!;
    expect(requestErrors(request)).toEqual([]);
    expect(request[0]).toMatchObject({ shipmentInfos: { productCode: '332' }, numberOfParcels: '2', parcel: [{ parcelInfos: { weight: '1000' } }, { parcelInfos: { weight: '2000' } }] });
    expect(created.parcels).toHaveLength(2);
    for (const p of created.parcels) expect(await decodeZplBarcodes(p.label.toString('utf8'))).toEqual([[p.trackingNumber]]);
  });

  /** A create call straight to the emulator, logged in at business unit `bu` with the demo's login. */
  async function postAsBusinessUnit(bu: string, body: unknown) {
    const login = await fetch(`${emu.urls.dpd}/shipping/v1/login`, {
      method: 'POST', headers: { 'x-dpd-bucode': bu, 'x-dpd-login': String(settings.login), 'x-dpd-password': String(settings.password) },
    });
    return fetch(`${emu.urls.dpd}/shipping/v1/shipment?LabelPrintFormat=PDF`, {
      method: 'POST', body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.headers.get('x-dpd-token')}`, 'x-dpd-bucode': bu },
    });
  }
});
