import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { recordTrackResults } from '../../src/services/tracking/check.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { parcelsOf, pplChannel, shipmentBody, pplEmulatorControl } from '../helpers/shipments.js';

const HOUR = 3_600_000;

interface StatusUpdate { status: string; carrier_status: { code: string; text: string | null }; timestamp: string }
interface TrackingParcel {
  id: string; tracking_number: string; status: string; origin: string; shipment_id: string | null; checks_done: number;
  max_checks: number; next_check_at: string | null; last_checked_at: string | null; status_updates: StatusUpdate[];
}
interface OutboxEvent { type: string; data: Record<string, { id: string; status: string; previous_status?: string | null }> }

describe('tracking parcels with PPL: polling, standard statuses and shipment status from tracking', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let other: TestAccount;
  let channel: string;

  const control = pplEmulatorControl(() => emu.url);
  const fault = control.fault;
  const advance = async (number: string, to?: string) => {
    const res = await control.advance(number, to);
    expect(res.status, await res.clone().text()).toBe(200);
  };
  /** Moves the test clock on and lets every worker do what came due. */
  const later = async (hours: number) => {
    d.clock.advance(hours * HOUR);
    await d.runJobs();
  };
  const tracked = async (id: string): Promise<TrackingParcel> => {
    const res = await a.request('GET', `/v1/tracking-parcels/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const track = async (number: string, extra: Record<string, unknown> = {}): Promise<TrackingParcel> => {
    const res = await a.request('POST', '/v1/tracking-parcels', { tracking_number: number, shipping_channel_id: channel, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  /** A shipment created at the emulator (tracking off unless asked, so its numbers are free to track by hand). */
  const shipment = async (parcels = 1, enableTracking = false) => {
    const res = await a.request('POST', '/v1/shipments', shipmentBody(channel, { parcels: parcelsOf(parcels), enable_tracking: enableTracking }));
    expect(res.statusCode, res.body).toBe(201);
    await d.runJobs();
    const created = (await a.request('GET', `/v1/shipments/${res.json().data.id}`)).json().data;
    expect(created.status).toBe('created');
    return created as { id: string; status: string; parcels: { tracking_number: string; tracking_status: string }[] };
  };
  const getShipment = async (id: string) => (await a.request('GET', `/v1/shipments/${id}`)).json().data;
  const outbox = async (resourceId: string, type?: string): Promise<OutboxEvent[]> => {
    const rows = await d.ctx.store.all<{ type: string; payload: string }>('SELECT type, payload FROM events WHERE resource_id = ? ORDER BY rowid', resourceId);
    return rows.filter((r) => !type || r.type === type).map((r) => JSON.parse(r.payload) as OutboxEvent);
  };
  const parcelsOfShipment = async (shipmentId: string): Promise<TrackingParcel[]> => {
    const numbers = (await getShipment(shipmentId)).parcels.map((p: { tracking_number: string }) => p.tracking_number);
    const all: TrackingParcel[] = (await a.request('GET', '/v1/tracking-parcels?per_page=100')).json().data;
    return numbers.map((n: string) => all.find((p) => p.tracking_number === n && p.shipment_id === shipmentId)!);
  };

  beforeAll(async () => {
    // no story here waits out a carrier timeout: a slow first call on a loaded machine must not leave a shipment pending
    d = await startTestDaemon({ carrierTimeoutMs: 10_000 });
    // the emulator shares the test clock: its event times and token lifetimes move with it
    emu = await startEmulators({ providers: ['ppl'], port: 0, clock: d.clock });
    a = await d.account('Tracking shop');
    other = await d.account('Someone else');
    channel = await pplChannel(a, emu.urls.ppl!);
  });
  afterAll(async () => {
    await d.close();
    await emu.close();
  });
  beforeEach(async () => {
    await fault({ mode: 'none' });
  });

  it('moves a parcel tracked by number created → in_transit → out_for_delivery → delivered by polling alone, then stops', async () => {
    const number = (await shipment()).parcels[0]!.tracking_number;
    const tp = await track(number, { check_delay_hours: 2, recipient_name: 'Řehoř Šťastný' });
    expect(tp).toMatchObject({
      tracking_number: number, shipping_channel_id: channel, shipment_id: null, origin: 'external', status: 'created',
      checks_done: 0, max_checks: 20, check_delay_hours: 2, recipient_name: 'Řehoř Šťastný', status_updates: [], last_checked_at: null,
    });
    expect(tp.id).toMatch(/^tp_/);
    expect(Date.parse(tp.next_check_at!)).toBe(d.clock.now());

    await d.runJobs();
    let now = await tracked(tp.id);
    expect(now).toMatchObject({ status: 'created', checks_done: 1 });
    expect(now.status_updates.map((u) => u.carrier_status.code)).toEqual(['900']);
    const firstNext = Date.parse(now.next_check_at!) - d.clock.now();
    expect(firstNext).toBeGreaterThanOrEqual(2 * HOUR);
    expect(firstNext).toBeLessThanOrEqual(2.2 * HOUR);

    const walk: [string, string][] = [['in_transit', 'in_transit'], ['out_for_delivery', 'out_for_delivery'], ['delivered', 'delivered']];
    for (const [to, expected] of walk) {
      await advance(number, to);
      await later(1); // not due yet: nothing happens
      expect((await tracked(tp.id)).status).not.toBe(expected);
      await later(1.5);
      expect((await tracked(tp.id)).status).toBe(expected);
    }
    now = await tracked(tp.id);
    expect(now).toMatchObject({ status: 'delivered', checks_done: 4, next_check_at: null });
    expect(now.status_updates.map((u) => [u.carrier_status.code, u.status])).toEqual([
      ['450', 'delivered'], ['400', 'out_for_delivery'], ['300', 'in_transit'], ['500', 'in_transit'], ['150', 'in_transit'], ['900', 'created'],
    ]);
    expect(now.status_updates[0]!.carrier_status.text).toBe('Delivered');
    const times = now.status_updates.map((u) => Date.parse(u.timestamp));
    expect([...times].sort((x, y) => y - x)).toEqual(times);

    const changes = await outbox(tp.id, 'tracking_parcel.status_changed');
    expect(changes.map((e) => [e.data.tracking_parcel!.previous_status, e.data.tracking_parcel!.status])).toEqual([
      ['created', 'in_transit'], ['in_transit', 'out_for_delivery'], ['out_for_delivery', 'delivered'],
    ]);
    expect(await outbox(tp.id, 'tracking_parcel.created')).toHaveLength(1);

    await later(48);
    expect((await tracked(tp.id)).checks_done).toBe(4);
  });

  it('stops an endless parcel after max_checks, and an unknown number becomes not_recognized but is still polled', async () => {
    const number = (await shipment()).parcels[0]!.tracking_number;
    await advance(number, 'in_transit');
    const endless = await track(number, { check_delay_hours: 1, max_checks: 3 });
    const unknown = await track('80099999999', { check_delay_hours: 1 });
    await d.runJobs();
    for (let i = 0; i < 5; i++) await later(1.2);
    expect(await tracked(endless.id)).toMatchObject({ status: 'in_transit', checks_done: 3, next_check_at: null });
    const notRecognized = await tracked(unknown.id);
    expect(notRecognized).toMatchObject({ status: 'not_recognized', checks_done: 6, status_updates: [] });
    expect(notRecognized.next_check_at).not.toBeNull();
    expect((await outbox(unknown.id, 'tracking_parcel.status_changed')).map((e) => e.data.tracking_parcel!.previous_status)).toEqual(['created']);
  });

  it('tracks every parcel of a shipment: shipped on the first scan, delivered only when all three are delivered', async () => {
    const s = await shipment(3, true);
    const parcels = await parcelsOfShipment(s.id);
    expect(parcels.map((p) => [p.origin, p.status, p.shipment_id])).toEqual(Array(3).fill(['shipment', 'created', s.id]));
    expect(await outbox(parcels[0]!.id, 'tracking_parcel.created')).toHaveLength(1);
    const [n1, n2, n3] = s.parcels.map((p) => p.tracking_number) as [string, string, string];

    await later(1); // the first check waits for the usual delay after the label is printed
    expect((await parcelsOfShipment(s.id)).every((p) => p.checks_done === 0)).toBe(true);

    await advance(n1, 'in_transit');
    await later(7);
    let now = await getShipment(s.id);
    expect(now.status).toBe('shipped');
    expect(now.parcels.map((p: { tracking_status: string }) => p.tracking_status)).toEqual(['in_transit', 'created', 'created']);

    await advance(n1, 'delivered');
    await advance(n2, 'delivered');
    await advance(n3, 'out_for_delivery');
    await later(7);
    now = await getShipment(s.id);
    expect(now.status).toBe('shipped');
    expect(now.parcels.map((p: { tracking_status: string }) => p.tracking_status)).toEqual(['delivered', 'delivered', 'out_for_delivery']);

    await advance(n3, 'delivered');
    await later(7);
    now = await getShipment(s.id);
    expect(now.status).toBe('delivered');
    const changes = (await outbox(s.id, 'shipment.status_changed')).map((e) => [e.data.shipment!.previous_status, e.data.shipment!.status]);
    expect(changes).toEqual([['pending', 'created'], ['created', 'shipped'], ['shipped', 'delivered']]);
    expect((await parcelsOfShipment(s.id)).every((p) => p.next_check_at === null)).toBe(true);
  });

  it('makes a shipment returned when a parcel is returned, and never moves it back', async () => {
    const s = await shipment(2, true);
    const [n1, n2] = s.parcels.map((p) => p.tracking_number) as [string, string];
    await advance(n1, 'ready_for_pickup');
    await advance(n2, 'on_hold');
    await later(7);
    let now = await getShipment(s.id);
    expect(now.status).toBe('shipped');
    expect(now.parcels.map((p: { tracking_status: string }) => p.tracking_status)).toEqual(['ready_for_pickup', 'on_hold']);

    await advance(n2, 'returned');
    await later(7);
    now = await getShipment(s.id);
    expect(now.status).toBe('returned');
    await advance(n1, 'delivered');
    await later(7);
    now = await getShipment(s.id);
    expect(now.status).toBe('returned');
    expect(now.parcels.map((p: { tracking_status: string }) => p.tracking_status)).toEqual(['delivered', 'returned']);
    expect((await outbox(s.id, 'shipment.status_changed')).map((e) => e.data.shipment!.status)).toEqual(['created', 'shipped', 'returned']);
  });

  it('stops tracking a cancelled shipment and a shipment whose tracking is switched off, and resumes it when switched on', async () => {
    const cancelled = await shipment(1, true);
    const res = await a.request('POST', `/v1/shipments/${cancelled.id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.parcels[0].tracking_status).toBe('cancelled');
    const [cancelledParcel] = await parcelsOfShipment(cancelled.id);
    expect(cancelledParcel).toMatchObject({ status: 'cancelled', next_check_at: null });

    const s = await shipment(1, true);
    expect((await a.request('PATCH', `/v1/shipments/${s.id}`, { enable_tracking: false })).statusCode).toBe(200);
    await advance(s.parcels[0]!.tracking_number, 'in_transit');
    await later(7);
    expect((await parcelsOfShipment(s.id))[0]).toMatchObject({ status: 'created', checks_done: 0, next_check_at: null });
    expect((await a.request('PATCH', `/v1/shipments/${s.id}`, { enable_tracking: true })).statusCode).toBe(200);
    await d.runJobs();
    expect((await parcelsOfShipment(s.id))[0]).toMatchObject({ status: 'in_transit', checks_done: 1 });
    expect((await getShipment(s.id)).status).toBe('shipped');
  });

  it('backs off when PPL answers 429 or 500: the check is postponed, not counted, and no status changes', async () => {
    const number = (await shipment()).parcels[0]!.tracking_number;
    await advance(number, 'in_transit');
    const tp = await track(number);
    await fault({ mode: 'rate_limit', count: 1 });
    await d.runJobs();
    let now = await tracked(tp.id);
    expect(now).toMatchObject({ status: 'created', checks_done: 0, last_checked_at: null });
    expect(Date.parse(now.next_check_at!)).toBeGreaterThan(d.clock.now());
    expect(d.logText()).toContain('carrier unavailable for tracking; backing off');
    await later(0.1);
    now = await tracked(tp.id);
    expect(now).toMatchObject({ status: 'in_transit', checks_done: 1 });

    await fault({ mode: 'error500', count: 1 });
    const refresh = await a.request('POST', `/v1/tracking-parcels/${tp.id}/refresh`);
    expect(refresh.statusCode).toBe(503);
    expect((await tracked(tp.id)).checks_done).toBe(1);
    expect(await outbox(tp.id, 'tracking_parcel.status_changed')).toHaveLength(1);
  });

  it('refresh checks at once and counts as a check', async () => {
    const number = (await shipment()).parcels[0]!.tracking_number;
    const tp = await track(number, { check_delay_hours: 24 });
    await d.runJobs();
    await advance(number, 'out_for_delivery');
    const res = await a.request('POST', `/v1/tracking-parcels/${tp.id}/refresh`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'out_for_delivery', checks_done: 2 });
    expect(res.json().data.status_updates[0]).toMatchObject({ status: 'out_for_delivery', carrier_status: { code: '400' } });
    expect((await outbox(tp.id, 'tracking_parcel.status_changed')).map((e) => e.data.tracking_parcel!.previous_status)).toEqual(['created']);
  });

  it('maps a raw code no table knows by SPEC §3.2 and logs it once', async () => {
    const moving = await track((await shipment()).parcels[0]!.tracking_number);
    const waiting = await track((await shipment()).parcels[0]!.tracking_number);
    const at = d.clock.now();
    const event = (code: string, status: 'in_transit' | null, offset: number) => ({
      code, text: `code ${code}`, status, location: null, description: null, occurredAt: at + offset,
    });
    await recordTrackResults(d.ctx, [moving.id], [{ trackingNumber: moving.tracking_number, found: true, events: [event('150', 'in_transit', 0), event('777', null, 1000)] }]);
    await recordTrackResults(d.ctx, [waiting.id], [{ trackingNumber: waiting.tracking_number, found: true, events: [event('777', null, 0)] }]);
    expect((await tracked(moving.id)).status).toBe('in_transit');
    expect((await tracked(moving.id)).status_updates[0]).toMatchObject({ status: 'in_transit', carrier_status: { code: '777', text: 'code 777' } });
    expect((await tracked(waiting.id)).status).toBe('waiting_for_shipment');
    expect(d.logText().split('\n').filter((l) => l.includes('unknown carrier tracking code') && l.includes('"code":"777"'))).toHaveLength(1);
  });

  it('walks emulated parcels through PPL codes: refused at the door, a failed attempt left at a ParcelShop, never collected', async () => {
    const walk = async (number: string, to: string) => {
      const res = await control.advance(number, to);
      expect(res.status).toBe(200);
      return ((await res.json()) as { events: { statusId: number }[] }).events.map((e) => e.statusId);
    };
    const [refused, shop] = (await shipment(2)).parcels.map((p) => p.tracking_number) as [string, string];
    expect(await walk(refused, 'out_for_delivery')).toEqual([150, 500, 300, 400]);
    expect(await walk(refused, 'returned')).toEqual([464]);
    expect(await walk(shop, 'on_hold')).toEqual([150, 500, 300, 400, 460]);
    expect(await walk(shop, 'ready_for_pickup')).toEqual([343]);
    expect(await walk(shop, 'returned')).toEqual([464]);
  });

  it('stores an event read again only once', async () => {
    const number = (await shipment()).parcels[0]!.tracking_number;
    const tp = await track(number, { check_delay_hours: 1 });
    await advance(number, 'in_transit');
    await d.runJobs();
    await later(1.2);
    await later(1.2);
    const now = await tracked(tp.id);
    expect(now.checks_done).toBe(3);
    expect(now.status_updates.map((u) => u.carrier_status.code)).toEqual(['150', '900']);
  });

  describe('the resource (SPEC §2.3)', () => {
    let external: TrackingParcel;
    let internal: TrackingParcel;

    beforeAll(async () => {
      external = await track((await shipment()).parcels[0]!.tracking_number, { external_data: { order: 'A-1' } });
      const s = await shipment(1, true);
      [internal] = (await parcelsOfShipment(s.id)) as [TrackingParcel];
    });

    it('needs a key (401), hides other accounts\' parcels (403) and knows unknown ids (404)', async () => {
      expect((await d.app.inject({ method: 'GET', url: '/v1/tracking-parcels' })).statusCode).toBe(401);
      for (const [method, url] of [
        ['GET', `/v1/tracking-parcels/${external.id}`], ['PATCH', `/v1/tracking-parcels/${external.id}`],
        ['DELETE', `/v1/tracking-parcels/${external.id}`], ['POST', `/v1/tracking-parcels/${external.id}/refresh`],
      ] as const) {
        const body = method === 'PATCH' ? { recipient_name: 'x' } : undefined;
        expect((await other.request(method, url, body)).statusCode, `${method} ${url}`).toBe(403);
        expect((await a.request(method, url.replace(external.id, 'tp_00000000000000000000'), body)).statusCode, `${method} unknown`).toBe(404);
      }
      expect((await other.request('GET', '/v1/tracking-parcels')).json().meta.total).toBe(0);
      const readOnly = await d.app.inject({
        method: 'POST', url: '/v1/tracking-parcels', headers: { authorization: `Bearer ${a.readOnlyKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ tracking_number: '80000000001', shipping_channel_id: channel }),
      });
      expect(readOnly.statusCode).toBe(403);
    });

    it('refuses a bad number format, a number already tracked, out-of-range settings and a foreign channel with 422', async () => {
      const bad = await a.request('POST', '/v1/tracking-parcels', {
        tracking_number: 'ABC123', shipping_channel_id: channel, check_delay_hours: 0, max_checks: 1001,
      });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors).sort()).toEqual(['check_delay_hours', 'max_checks', 'tracking_number']);
      const high = await a.request('POST', '/v1/tracking-parcels', { tracking_number: '80000000001', shipping_channel_id: channel, check_delay_hours: 169, max_checks: 0 });
      expect(high.statusCode).toBe(422);
      expect(high.json().errors).toEqual({ check_delay_hours: ['must be at most 168'], max_checks: ['must be at least 1'] });
      const twice = await a.request('POST', '/v1/tracking-parcels', { tracking_number: external.tracking_number, shipping_channel_id: channel });
      expect(twice.statusCode).toBe(422);
      expect(twice.json().errors.tracking_number).toEqual(['is already tracked on this shipping channel']);
      const shipmentsNumber = await a.request('POST', '/v1/tracking-parcels', { tracking_number: internal.tracking_number, shipping_channel_id: channel });
      expect(shipmentsNumber.statusCode).toBe(422);
      const foreign = await other.request('POST', '/v1/tracking-parcels', { tracking_number: '80000000001', shipping_channel_id: channel });
      expect(foreign.statusCode).toBe(422);
      expect(foreign.json().errors).toHaveProperty('shipping_channel_id');
      const missing = await a.request('POST', '/v1/tracking-parcels', {});
      expect(missing.statusCode).toBe(422);
      expect(Object.keys(missing.json().errors).sort()).toEqual(['shipping_channel_id', 'tracking_number']);
    });

    it('updates recipient, data, delay and checks, refuses to change the number or the channel', async () => {
      const res = await a.request('PATCH', `/v1/tracking-parcels/${external.id}`, {
        recipient_email: 'rehor@example.cz', external_data: { order: 'A-2' }, max_checks: 50,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ recipient_email: 'rehor@example.cz', external_data: { order: 'A-2' }, max_checks: 50 });
      expect(await outbox(external.id, 'tracking_parcel.updated')).toHaveLength(1);
      const immutable = await a.request('PUT', `/v1/tracking-parcels/${external.id}`, { tracking_number: '80000000002', shipping_channel_id: 'ch_other', check_delay_hours: 169 });
      expect(immutable.statusCode).toBe(422);
      expect(Object.keys(immutable.json().errors).sort()).toEqual(['check_delay_hours', 'shipping_channel_id', 'tracking_number']);
      const same = await a.request('PUT', `/v1/tracking-parcels/${external.id}`, { tracking_number: external.tracking_number, recipient_name: 'R. Š.' });
      expect(same.statusCode, same.body).toBe(200);
      expect((await a.request('PATCH', `/v1/tracking-parcels/${internal.id}`, { recipient_phone: '+420602333444' })).statusCode).toBe(200);
    });

    it('lists newest first with status, channel and number filters', async () => {
      const all = (await a.request('GET', '/v1/tracking-parcels?per_page=2')).json();
      expect(all.meta).toMatchObject({ per_page: 2, current_page: 1 });
      expect(all.meta.total).toBeGreaterThan(2);
      expect(all.links.next).toContain('page=2');
      const created = all.data.map((p: { created_at: string }) => p.created_at);
      expect([...created].sort().reverse()).toEqual(created);
      expect(all.data[0]).not.toHaveProperty('status_updates');
      const found = (await a.request('GET', `/v1/tracking-parcels?search=${external.tracking_number.slice(3, 9)}`)).json().data;
      expect(found.map((p: { id: string }) => p.id)).toContain(external.id);
      const delivered = (await a.request('GET', '/v1/tracking-parcels?status=delivered')).json().data;
      expect(delivered.length).toBeGreaterThan(0);
      expect(delivered.every((p: { status: string }) => p.status === 'delivered')).toBe(true);
      expect((await a.request('GET', `/v1/tracking-parcels?shipping_channel_id=${channel}&per_page=1`)).json().meta.total).toBe(all.meta.total);
      expect((await a.request('GET', '/v1/tracking-parcels?status=lost')).statusCode).toBe(422);
      expect((await a.request('GET', '/v1/tracking-parcels?per_page=101')).statusCode).toBe(422);
    });

    it('deletes an external parcel (204, event, polling stops) but not a shipment\'s (422)', async () => {
      const refused = await a.request('DELETE', `/v1/tracking-parcels/${internal.id}`);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toContain('enable_tracking');
      const deleted = await a.request('DELETE', `/v1/tracking-parcels/${external.id}`);
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe('');
      expect((await a.request('GET', `/v1/tracking-parcels/${external.id}`)).statusCode).toBe(404);
      expect(await outbox(external.id, 'tracking_parcel.deleted')).toHaveLength(1);
    });
  });
});

describe('tracking on a channel whose credentials the carrier stops accepting (DPD)', () => {
  const dpd = findProvider('dpd')!;
  const { cash_on_delivery_currency: _currency, ...parties } = dpd.demo.shipment;
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let channel: string;

  const control = async (path: string, body: unknown = {}) => {
    const res = await fetch(`${emu.url}/_emulator/dpd/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const later = async (hours: number) => {
    d.clock.advance(hours * HOUR);
    await d.runJobs();
  };
  /** The tracking parcel of a new one-parcel DPD shipment, tracked from its creation. */
  const shippedParcel = async (reference: string): Promise<TrackingParcel> => {
    const res = await a.request('POST', '/v1/shipments', {
      shipping_channel_id: channel, label_format: 'pdf', reference_number: reference, parcels: parcelsOf(1), ...parties,
    });
    expect(res.statusCode, res.body).toBe(201);
    await d.runJobs();
    const created = (await a.request('GET', `/v1/shipments/${res.json().data.id}`)).json().data;
    expect(created.status, JSON.stringify(created.failure)).toBe('created');
    const list = (await a.request('GET', `/v1/tracking-parcels?search=${created.parcels[0].tracking_number}`)).json().data as TrackingParcel[];
    return list[0]!;
  };
  const tracked = async (id: string): Promise<TrackingParcel> => (await a.request('GET', `/v1/tracking-parcels/${id}`)).json().data;

  beforeAll(async () => {
    d = await startTestDaemon();
    emu = await startEmulators({ providers: ['dpd'], port: 0, clock: d.clock });
    a = await d.account('DPD shop');
    const res = await a.request('POST', '/v1/shipping-channels', { name: 'DPD', provider: 'dpd', settings: { ...dpd.demo.settings, baseUrl: emu.urls.dpd } });
    expect(res.json().data.status, res.body).toBe('active');
    channel = res.json().data.id;
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
  });

  it('turns the channel error with DPD\'s DELICOM_ERR_AUTHENTICATION, and leaves its parcels as they were rather than unknown', async () => {
    const scanned = await shippedParcel('DPD-SCANNED');
    await control(`parcels/${scanned.tracking_number}/advance`, { to: 'in_transit' });
    await later(7); // the first check: the channel's web-service token is issued and kept
    expect(await tracked(scanned.id)).toMatchObject({ status: 'in_transit', checks_done: 1 });
    const unscanned = await shippedParcel('DPD-UNSCANNED');

    // the password is changed in DPD's portal: DPD refuses the login, and the token packdesk holds with it
    await control(`logins/${dpd.demo.settings.login}/revoke`);
    await later(7);

    const refused = (await a.request('GET', `/v1/shipping-channels/${channel}`)).json().data;
    expect(refused.status).toBe('error');
    expect(refused.validation_error.message).toContain('DELICOM_ERR_AUTHENTICATION');
    expect(refused.validation_error.errors).toHaveProperty(['settings.password']);
    const changes = (await d.ctx.store.all<{ payload: string }>('SELECT payload FROM events WHERE resource_id = ? AND type = ? ORDER BY rowid', channel, 'shipping_channel.status_changed'))
      .map((r) => (JSON.parse(r.payload) as OutboxEvent).data.shipping_channel!);
    expect(changes.map((c) => [c.previous_status, c.status])).toEqual([['pending_validation', 'active'], ['active', 'error']]);

    // not news of the parcels: neither status nor count moves, and the next check waits the usual delay
    const after = { scanned: await tracked(scanned.id), unscanned: await tracked(unscanned.id) };
    expect(after.scanned).toMatchObject({ status: 'in_transit', checks_done: 1 });
    expect(after.unscanned).toMatchObject({ status: 'created', checks_done: 0, status_updates: [] });
    for (const p of Object.values(after)) expect(Date.parse(p.next_check_at!)).toBeGreaterThanOrEqual(d.clock.now() + 6 * HOUR);
    expect(d.logText()).toContain('the carrier refused the channel\'s credentials');

    const refresh = await a.request('POST', `/v1/tracking-parcels/${unscanned.id}/refresh`);
    expect(refresh.statusCode, refresh.body).toBe(422);
    expect(refresh.json().errors.shipping_channel_id[0]).toContain('DELICOM_ERR_AUTHENTICATION');
    expect(await tracked(unscanned.id)).toMatchObject({ status: 'created', checks_done: 0 });
    for (const text of [refresh.body, JSON.stringify(refused), d.logText()]) expect(text).not.toContain(dpd.demo.settings.password);
  });
});
