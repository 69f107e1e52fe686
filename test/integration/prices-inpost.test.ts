import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { recordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { parcelsOf } from '../helpers/shipments.js';

const inpost = findProvider('inpost')!;
const PRICE_LIST = { currency: 'PLN', zones: [{ name: 'home', countries: ['PL'] }], bands: [{ max_weight_kg: 25, prices: { home: 21 } }] };

/**
 * A carrier whose creation answers no price but whose rate API does (InPost's ShipX price calculation): each created
 * shipment is priced by asking it once made; when that call fails the shipment stays created, priced by the channel's
 * price list where it has one.
 */
describe("prices of created shipments from the carrier's rate API", () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  const proxies: RecordingProxy[] = [];

  const channelThrough = async (failing?: RegExp, priceList?: unknown) => {
    const proxy = await recordingProxy(emu.url, { failing });
    proxies.push(proxy);
    const res = await a.request('POST', '/v1/shipping-channels', {
      name: `InPost ${proxies.length}`, provider: 'inpost', settings: { ...inpost.demo.settings, baseUrl: `${proxy.url}/inpost` }, ...(priceList ? { price_list: priceList } : {}),
    });
    expect(res.json().data.status, res.body).toBe('active');
    return { id: res.json().data.id as string, proxy };
  };
  const created = async (channel: string) => {
    const { cash_on_delivery_currency: _pln, ...parties } = inpost.demo.shipment;
    const res = await a.request('POST', '/v1/shipments', { shipping_channel_id: channel, label_format: 'pdf', reference_number: 'PRICE-PL', parcels: parcelsOf(1), ...parties });
    expect(res.statusCode, res.body).toBe(201);
    await d.runJobs();
    return (await a.request('GET', `/v1/shipments/${res.json().data.id}`)).json().data;
  };

  beforeAll(async () => {
    d = await startTestDaemon();
    emu = await startEmulators({ providers: ['inpost'], port: 0, clock: d.clock });
    a = await d.account('Sklep');
  });
  afterAll(async () => {
    await d?.close();
    for (const proxy of proxies) await proxy.close();
    await emu?.close();
  });

  it('asks ShipX for the price once the shipment is made: price_source quote', async () => {
    const { id, proxy } = await channelThrough();
    const s = await created(id);
    // the emulated organization's tariff: 18.99 PLN for a courier parcel
    expect(s).toMatchObject({ status: 'created', total_price: 18.99, currency: 'PLN', price_source: 'quote' });
    expect(proxy.calls.filter((c) => c.path.endsWith('/shipments/calculate'))).toHaveLength(1);
  });

  it('keeps the shipment created when the price calculation fails: priced by the price list, else unpriced', async () => {
    const listed = await channelThrough(/\/shipments\/calculate$/, PRICE_LIST);
    expect(await created(listed.id)).toMatchObject({ status: 'created', total_price: 21, currency: 'PLN', price_source: 'price_list', failure: null });
    const bare = await channelThrough(/\/shipments\/calculate$/);
    const s = await created(bare.id);
    expect(s).toMatchObject({ status: 'created', total_price: null, currency: null, price_source: null, failure: null });
    expect(bare.proxy.calls.filter((c) => c.path.endsWith('/shipments/calculate'))).toHaveLength(1);
  });
});
