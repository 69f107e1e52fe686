import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { listProviders } from '../../src/carriers/registry.js';
import type { ProviderDefinition } from '../../src/carriers/types.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { parcelsOf, shipmentBody } from '../helpers/shipments.js';

interface Quote {
  shipping_channel_id: string; provider: string; price: number | null; currency: string | null; price_source: 'carrier' | 'price_list' | null;
  transit_days: number | null; estimated_delivery: string | null; cannot: string | null; failed: boolean; carrier_error: string | null; errors: Record<string, string[]>;
}

/** The e-shop's own contract for Slovakia, on every channel whose carrier has no rate API: 5 EUR a parcel, 3 EUR a further one, COD 1.50 EUR. */
const SLOVAKIA_LIST = {
  currency: 'EUR', zones: [{ name: 'SK', countries: ['SK'], transit_days: 3 }], bands: [{ max_weight_kg: 31.5, prices: { SK: 5 } }], cod: { fixed: 1.5 }, extra_parcel: 3,
};

/** Prague → Bratislava, two parcels (1 kg and 2 kg), 40 EUR to collect, quoted at every channel. */
const { shipping_channel_id: _none, ...ORDER } = shipmentBody('', {
  parcels: parcelsOf(2), cash_on_delivery_amount: 40, cash_on_delivery_currency: 'EUR',
  destination_address: { street_name: 'Obchodná', house_number: '1', city_name: 'Bratislava', postal_code: '811 06', country_code: 'SK' },
  recipient_contact: { first_name: 'Ján', last_name: 'Kováč', email_address: 'jan@example.sk', phone_number: '+421 902 123 456' },
});

/**
 * One channel of every provider, each on its carrier's emulator: a quote asks the carriers that have a rate API
 * (DHL Express's MyDHL `POST /rates`, InPost's ShipX price calculation) side by side and prices the others by their
 * price lists; every channel answers a price or why not, and a carrier that fails fails only its own answer.
 */
