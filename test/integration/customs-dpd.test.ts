import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierContext, CarrierParty, CustomsForCarrier, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, nextWorkingDay, refusalOf, threeGoods, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { carrierSchemaErrors } from '../helpers/json-schema.js';

/**
 * DPD across a customs border through DPD Group's META-API, driven through the adapter against its emulator: a Czech
 * e-shop's parcel to Switzerland, the United Kingdom or the United States goes with its declaration in
 * `Shipment.international` (the META-API OpenAPI's `International` and `InterInvoiceLine`, held to that schema); one
 * without it is refused on `customs`; a parcel within the EU goes as before. DPD returns no customs documents, so
 * packdesk's own commercial invoice goes with the parcel (`customsPaper` A).
 */

const provider = findProvider('dpd')!;
const adapter = provider.adapter;
const SHIPMENT_PATH = '/dpd/shipping/v1/shipment';

/** DPD's published create-shipment schema, kept beside the carrier's fixtures (compiled once). */
const requestErrors = carrierSchemaErrors('dpd');

const ZURICH: Partial<CarrierParty> = {
  companyName: null, personName: 'Lukas Meier', phone: '+41445550101', email: 'lukas.meier@example.ch',
  street: 'Bahnhofstrasse', houseNumber: '45', apartmentNumber: null, city: 'Zürich', postalCode: '8001', countryCode: 'CH',
};
const LONDON: Partial<CarrierParty> = {
  companyName: 'Tea & Pottery Ltd', personName: 'Oliver Brown', phone: '+442079460000', email: 'oliver@example.co.uk',
  street: 'Baker Street', houseNumber: '221', apartmentNumber: null, city: 'London', postalCode: 'NW1 6XE', countryCode: 'GB',
};
const NEW_YORK: Partial<CarrierParty> = {
  companyName: null, personName: 'Emily Carter', phone: '+12125550100', email: 'emily.carter@example.com',
  street: 'Fifth Avenue', houseNumber: '350', apartmentNumber: null, city: 'New York', postalCode: '10118', countryCode: 'US',
};
const VIENNA: Partial<CarrierParty> = {
  street: 'Mariahilfer Straße', houseNumber: '10', apartmentNumber: null, city: 'Wien', postalCode: '1070', countryCode: 'AT',
};

const THREE_ITEMS = threeGoods('EUR', 'FV-2026-2041', '2026-11-20');

