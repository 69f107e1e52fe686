import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { pplChannel, pplEmulatorControl, shipmentBody } from '../helpers/shipments.js';

/** The order queue: orders wait as `awaiting` until the packer ships them; each becomes one shipment, once. */
describe('the order queue', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let channel: string;
  const { shipments: emulated } = pplEmulatorControl(() => emu.url);

  /** An order as a shop sends it: who and where, COD; no channel, no parcels. */
  const orderBody = (reference: string, overrides: Record<string, unknown> = {}) => {
    const { shipping_channel_id: _channel, parcels: _parcels, label_format: _format, ...order } = shipmentBody('unused', { reference_number: reference });
    return { ...order, ...overrides };
  };
  const queue = async (reference: string, overrides: Record<string, unknown> = {}) => {
    d.clock.advance(1); // the queue is in the order orders came in
    const res = await a.request('POST', '/v1/orders', orderBody(reference, overrides));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; status: string };
  };
  const eventsOf = async (id: string) => (await d.ctx.store.all<{ type: string }>('SELECT type FROM events WHERE resource_id = ?', id)).map((e) => e.type).sort();

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    d = await startTestDaemon();
    a = await d.account('Order queue warehouse');
    channel = await pplChannel(a, emu.urls.ppl!);
    const box = await a.request('PATCH', `/v1/shipping-channels/${channel}`, { parcel_defaults: { length_dimension: 30, width_dimension: 20, height_dimension: 15 } });
    expect(box.statusCode, box.body).toBe(200);
  });
  afterAll(async () => {
    await d.close();
    await emu.close();
  });

  it('queues an order as written, lists the queue oldest first, and finds orders by reference, name and postal code', async () => {
    const first = await queue('Q-1001', { recipient_contact: { name: 'Ing. Jan Novák', email_address: 'jan@example.cz', phone_number: '777 888 999' } });
    expect(first).toMatchObject({ status: 'awaiting', shipment_id: null, shipping_channel_id: null, parcels: [] });
    expect(first).toMatchObject({ recipient_contact: { first_name: 'Ing. Jan', last_name: 'Novák', phone_number: '+420777888999' } });
    await queue('Q-1002', { destination_address: { street_name: 'Dlouhá 5a', city_name: 'Olomouc', postal_code: '779 00', country_code: 'CZ' } });
    expect(await eventsOf(first.id)).toEqual(['order.created']);

    const list = async (query: string) => (await a.request('GET', `/v1/orders?${query}`)).json();
    const awaiting = await list('status=awaiting&per_page=100');
    expect(awaiting.data.map((o: { reference_number: string }) => o.reference_number).slice(0, 2)).toEqual(['Q-1001', 'Q-1002']);
    expect((await list('search=q-1002')).data.map((o: { reference_number: string }) => o.reference_number)).toEqual(['Q-1002']);
    expect((await list('search=novák')).data.map((o: { id: string }) => o.id)).toEqual([first.id]);
    expect((await list('search=77900')).data.map((o: { reference_number: string }) => o.reference_number)).toEqual(['Q-1002']);
    expect((await list('search=779%2000')).data.map((o: { reference_number: string }) => o.reference_number)).toEqual(['Q-1002']); // as written on the parcel
    expect((await list('search=%25')).meta.total).toBe(0); // % is a character searched for, not a wildcard
    expect((await list(`created_from=${encodeURIComponent(new Date(d.clock.now() + 1000).toISOString())}`)).meta.total).toBe(0);
    expect((await a.request('GET', '/v1/orders?status=packed')).statusCode).toBe(422);
  });

  it('refuses an order a packer could not ship, on its field, and keeps nothing of it', async () => {
    const res = await a.request('POST', '/v1/orders', orderBody('Q-BAD', {
      destination_address: { street_name: 'Lhota', city_name: 'Lhota', postal_code: '7790', country_code: 'CZ' },
    }));
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['destination_address.house_number', 'destination_address.postal_code']);
    expect((await a.request('GET', '/v1/orders?search=q-bad')).json().meta.total).toBe(0);
  });

  it('ships an order once: the weighed parcels on the channel with its default box; a second call and a replayed key answer with the same shipment', async () => {
    const order = await queue('Q-2001', { cash_on_delivery_amount: 1249.9, cash_on_delivery_currency: 'CZK' });
    const unnamed = await a.request('POST', `/v1/orders/${order.id}/ship`, { parcels: [{ weight_amount: 2.4 }] });
    expect(unnamed.statusCode).toBe(422);
    expect(unnamed.json().errors.shipping_channel_id[0]).toContain('name the channel');

    const ship = { shipping_channel_id: channel, parcels: [{ weight_amount: 2.4 }, { weight_amount: 0.8 }], label_format: 'zpl' };
    const shipped = await a.request('POST', `/v1/orders/${order.id}/ship`, ship, { 'idempotency-key': 'ship-Q-2001' });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json().message).toBe('Order shipped');
    const shipment = shipped.json().data;
    expect(shipment).toMatchObject({ reference_number: 'Q-2001', label_format: 'zpl', cash_on_delivery_amount: 1249.9, status: 'pending' });
    expect(shipment.parcels.map((p: Record<string, number>) => [p.weight_amount, p.length_dimension])).toEqual([[2.4, 30], [0.8, 30]]);

    const replayed = await a.request('POST', `/v1/orders/${order.id}/ship`, ship, { 'idempotency-key': 'ship-Q-2001' });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json().data.id).toBe(shipment.id);
    const again = await a.request('POST', `/v1/orders/${order.id}/ship`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().message).toBe('Order already shipped');
    expect(again.json().data.id).toBe(shipment.id);

    await d.runJobs();
    expect((await emulated()).filter((s: { referenceId: string }) => s.referenceId === shipment.id)).toHaveLength(1);
    const shown = (await a.request('GET', `/v1/orders/${order.id}`)).json().data;
    expect(shown).toMatchObject({ status: 'shipped', shipment_id: shipment.id });
    expect(shown.shipped_at).not.toBeNull();
    expect(await eventsOf(order.id)).toEqual(['order.created', 'order.shipped']);
    expect((await a.request('PATCH', `/v1/orders/${order.id}`, { reference_number: 'Q-2001-B' })).statusCode).toBe(422);
    expect((await a.request('DELETE', `/v1/orders/${order.id}`)).json().errors.status[0]).toContain('cancel that shipment');
  });

  it('queues an order again when the carrier refused its shipment and the packer deleted it, or cancelled it: corrected, it ships anew', async () => {
    const order = await queue('Q-3001', { destination_address: { street_name: 'Údolní 5', city_name: 'Brno', postal_code: '79999', country_code: 'CZ' } });
    const ship = { shipping_channel_id: channel, parcels: [{ weight_amount: 1 }] };
    const first = (await a.request('POST', `/v1/orders/${order.id}/ship`, ship)).json().data;
    await d.runJobs();
    expect(Object.keys((await a.request('GET', `/v1/shipments/${first.id}`)).json().data.failure.errors)).toContain('destination_address.postal_code');
    expect((await a.request('DELETE', `/v1/shipments/${first.id}`)).statusCode).toBe(204);
    expect((await a.request('GET', `/v1/orders/${order.id}`)).json().data).toMatchObject({ status: 'awaiting', shipment_id: null });

    const fixed = await a.request('PATCH', `/v1/orders/${order.id}`, { destination_address: { street_name: 'Údolní 5', city_name: 'Brno', postal_code: '602 00', country_code: 'CZ' } });
    expect(fixed.statusCode, fixed.body).toBe(200);
    const second = (await a.request('POST', `/v1/orders/${order.id}/ship`, ship)).json().data;
    expect(second.id).not.toBe(first.id);
    await d.runJobs();
    expect((await a.request('GET', `/v1/shipments/${second.id}`)).json().data.status).toBe('created');
    expect((await a.request('POST', `/v1/shipments/${second.id}/cancel`)).statusCode).toBe(200);
    expect((await a.request('GET', `/v1/orders/${order.id}`)).json().data.status).toBe('awaiting');
  });

  it('changes and cancels an awaiting order; a cancelled one neither ships nor changes; another account sees none of it', async () => {
    const order = await queue('Q-4001');
    const changed = await a.request('PATCH', `/v1/orders/${order.id}`, { label_comment: 'fragile', destination_address: { street_name: 'náměstí Míru 820/9', city_name: 'Praha', postal_code: '120 00', country_code: 'CZ' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ label_comment: 'fragile', destination_address: { street_name: 'náměstí Míru', house_number: '820/9', postal_code: '12000' } });
    const cancelled = await a.request('DELETE', `/v1/orders/${order.id}`);
    expect(cancelled.json().data).toMatchObject({ status: 'cancelled' });
    expect(cancelled.json().data.cancelled_at).not.toBeNull();
    expect((await a.request('POST', `/v1/orders/${order.id}/ship`, { shipping_channel_id: channel, parcels: [{ weight_amount: 1 }] })).json().errors.status).toEqual(['the order was cancelled']);
    expect(await eventsOf(order.id)).toEqual(['order.cancelled', 'order.created']);

    const other = await d.account('Another warehouse');
    expect((await other.request('GET', `/v1/orders/${order.id}`)).statusCode).toBe(404);
    expect((await other.request('POST', `/v1/orders/${order.id}/ship`, {})).statusCode).toBe(404);
    expect((await other.request('GET', '/v1/orders')).json().meta.total).toBe(0);
  });
});
