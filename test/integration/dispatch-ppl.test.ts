import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError, CarrierTransientError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierProgress, DispatchForCarrier, PickupRequest, ShipmentToDispatch } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { demoShipment, memoryProgress, toDispatch, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';

const provider = findProvider('ppl')!;
const dispatcher = provider.adapter.dispatch!;
const DAY_MS = 86_400_000;
/** A day in Prague, where PPL's send dates are. */
const pragueDay = (offsetDays: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Prague' }).format(new Date(Date.now() + offsetDays * DAY_MS));

/** The end of the day at PPL: the shipment batch was the hand-over; a courier is ordered with POST /order/batch when asked for. */
describe('PPL hand-over: the courier ordered with POST /order/batch', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let made = 0;

  const ctx = (progress: CarrierProgress, timeoutMs = 10_000) => ({ channelId: 'ch_ppl_dispatch', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs, progress });
  const orderCalls = () => proxy.calls.filter((c) => c.method === 'POST' && c.path === '/ppl/order/batch').length;
  const fault = (mode: string, extra: Record<string, unknown> = {}) => fetch(`${emu.url}/_emulator/ppl/faults`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode, ...extra }),
  });
  const created = async (n: number): Promise<ShipmentToDispatch[]> => {
    const handed: ShipmentToDispatch[] = [];
    for (let i = 0; i < n; i++) {
      const s = demoShipment(provider, `sh_ppl_${++made}`, pragueDay(0), i === 1 ? 2 : 1);
      handed.push(toDispatch(s, await provider.adapter.createShipment(s, settings, ctx(memoryProgress()))));
    }
    return handed;
  };
  const dispatchOf = (shipments: ShipmentToDispatch[], pickup: PickupRequest | null): DispatchForCarrier => ({
    id: `dp_ppl_${++made}`, shipments, pickup, sender: demoShipment(provider, 'sender', pragueDay(0)).sender,
  });

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));
  beforeEach(async () => {
    await fault('none');
  });

  it('declares only a pickup, and shipments stay cancellable until the courier comes', () => {
    expect(dispatcher.capabilities).toEqual({ close: false, protocol: false, pickup: true });
    expect(dispatcher.cancelAfterHandOver).toBe(true);
  });

  it('orders one courier for three shipments’ four parcels, and a second run with the same progress asks PPL nothing', async () => {
    const shipments = await created(3);
    const pickup = { date: pragueDay(1), from: '10:00', to: '16:00' };
    const progress = memoryProgress();
    proxy.calls.length = 0;
    const dispatch = dispatchOf(shipments, pickup);

    const handed = await dispatcher.handOver(dispatch, settings, ctx(progress));
    expect(orderCalls()).toBe(1);
    expect(handed).toEqual({ carrierRef: expect.stringMatching(/^\d+$/), pickup: { confirmation: handed.carrierRef, ...pickup } });
    const sent = JSON.parse(proxy.calls.find((c) => c.path === '/ppl/order/batch')!.body!) as { orders: Record<string, unknown>[] };
    expect(sent.orders).toEqual([expect.objectContaining({
      orderType: 'CollectionOrder', referenceId: dispatch.id, shipmentCount: 4, sendDate: pickup.date, sendTimeFrom: '10:00', sendTimeTo: '16:00',
    })]);

    const callsBefore = proxy.calls.length;
    expect(await dispatcher.handOver(dispatch, settings, ctx(progress))).toEqual(handed);
    expect(proxy.calls.length, 'nothing asked of PPL').toBe(callsBefore);
  });

  it('asks PPL nothing without a pickup', async () => {
    const shipments = await created(1);
    proxy.calls.length = 0;
    expect(await dispatcher.handOver(dispatchOf(shipments, null), settings, ctx(memoryProgress()))).toEqual({ carrierRef: null });
    expect(proxy.calls).toEqual([]);
  });

  it('orders one courier when the first attempt died after PPL took the order but before its batch was stored', async () => {
    const shipments = await created(2);
    const progress = memoryProgress();
    progress.failSave((saved) => 'batchId' in saved);
    const dispatch = dispatchOf(shipments, { date: pragueDay(1), from: '09:00', to: '17:00' });
    proxy.calls.length = 0;

    await expect(dispatcher.handOver(dispatch, settings, ctx(progress))).rejects.toThrow(/died/);
    const handed = await dispatcher.handOver(dispatch, settings, ctx(progress));
    expect(orderCalls(), 'one order in total').toBe(1);
    const atPpl = (await (await fetch(`${emu.urls.ppl}/order?OrderReferences=${dispatch.id}`, { headers: { authorization: `Bearer ${await token()}` } })).json()) as { orderNumber: string }[];
    expect(atPpl.map((o) => o.orderNumber)).toEqual([handed.carrierRef]);
  });

  it.each(['error500', 'timeout'] as const)('takes %s as an outage, and the retry orders one courier', async (mode) => {
    const shipments = await created(2);
    const progress = memoryProgress();
    const dispatch = dispatchOf(shipments, { date: pragueDay(2), from: '11:00', to: '15:00' });
    proxy.calls.length = 0;
    await fault(mode, { count: 1 });

    const first = await dispatcher.handOver(dispatch, settings, ctx(progress, 1500)).then(() => undefined, (err: unknown) => err);
    expect(first).toBeInstanceOf(CarrierTransientError);
    const handed = await dispatcher.handOver(dispatch, settings, ctx(progress));
    expect(handed.carrierRef).toMatch(/^\d+$/);
    const atPpl = (await (await fetch(`${emu.urls.ppl}/order?OrderReferences=${dispatch.id}`, { headers: { authorization: `Bearer ${await token()}` } })).json()) as unknown[];
    expect(atPpl, 'one order at PPL').toHaveLength(1);
  });

  it('passes on PPL’s refusals of a past send date and of a second order under the same dispatch', async () => {
    const shipments = await created(1);
    const past = await dispatcher.handOver(dispatchOf(shipments, { date: pragueDay(-1), from: '10:00', to: '16:00' }), settings, ctx(memoryProgress())).then(() => undefined, (err: unknown) => err);
    expect(past).toBeInstanceOf(CarrierRefusedError);
    expect((past as Error).message).toBe(`PPL refused the request (HTTP 400): The send date ${pragueDay(-1)} is in the past.`);
    expect((past as CarrierRefusedError).errors).toEqual({ 'pickup.date': [`PPL: The send date ${pragueDay(-1)} is in the past.`] });

    const dispatch = dispatchOf(shipments, { date: pragueDay(1), from: '10:00', to: '16:00' });
    await dispatcher.handOver(dispatch, settings, ctx(memoryProgress()));
    const twice = await dispatcher.handOver(dispatch, settings, ctx(memoryProgress())).then(() => undefined, (err: unknown) => err);
    expect(twice).toBeInstanceOf(CarrierRefusedError);
    expect((twice as Error).message).toBe(`PPL refused the request (HTTP 400): An order with reference ${dispatch.id} already exists.`);
    expect((twice as CarrierRefusedError).errors).toEqual({ pickup: [`PPL: An order with reference ${dispatch.id} already exists.`] });
  });

  it('refuses an order with a misspelt field, as PPL does', async () => {
    const answer = await fetch(`${emu.urls.ppl}/order/batch`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await token()}` },
      body: JSON.stringify({ orders: [{ orderType: 'CollectionOrder', referenceId: 'dp_misspelt', shipmentCount: 1, sendDate: pragueDay(1), pickupDate: pragueDay(1) }] }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ title: 'BadRequest', errors: { 'Orders[0].pickupDate': ["Could not find member 'pickupDate' on object of type 'OrderModel'."] } });
  });

  const token = async () => {
    const { clientId, clientSecret } = provider.demo.settings as { clientId: string; clientSecret: string };
    const res = await fetch(`${emu.urls.ppl}/login/getAccessToken`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
});
