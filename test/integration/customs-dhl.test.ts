import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierContext, CarrierParty, CustomsForCarrier, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { demoShipment, memoryProgress, nextWorkingDay, pdfText, refusalOf, threeGoods, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { carrierSchemaErrors } from '../helpers/json-schema.js';

/**
 * DHL Express across a customs border, driven through the adapter against its emulator: a Czech e-shop's parcel to
 * the United States goes with its customs declaration (MyDHL's `exportDeclaration`) and comes back with DHL's
 * commercial invoice; one without a declaration is refused on `customs`; a parcel within the EU goes as before.
 */

const provider = findProvider('dhl')!;
const adapter = provider.adapter;

/** MyDHL's published request schema of `POST /shipments`, as the carrier fixtures check requests against it (compiled once). */
const createRequestErrors = carrierSchemaErrors('dhl');

const NEW_YORK: Partial<CarrierParty> = {
  companyName: null, personName: 'Emily Carter', phone: '+12125550100', email: 'emily.carter@example.com',
  street: 'Fifth Avenue', houseNumber: '350', apartmentNumber: null, city: 'New York', postalCode: '10118', countryCode: 'US',
};
const LONDON: Partial<CarrierParty> = {
  companyName: 'Tea & Pottery Ltd', personName: 'Oliver Brown', phone: '+442079460000', email: 'oliver@example.co.uk',
  street: 'Baker Street', houseNumber: '221', apartmentNumber: null, city: 'London', postalCode: 'NW1 6XE', countryCode: 'GB',
};
const BERLIN: Partial<CarrierParty> = {
  street: 'Unter den Linden', houseNumber: '77', apartmentNumber: null, city: 'Berlin', postalCode: '10117', countryCode: 'DE',
};

const THREE_ITEMS = threeGoods('USD', 'INV-2026-1187', '2026-11-23');

describe('DHL Express customs: the declaration sent with a shipment that leaves the EU, and DHL\'s commercial invoice', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let made = 0;
  const ctx: CarrierContext = { channelId: 'ch_dhl_customs', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
  const create = (s: ShipmentForCarrier, channel = settings) => adapter.createShipment(s, channel, { ...ctx, progress: memoryProgress() });
  /** The demo's Prague warehouse sending one 2.5 kg parcel to `recipient`, with `customs`. */
  const shipmentTo = (recipient: Partial<CarrierParty>, customs: CustomsForCarrier | null): ShipmentForCarrier => {
    const s = demoShipment(provider, `sh_dhl_customs_${++made}`, nextWorkingDay());
    return { ...s, recipient: { ...s.recipient, ...recipient }, parcels: [{ ...s.parcels[0]!, weightKg: 2.5 }], customs };
  };
  const lastRequest = () => {
    const sent = proxy.calls.filter((c) => c.method === 'POST' && c.path === '/dhl/shipments');
    return JSON.parse(sent.at(-1)!.body!) as { content: Record<string, unknown>; customerDetails: Record<string, Record<string, unknown>> } & Record<string, unknown>;
  };

  // Express Worldwide: the demo channel's Express Domestic stays within a country
  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running), { productCode: 'P' });
  beforeEach(() => {
    emu.emulator('dhl').reset();
  });

  it('declares that it sends customs declarations', () => {
    expect(provider.capabilities.customs).toBe(true);
  });

  it('sends CZ → US with 3 customs items: the request passes MyDHL\'s schema with the export declaration, and DHL\'s commercial invoice is a PDF listing the items', async () => {
    const created = await create(shipmentTo(NEW_YORK, THREE_ITEMS));

    const sent = lastRequest();
    expect(createRequestErrors(sent)).toEqual([]);
    expect(sent.content).toMatchObject({
      isCustomsDeclarable: true, declaredValue: 106.73, declaredValueCurrency: 'USD', incoterm: 'DDP',
      exportDeclaration: {
        lineItems: [
          {
            number: 1, description: 'Cotton T-shirt, screen printed', price: 12.99, quantity: { value: 2, unitOfMeasurement: 'PCS' },
            commodityCodes: [{ typeCode: 'outbound', value: '610910' }], exportReasonType: 'commercial_purpose_or_sale', manufacturerCountry: 'CZ',
            weight: { netValue: 0.4, grossValue: 0.4 },
          },
          { number: 2, price: 7.25, quantity: { value: 1 }, commodityCodes: [{ value: '69120085' }], manufacturerCountry: 'PL', weight: { netValue: 0.4 } },
          { number: 3, price: 24.5, quantity: { value: 3 }, commodityCodes: [{ value: '4901990000' }], manufacturerCountry: 'CZ', weight: { netValue: 1.5 } },
        ],
        invoice: { number: 'INV-2026-1187', date: '2026-11-23' },
        exportReason: 'Sale of goods', exportReasonType: 'commercial_purpose_or_sale', shipmentType: 'commercial',
      },
    });
    expect(sent.customerDetails.shipperDetails!.registrationNumbers).toEqual([
      { typeCode: 'EOR', number: 'CZ12345678', issuerCountryCode: 'CZ' }, { typeCode: 'VAT', number: 'CZ12345678', issuerCountryCode: 'CZ' },
    ]);
    expect(sent.customerDetails.receiverDetails).not.toHaveProperty('registrationNumbers');
    expect(sent.outputImageProperties).toMatchObject({
      imageOptions: expect.arrayContaining([{ typeCode: 'invoice', templateName: 'COMMERCIAL_INVOICE_P_10', isRequested: true, invoiceType: 'commercial' }]),
    });
    // no Paperless Trade where the channel does not say the account has it
    expect(sent).not.toHaveProperty('valueAddedServices');

    expect(created.documents?.map((d) => d.type)).toEqual(['commercial_invoice']);
    const invoice = created.documents![0]!.content;
    expect(Buffer.from(invoice).subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(invoice);
    for (const line of [
      /Cotton T-shirt, screen printed[\s\S]*HS 610910\s+origin CZ\s+2 PCS × 12\.99 USD = 25\.98 USD/,
      /Ceramic coffee mug[\s\S]*HS 69120085\s+origin PL\s+1 PCS × 7\.25 USD = 7\.25 USD/,
      /Illustrated book, hardcover[\s\S]*HS 4901990000\s+origin CZ\s+3 PCS × 24\.50 USD = 73\.50 USD/,
      /Total declared value: 106\.73 USD/, /Invoice number: INV-2026-1187/, new RegExp(`Waybill: ${created.providerShipmentId}`),
    ]) expect(text).toMatch(line);
    expect(emu.emulator('dhl').shipments()).toEqual([expect.objectContaining({ shipmentTrackingNumber: created.providerShipmentId, customsDeclarable: true })]);
  });

  it('refuses CZ → US without customs data at DHL, on the field customs', async () => {
    const refusal = await refusalOf(create(shipmentTo(NEW_YORK, null)));
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.errors).toEqual({
      customs: ['DHL Express: The shipment from CZ to US crosses a customs border: #/content/isCustomsDeclarable must be true, with the goods declared in #/content/exportDeclaration.'],
    });
    expect(emu.emulator('dhl').shipments()).toEqual([]);
  });

  it('sends CZ → DE without customs as before: not declarable, no declaration, no invoice', async () => {
    const created = await create(shipmentTo(BERLIN, null));
    const sent = lastRequest();
    expect(createRequestErrors(sent)).toEqual([]);
    expect(sent.content.isCustomsDeclarable).toBe(false);
    for (const key of ['declaredValue', 'declaredValueCurrency', 'exportDeclaration']) expect(sent.content).not.toHaveProperty(key);
    expect(sent.content.incoterm).toBe('DAP');
    expect(sent.customerDetails.shipperDetails).not.toHaveProperty('registrationNumbers');
    expect(sent.outputImageProperties).toEqual({
      printerDPI: 300, encodingFormat: 'pdf', splitTransportAndWaybillDocLabels: true,
      imageOptions: [{ typeCode: 'label', templateName: 'ECOM26_A6_002' }, { typeCode: 'waybillDoc', isRequested: false }],
    });
    expect(created).not.toHaveProperty('documents');
  });

  it('asks for Paperless Trade (WY) where the channel says the account has it, and gives the importer\'s VAT number on the receiver', async () => {
    const gift: CustomsForCarrier = { ...THREE_ITEMS, contentsType: 'gift', incoterm: 'DAP', currency: 'GBP', importerTaxId: 'GB123456789', items: THREE_ITEMS.items.slice(1, 2) };
    const paperless = { ...settings, paperlessTrade: true };
    const created = await create(shipmentTo(LONDON, gift), paperless);

    const sent = lastRequest();
    expect(createRequestErrors(sent)).toEqual([]);
    expect(sent.valueAddedServices).toEqual([{ serviceCode: 'WY' }]);
    expect(sent.customerDetails.receiverDetails!.registrationNumbers).toEqual([{ typeCode: 'VAT', number: 'GB123456789', issuerCountryCode: 'GB' }]);
    expect(sent.content).toMatchObject({
      declaredValue: 7.25, declaredValueCurrency: 'GBP', incoterm: 'DAP',
      exportDeclaration: { exportReasonType: 'gift', shipmentType: 'personal', lineItems: [{ exportReasonType: 'gift' }] },
    });
    expect(created.documents?.map((d) => d.type)).toEqual(['commercial_invoice']);
    expect(emu.emulator('dhl').shipments()).toEqual([expect.objectContaining({ paperlessTrade: true })]);

    // within the EU the same channel asks for nothing: there is nothing to declare
    await create(shipmentTo(BERLIN, null), paperless);
    expect(lastRequest()).not.toHaveProperty('valueAddedServices');
  });

  it('answers a declaration whose line items do not add up, one without its invoice, and Paperless Trade without an invoice, with MyDHL\'s problems', async () => {
    const body = provider.mappers.createRequest(shipmentTo(NEW_YORK, THREE_ITEMS), settings) as {
      content: Record<string, unknown> & { exportDeclaration: Record<string, unknown> }; outputImageProperties: Record<string, unknown> & { imageOptions: { typeCode: string }[] };
    };
    const post = (request: unknown) => fetch(`${emu.urls.dhl}/shipments`, {
      method: 'POST', body: JSON.stringify(request),
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('station-1:mydhl-secret').toString('base64')}` },
    });
    const { invoice: _, ...withoutInvoice } = body.content.exportDeclaration;
    const answer = await post({ ...body, content: { ...body.content, declaredValue: 99, exportDeclaration: withoutInvoice } });
    expect(answer.status).toBe(400);
    const problem = (await answer.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({
      title: 'Bad request', detail: 'Multiple problems found, see Additional Details',
      additionalDetails: [
        "A dutiable shipment needs the commercial invoice's number and date in #/content/exportDeclaration/invoice.",
        'The line items #/content/exportDeclaration/lineItems are worth 106.730 (price × quantity), not the declared value 99 of #/content/declaredValue.',
      ],
    });
    expect(Object.keys(provider.mappers.parseRefusal(400, problem).errors)).toEqual(['customs.invoice_number', 'customs.items']);

    const imageOptions = body.outputImageProperties.imageOptions.filter((o) => o.typeCode !== 'invoice');
    const paperless = await post({ ...body, valueAddedServices: [{ serviceCode: 'WY' }], outputImageProperties: { ...body.outputImageProperties, imageOptions } });
    expect(await paperless.json()).toMatchObject({ status: '400', detail: '7120: Required either #/outputImageProperties/imageOptions where typeCode=invoice or provide #/documentImages' });
    expect(emu.emulator('dhl').shipments()).toEqual([]);
  });
});
