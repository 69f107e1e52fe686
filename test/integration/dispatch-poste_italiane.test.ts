import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError, CarrierTransientError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierProgress, DispatchedAtCarrier, DispatchForCarrier, PickupRequest, ShipmentToDispatch } from '../../src/carriers/types.js';
import { ManualClock, systemClock } from '../../src/domain/clock.js';
import { demoShipment, memoryProgress, refusalOf, toDispatch, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';

/**
 * The end of the day at Poste Italiane, driven through the adapter against its emulator: nothing to close and no
 * document of Poste's; one courier booked with `POST parcel/pickup` for the day's parcels, found again with
 * `POST parcel/pickupReport` after a lost answer instead of booked twice; Poste's refusals as refusals a person can act on.
 */

const provider = findProvider('poste_italiane')!;
const dispatcher = provider.adapter.dispatch!;
const BOOKING_PATH = '/poste_italiane/postalandlogistics/parcel/pickup';
const REPORT_PATH = '/poste_italiane/postalandlogistics/parcel/pickupReport';
/** A day in Rome, where Poste's pickup days are. */
const romeDay = (offsetDays: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date(Date.now() + offsetDays * 86_400_000));
const afternoon: PickupRequest = { date: romeDay(1), from: '14:00', to: '16:00' };

interface SentBooking { pickup: { item: Record<string, unknown>[] } }
interface HeldBooking { bookingId: string; status: string; pickupDate: string; timeSlot: string; content: unknown[]; notes: string[] }

describe('Poste Italiane hands the day\'s parcels over: one courier booked, found again after a lost answer', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let shipments: ShipmentToDispatch[];
  let made = 0;

  const ctx = (progress: CarrierProgress, timeoutMs = 10_000) => ({ channelId: 'ch_poste_dispatch', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs, progress });
  const bookingCalls = () => proxy.calls.filter((c) => c.method === 'POST' && c.path === BOOKING_PATH);
  const reportCalls = () => proxy.calls.filter((c) => c.method === 'POST' && c.path === REPORT_PATH);
  const dispatchOf = (pickup: PickupRequest | null, of = shipments): DispatchForCarrier => ({
    id: `dp_poste_${++made}`, shipments: of, pickup, sender: demoShipment(provider, 'sh_sender', romeDay(0)).sender,
  });
  const handOver = (progress: CarrierProgress, dispatch: DispatchForCarrier, timeoutMs?: number): Promise<DispatchedAtCarrier> =>
    dispatcher.handOver(dispatch, settings, ctx(progress, timeoutMs));
  const fault = async (mode: string, extra: Record<string, unknown> = {}) => {
    const res = await fetch(`${emu.url}/_emulator/poste_italiane/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode, count: 1, ...extra }) });
    expect(res.status).toBe(200);
  };
  /** The bookings Poste holds, as its portal lists them (the emulator's inspection route). */
  const heldAtPoste = async () => ((await (await fetch(`${emu.url}/_emulator/poste_italiane/pickups`)).json()) as { pickups: HeldBooking[] }).pickups;

  /** Three shipments of the demo story (1, 2 and 1 parcels of 1 kg, 1 + 2 kg and 1 kg) created at Poste's emulator by the adapter. */
  async function createThree(): Promise<ShipmentToDispatch[]> {
    const created: ShipmentToDispatch[] = [];
    for (const parcels of [1, 2, 1]) {
      const shipment = demoShipment(provider, `sh_poste_dispatch_${++made}`, romeDay(0), parcels);
      created.push(toDispatch(shipment, await provider.adapter.createShipment(shipment, settings, ctx(memoryProgress()))));
    }
    return created;
  }

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));
  beforeEach(async () => {
    await fetch(`${emu.url}/_emulator/poste_italiane/reset`, { method: 'POST' });
    shipments = await createThree();
    proxy.calls.length = 0;
  });

  it('declares only a pickup, and no shipment can be cancelled after it', () => {
    expect(dispatcher.capabilities).toEqual({ close: false, protocol: false, pickup: true });
    expect(dispatcher.cancelAfterHandOver).toBe(false);
  });

  it('books one multiple pickup for three shipments\' four parcels in the afternoon slot, and a second run asks Poste nothing', async () => {
    const progress = memoryProgress();
    const dispatch = dispatchOf(afternoon);
    const handed = await handOver(progress, dispatch);

    expect(bookingCalls()).toHaveLength(1);
    expect(reportCalls(), 'nothing to look up on a first run').toHaveLength(0);
    // Poste books half days: 14:00–16:00 lies in the afternoon slot, and the booking shows the slot's hours
    expect(handed).toEqual({ carrierRef: expect.stringMatching(/^CP\d{8}$/), pickup: { confirmation: handed.carrierRef, date: afternoon.date, from: '13:00', to: '18:00' } });
    expect(handed.document, 'packdesk\'s hand-over list serves').toBeUndefined();
    const sent = (JSON.parse(bookingCalls()[0]!.body!) as SentBooking).pickup.item;
    expect(sent).toEqual([expect.objectContaining({
      operation: 'I', bookingType: 'RIT0003', pickupDate: afternoon.date, timeSlot: 'PM', note1: dispatch.id, notify: 'N',
      content: { item: [{ containerType: 'P', tipocontText: '', quantity: 4, weight: 5, height: null, width: null, length: null }] },
      where: { item: [expect.objectContaining({ givenName: 'Magazzino Ostiense S.r.l.', streetName: 'Viale Europa', streetNumber: '190', town: 'Roma', region: 'RM', postCode: '00144', country: 'IT' })] },
    })]);
    expect(await heldAtPoste()).toEqual([expect.objectContaining({ bookingId: handed.carrierRef, status: 'PRENOTATO', pickupDate: afternoon.date, timeSlot: 'PM', notes: [dispatch.id] })]);

    proxy.calls.length = 0;
    expect(await handOver(progress, dispatch)).toEqual(handed);
    expect(proxy.calls, 'nothing asked of Poste again').toEqual([]);
  });

  it('asks Poste nothing when no courier is wanted', async () => {
    expect(await handOver(memoryProgress(), dispatchOf(null))).toEqual({ carrierRef: null });
    expect(proxy.calls).toEqual([]);
  });

  // the station's clock need not agree with Poste's: the look-up rests on the pickup's day, slot and address
  it.each([['the same clock as Poste', 0], ['a clock three days ahead of Poste\'s', 3]] as const)('finds the booking in the pickup report when the daemon died after Poste booked but before the progress was stored, with %s', async (_, daysAhead) => {
    const progress = memoryProgress();
    progress.failSave((next) => 'pickup' in next);
    const dispatch = dispatchOf(afternoon);
    const stationClock = { now: () => Date.now() + daysAhead * 86_400_000 };
    await expect(dispatcher.handOver(dispatch, settings, { ...ctx(progress), clock: stationClock })).rejects.toThrow('the process died before the progress was stored');

    const handed = await dispatcher.handOver(dispatch, settings, { ...ctx(progress), clock: stationClock });
    expect(bookingCalls(), 'one booking in all').toHaveLength(1);
    expect(reportCalls(), 'looked up once').toHaveLength(1);
    const held = await heldAtPoste();
    expect(held.map((b) => b.bookingId)).toEqual([handed.carrierRef]);
    expect(handed.pickup).toEqual({ confirmation: held[0]!.bookingId, date: afternoon.date, from: '13:00', to: '18:00' });
  });

  it('finds the booking again when its answer came after the time limit', async () => {
    const progress = memoryProgress();
    const dispatch = dispatchOf(afternoon);
    // Poste takes the booking 2.5 s late: packdesk stopped waiting after 1 s
    await fault('latency', { ms: 2_500 });
    await expect(handOver(progress, dispatch, 1_000)).rejects.toBeInstanceOf(CarrierTransientError);
    await vi.waitFor(async () => expect(await heldAtPoste()).toHaveLength(1), { timeout: 10_000, interval: 100 });

    const handed = await handOver(progress, dispatch);
    expect(bookingCalls(), 'the late booking only').toHaveLength(1);
    expect(reportCalls()).toHaveLength(1);
    expect((await heldAtPoste()).map((b) => b.bookingId)).toEqual([handed.carrierRef]);
  });

  it.each(['error500', 'timeout'] as const)('takes %s as an outage, and the retry books one courier', async (mode) => {
    const progress = memoryProgress();
    const dispatch = dispatchOf(afternoon);
    await fault(mode);
    const first = await handOver(progress, dispatch, 1_000).then(() => undefined, (err: unknown) => err);
    expect(first).toBeInstanceOf(CarrierTransientError);
    expect((first as CarrierTransientError).carrierStatus).toBe(mode === 'error500' ? 500 : undefined);

    const handed = await handOver(progress, dispatch);
    expect(handed.carrierRef).toMatch(/^CP\d{8}$/);
    expect(reportCalls(), 'the retry looks for a booking first').toHaveLength(1);
    expect(bookingCalls(), 'the failed call and the retry').toHaveLength(2);
    expect((await heldAtPoste()).map((b) => b.bookingId), 'one booking at Poste').toEqual([handed.carrierRef]);
  });

  it('passes on Poste\'s refusal of a past day, saying so', async () => {
    const yesterday = romeDay(-1);
    const refusal = await refusalOf(handOver(memoryProgress(), dispatchOf({ date: yesterday, from: '09:00', to: '12:00' })));
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe(`Poste Italiane refused the pickup: the pickup day ${yesterday} must be in the future ("PICKUP_DATE is mandatory in the future", error E0038)`);
    expect(refusal.errors).toEqual({ 'pickup.date': [`Poste Italiane: the pickup day ${yesterday} must be in the future ("PICKUP_DATE is mandatory in the future", error E0038)`] });
    expect(await heldAtPoste()).toEqual([]);
  });

  it('passes on Poste\'s refusal of a second courier for the same address, day and slot', async () => {
    await handOver(memoryProgress(), dispatchOf(afternoon));
    const refusal = await refusalOf(handOver(memoryProgress(), dispatchOf({ ...afternoon, from: '15:00', to: '17:00' })));
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe(`Poste Italiane refused the pickup: a courier is already booked at this address on ${afternoon.date} (afternoon 13:00–18:00) ("there is already a pickup for the same data", error E0029)`);
    expect(Object.keys(refusal.errors)).toEqual(['pickup']);
    expect(await heldAtPoste()).toHaveLength(1);
  });

  it('refuses without asking Poste a window outside its pickup hours, and a channel without the pickup province', async () => {
    const evening = await refusalOf(handOver(memoryProgress(), dispatchOf({ date: afternoon.date, from: '18:30', to: '20:00' })));
    expect(evening).toBeInstanceOf(CarrierRefusedError);
    expect(evening.message).toBe('Poste Italiane picks up between 09:00 and 18:00 (morning 09:00–13:00, afternoon 13:00–18:00), not 18:30–20:00');
    expect(Object.keys(evening.errors)).toEqual(['pickup.from', 'pickup.to']);

    const { pickupProvince: _, ...withoutProvince } = settings;
    const noProvince = await refusalOf(dispatcher.handOver(dispatchOf(afternoon), withoutProvince, ctx(memoryProgress())));
    expect(noProvince.errors).toEqual({ shipping_channel_id: ['Poste Italiane needs the province of the pickup address to book a courier: set the channel\'s pickupProvince (e.g. RM)'] });
    expect(proxy.calls).toEqual([]);
  });

  describe('the emulated pickup calls, as Poste answers them', () => {
    const session = async () => {
      const { clientId, secretId } = provider.demo.settings as { clientId: string; secretId: string };
      const res = await fetch(`${emu.urls.poste_italiane}/user/sessions`, {
        method: 'POST', headers: { 'content-type': 'application/json', poste_clientid: clientId },
        body: JSON.stringify({ clientId, secretId, scope: 'api://packdesk/.default', grantType: 'client_credentials' }),
      });
      return { poste_clientid: clientId, authorization: ((await res.json()) as { access_token: string }).access_token };
    };
    const call = async (path: string, body: string) =>
      fetch(`${emu.urls.poste_italiane}/postalandlogistics/parcel/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(await session()) }, body });

    it('refuses a malformed body at the gateway, a misspelt field as an error, and needs a session', async () => {
      const malformed = await call('pickup', '{"pickup": {');
      expect(malformed.status).toBe(400);
      expect(await malformed.json()).toMatchObject({ statusCode: 400, message: expect.stringContaining('invalid JSON') });

      const sent = JSON.parse(JSON.stringify((await captureBooking()).pickup.item[0])) as Record<string, unknown>;
      expect(sent.pickupDate).toBe(afternoon.date);
      const misspelt: Record<string, unknown> = { ...sent, pickupdate: sent.pickupDate };
      delete misspelt.pickupDate;
      const answer = await call('pickup', JSON.stringify({ pickup: { item: [misspelt] } }));
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ bookingId: '', result: { item: [{ result: 'KO', errorCode: 'E0999', errorDescription: 'Campo non previsto: pickup.item[].pickupdate' }] } });

      const anonymous = await fetch(`${emu.urls.poste_italiane}/postalandlogistics/parcel/pickupReport`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(anonymous.status).toBe(401);
    });

    it('cancels a booking by its booking and pickup ids once, and reports ranges of 10 days at most', async () => {
      const handed = await handOver(memoryProgress(), dispatchOf(afternoon));
      const report = async (dateFrom: string, dateTo: string) =>
        (await call('pickupReport', JSON.stringify({ pickupFilter: { bookingType: 'RIT0003', dateFrom, dateTo } }))).json() as Promise<Record<string, unknown>>;
      const listed = await report(romeDay(0), afternoon.date);
      expect(listed).toMatchObject({ result: 'OK', pickup: { item: [{ bookingId: handed.carrierRef, status: 'PRENOTATO', timeSlot: 'PM', pickupDate: afternoon.date, isEditable: '1' }] } });
      const { pickupId } = (listed.pickup as { item: { pickupId: string }[] }).item[0]!;

      const cancel = () => call('pickup', JSON.stringify({ pickup: { item: [{ operation: 'A', bookingType: 'RIT0003', bookingId: handed.carrierRef, pickupId }] } })).then((r) => r.json());
      expect(await cancel()).toEqual({ bookingId: '', result: { item: [{ result: 'OK', errorCode: '', errorDescription: '' }] } });
      expect(await cancel()).toEqual({ bookingId: '', result: { item: [{ result: 'KO', errorCode: 'E0033', errorDescription: 'Cancellation not possible' }] } });
      expect(await heldAtPoste()).toEqual([expect.objectContaining({ bookingId: handed.carrierRef, status: 'RITIRO_ANNULLATO' })]);

      expect(await report(romeDay(0), romeDay(10))).toEqual({ result: 'KO', errorCode: 'E0004', errorDescription: 'Range date troppo ampio (limitare a 10 gg)' });
      expect(await report(romeDay(5), romeDay(9))).toEqual({ result: 'KO', errorCode: 'E0003', errorDescription: 'Per i parametri inseriti nessun dato estratto' });
    });

    /** The booking body the adapter sends, as the proxy saw it. */
    async function captureBooking(): Promise<SentBooking> {
      await handOver(memoryProgress(), dispatchOf(afternoon));
      return JSON.parse(bookingCalls().at(-1)!.body!) as SentBooking;
    }
  });
});

