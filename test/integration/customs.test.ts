import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { pdfText } from '../helpers/dispatch-adapter.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { recordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { pplChannel, shipmentBody } from '../helpers/shipments.js';

const NEW_YORK = { street_name: 'Broadway', house_number: '1', city_name: 'New York', postal_code: '10004', country_code: 'US' };
const AMERICAN = { first_name: 'Jane', last_name: 'Doe', email_address: 'jane@example.com', phone_number: '+1 202 456 1111' };
const BERLIN = { street_name: 'Unter den Linden', house_number: '1', city_name: 'Berlin', postal_code: '10117', country_code: 'DE' };
const CUSTOMS = {
  contents_type: 'sale', incoterm: 'DAP', invoice_number: 'FV-2026-0815',
  items: [
    { description: 'Hrnek smaltovaný', hs_code: '7323 94 00', quantity: 2, unit_value: 12.5, unit_weight: 0.3, origin_country: 'CZ', sku: 'HRN-01' },
    { description: 'Dřevěná lžíce', hs_code: '4419.90', quantity: 3, unit_value: 4, unit_weight: 0.05, origin_country: 'CZ' },
    { description: 'Lněná utěrka', hs_code: '630291', quantity: 1, unit_value: 9.9, unit_weight: 0.1, origin_country: 'PL' },
  ],
};

/** A parcel across a customs border: declared, checked before the carrier is called, its invoice kept with it. */
describe('customs: a shipment that leaves the customs union carries its declaration', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let a: TestAccount;
  let dhl: string;
  let ppl: string;

  const created = async (body: Record<string, unknown>) => {
    const res = await a.request('POST', '/v1/shipments', body);
    expect(res.statusCode, res.body).toBe(201);
    await d.runJobs();
    const shipment = (await a.request('GET', `/v1/shipments/${res.json().data.id}`)).json().data as { id: string; status: string; failure: unknown };
    expect(shipment.status, JSON.stringify(shipment.failure)).toBe('created');
    return shipment;
  };
  const refused = async (body: Record<string, unknown>) => {
    const res = await a.request('POST', '/v1/shipments', body);
    expect(res.statusCode, res.body).toBe(422);
    return res.json().errors as Record<string, string[]>;
  };
  const sentToDhl = () => proxy.calls.filter((c) => c.method === 'POST' && c.path === '/dhl/shipments').map((c) => JSON.parse(c.body!) as { content: Record<string, unknown> });

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['dhl', 'ppl'], port: 0 });
    proxy = await recordingProxy(emu.url, { bodies: true });
    d = await startTestDaemon();
    a = await d.account('Export');
    const channel = await a.request('POST', '/v1/shipping-channels', {
      name: 'DHL Worldwide', provider: 'dhl', settings: { ...findProvider('dhl')!.demo.settings, productCode: 'P', baseUrl: `${proxy.url}/dhl` },
    });
    expect(channel.statusCode, channel.body).toBe(201);
    dhl = channel.json().data.id as string;
    ppl = await pplChannel(a, emu.urls.ppl!);
  });
  afterAll(async () => {
    await d?.close();
    await proxy?.close();
    await emu?.close();
  });

  it('says which carriers declare customs', async () => {
    const providers = (await a.request('GET', '/v1/providers')).json().data as { code: string; customs: boolean }[];
    expect(providers.find((p) => p.code === 'dhl')!.customs).toBe(true);
    expect(providers.find((p) => p.code === 'ppl')!.customs).toBe(false);
  });

  it('refuses CZ → US without a declaration on customs, and through a carrier that declares none on the country, before any carrier call', async () => {
    proxy.calls.length = 0;
    const toUs = { recipient_contact: AMERICAN, destination_address: NEW_YORK };
    expect(Object.keys(await refused(shipmentBody(dhl, toUs)))).toEqual(['customs']);
    expect(await refused(shipmentBody(ppl, { ...toUs, customs: CUSTOMS }))).toEqual({
      'destination_address.country_code': [expect.stringMatching(/^PPL does not ship across a customs border \(CZ to US\)/)],
    });
    expect(proxy.calls).toEqual([]);
  });

  it('refuses a declaration that does not add up, on the item paths', async () => {
    const errors = await refused(shipmentBody(dhl, {
      recipient_contact: AMERICAN, destination_address: NEW_YORK,
      customs: { ...CUSTOMS, items: [{ ...CUSTOMS.items[0]!, hs_code: '73', unit_weight: 2 }] },
    }));
    expect(Object.keys(errors).sort()).toEqual(['customs.items', 'customs.items.0.hs_code']);
  });

  it('sends CZ → US with its declaration, and keeps the commercial invoice that lists the items', async () => {
    proxy.calls.length = 0;
    const shipment = await created(shipmentBody(dhl, { recipient_contact: AMERICAN, destination_address: NEW_YORK, customs: CUSTOMS }));
    const [sent] = sentToDhl();
    expect(sent!.content).toMatchObject({ isCustomsDeclarable: true, declaredValueCurrency: 'CZK' });
    expect((sent!.content.exportDeclaration as { lineItems: unknown[] }).lineItems).toHaveLength(3);

    const shown = (await a.request('GET', `/v1/shipments/${shipment.id}`)).json().data;
    expect(shown.customs).toMatchObject({ contents_type: 'sale', invoice_number: 'FV-2026-0815' });
    const documents = (await a.request('GET', `/v1/shipments/${shipment.id}/documents`)).json().data as { type: string; source: string; url: string }[];
    expect(documents).toMatchObject([{ type: 'commercial_invoice', source: 'carrier', url: `/v1/shipments/${shipment.id}/documents/commercial_invoice` }]);
    const pdf = await a.request('GET', documents[0]!.url);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(pdf.rawPayload);
    for (const item of CUSTOMS.items) expect(text).toContain(item.description);
  });

  it('keeps a declaration on a CZ → DE shipment and sends none: the route crosses no customs border', async () => {
    proxy.calls.length = 0;
    const shipment = await created(shipmentBody(dhl, { destination_address: BERLIN, customs: CUSTOMS }));
    expect(sentToDhl()[0]!.content).toMatchObject({ isCustomsDeclarable: false });
    expect(sentToDhl()[0]!.content).not.toHaveProperty('exportDeclaration');
    expect((await a.request('GET', `/v1/shipments/${shipment.id}/documents`)).json().data).toEqual([]);
    expect((await a.request('GET', `/v1/shipments/${shipment.id}/documents/commercial_invoice`)).statusCode).toBe(404);
  });
});
