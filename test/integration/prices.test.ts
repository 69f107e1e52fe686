import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
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
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
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
});