describe('Poste Italiane books today only a slot that has not begun', () => {
  // 10:30 in Rome on 26 November 2026 (CET, UTC+1)
  const clock = new ManualClock(Date.parse('2026-11-26T09:30:00Z'));
  let emu: RunningEmulators;

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['poste_italiane'], port: 0, clock });
  });
  afterAll(async () => {
    await emu?.close();
  });

  it('refuses the morning slot under way, and books the afternoon', async () => {
    const settings = { ...provider.demo.settings, baseUrl: emu.urls.poste_italiane! };
    const ctx = { channelId: 'ch_poste_today', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000, progress: memoryProgress() };
    const dispatch = (from: string, to: string): DispatchForCarrier => ({
      id: `dp_poste_today_${from}`, shipments: [{ providerShipmentId: '3012345678901', reference: null, cashOnDelivery: null, parcels: [{ trackingNumber: '3012345678901', carrierRef: null, weightKg: 2 }] }],
      pickup: { date: '2026-11-26', from, to }, sender: demoShipment(provider, 'sh_sender', '2026-11-26').sender,
    });

    const refusal = await dispatcher.handOver(dispatch('10:00', '12:00'), settings, ctx).then(() => undefined, (err: unknown) => err as CarrierRefusedError);
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal!.message).toBe('Poste Italiane refused the pickup: the morning 09:00–13:00 slot can no longer be booked for 2026-11-26 ("Time slot not compatible with today\'s date", error E0035)');
    expect(Object.keys(refusal!.errors)).toEqual(['pickup.from']);

    const handed = await dispatcher.handOver(dispatch('14:00', '17:00'), settings, { ...ctx, progress: memoryProgress() });
    expect(handed.pickup).toEqual({ confirmation: handed.carrierRef, date: '2026-11-26', from: '13:00', to: '18:00' });
  });
});
