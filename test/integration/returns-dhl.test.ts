import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { dhlShipmentRequest } from '../../src/carriers/dhl/request.js';
import { dhlReturnFieldPath } from '../../src/carriers/dhl/response.js';
import { dhlSettings } from '../../src/carriers/dhl/settings.js';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierParty, CreatedAtCarrier, CustomsForCarrier, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, nextWorkingDay, pdfText, refusalOf, returnShipment, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';
import { carrierSchemaErrors } from '../helpers/json-schema.js';

/**
 * A customer sends a DHL Express parcel back to the warehouse. MyDHL has no return product: the return is an ordinary
 * `POST /shipments` with the customer as shipper and the warehouse as receiver, billed to the warehouse's account as
 * payer, naming the outbound waybill as the receiver's reference (AAO); from outside the EU it carries the declaration
 * as returned goods with DHL's returns invoice. Its label comes in DHL's answer and it is tracked to the warehouse.
 */

const provider = findProvider('dhl')!;
const adapter = provider.adapter;
const ctx = { channelId: 'ch_dhl_returns', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };

/** MyDHL's published schema of the `POST /shipments` body (fixtures/schema/SOURCE.md). */
const createRequestErrors = carrierSchemaErrors('dhl');

const NEW_YORK: Partial<CarrierParty> = {
  companyName: null, personName: 'Emily Carter', phone: '+12125550100', email: 'emily.carter@example.com',
  street: 'Fifth Avenue', houseNumber: '350', apartmentNumber: null, city: 'New York', postalCode: '10118', countryCode: 'US',
};

/** A Czech e-shop's sale to New York: 2 × 12.99 + 1 × 7.25 + 3 × 24.50 = 106.73 USD. */
const SALE: CustomsForCarrier = {
  contentsType: 'sale', incoterm: 'DAP', invoiceNumber: 'INV-2026-2041', invoiceDate: '2026-11-23', currency: 'USD',
  exporterEori: 'CZ12345678', exporterVatNumber: null, importerTaxId: '987654321',
  items: [
    { description: 'Cotton T-shirt, screen printed', hsCode: '610910', quantity: 2, unitValueMinor: 1299, unitWeightKg: 0.2, originCountry: 'CZ', sku: 'TS-01' },
    { description: 'Ceramic coffee mug', hsCode: '69120085', quantity: 1, unitValueMinor: 725, unitWeightKg: 0.4, originCountry: 'PL', sku: null },
    { description: 'Illustrated book, hardcover', hsCode: '4901990000', quantity: 3, unitValueMinor: 2450, unitWeightKg: 0.5, originCountry: 'CZ', sku: 'BK-7' },
  ],
};

type SentRequest = { customerDetails: Record<string, Record<string, unknown>>; content: Record<string, unknown> } & Record<string, unknown>;