describe('quotes over every provider: a price or a reason from each channel, a failing carrier marked and the others answered', () => {
  const providers = listProviders();
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  const channels = new Map<string, string>();

  /** A channel on the provider's emulator with its demo settings, authorized where a person must approve it at the carrier. */
  const openChannel = async (provider: ProviderDefinition) => {
    const res = await a.request('POST', '/v1/shipping-channels', { name: provider.name, provider: provider.code, settings: { ...provider.demo.settings, baseUrl: emu.urls[provider.code] } });
    expect(res.statusCode, res.body).toBe(201);
    const id: string = res.json().data.id;
    if (provider.userAuthorization) {
      const started = await a.request('POST', `/v1/shipping-channels/${id}/authorize`);
      expect(started.statusCode, started.body).toBe(200);
      const approved = await fetch(`${emu.url}/_emulator/${provider.code}/device/${started.json().data.user_code}/approve`, { method: 'POST' });
      expect(approved.status).toBe(200);
      d.clock.advance(60_000);
      await d.runJobs();
    }
    if (!provider.adapter.rate) await a.request('PATCH', `/v1/shipping-channels/${id}`, { price_list: SLOVAKIA_LIST });
    const channel = (await a.request('GET', `/v1/shipping-channels/${id}`)).json().data;
    expect(channel.status, `${provider.code}: ${JSON.stringify(channel.validation_error)}`).toBe('active');
    return id;
  };
  const quote = async (body: Record<string, unknown> = ORDER) => {
    const res = await a.request('POST', '/v1/rates', body);
    expect(res.statusCode, res.body).toBe(200);
    const quotes = res.json().data as Quote[];
    return { quotes, of: (code: string) => quotes.find((q) => q.shipping_channel_id === channels.get(code))!, body: res.body };
  };
  const fault = (code: string, mode: string) =>
    fetch(`${emu.url}/_emulator/${code}/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode }) });

  beforeAll(async () => {
    d = await startTestDaemon({ carrierTimeoutMs: 2500 });
    emu = await startEmulators({ providers: providers.map((p) => p.code), port: 0, clock: d.clock });
    a = await d.account('Obchod pro Slovensko');
    for (const provider of providers) channels.set(provider.code, await openChannel(provider));
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
  });

  it('answers every channel of the 15 providers with a price or a reason: DHL Express by its rate API with its transit, the rest by their lists', async () => {
    expect(providers).toHaveLength(15);
    const { quotes, of } = await quote();
    expect(quotes).toHaveLength(15);
    for (const q of quotes) {
      expect(q.price !== null || (q.cannot ?? '') !== '', `${q.provider}: ${JSON.stringify(q)}`).toBe(true);
      expect(q.failed, `${q.provider}: ${q.cannot}`).toBe(false);
      if (q.price !== null) expect(q.cannot).toBeNull();
    }
    // the emulated DHL account's tariff: 24.90 EUR and 3.60 EUR a started kilogram (1 + 2 kg), two working days abroad
    expect(of('dhl')).toMatchObject({ price: 35.7, currency: 'EUR', price_source: 'carrier', transit_days: 2, cannot: null, carrier_error: null });
    expect(of('dhl').estimated_delivery).toMatch(/^\d{4}-\d{2}-\d{2}T23:59:00$/);
    // InPost delivers in Poland only: the reason is the route's, not a failure
    expect(of('inpost')).toMatchObject({ price: null, failed: false });
    expect(of('inpost').cannot).toMatch(/Poland/);
    // a channel priced by its list: 5 + 5 EUR, 3 EUR the second parcel, 1.50 EUR COD; the zone's transit
    const listed = quotes.filter((q) => q.price_source === 'price_list');
    expect(listed.map((q) => q.provider).sort()).toEqual(providers.filter((p) => !p.adapter.rate).map((p) => p.code).sort());
    for (const q of listed) expect(q).toMatchObject({ price: 14.5, currency: 'EUR', transit_days: 3, estimated_delivery: null });
  });

  it('still answers the others when DHL Express fails (500): its channel marked failed with why, no secret told; with a price list it is priced by the list', async () => {
    const before = await quote();
    expect(await fault('dhl', 'error500')).toHaveProperty('status', 200);
    try {
      const { quotes, of, body } = await quote();
      expect(of('dhl')).toMatchObject({ price: null, failed: true, price_source: null });
      expect(of('dhl').cannot).toMatch(/^DHL Express did not answer a price: /);
      expect(body).not.toContain(String(providers.find((p) => p.code === 'dhl')!.demo.settings.apiSecret));
      // every other channel answers as it did
      const others = (list: Quote[]) => list.filter((q) => q.provider !== 'dhl').map((q) => [q.shipping_channel_id, q.price, q.cannot]).sort();
      expect(others(quotes)).toEqual(others(before.quotes));

      await a.request('PATCH', `/v1/shipping-channels/${channels.get('dhl')}`, { price_list: SLOVAKIA_LIST });
      const fallen = (await quote()).of('dhl');
      expect(fallen).toMatchObject({ price: 14.5, currency: 'EUR', price_source: 'price_list', transit_days: 3, failed: false, cannot: null });
      expect(fallen.carrier_error).toMatch(/^DHL Express did not answer a price: /);
    } finally {
      await fault('dhl', 'none');
      await a.request('PATCH', `/v1/shipping-channels/${channels.get('dhl')}`, { price_list: null });
    }
  });

  it("DHL Express's emulator refuses a rate request MyDHL would: against the published schema (422), for an account it does not know (400)", async () => {
    const { apiKey, apiSecret, accountNumber } = providers.find((p) => p.code === 'dhl')!.demo.settings as Record<string, string>;
    const rates = (body: unknown) => fetch(`${emu.urls.dhl}/rates`, {
      method: 'POST', body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-version': '3.1.0', authorization: `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}` },
    });
    const request = {
      customerDetails: { shipperDetails: { postalCode: '14800', cityName: 'Praha', countryCode: 'CZ' }, receiverDetails: { postalCode: '81106', cityName: 'Bratislava', countryCode: 'SK' } },
      accounts: [{ typeCode: 'shipper', number: accountNumber }], productCode: 'P', plannedShippingDateAndTime: '2026-11-26T12:00:00 GMT+00:00',
      unitOfMeasurement: 'metric', isCustomsDeclarable: false, packages: [{ weight: 1 }],
    };
    expect((await rates(request)).status).toBe(200);
    const extraneous = await rates({ ...request, pieces: [] });
    expect([extraneous.status, ((await extraneous.json()) as { detail: string }).detail]).toEqual([422, '#: extraneous key [pieces] is not permitted']);
    const unknown = await rates({ ...request, accounts: [{ typeCode: 'shipper', number: '000000000' }] });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { detail: string }).detail).toMatch(/^The account number is not found or invalid/);
  });

  it("prices InPost's Polish shipment by ShipX's price calculation, in PLN", async () => {
    const inpost = providers.find((p) => p.code === 'inpost')!;
    const { cash_on_delivery_currency: _pln, ...parties } = inpost.demo.shipment;
    const { of } = await quote({
      ...ORDER, ...parties, shipping_channel_ids: [channels.get('inpost')], cash_on_delivery_amount: 120, cash_on_delivery_currency: 'PLN',
    });
    // the emulated organization's tariff: 2 × 18.99 PLN by courier, 3.50 PLN COD, 1 % of the 120 PLN insured
    expect(of('inpost')).toMatchObject({ price: 42.68, currency: 'PLN', price_source: 'carrier', transit_days: null, cannot: null, failed: false });
  });
});
