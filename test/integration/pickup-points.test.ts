import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { recordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { pplChannel, shipmentBody } from '../helpers/shipments.js';

interface Point {
  provider: string; provider_point_id: string; name: string; type: string; cash_on_delivery: boolean; open: boolean;
  address: { street_name: string; house_number: string; city_name: string; postal_code: string; country_code: string };
  opening_hours: { day: number; from: string; to: string }[]; location: { lat: number; lon: number } | null;
}

/** A shipment to a pickup point or locker: found through the carrier's point API, checked before the carrier is called. */
describe('pickup points: search a carrier’s points and ship to one', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let a: TestAccount;
  let ppl: string;
  let spx: string;
  let points: Point[];

  const ok = <T>(res: { statusCode: number; body: string; json(): { data: T } }, status = 200): T => {
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const refusal = (res: { statusCode: number; body: string; json(): { errors: Record<string, string[]> } }) => {
    expect(res.statusCode, res.body).toBe(422);
    return res.json().errors;
  };
  const search = (query: string) => a.request('GET', `/v1/pickup-points?${query}`);
  /** The recipient of shipmentBody without a door: the point's address stands in. */
  const toPoint = (point: Point, overrides: Record<string, unknown> = {}) => {
    const { destination_address: _door, ...body } = shipmentBody(ppl, { pickup_point: { provider_point_id: point.provider_point_id }, ...overrides });
    return body;
  };

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl', 'spx'], port: 0 });
    proxy = await recordingProxy(emu.url);
    d = await startTestDaemon();
    a = await d.account('Výdejní místa');
    ppl = await pplChannel(a, `${proxy.url}${new URL(emu.urls.ppl!).pathname}`);
    spx = ok<{ id: string }>(await a.request('POST', '/v1/shipping-channels', {
      name: 'SPX', provider: 'spx', settings: { ...findProvider('spx')!.demo.settings, baseUrl: emu.urls.spx },
    }), 201).id;
    points = ok<Point[]>(await search(`shipping_channel_id=${ppl}&country=CZ&city=Brno&limit=100`));
  });
  afterAll(async () => {
    await d?.close();
    await proxy?.close();
    await emu?.close();
  });

  it('says which carriers deliver to points and which search them', async () => {
    const providers = ok<{ code: string; pickup_points: { types: string[]; search: boolean } }[]>(await a.request('GET', '/v1/providers'));
    expect(providers.find((p) => p.code === 'ppl')!.pickup_points).toMatchObject({ search: true, types: expect.arrayContaining(['parcelshop']) });
    expect(providers.find((p) => p.code === 'spx')!.pickup_points).toEqual({ types: [], search: false });
  });

  it('finds the carrier’s points in a city, near a postal code and near coordinates, and asks the carrier once an hour', async () => {
    expect(points.length).toBeGreaterThan(5);
    for (const p of points) {
      expect(p).toMatchObject({ provider: 'ppl', address: { city_name: 'Brno', country_code: 'CZ' } });
      expect(['parcelshop', 'locker', 'post_office']).toContain(p.type);
    }
    const near = ok<Point[]>(await search(`shipping_channel_id=${ppl}&country=CZ&postal_code=${encodeURIComponent(points[0]!.address.postal_code)}`));
    expect(near.length).toBeGreaterThan(0);
    const { lat, lon } = points[0]!.location!;
    const closest = ok<Point[]>(await search(`shipping_channel_id=${ppl}&country=CZ&near=${lat},${lon}&limit=3`));
    expect(closest[0]!.provider_point_id).toBe(points[0]!.provider_point_id);

    proxy.calls.length = 0;
    ok<Point[]>(await search(`shipping_channel_id=${ppl}&country=CZ&near=${lat},${lon}&limit=3`));
    expect(proxy.calls.filter((c) => /access/i.test(c.path)), 'the same question within the hour').toEqual([]);
    d.clock.advance(61 * 60_000);
    ok<Point[]>(await search(`shipping_channel_id=${ppl}&country=CZ&near=${lat},${lon}&limit=3`));
    expect(proxy.calls.filter((c) => /access/i.test(c.path)).length).toBeGreaterThan(0);

    const one = ok<Point>(await a.request('GET', `/v1/pickup-points/ppl/${encodeURIComponent(points[0]!.provider_point_id)}?shipping_channel_id=${ppl}`));
    expect(one).toEqual(points[0]);
    expect((await a.request('GET', `/v1/pickup-points/ppl/NOPE-000?shipping_channel_id=${ppl}`)).statusCode).toBe(404);
  });

  it('refuses a search it cannot ask, on the field at fault', async () => {
    expect(Object.keys(refusal(await search('country=CZ&city=Brno')))).toEqual(['provider']);
    // by provider, through the account's channel of it
    expect(ok<Point[]>(await search('provider=ppl&country=CZ&city=Brno&limit=100'))).toEqual(points);
    expect(refusal(await search(`shipping_channel_id=${spx}&country=CZ&city=Brno`)).shipping_channel_id![0]).toMatch(/SP Express delivers only to doors/);
    expect(refusal(await search('provider=spx&country=CZ&city=Brno')).provider![0]).toMatch(/SP Express delivers only to doors/);
    expect(Object.keys(refusal(await search(`shipping_channel_id=${ppl}&country=XX&near=91,10`))).sort()).toEqual(['country', 'near']);
    expect(Object.keys(refusal(await search(`shipping_channel_id=${ppl}&country=CZ`)))).toEqual(['postal_code']);
    expect(Object.keys(refusal(await search('provider=nope&country=CZ&city=Brno')))).toEqual(['provider']);
    const other = await d.account('Someone else');
    expect(Object.keys(refusal(await other.request('GET', `/v1/pickup-points?shipping_channel_id=${ppl}&country=CZ&city=Brno`)))).toEqual(['shipping_channel_id']);
    expect(refusal(await other.request('GET', '/v1/pickup-points?provider=ppl&country=CZ&city=Brno')).provider![0]).toMatch(/no active PPL channel/);
  });

  it('ships to a point without a door address: the point’s address is the destination, and its name stays on the shipment', async () => {
    const point = points.find((p) => p.open && p.cash_on_delivery && p.type === 'parcelshop')!;
    const made = ok<{ id: string; pickup_point: unknown; destination_address: unknown }>(await a.request('POST', '/v1/shipments', toPoint(point, {
      cash_on_delivery_amount: 990, cash_on_delivery_currency: 'CZK',
    })), 201);
    expect(made.pickup_point).toEqual({ provider_point_id: point.provider_point_id, type: point.type, name: point.name, address: point.address });
    expect(made.destination_address).toMatchObject(point.address);
    await d.runJobs();
    const created = ok<{ status: string; product: string }>(await a.request('GET', `/v1/shipments/${made.id}`));
    expect(created.status, JSON.stringify(created)).toBe('created');
  });

  it('refuses an unknown or closed point, COD to a point that takes none, and a carrier without points, before asking the carrier', async () => {
    expect(refusal(await a.request('POST', '/v1/shipments', shipmentBody(ppl, { pickup_point: { provider_point_id: 'NOPE-000' } })))['pickup_point.provider_point_id']![0])
      .toMatch(/has no pickup point NOPE-000/);
    // PPL lists only points in service (a closed one is refused in pickup-points-ppl.test.ts); one takes no COD
    const all = ok<Point[]>(await search(`shipping_channel_id=${ppl}&country=CZ&city=Praha&limit=100`)).concat(points);
    const noCod = all.find((p) => p.open && !p.cash_on_delivery);
    expect(noCod, 'a COD-less point among the emulator’s points of 2 towns').toBeDefined();
    expect(refusal(await a.request('POST', '/v1/shipments', toPoint(noCod!, { cash_on_delivery_amount: 100, cash_on_delivery_currency: 'CZK' }))).pickup_point![0])
      .toMatch(/takes no cash on delivery/);
    const door = refusal(await a.request('POST', '/v1/shipments', shipmentBody(spx, { ...findProvider('spx')!.demo.shipment, shipping_channel_id: spx, pickup_point: { provider_point_id: 'X1' } })));
    expect(door.pickup_point![0]).toMatch(/SP Express delivers only to doors/);
    const noAddress = refusal(await a.request('POST', '/v1/shipments', toPoint(points[0]!, { pickup_point: undefined })));
    expect(noAddress.destination_address![0]).toMatch(/required \(or a pickup_point\)/);
  });

  it('an order keeps the point the shop’s checkout chose, and its shipment goes there', async () => {
    const point = points.find((p) => p.open && p.type === 'parcelshop')!;
    const order = ok<{ id: string; pickup_point: unknown }>(await a.request('POST', '/v1/orders', {
      ...shipmentBody(ppl, { reference_number: 'ESHOP-77' }), pickup_point: { provider_point_id: point.provider_point_id },
    }), 201);
    expect(order.pickup_point).toEqual({ provider_point_id: point.provider_point_id });
    const shipped = ok<{ id: string; pickup_point: { provider_point_id: string; name: string } }>(await a.request('POST', `/v1/orders/${order.id}/ship`, {}));
    expect(shipped.pickup_point).toMatchObject({ provider_point_id: point.provider_point_id, name: point.name });
  });
});
