import { describe, expect, it } from 'vitest';
import type { CustomsForCarrier, CustomsItemForCarrier } from '../../src/carriers/types.js';
import { renderCommercialInvoice, type InvoiceParty } from '../../src/documents/commercial-invoice.js';
import { pdfText } from '../helpers/dispatch-adapter.js';

const exporter: InvoiceParty = {
  name: 'Žluťoučký kůň s.r.o.', street: 'Vinohradská 1234/56', postalCode: '120 00', city: 'Praha', countryCode: 'CZ',
  email: 'expedice@kun.cz', phone: '+420601123456', taxId: null,
};
const importer: InvoiceParty = {
  name: 'Łukasz Wróblewski', street: '350 Fifth Avenue', postalCode: '10118', city: 'New York', countryCode: 'US', phone: '+12125551234',
};
const item = (over: Partial<CustomsItemForCarrier>): CustomsItemForCarrier => ({
  description: 'Cotton T-shirt', hsCode: '61091000', quantity: 1, unitValueMinor: 1000, unitWeightKg: 0.2, originCountry: 'CZ', sku: null, ...over,
});
const customs = (items: CustomsItemForCarrier[]): CustomsForCarrier => ({
  contentsType: 'sale', incoterm: 'DAP', invoiceNumber: 'FV-2026-0042', invoiceDate: '2026-11-26', currency: 'EUR',
  exporterEori: 'CZ12345678', exporterVatNumber: 'CZ12345678', importerTaxId: null, items,
});
const render = (items: CustomsItemForCarrier[], weight = 3) => renderCommercialInvoice({
  shipmentId: 'shp_01JD4ZB1C2', reference: 'ORDER-1001', trackingNumbers: ['1234567890', '1234567891'], carrier: 'DHL Express',
  exporter, importer, customs: customs(items), parcelsWeightKg: weight,
});
const pages = (text: string) => text.split('\f').filter((page) => page.trim() !== '').length;

describe("packdesk's own commercial invoice, for routes whose carrier makes none", () => {
  it('lists every item with its HS code and the total, in Czech and Polish letters', async () => {
    const pdf = await render([
      item({ description: 'Tričko z bavlny, žluté', hsCode: '61091000', quantity: 2, unitValueMinor: 1250, unitWeightKg: 0.2 }),
      item({ description: 'Kubek ceramiczny „Łąka”', hsCode: '69120000', quantity: 1, unitValueMinor: 990, unitWeightKg: 0.45, originCountry: 'PL' }),
      item({ description: 'Dřevěná hračka – koník', hsCode: '9503007000', quantity: 3, unitValueMinor: 1599, unitWeightKg: 0.3 }),
    ]);
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const shown of [
      'Commercial invoice', 'FV-2026-0042', '2026-11-26', 'Žluťoučký kůň s.r.o.', 'EORI CZ12345678', 'Łukasz Wróblewski', 'United States',
      'shp_01JD4ZB1C2', 'ORDER-1001', 'DHL Express', '1234567890, 1234567891', 'incoterm DAP',
      'Tričko z bavlny, žluté', '61091000', 'Kubek ceramiczny „Łąka”', '69120000', 'Dřevěná hračka – koník', '9503007000',
      '25.00', '47.97', '82.87 EUR', '1.75 kg', '3 kg', 'Sale of goods', 'I declare', 'Signature',
    ]) expect(text).toContain(shown);
    expect(pages(text)).toBe(1);
  });

  it('continues a long list onto further pages and lists every item', async () => {
    const items = Array.from({ length: 60 }, (_, i) => item({
      description: `Item ${String(i + 1).padStart(2, '0')} ceramic tile`, hsCode: String(69072100 + i), quantity: 1, unitValueMinor: 100, unitWeightKg: 0.01,
    }));
    const text = pdfText(await render(items));
    expect(pages(text)).toBeGreaterThan(1);
    expect(text).toContain(`Page 1 of ${pages(text)}`);
    expect(text).toContain('FV-2026-0042 (continued)');
    for (let i = 0; i < 60; i++) {
      expect(text).toContain(`Item ${String(i + 1).padStart(2, '0')} ceramic tile`);
      expect(text).toContain(String(69072100 + i));
    }
    expect(text).toContain('60.00 EUR');
  });

  it('cuts text too long for its place instead of running over the next column', async () => {
    const long = `Hand-painted ${'decorated '.repeat(30)}vase ENDOFTEXT`;
    const text = pdfText(await render([item({ description: long, hsCode: '69139000' })]));
    const row = text.split('\n').find((line) => line.includes('69139000'));
    expect(row).toMatch(/^\s*1\s+Hand-painted decorated[a-z ]*decorated\s{2,}69139000\s{2,}CZ\s/);
    expect(text).toMatch(/ decor[a-z]*…/);
    expect(text).not.toContain('ENDOFTEXT');
  });
});