describe('DHL Express returns: a shipment from the customer back to the warehouse, billed to the warehouse', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let made = 0;
  const shippingDate = nextWorkingDay();
  const create = (s: ShipmentForCarrier, channel = settings) => adapter.createShipment(s, channel, { ...ctx, progress: memoryProgress() });
  const sentRequests = () => proxy.calls.filter((c) => c.method === 'POST' && c.path === '/dhl/shipments').map((c) => JSON.parse(c.body!) as SentRequest);
  /** An outbound shipment of `parcels` parcels from the demo's Prague warehouse, created at the emulated DHL. */
  const outbound = async (parcels = 1, extra: Partial<ShipmentForCarrier> = {}, channel = settings) => {
    const s = { ...demoShipment(provider, `sh_dhl_out_${++made}`, shippingDate, parcels), ...extra };
    return { s, created: await create(s, channel) };
  };
  /** Its return as packdesk hands it over: the parties swapped, the outbound's numbers in `returnOf`. */
  const returnOf = (s: ShipmentForCarrier, created: CreatedAtCarrier, extra: Partial<ShipmentForCarrier> = {}): ShipmentForCarrier => ({
    ...returnShipment(s, created, `sh_dhl_ret_${++made}`), ...extra,
  });
  /** The emulated DHL's record of a waybill. */
  const recordOf = (awb: string) => emu.emulator('dhl').shipments().find((r) => r.shipmentTrackingNumber === awb);

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('declares returns', () => {
    expect(provider.capabilities.returns).toBe(true);
  });

  it('returns a delivered parcel from Brno to the Prague warehouse, billed to the warehouse as payer and naming the outbound waybill, and tracks it to delivered', async () => {
    const { s, created } = await outbound();
    await advanceEmulatedParcel(emu.url, 'dhl', created.parcels[0]!.trackingNumber, 'delivered');

    const back = returnOf(s, created);
    const returned = await create(back);
    const sent = sentRequests().at(-1)!;
    expect(createRequestErrors(sent), 'the request against MyDHL’s published schema').toEqual([]);
    expect(sent).toMatchObject({
      productCode: 'N',
      accounts: [{ typeCode: 'shipper', number: '123456789' }, { typeCode: 'payer', number: '123456789' }],
      customerReferences: [{ value: back.id, typeCode: 'CU' }, { value: created.providerShipmentId, typeCode: 'AAO' }],
      customerDetails: {
        shipperDetails: { postalAddress: { addressLine1: 'Údolní 5', cityName: 'Brno', postalCode: '60200', countryCode: 'CZ' }, typeCode: 'private' },
        receiverDetails: { postalAddress: { addressLine1: 'Skladová 12', cityName: 'Praha', postalCode: '14800', countryCode: 'CZ' }, contactInformation: { companyName: 'Sklad Praha s.r.o.' } },
      },
      content: { isCustomsDeclarable: false },
    });
    expect(sent).not.toHaveProperty('valueAddedServices');

    expect(returned.product).toBe('N');
    expect(returned.providerShipmentId).not.toBe(created.providerShipmentId);
    const [parcel] = returned.parcels;
    expect(await decodePdfBarcodes(parcel!.label)).toEqual([[parcel!.trackingNumber]]);
    const printed = pdfText(parcel!.label);
    expect(printed.indexOf('Řehoř Šťastný'), 'the customer is the sender, printed first').toBeLessThan(printed.indexOf('Sklad Praha s.r.o.'));
    expect(recordOf(returned.providerShipmentId)).toMatchObject({
      accountNumber: '123456789', payerAccountNumber: '123456789',
      customerReferences: [{ value: back.id, typeCode: 'CU' }, { value: created.providerShipmentId, typeCode: 'AAO' }],
    });
    expect(recordOf(created.providerShipmentId), 'an outbound shipment names no payer').toMatchObject({ payerAccountNumber: null });

    await advanceEmulatedParcel(emu.url, 'dhl', parcel!.trackingNumber, 'delivered');
    const events = await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx);
    expect(events.at(-1)).toMatchObject({ code: 'OK', status: 'delivered' });
  });

  describe('across a customs border (Express Worldwide)', () => {
    const worldwide = () => ({ ...settings, productCode: 'P' });
    const toNewYork = { parcels: [{ parcelType: 'package', weightKg: 2.5, lengthCm: 30, widthCm: 20, heightCm: 10 }], customs: SALE };
    const withNewYork = (s: ShipmentForCarrier) => ({ ...s, recipient: { ...s.recipient, ...NEW_YORK } });

    it('returns goods from New York declared as returned goods, with the warehouse’s EORI on the warehouse and DHL’s returns invoice', async () => {
      const s = withNewYork(demoShipment(provider, `sh_dhl_out_${++made}`, shippingDate));
      const created = await create({ ...s, ...toNewYork }, worldwide());
      const back = returnOf({ ...s, ...toNewYork }, created);
      const returned = await create(back, worldwide());

      const sent = sentRequests().at(-1)!;
      expect(createRequestErrors(sent)).toEqual([]);
      expect(sent.customerDetails.shipperDetails).toMatchObject({
        postalAddress: { cityName: 'New York', countryCode: 'US' }, registrationNumbers: [{ typeCode: 'VAT', number: '987654321', issuerCountryCode: 'US' }],
      });
      expect(sent.customerDetails.receiverDetails).toMatchObject({
        postalAddress: { cityName: 'Praha', countryCode: 'CZ' }, registrationNumbers: [{ typeCode: 'EOR', number: 'CZ12345678', issuerCountryCode: 'CZ' }],
      });
      expect(sent.content).toMatchObject({
        isCustomsDeclarable: true, declaredValue: 106.73, declaredValueCurrency: 'USD',
        exportDeclaration: { exportReason: 'Returned goods', exportReasonType: 'return', lineItems: [{ exportReasonType: 'return' }, { exportReasonType: 'return' }, { exportReasonType: 'return' }] },
      });
      expect(sent.outputImageProperties).toMatchObject({
        imageOptions: expect.arrayContaining([{ typeCode: 'invoice', templateName: 'RET_COM_INVOICE_A4_01', isRequested: true, invoiceType: 'returns' }]),
      });

      expect(returned.documents?.map((d) => d.type)).toEqual(['commercial_invoice']);
      const invoice = pdfText(returned.documents![0]!.content);
      expect(invoice).toMatch(/RETURNS INVOICE/);
      expect(invoice).toMatch(/Cotton T-shirt, screen printed[\s\S]*HS 610910\s+origin CZ\s+2 PCS × 12\.99 USD = 25\.98 USD/);
      expect(invoice.indexOf('Emily Carter'), 'the customer exports, the warehouse imports').toBeLessThan(invoice.indexOf('Sklad Praha s.r.o.'));
      expect(await decodePdfBarcodes(returned.parcels[0]!.label)).toEqual([[returned.parcels[0]!.trackingNumber]]);
    });

    it('is refused by the emulated DHL when the returns invoice goes with goods not declared as returned, which the adapter reads as the customs field', async () => {
      const s = withNewYork(demoShipment(provider, `sh_dhl_out_${++made}`, shippingDate));
      const body = dhlShipmentRequest(returnOf({ ...s, ...toNewYork }, { providerShipmentId: '5784200310', parcels: [], product: 'P' }), dhlSettings.parse(worldwide()));
      const declaration = body.content.exportDeclaration!;
      const asSale = { ...body, content: { ...body.content, exportDeclaration: { ...declaration, exportReasonType: 'commercial_purpose_or_sale' } } };
      expect(createRequestErrors(asSale), 'schema-valid: DHL’s own rule refuses it').toEqual([]);

      const { apiKey, apiSecret } = settings as { apiKey: string; apiSecret: string };
      const answer = await fetch(`${emu.urls.dhl}/shipments`, {
        method: 'POST', body: JSON.stringify(asSale),
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}` },
      });
      expect(answer.status).toBe(400);
      const problem = await answer.json();
      const message = "#/content/exportDeclaration/exportReasonType must be 'return', not 'commercial_purpose_or_sale', for the returns invoice RET_COM_INVOICE_A4_01 (#/outputImageProperties/imageOptions/2): it is for returned goods only.";
      expect(problem).toMatchObject({ status: '400', detail: message });
      expect(provider.mappers.parseRefusal(400, problem).errors).toEqual({ customs: [`DHL Express: ${message}`] });
      // on a return the warehouse's EORI is on the receiver, the customer's tax id on the shipper, the outbound waybill the second reference
      expect(['/customerDetails/receiverDetails/registrationNumbers/0/number', '/customerDetails/shipperDetails/registrationNumbers/0', '/customerReferences/1/value'].map(dhlReturnFieldPath))
        .toEqual(['customs', 'customs.importer_tax_id', 'return_of']);
    });
  });

  it('refuses cash on delivery on a return before asking DHL', async () => {
    const { s, created } = await outbound();
    proxy.calls.length = 0;
    const refused = await refusalOf(create(returnOf(s, created, { cashOnDelivery: { amountMinor: 49_900, currency: 'CZK' } })));
    expect(refused.errors).toEqual({ cash_on_delivery_amount: ['a DHL Express return takes no cash on delivery'] });
    expect(proxy.calls, 'nothing sent to DHL').toEqual([]);
  });

  // last: decoding ZPL holds the event loop for seconds, and a carrier call right after it can meet a kept-alive socket the proxy closed meanwhile
  it('returns a two-parcel shipment with ZPL labels, one that scans per piece', async () => {
    const { s, created } = await outbound(2);
    const returned = await create(returnOf(s, created, { labelFormat: 'zpl' }));
    const sent = sentRequests().at(-1)!;
    expect(createRequestErrors(sent)).toEqual([]);
    expect(sent).toMatchObject({
      accounts: [{ typeCode: 'shipper' }, { typeCode: 'payer' }], outputImageProperties: { encodingFormat: 'zpl' }, content: { packages: [{ weight: 1 }, { weight: 2 }] },
    });
    expect(returned.parcels).toHaveLength(2);
    for (const p of returned.parcels) expect(await decodeZplBarcodes(Buffer.from(p.label).toString('utf8'))).toEqual([[p.trackingNumber]]);
  });
});