describe('DPD customs: the declaration in the META-API\'s international data, for a parcel that leaves the EU', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let made = 0;
  const ctx: CarrierContext = { channelId: 'ch_dpd_customs', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
  const create = (s: ShipmentForCarrier) => adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() });
  /** The demo's Prague warehouse sending one 3 kg parcel to `recipient`, with `customs`. */
  const shipmentTo = (recipient: Partial<CarrierParty>, customs: CustomsForCarrier | null): ShipmentForCarrier => {
    const s = demoShipment(provider, `sh_dpd_customs_${++made}`, nextWorkingDay());
    return { ...s, recipient: { ...s.recipient, ...recipient }, parcels: [{ ...s.parcels[0]!, weightKg: 3 }], customs };
  };
  const sentShipments = () => proxy.calls.filter((c) => c.method === 'POST' && c.path.startsWith(SHIPMENT_PATH)).map((c) => JSON.parse(c.body!) as Record<string, unknown>[]);
  const createdAtDpd = () => emu.emulator('dpd').shipments() as { customerReferenceNumbers: string[] }[];

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('declares that it sends customs declarations', () => {
    expect(provider.capabilities.customs).toBe(true);
  });

  it('sends CZ → CH with 3 customs items: international carries the invoice lines, the total, the terms and the parties\' numbers, within DPD\'s schema', async () => {
    const created = await create(shipmentTo(ZURICH, { ...THREE_ITEMS, importerTaxId: 'CHE-123.456.789' }));
    const [sent] = sentShipments();
    expect(requestErrors(sent), 'the request against DPD\'s published schema').toEqual([]);
    expect(sent![0]).toMatchObject({
      shipmentInfos: { productCode: '101' },
      sender: { address: { country: 'CZ' }, legalEntity: { businessType: 'B', eori: 'CZ12345678', vatNumber: 'CZ12345678' } },
      receiver: { address: { country: 'CH', city: 'Zürich' } },
      international: {
        parcelType: 'P', customsAmount: { amount: 106.73, currency: 'EUR' }, customsTerms: 's03', customsPaper: 'A',
        customsInvoice: 'FV-2026-2041', customsInvoiceDates: ['2026-11-20'], exportReason: 's01', numberOfArticles: '3',
        exporter: { address: { companyName: 'Sklad Praha s.r.o.', country: 'CZ' }, eori: 'CZ12345678' },
        importer: { address: { name1: 'Lukas Meier', country: 'CH' }, vatNumber: 'CHE123456789' },
        interInvoiceLines: [
          {
            invoicePosition: '1', quantityOfItems: '2', content: 'Cotton T-shirt, screen printed', amountOfPosition: 25.98, manufacturedCountry: 'CZ',
            netWeight: '400', grossWeight: '400', customerProductCode: 'TS-01', importTarifCode: '610910', exportTarifCode: '610910',
          },
          { invoicePosition: '2', quantityOfItems: '1', amountOfPosition: 7.25, manufacturedCountry: 'PL', netWeight: '400', exportTarifCode: '69120085' },
          { invoicePosition: '3', quantityOfItems: '3', amountOfPosition: 73.5, manufacturedCountry: 'CZ', netWeight: '1500', exportTarifCode: '4901990000' },
        ],
      },
    });
    expect((sent![0]!.international as { interInvoiceLines: object[] }).interInvoiceLines[1]).not.toHaveProperty('customerProductCode');
    // DPD makes no customs documents: packdesk's own invoice goes with the parcel
    expect(created).not.toHaveProperty('documents');
    expect(await decodePdfBarcodes(created.parcels[0]!.label)).toEqual([[created.parcels[0]!.trackingNumber]]);
  });

  it('sends a gift to GB under DAP and documents to the US as parcel type D worth nothing, each within DPD\'s schema', async () => {
    const gift: CustomsForCarrier = { ...THREE_ITEMS, contentsType: 'gift', incoterm: 'DAP', currency: 'GBP', exporterVatNumber: null, items: THREE_ITEMS.items.slice(1, 2) };
    await create(shipmentTo(LONDON, gift));
    const documents: CustomsForCarrier = {
      ...THREE_ITEMS, contentsType: 'documents', incoterm: 'DAP', currency: 'USD', exporterEori: null, exporterVatNumber: null,
      items: [{ description: 'Signed contract', hsCode: null, quantity: 1, unitValueMinor: 0, unitWeightKg: 0.1, originCountry: 'CZ', sku: null }],
    };
    await create(shipmentTo(NEW_YORK, documents));

    const [toLondon, toNewYork] = sentShipments();
    for (const sent of [toLondon, toNewYork]) expect(requestErrors(sent)).toEqual([]);
    expect(toLondon![0]).toMatchObject({
      sender: { legalEntity: { businessType: 'B', eori: 'CZ12345678' } },
      international: {
        parcelType: 'P', customsAmount: { amount: 7.25, currency: 'GBP' }, customsTerms: 's06', exportReason: 's03', numberOfArticles: '1',
        interInvoiceLines: [{ invoicePosition: '1', content: 'Ceramic coffee mug', amountOfPosition: 7.25 }],
      },
    });
    expect((toLondon![0]!.sender as Record<string, unknown>).legalEntity).not.toHaveProperty('vatNumber');
    expect(toNewYork![0]!.international).toEqual({
      parcelType: 'D', customsAmount: { amount: 0, currency: 'USD' }, customsTerms: 's06', customsInvoice: 'FV-2026-2041', customsInvoiceDates: ['2026-11-20'],
      exporter: expect.objectContaining({ address: expect.objectContaining({ country: 'CZ' }) }),
      importer: expect.objectContaining({ address: expect.objectContaining({ name1: 'Emily Carter', country: 'US' }) }),
    });
    expect(toNewYork![0]!.sender).not.toHaveProperty('legalEntity');
  });

  it('is refused by DPD when a parcel to the US goes without customs data, on the field customs', async () => {
    const refused = await refusalOf(create(shipmentTo(NEW_YORK, null)));
    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect(refused.errors).toEqual({
      customs: ['DPD: CUSTOMS: international is mandatory for a shipment from CZ to US, which leaves the EU customs union'],
    });
    expect(sentShipments()[0]![0]).not.toHaveProperty('international');
    expect(createdAtDpd().some((s) => s.customerReferenceNumbers[0] === `sh_dpd_customs_${made}`), 'nothing created at DPD').toBe(false);
  });

  it('refuses an incoterm DPD has no customs terms for before asking DPD, on customs.incoterm', async () => {
    const refused = await refusalOf(create(shipmentTo(ZURICH, { ...THREE_ITEMS, incoterm: 'FCA' })));
    expect(refused.errors).toEqual({ 'customs.incoterm': ['DPD\'s customsTerms know DAP, DDP and EXW only, not FCA'] });
    expect(proxy.calls, 'nothing sent to DPD').toEqual([]);
  });

  it('sends CZ → AT without customs as before: no international data, no legal entity', async () => {
    const created = await create(shipmentTo(VIENNA, null));
    const [sent] = sentShipments();
    expect(requestErrors(sent)).toEqual([]);
    expect(sent![0]).not.toHaveProperty('international');
    expect(sent![0]!.sender).not.toHaveProperty('legalEntity');
    expect(Object.keys(sent![0]!)).toEqual(['customerReferenceNumbers', 'shipmentInfos', 'numberOfParcels', 'sender', 'receiver', 'parcel']);
    expect(Object.keys(sent![0]!.sender as object)).toEqual(['address', 'contact']);
    expect(created.parcels).toHaveLength(1);
  });

  it('answers invoice lines that do not add up, a line without its tariff code and a miscounted article number with DPD\'s errors, on the items', async () => {
    const body = provider.mappers.createRequest(shipmentTo(NEW_YORK, THREE_ITEMS), settings) as { international: Record<string, unknown> & { interInvoiceLines: Record<string, unknown>[] } }[];
    const [shipment] = body;
    const { exportTarifCode: _, ...withoutTariff } = shipment!.international.interInvoiceLines[1]!;
    const tampered = [{
      ...shipment, international: {
        ...shipment!.international, customsAmount: { amount: 99, currency: 'EUR' }, numberOfArticles: '2',
        interInvoiceLines: [shipment!.international.interInvoiceLines[0], withoutTariff, shipment!.international.interInvoiceLines[2]],
      },
    }];
    const login = await fetch(`${emu.urls.dpd}/shipping/v1/login`, {
      method: 'POST', headers: { 'x-dpd-bucode': String(settings.buCode), 'x-dpd-login': String(settings.login), 'x-dpd-password': String(settings.password) },
    });
    const answer = await fetch(`${emu.urls.dpd}/shipping/v1/shipment?LabelPrintFormat=PDF`, {
      method: 'POST', body: JSON.stringify(tampered),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.headers.get('x-dpd-token')}`, 'x-dpd-bucode': String(settings.buCode) },
    });
    expect(answer.status).toBe(400);
    const errors = await answer.json();
    expect(errors).toEqual([
      { errorCode: 'CUSTOMS', errorMessage: 'international.numberOfArticles 2 must equal the 3 interInvoiceLines', errorOrigin: 'BU-API' },
      { errorCode: 'CUSTOMS', errorMessage: 'international.interInvoiceLines[1].exportTarifCode is mandatory for the export customs clearance', errorOrigin: 'BU-API' },
      { errorCode: 'CUSTOMS', errorMessage: 'international.customsAmount 99 is not the 106.730 the interInvoiceLines are worth (amountOfPosition)', errorOrigin: 'BU-API' },
    ]);
    expect(Object.keys(provider.mappers.parseRefusal(400, errors).errors)).toEqual(['customs.items', 'customs.items.1.hs_code']);
  });
});
