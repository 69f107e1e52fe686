import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { parcelsOf, pplChannel, shipmentBody } from '../helpers/shipments.js';

const PRICE_LIST = {
  currency: 'CZK',
  zones: [{ name: 'home', countries: ['CZ'] }, { name: 'near', countries: ['SK'] }],
  bands: [{ max_weight_kg: 2, prices: { home: 89, near: 180 } }, { max_weight_kg: 10, prices: { home: 119, near: 240 } }],
  cod: { fixed: 25, percent: 1 }, fuel_percent: 10, extra_parcel: 20,
};

/** A carrier whose API answers no price: the channel's own price list prices each shipment it creates. */
describe("prices: a channel's price list prices the shipments its carrier does not", () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let channel: string;

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl', 'spx'], port: 0 });
    d = await startTestDaemon();
    a = await d.account('Ceník');
    channel = await pplChannel(a, emu.urls.ppl!);
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
  });

  const created = async (body: Record<string, unknown>) => {
    const res = await a.request('POST', '/v1/shipments', shipmentBody(channel, body));
    expect(res.statusCode, res.body).toBe(201);
    await d.runJobs();
    return (await a.request('GET', `/v1/shipments/${res.json().data.id}`)).json().data;
  };

  it('keeps the price list with the channel and prices each created shipment by it: bands, zone, fuel, further parcels, COD', async () => {
    const before = await created({ reference_number: 'PRICE-0' });
    expect([before.total_price, before.price_source]).toEqual([null, null]);

    const set = await a.request('PATCH', `/v1/shipping-channels/${channel}`, { price_list: PRICE_LIST });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.price_list).toEqual(PRICE_LIST);
    // two parcels (1 kg and 2 kg: the first band) with 1 000 CZK to collect: (89 + 89) × 1.1 + 20 + 25 + 10
    const s = await created({ reference_number: 'PRICE-1', parcels: parcelsOf(2), cash_on_delivery_amount: 1000, cash_on_delivery_currency: 'CZK' });
    expect(s).toMatchObject({ status: 'created', total_price: 250.8, currency: 'CZK', price_source: 'price_list' });
    const listed = (await a.request('GET', '/v1/shipments?search=PRICE-1')).json().data;
    expect(listed[0]).toMatchObject({ total_price: 250.8, currency: 'CZK' });
  });

  it('refuses a price list that does not add up, naming the field; a shipment it cannot price stays unpriced', async () => {
    const bad = await a.request('PATCH', `/v1/shipping-channels/${channel}`, {
      price_list: { ...PRICE_LIST, zones: [{ name: 'home', countries: ['CZ'] }, { name: 'near', countries: ['SK', 'CZ'] }], bands: [{ max_weight_kg: 2, prices: { home: 89 } }] },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ 'price_list.zones.1.countries.1': ['is already in zone "home"'], 'price_list.bands.0.prices': ['has no price for zone "near"'] });
    const unknownKey = await a.request('PATCH', `/v1/shipping-channels/${channel}`, { price_list: { ...PRICE_LIST, discount: 5 } });
    expect(unknownKey.statusCode).toBe(422);

    await a.request('PATCH', `/v1/shipping-channels/${channel}`, { price_list: { ...PRICE_LIST, bands: [PRICE_LIST.bands[0]] } });
    const heavy = await created({ reference_number: 'PRICE-2', parcels: [{ weight_amount: 5, length_dimension: 30, width_dimension: 20, height_dimension: 10 }] });
    expect(heavy).toMatchObject({ status: 'created', total_price: null, price_source: null });
  });

  it('quotes a shipment at every active channel side by side: the priced cheapest first, then those without prices, then those that cannot carry it', async () => {
    const cheap = await pplChannel(a, emu.urls.ppl!);
    await a.request('PATCH', `/v1/shipping-channels/${cheap}`, { price_list: { ...PRICE_LIST, bands: [{ max_weight_kg: 10, prices: { home: 70, near: 150 } }] } });
    const homeOnly = await pplChannel(a, emu.urls.ppl!);
    await a.request('PATCH', `/v1/shipping-channels/${homeOnly}`, { price_list: { ...PRICE_LIST, zones: [PRICE_LIST.zones[0]], bands: [{ max_weight_kg: 10, prices: { home: 50 } }] } });
    const spx = (await a.request('POST', '/v1/shipping-channels', { name: 'SPX', provider: 'spx', settings: { ...findProvider('spx')!.demo.settings, baseUrl: emu.urls.spx } })).json().data.id as string;
    await a.request('PATCH', `/v1/shipping-channels/${channel}`, { price_list: PRICE_LIST });

    // Bratislava, two parcels, 40 EUR cash on delivery
    const body = {
      ...shipmentBody(channel, { parcels: parcelsOf(2), cash_on_delivery_amount: 40, cash_on_delivery_currency: 'EUR' }),
      destination_address: { street_name: 'Obchodná', house_number: '1', city_name: 'Bratislava', postal_code: '811 06', country_code: 'SK' },
      recipient_contact: { first_name: 'Ján', last_name: 'Kováč', email_address: 'jan@example.sk', phone_number: '+421 902 123 456' },
    };
    const { shipping_channel_id: _one, ...quoted } = body;
    const res = await a.request('POST', '/v1/rates', quoted);
    expect(res.statusCode, res.body).toBe(200);
    const quotes = res.json().data as { shipping_channel_id: string; price: number | null; currency: string | null; cannot: string | null; errors: Record<string, string[]> }[];
    const of = (id: string) => quotes.find((q) => q.shipping_channel_id === id)!;
    expect(quotes).toHaveLength(4);
    // the percentage of COD is in CZK on these lists: 40 EUR cannot be priced by it; the fixed fee alone can
    expect(of(channel).cannot).toBe("the price list's COD percentage is in CZK, the amount collected in EUR");
    expect(of(cheap)).toMatchObject({ cannot: "the price list's COD percentage is in CZK, the amount collected in EUR" });
    expect(of(homeOnly).cannot).toBe('the price list has no zone for SK');
    expect(of(spx)).toMatchObject({ price: null, cannot: 'the channel has no price list, and its carrier answers prices only at creation', errors: {} });

    await a.request('PATCH', `/v1/shipping-channels/${cheap}`, { price_list: { ...PRICE_LIST, cod: { fixed: 30 }, bands: [{ max_weight_kg: 10, prices: { home: 70, near: 150 } }] } });
    const again = (await a.request('POST', '/v1/rates', { ...quoted, shipping_channel_ids: [cheap, homeOnly] })).json().data as typeof quotes;
    // (150 + 150) × 1.1 + 20 + 30
    expect(again.map((q) => [q.shipping_channel_id, q.price, q.currency])).toEqual([[cheap, 380, 'CZK'], [homeOnly, null, null]]);

    // Oslo is across a customs border: PPL does not go there, named on the field as a creation would be
    const toNorway = (await a.request('POST', '/v1/rates', {
      ...quoted, shipping_channel_ids: [cheap], cash_on_delivery_amount: null, cash_on_delivery_currency: null,
      destination_address: { street_name: 'Karl Johans gate', house_number: '1', city_name: 'Oslo', postal_code: '0154', country_code: 'NO' },
      recipient_contact: { ...quoted.recipient_contact, phone_number: '+47 22 00 00 00' },
    })).json().data as typeof quotes;
    expect(toNorway[0]!.errors).toEqual({ 'destination_address.country_code': [expect.stringMatching(/^PPL does not ship across a customs border \(CZ to NO\)/)] });
    expect(toNorway[0]!.cannot).toMatch(/^destination_address\.country_code: PPL does not ship across a customs border/);

    const unknown = await a.request('POST', '/v1/rates', { ...quoted, shipping_channel_ids: ['ch_nope'] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ 'shipping_channel_ids.0': ['is not an active shipping channel of this account'] });
    const malformed = await a.request('POST', '/v1/rates', { ...quoted, parcels: 'two' });
    expect(malformed.statusCode).toBe(422);
    expect(Object.keys(malformed.json().errors)).toContain('parcels');
  });
});
