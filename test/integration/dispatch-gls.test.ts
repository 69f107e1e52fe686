import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../../src/carriers/errors.js';
import { glsPasswordDigest } from '../../src/carriers/gls/client.js';
import { pickupConfirmation } from '../../src/carriers/gls/response.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierParty, CarrierProgress, DispatchedAtCarrier, DispatchForCarrier, PickupRequest, ShipmentToDispatch } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { demoShipment, memoryProgress, refusalOf, toDispatch, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';

/**
 * GLS's end of the day through MyGLS, driven through the adapter against its emulator: nothing to close and no
 * document of GLS's, a courier booked with `CreatePickupRequest` (a count of packages and a window, as GLS's own
 * WooCommerce plugin books it) exactly once whatever fails on the way, GLS's refusals as refusals a person can act on.
 */

const provider = findProvider('gls')!;
const dispatcher = provider.adapter.dispatch!;
const PICKUP_PATH = '/gls/ParcelService.svc/json/CreatePickupRequest';
/** A day as the test writes pickup dates (UTC); GLS reads the window on Prague's clock. */
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const tomorrow: PickupRequest = { date: day(1), from: '14:00', to: '16:00' };
/** A WCF date's instant as Prague's clock shows it. */
const onPragueClock = (wcf: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Prague', dateStyle: 'short', timeStyle: 'short' })
  .format(Number(/^\/Date\((\d+)\)\/$/.exec(wcf)![1]));

interface BookedAtGls { pickupRequestId: number; count: number; from: string; to: string; address: Record<string, unknown> }

describe('GLS hands the day\'s parcels over: a courier booked once, nothing closed', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let shipments: ShipmentToDispatch[];
  const sender = (): CarrierParty => demoShipment(provider, 'sh_sender', day(0)).sender;

  const ctx = (progress: CarrierProgress, timeoutMs = 10_000) => ({ channelId: 'ch_gls_dispatch', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs, progress });
  const bookings = () => proxy.calls.filter((c) => c.path === PICKUP_PATH);
  const handOver = (progress: CarrierProgress, pickup: PickupRequest | null = tomorrow, from = sender(), timeoutMs?: number, channelSettings = settings): Promise<DispatchedAtCarrier> => {
    const dispatch: DispatchForCarrier = { id: `dp_${Math.random().toString(36).slice(2, 10)}`, shipments, sender: from, pickup };
    return dispatcher.handOver(dispatch, channelSettings, ctx(progress, timeoutMs));
  };
  const fault = async (mode: string, count = 1) => {
    const res = await fetch(`${emu.url}/_emulator/gls/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode, count }) });
    expect(res.status).toBe(200);
  };
  /** The pickup requests GLS holds. */
  const pickupsAtGls = async (): Promise<BookedAtGls[]> => {
    const res = await fetch(`${emu.url}/_emulator/gls/pickups`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { pickups: BookedAtGls[] }).pickups;
  };

  /** Three shipments of the demo story (four parcels) created at GLS's emulator by the adapter. */
  async function createThree(): Promise<ShipmentToDispatch[]> {
    const created: ShipmentToDispatch[] = [];
    for (const parcels of [1, 2, 1]) {
      const shipment = demoShipment(provider, `sh_gls_dispatch_${Math.random().toString(36).slice(2, 10)}`, day(0), parcels);
      created.push(toDispatch(shipment, await provider.adapter.createShipment(shipment, settings, ctx(memoryProgress()))));
    }
    return created;
  }

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));
  beforeEach(async () => {
    emu.emulator('gls').reset();
    shipments = await createThree();
    proxy.calls.length = 0;
  });

  it('books one courier for the day\'s four parcels as GLS\'s plugin asks, and a second run asks GLS nothing', async () => {
    expect(dispatcher.capabilities).toEqual({ close: false, protocol: false, pickup: true });
    expect(dispatcher.cancelAfterHandOver, 'a dispatch leaves the labels deletable until GLS scans them').toBe(true);
    const progress = memoryProgress();
    const handed = await handOver(progress);

    expect(bookings()).toHaveLength(1);
    const sent = JSON.parse(bookings()[0]!.body!) as Record<string, unknown> & { PickupTimeFrom: string; PickupTimeTo: string };
    expect(sent).toEqual({
      Username: 'sklad@example.cz', Password: glsPasswordDigest('mygls-password-value'), ClientNumber: 100000001, Count: 4,
      PickupTimeFrom: expect.stringMatching(/^\/Date\(\d+\)\/$/), PickupTimeTo: expect.stringMatching(/^\/Date\(\d+\)\/$/),
      Address: {
        Name: 'Sklad Brno s.r.o.', ContactName: 'Sklad Brno s.r.o.', ContactPhone: '+420601111222', ContactEmail: 'sklad@example.cz',
        Street: 'Vídeňská', HouseNumber: '12', City: 'Brno', ZipCode: '63900', CountryIsoCode: 'CZ',
      },
    });
    expect([onPragueClock(sent.PickupTimeFrom), onPragueClock(sent.PickupTimeTo)]).toEqual([`${tomorrow.date} 14:00`, `${tomorrow.date} 16:00`]);
    expect(handed).toEqual({ carrierRef: expect.stringMatching(/^7\d{8}$/), pickup: { confirmation: handed.carrierRef, ...tomorrow } });
    expect(handed.document, 'packdesk\'s hand-over list serves').toBeUndefined();
    expect(await pickupsAtGls()).toEqual([expect.objectContaining({ pickupRequestId: Number(handed.carrierRef), count: 4 })]);

    proxy.calls.length = 0;
    expect(await handOver(progress)).toEqual(handed);
    expect(proxy.calls, 'nothing asked of GLS again').toEqual([]);
  });

  it('asks GLS nothing when no courier is wanted', async () => {
    expect(await handOver(memoryProgress(), null)).toEqual({ carrierRef: null });
    expect(proxy.calls).toEqual([]);
    expect(await pickupsAtGls()).toEqual([]);
  });

  it('books once when the daemon died after GLS booked but before the progress was stored', async () => {
    const progress = memoryProgress();
    progress.failSave((next) => JSON.stringify(next).includes('booked'));
    await expect(handOver(progress)).rejects.toThrow('the process died before the progress was stored');

    const handed = await handOver(progress);
    expect(bookings(), 'one booking in all').toHaveLength(1);
    expect(await pickupsAtGls()).toHaveLength(1);
    // MyGLS cannot be asked for the lost request: no confirmation, and what to check instead of booking again
    expect(handed).toEqual({
      carrierRef: null,
      pickup: { confirmation: null, ...tomorrow, note: expect.stringContaining('check with GLS whether the courier') },
    });
  });

  it('confirms a booking GLS accepted without a request number by the moment it accepted it, never as a lost one', async () => {
    expect(pickupConfirmation({ PickupRequestErrors: [] }, '2026-11-26 15:04')).toBe('accepted by GLS at 2026-11-26 15:04');
    expect(pickupConfirmation({ PickupRequestErrors: [], PickupRequestId: 0 }, '2026-11-26 15:04')).toBe('accepted by GLS at 2026-11-26 15:04');
    expect(pickupConfirmation({ PickupRequestErrors: [], PickupRequestId: 700000123 }, '2026-11-26 15:04')).toBe('700000123');

    // such a booking, stored, is handed over again as it was: confirmed, though GLS gave it no number of its own
    const progress = memoryProgress();
    const booked = { confirmation: 'accepted by GLS at 2026-11-26 15:04', ...tomorrow };
    await progress.save({ pickup: { booked } });
    expect(await handOver(progress)).toEqual({ carrierRef: null, pickup: booked });
    expect(proxy.calls).toEqual([]);
  });

  it('refuses a courier for a window that is over, pointing at the day', async () => {
    const refusal = await refusalOf(handOver(memoryProgress(), { date: day(-1), from: '10:00', to: '12:00' }));
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe(`GLS refused the pickup request (error 13): Pickup request validation issue: the pickup window ending ${day(-1)} 12:00 is in the past.`);
    expect(refusal.errors).toEqual({ 'pickup.date': [`GLS: Pickup request validation issue: the pickup window ending ${day(-1)} 12:00 is in the past.`] });
    expect(await pickupsAtGls()).toEqual([]);

    // the refusal booked nothing: the same dispatch with another day books its courier
    const progress = memoryProgress();
    await refusalOf(handOver(progress, { date: day(-1), from: '10:00', to: '12:00' }));
    expect((await handOver(progress)).pickup?.confirmation).toMatch(/^7\d{8}$/);
  });

  it('refuses a window that ends before it starts', async () => {
    const refusal = await refusalOf(handOver(memoryProgress(), { ...tomorrow, from: '16:00', to: '14:00' }));
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe(`GLS refused the pickup request (error 13): Pickup request validation issue: PickupTimeFrom ${tomorrow.date} 16:00 must be before PickupTimeTo ${tomorrow.date} 14:00.`);
    expect(refusal.errors).toEqual({ 'pickup.from': [expect.stringContaining('must be before PickupTimeTo')] });
  });

  it('refuses a pickup address without its street, naming the sender\'s field', async () => {
    const refusal = await refusalOf(handOver(memoryProgress(), tomorrow, { ...sender(), street: '' }));
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe('GLS refused the pickup request (error 13): Pickup request validation issue: Address.Street is required.');
    expect(refusal.errors).toEqual({ 'origin_address.street_name': ['GLS: Pickup request validation issue: Address.Street is required.'] });
    expect(await pickupsAtGls()).toEqual([]);
  });

  it('takes refused credentials as the channel\'s to fix', async () => {
    const refusal = await refusalOf(handOver(memoryProgress(), tomorrow, sender(), undefined, { ...settings, password: 'bad-secret' }));
    expect(refusal).toBeInstanceOf(CarrierCredentialsRefusedError);
    expect(refusal.message).toBe('GLS refused the credentials: Unauthorized.');
    expect(await pickupsAtGls()).toEqual([]);
  });

  it('answers a misspelt member, a missing one and an empty count as MyGLS\'s PickupRequestErrors', async () => {
    const call = (body: Record<string, unknown>) => fetch(`${emu.urls.gls}/ParcelService.svc/json/CreatePickupRequest`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'sklad@example.cz', Password: glsPasswordDigest('mygls-password-value'), ...body }),
    });
    const res = await call({
      ClientNumber: 100000001, Count: 0, PickupTimeFrm: '/Date(4102444800000)/', PickupTimeTo: '/Date(4102452000000)/',
      Address: { Name: 'Sklad', Street: 'Vídeňská', City: 'Brno', ZipCode: '63900', CountryIsoCode: 'CZ', ContactPhone: '+420601111222' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      PickupRequestId: null,
      PickupRequestErrors: [
        { ErrorCode: 13, ErrorDescription: 'Pickup request validation issue: \'PickupTimeFrm\' is not a member of PickupRequest.', ClientReferenceList: [], ParcelIdList: [] },
        { ErrorCode: 13, ErrorDescription: 'Pickup request validation issue: Count must be a whole number of at least 1.', ClientReferenceList: [], ParcelIdList: [] },
        { ErrorCode: 13, ErrorDescription: 'Pickup request validation issue: PickupTimeFrom is required.', ClientReferenceList: [], ParcelIdList: [] },
      ],
    });
    expect(await pickupsAtGls()).toEqual([]);
  });

  it('takes GLS\'s server fault as worth another try, and the retry books once', async () => {
    const progress = memoryProgress();
    await fault('error500');
    await expect(handOver(progress)).rejects.toBeInstanceOf(CarrierTransientError);
    const handed = await handOver(progress);
    expect(bookings(), 'the refused call and the retry').toHaveLength(2);
    expect(await pickupsAtGls()).toEqual([expect.objectContaining({ pickupRequestId: Number(handed.carrierRef) })]);
    expect(handed.pickup?.confirmation).toMatch(/^7\d{8}$/);
  });

  it('never books a second courier after a booking timed out', async () => {
    const progress = memoryProgress();
    await fault('timeout');
    await expect(handOver(progress, tomorrow, sender(), 1_000)).rejects.toBeInstanceOf(CarrierTransientError);
    const handed = await handOver(progress);
    expect(bookings(), 'the timed-out call only').toHaveLength(1);
    expect(handed).toEqual({ carrierRef: null, pickup: { confirmation: null, ...tomorrow, note: expect.stringContaining('check with GLS') } });
  });
});
