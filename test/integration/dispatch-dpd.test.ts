import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError, CarrierTransientError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierProgress, DispatchedAtCarrier, DispatchForCarrier, PickupRequest, ShipmentToDispatch } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { demoShipment, memoryProgress, refusalOf, toDispatch, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { carrierSchemaErrors } from '../helpers/json-schema.js';

/**
 * DPD's end of the day through the META-API, driven through the adapter against its emulator: nothing to close and
 * no document of DPD's, a courier booked with `POST /shipping/v1/pickupscheduling` exactly once whatever fails on the
 * way, DPD's refusals as refusals a person can act on, every booking held to DPD's published schema.
 */

const provider = findProvider('dpd')!;
const dispatcher = provider.adapter.dispatch!;
const PICKUP_PATH = '/dpd/shipping/v1/pickupscheduling';
/** A day as the emulator reads pickup dates (UTC). */
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const tomorrow: PickupRequest = { date: day(1), from: '14:00', to: '16:00' };

/** DPD's published `pickupscheduling.PickupSchedule`, kept beside the carrier's fixtures. */
const pickupRequestErrors = carrierSchemaErrors('dpd', 'pickupscheduling-request.schema.json');

describe('DPD hands the day\'s parcels over: a courier booked once, nothing closed', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let shipments: ShipmentToDispatch[];

  const ctx = (progress: CarrierProgress, timeoutMs = 10_000) => ({ channelId: 'ch_dpd_dispatch', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs, progress });
  const bookings = () => proxy.calls.filter((c) => c.path === PICKUP_PATH);
  const handOver = (progress: CarrierProgress, pickup: PickupRequest | null = tomorrow, of = shipments, timeoutMs?: number): Promise<DispatchedAtCarrier> => {
    const dispatch: DispatchForCarrier = { id: `dp_${Math.random().toString(36).slice(2, 10)}`, shipments: of, sender: demoShipment(provider, 'sh_sender', day(0)).sender, pickup };
    return dispatcher.handOver(dispatch, settings, ctx(progress, timeoutMs));
  };
  const fault = async (mode: string, count = 1) => {
    const res = await fetch(`${emu.url}/_emulator/dpd/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode, count }) });
    expect(res.status).toBe(200);
  };
  /** The pickup DPD holds each parcel of these shipments in (null: none). */
  const pickupsAtDpd = (of = shipments) => {
    const numbers = new Set(of.flatMap((s) => s.parcels.map((p) => p.trackingNumber)));
    return emu.emulator('dpd').shipments().flatMap((s) => s.parcelStatuses as { parcelId: string; pickup: string | null }[])
      .filter((p) => numbers.has(p.parcelId)).map((p) => p.pickup);
  };

  /** Three shipments of the demo story (four parcels) created at DPD's emulator by the adapter. */
  async function createThree(): Promise<ShipmentToDispatch[]> {
    const created: ShipmentToDispatch[] = [];
    for (const parcels of [1, 2, 1]) {
      const shipment = demoShipment(provider, `sh_dpd_dispatch_${Math.random().toString(36).slice(2, 10)}`, day(0), parcels);
      created.push(toDispatch(shipment, await provider.adapter.createShipment(shipment, settings, ctx(memoryProgress()))));
    }
    return created;
  }

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));
  beforeEach(async () => {
    shipments = await createThree();
    proxy.calls.length = 0;
  });

  it('books one courier for every parcel with a request of DPD\'s schema, and a second run asks DPD nothing', async () => {
    expect(dispatcher.capabilities).toEqual({ close: false, protocol: false, pickup: true });
    const progress = memoryProgress();
    const handed = await handOver(progress);

    expect(bookings()).toHaveLength(1);
    const sent = JSON.parse(bookings()[0]!.body!) as { parcelNumbers: string[]; pickup: unknown };
    expect(pickupRequestErrors(sent)).toEqual([]);
    expect(sent.parcelNumbers).toEqual(shipments.flatMap((s) => s.parcels.map((p) => p.trackingNumber)));
    expect(sent.pickup).toEqual({ date: tomorrow.date, fromTime: '1400', toTime: '1600' });
    expect(handed).toEqual({ carrierRef: expect.stringMatching(/^PU\d+$/), pickup: { confirmation: handed.carrierRef, ...tomorrow } });
    expect(handed.document, 'packdesk\'s hand-over list serves').toBeUndefined();
    expect(pickupsAtDpd()).toEqual([handed.carrierRef, handed.carrierRef, handed.carrierRef, handed.carrierRef]);

    proxy.calls.length = 0;
    expect(await handOver(progress)).toEqual(handed);
    expect(proxy.calls, 'nothing asked of DPD again').toEqual([]);
  });

  it('asks DPD nothing when no courier is wanted', async () => {
    expect(await handOver(memoryProgress(), null)).toEqual({ carrierRef: null });
    expect(proxy.calls).toEqual([]);
    expect(pickupsAtDpd()).toEqual([null, null, null, null]);
  });

  it('books once when the daemon died after DPD booked but before the progress was stored', async () => {
    const progress = memoryProgress();
    progress.failSave((next) => JSON.stringify(next).includes('booked'));
    await expect(handOver(progress)).rejects.toThrow('the process died before the progress was stored');

    const handed = await handOver(progress);
    expect(bookings(), 'one booking in all').toHaveLength(1);
    expect(new Set(pickupsAtDpd()).size).toBe(1);
    // DPD cannot be asked for the lost reference: no confirmation, and what to check instead of booking again
    expect(handed).toEqual({
      carrierRef: null,
      pickup: { confirmation: null, ...tomorrow, note: expect.stringContaining('check with DPD whether the courier') },
    });
  });

  it('refuses a courier for a past day, saying which day is the earliest', async () => {
    const refusal = await refusalOf(handOver(memoryProgress(), { date: day(-1), from: '10:00', to: '12:00' }));
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe(`DPD refused the courier booking: Pickup date ${day(-1)} is in the past: the earliest is ${day(0)} (PICKUP_DATE_PAST)`);
    expect(refusal.errors).toEqual({ 'pickup.date': [expect.stringContaining('is in the past')] });
    expect(pickupsAtDpd()).toEqual([null, null, null, null]);
  });

  it('refuses a courier for a parcel DPD does not know, naming it', async () => {
    const unknown = { ...shipments[0]!, parcels: [{ trackingNumber: '01909999999999', carrierRef: null, weightKg: 1 }] };
    const refusal = await refusalOf(handOver(memoryProgress(), tomorrow, [...shipments.slice(1), unknown]));
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe('DPD refused the courier booking: Parcel 01909999999999 is unknown (PARCEL_UNKNOWN)');
    expect(refusal.errors).toEqual({ shipment_ids: ['DPD: Parcel 01909999999999 is unknown'] });
  });

  it('refuses a second courier for parcels DPD already picks up', async () => {
    const first = await handOver(memoryProgress());
    const refusal = await refusalOf(handOver(memoryProgress()));
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe(`DPD refused the courier booking: Parcel ${shipments[0]!.parcels[0]!.trackingNumber} is in pickup ${first.carrierRef} already (PARCEL_ALREADY_SCHEDULED)`);
    expect(new Set(pickupsAtDpd())).toEqual(new Set([first.carrierRef]));
  });

  it('answers a misspelt field of a booking as the META-API\'s validation does', async () => {
    const login = await fetch(`${emu.urls.dpd}/shipping/v1/login`, { method: 'POST', headers: { 'x-dpd-bucode': '015', 'x-dpd-login': 'packdesk-station', 'x-dpd-password': 'meta-api-password' } });
    const res = await fetch(`${emu.urls.dpd}/shipping/v1/pickupscheduling`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${login.headers.get('x-dpd-token')}` },
      body: JSON.stringify({ parcelNumbers: [shipments[0]!.parcels[0]!.trackingNumber], pickup: { dat: tomorrow.date } }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual([
      { errorCode: 'INVALID_REQUEST', errorMessage: 'pickup.date: is mandatory', errorOrigin: 'META-API' },
      { errorCode: 'INVALID_REQUEST', errorMessage: 'pickup.dat: unknown field', errorOrigin: 'META-API' },
    ]);
  });

  it('takes DPD\'s server fault as worth another try, and the retry books once', async () => {
    const progress = memoryProgress();
    await fault('error500');
    await expect(handOver(progress)).rejects.toBeInstanceOf(CarrierTransientError);
    const handed = await handOver(progress);
    expect(bookings()).toHaveLength(2);
    expect(pickupsAtDpd()).toEqual([handed.carrierRef, handed.carrierRef, handed.carrierRef, handed.carrierRef]);
    expect(handed.pickup?.confirmation).toMatch(/^PU\d+$/);
  });

  it('never books a second courier after a booking timed out', async () => {
    const progress = memoryProgress();
    await fault('timeout');
    await expect(handOver(progress, tomorrow, shipments, 1_000)).rejects.toBeInstanceOf(CarrierTransientError);
    const handed = await handOver(progress);
    expect(bookings(), 'the timed-out call only').toHaveLength(1);
    expect(handed).toEqual({ carrierRef: null, pickup: { confirmation: null, ...tomorrow, note: expect.stringContaining('check with DPD') } });
  });
});
