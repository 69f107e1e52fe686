import { describe, expect, it } from 'vitest';
import { findProvider } from '../../src/carriers/registry.js';
import type { CreatedAtCarrier, CustomsForCarrier } from '../../src/carriers/types.js';
import { customsDocuments } from '../../src/services/shipments/carrier-step.js';
import { demoShipment, pdfText } from '../helpers/dispatch-adapter.js';

const CUSTOMS: CustomsForCarrier = {
  contentsType: 'sale', incoterm: 'DAP', invoiceNumber: 'FV-7', invoiceDate: '2026-11-26', currency: 'CZK',
  exporterEori: 'CZ12345678', exporterVatNumber: null, importerTaxId: null,
  items: [
    { description: 'Hrnek smaltovaný', hsCode: '73239400', quantity: 2, unitValueMinor: 1250, unitWeightKg: 0.3, originCountry: 'CZ', sku: null },
    { description: 'Lněná utěrka', hsCode: '630291', quantity: 1, unitValueMinor: 990, unitWeightKg: 0.1, originCountry: 'PL', sku: null },
  ],
};
const shipment = { ...demoShipment(findProvider('dhl')!, 'sh_customs_docs', '2026-11-26'), customs: CUSTOMS };
const created: CreatedAtCarrier = { providerShipmentId: '1234567890', product: 'P', parcels: [{ trackingNumber: '1234567890', label: new Uint8Array() }] };

describe('the customs documents kept with a created shipment', () => {
  it('keeps the carrier’s commercial invoice, and draws none of its own', async () => {
    const invoice = new Uint8Array([37, 80, 68, 70]);
    expect(await customsDocuments(shipment, { ...created, documents: [{ type: 'commercial_invoice', content: invoice }] }, 'DHL Express'))
      .toEqual([{ type: 'commercial_invoice', content: invoice, source: 'carrier' }]);
  });

  it('draws packdesk’s commercial invoice of the items where goods cross a customs border and the carrier made none', async () => {
    const [invoice, ...more] = await customsDocuments(shipment, created, 'DHL Express');
    expect(more).toEqual([]);
    expect(invoice).toMatchObject({ type: 'commercial_invoice', source: 'packdesk' });
    const text = pdfText(invoice!.content);
    for (const item of CUSTOMS.items) expect(text).toContain(item.description);
    expect(text).toContain('FV-7');
  });

  it('draws none for documents, nor where the route crosses no customs border', async () => {
    expect(await customsDocuments({ ...shipment, customs: { ...CUSTOMS, contentsType: 'documents' } }, created, 'DHL Express')).toEqual([]);
    expect(await customsDocuments({ ...shipment, customs: null }, created, 'DHL Express')).toEqual([]);
  });
});
