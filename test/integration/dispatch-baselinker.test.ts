import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError, CarrierTransientError } from '../../src/carriers/errors.js';
import { warsawTime } from '../../src/carriers/local-time.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierProgress, ChannelSettings, DispatchForCarrier, PickupRequest, ShipmentToDispatch } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { carrierBehindProxy, demoShipment, memoryProgress, pdfText, toDispatch } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';

/**
 * The end of the day through Base.com, driven through the Baselinker adapter against its emulator: one courier booked
 * for the day's packages (runRequestParcelPickup) and the courier's protocol (getProtocol) — the courier booked at most
 * once, whatever dies on the way.
 */

const baselinker = findProvider('baselinker')!;
const dispatcher = baselinker.adapter.dispatch!;
const DAY_MS = 86_400_000;
const warsawDay = (ms: number) => warsawTime.format(ms).slice(0, 10);

describe('end of the day through Baselinker: a courier for the packages and its protocol', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: ChannelSettings;
  let shipments = 0;
  let dispatches = 0;
  const ctx = { channelId: 'ch_baselinker_dispatch', clock: systemClock, timeoutMs: 2_000, log: pino({ level: 'silent' }) };
  const tomorrow = (): PickupRequest => ({ date: warsawDay(Date.now() + DAY_MS), from: '10:00', to: '15:00' });

  const faults = (body: unknown) => fetch(`${emu.url}/_emulator/baselinker/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  /** How many times Base.com was asked `method` since the proxy's calls were cleared. */
  const count = (method: string) => proxy.calls.filter((c) => new URLSearchParams(c.body ?? '').get('method') === method).length;
  const created = async (n: number): Promise<ShipmentToDispatch[]> => {
    const handed: ShipmentToDispatch[] = [];
    for (let i = 0; i < n; i++) {
      const s = demoShipment(baselinker, `sh_bl_dispatch_${++shipments}`, warsawDay(Date.now()));
      handed.push(toDispatch(s, await baselinker.adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() })));
    }
    return handed;
  };
  const dispatchOf = (handed: ShipmentToDispatch[], pickup: PickupRequest | null = tomorrow()): DispatchForCarrier => ({
    id: `dp_bl_${++dispatches}`, shipments: handed, sender: demoShipment(baselinker, 'sender', '2026-01-01').sender, pickup,
  });
  const handOver = (dispatch: DispatchForCarrier, progress: CarrierProgress) => dispatcher.handOver(dispatch, settings, { ...ctx, progress });
  const failureOf = (dispatch: DispatchForCarrier, progress: CarrierProgress = memoryProgress()) =>
    handOver(dispatch, progress).then(() => { throw new Error('the hand-over did not fail'); }, (err: unknown) => err as Error);
  const numbersOf = (handed: ShipmentToDispatch[]) => handed.flatMap((s) => s.parcels.map((p) => p.trackingNumber));

  beforeAll(async () => {
    ({ emu, proxy, settings } = await carrierBehindProxy(baselinker));
  });
  afterAll(async () => {
    await proxy?.close();
    await emu?.close();
  });
  beforeEach(async () => {
    await faults({ mode: 'none' });
  });

  it('books one courier for three shipments and gives the protocol naming every parcel; a second run asks Base.com nothing', async () => {
    expect(dispatcher.capabilities).toEqual({ close: false, protocol: true, pickup: true });
    const handed = await created(3);
    const dispatch = dispatchOf(handed);
    const progress = memoryProgress();
    proxy.calls.length = 0;

    const done = await handOver(dispatch, progress);

    expect(count('runRequestParcelPickup')).toBe(1);
    expect(count('getProtocol')).toBe(1);
    expect(done.pickup).toEqual({ confirmation: expect.stringMatching(/^PU/), ...dispatch.pickup });
    expect(done.carrierRef).toBe(done.pickup!.confirmation);
    const text = pdfText(done.document!);
    for (const n of numbersOf(handed)) expect(text).toContain(n);

    proxy.calls.length = 0;
    const again = await handOver(dispatch, progress);
    expect(proxy.calls).toEqual([]);
    expect(again).toEqual(done);
  });

  it('without a courier asked, gives only the protocol', async () => {
    const handed = await created(1);
    proxy.calls.length = 0;
    const done = await handOver(dispatchOf(handed, null), memoryProgress());
    expect(count('runRequestParcelPickup')).toBe(0);
    expect(done.carrierRef).toBeNull();
    expect(pdfText(done.document!)).toContain(numbersOf(handed)[0]);
  });

  it('books the courier once when the process died after Base.com answered, and says what to check instead of booking again', async () => {
    const dispatch = dispatchOf(await created(3));
    const progress = memoryProgress();
    progress.failSave((saved) => JSON.stringify(saved).includes('booked'));
    proxy.calls.length = 0;
    await expect(handOver(dispatch, progress)).rejects.toThrow(/process died/);

    const done = await handOver(dispatch, progress);
    expect(done.pickup).toEqual({ confirmation: null, ...dispatch.pickup, note: expect.stringContaining('check with Baselinker whether the courier') });
    expect(pdfText(done.document!)).toContain(numbersOf(dispatch.shipments)[0]);
    expect(count('runRequestParcelPickup')).toBe(1);
  });

  it('comes back with the courier\'s refusals in words a person understands', async () => {
    const handed = await created(1);
    const past = await failureOf(dispatchOf(handed, { date: warsawDay(Date.now() - DAY_MS), from: '10:00', to: '15:00' }));
    expect(past).toBeInstanceOf(CarrierRefusedError);
    expect(past.message).toMatch(/pickup date .* is in the past/);

    const unknown = await failureOf(dispatchOf([{ ...handed[0]!, parcels: [{ trackingNumber: '62220000000000000', carrierRef: null, weightKg: 1 }] }]));
    expect(unknown).toBeInstanceOf(CarrierRefusedError);
    expect(unknown.message).toMatch(/Package 62220000000000000 not found/);

    await handOver(dispatchOf(handed), memoryProgress());
    const twice = await failureOf(dispatchOf(handed));
    expect(twice).toBeInstanceOf(CarrierRefusedError);
    expect(twice.message).toMatch(new RegExp(`package ${numbersOf(handed)[0]} is already in pickup PU`));
  });

  it.each(['error500', 'timeout'] as const)('a %s before the booking is transient, and the retry books the courier once', async (mode) => {
    const dispatch = dispatchOf(await created(2));
    const progress = memoryProgress();
    proxy.calls.length = 0;
    await faults({ mode, count: 1, ...(mode === 'timeout' ? { ms: 5_000 } : {}) });
    expect(await failureOf(dispatch, progress)).toBeInstanceOf(CarrierTransientError);

    const done = await handOver(dispatch, progress);
    expect(done.pickup?.confirmation).toMatch(/^PU/);
    expect(count('runRequestParcelPickup')).toBe(1);
    expect(count('getProtocol')).toBe(1);
  });
});
