import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError, CarrierTransientError } from '../../src/carriers/errors.js';
import { parseBatch, parsePickup } from '../../src/carriers/onedelivery/response.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierProgress, DispatchedAtCarrier, DispatchForCarrier, PickupRequest, ShipmentToDispatch } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { callOneEmulator, demoShipment, memoryProgress, pdfText, toDispatch, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';

/**
 * The end of the day at One by Allegro (WE|DO), driven through the adapter against its emulator: the packages still
 * waiting are sent for processing in one batch (`POST /batch`), whose pickup protocol is the document, and a courier
 * is ordered with `POST /pickup` in the window One sets — each exactly once, whatever dies on the way.
 */

const provider = findProvider('onedelivery')!;
const dispatcher = provider.adapter.dispatch!;
const DAY_MS = 86_400_000;
/** A day in Prague, where One's dates are. */
const pragueDay = (offsetDays: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Prague' }).format(new Date(Date.now() + offsetDays * DAY_MS));

interface HeldPackage { orderNumber: string; sentForProcessing: boolean; batch: string | null }

describe('end of the day at One by Allegro: the day\'s batch, its pickup protocol and a courier', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let made = 0;
  const warnings: string[] = [];
  const ctx = (progress: CarrierProgress, timeoutMs = 10_000) => ({
    channelId: 'ch_onedelivery_dispatch', clock: systemClock, timeoutMs, progress,
    log: pino({ level: 'warn' }, { write: (line: string) => warnings.push((JSON.parse(line) as { msg: string }).msg) }),
  });

  const calls = () => proxy.calls.map((c) => `${c.method} ${c.path}`);
  const count = (call: string) => calls().filter((c) => c === call).length;
  const fault = async (mode: string, extra: Record<string, unknown> = {}) => {
    const res = await fetch(`${emu.url}/_emulator/onedelivery/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode, ...extra }) });
    expect(res.status).toBe(200);
  };
  const one = (method: string, path: string, body?: unknown) => callOneEmulator(emu.urls.onedelivery!, method, path, body);
  const held = (of: ShipmentToDispatch[]) => {
    const all = emu.emulator('onedelivery').shipments() as unknown as HeldPackage[];
    return of.map((s) => all.find((p) => p.orderNumber === s.providerShipmentId)!);
  };
  /** Shipments of 1, 2, 1 … parcels created at One's emulator by the adapter, as a dispatch hands them over. */
  const created = async (n: number, channel = settings): Promise<ShipmentToDispatch[]> => {
    const handed: ShipmentToDispatch[] = [];
    for (let i = 0; i < n; i++) {
      const s = demoShipment(provider, `sh_one_dispatch_${++made}`, pragueDay(0), i === 1 ? 2 : 1);
      handed.push(toDispatch(s, await provider.adapter.createShipment(s, channel, ctx(memoryProgress()))));
    }
    return handed;
  };
  const dispatchOf = (shipments: ShipmentToDispatch[], pickup: PickupRequest | null = null): DispatchForCarrier => ({
    id: `dp_one_${++made}`, shipments, pickup, sender: demoShipment(provider, 'sender', pragueDay(0)).sender,
  });
  const handOver = (dispatch: DispatchForCarrier, progress: CarrierProgress, timeoutMs?: number, channel = settings) =>
    dispatcher.handOver(dispatch, channel, ctx(progress, timeoutMs));
  const failureOf = (promise: Promise<DispatchedAtCarrier>) => promise.then(() => { throw new Error('One took it'); }, (err: unknown) => err as Error);
  const numbersOf = (shipments: ShipmentToDispatch[]) => shipments.flatMap((s) => s.parcels.map((p) => p.trackingNumber));
  /** A progress that runs `beforeSaving` once, when a save matches `when`: a step of the test just before the carrier call that save stands for. */
  const hooked = (progress: CarrierProgress, when: (saved: Record<string, unknown>) => boolean, beforeSaving: () => Promise<unknown>): CarrierProgress => {
    let done = false;
    return {
      load: () => progress.load(),
      save: async (saved) => {
        if (!done && when(saved)) {
          done = true;
          await beforeSaving();
        }
        return progress.save(saved);
      },
    };
  };
  const markingTheBatch = (saved: Record<string, unknown>) => saved.sendingSince !== undefined;
  const markingThePickup = (saved: Record<string, unknown>) => (saved.pickup as { sendingSince?: number } | undefined)?.sendingSince !== undefined;

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));
  beforeEach(async () => {
    await fault('none');
    warnings.length = 0;
  });

  it('declares a close, a protocol and a courier, and no cancel once handed over', () => {
    expect(dispatcher.capabilities).toEqual({ close: true, protocol: true, pickup: true });
    expect(dispatcher.cancelAfterHandOver).toBe(false);
  });

  it('sends three shipments in one batch, orders one courier in One\'s window, gives the batch\'s protocol naming every parcel, and a second run sends nothing', async () => {
    const shipments = await created(3);
    const orderNumbers = shipments.map((s) => s.providerShipmentId);
    const asked = { date: pragueDay(1), from: '09:00', to: '11:00' };
    const dispatch = dispatchOf(shipments, asked);
    const progress = memoryProgress();
    proxy.calls.length = 0;

    const handed = await handOver(dispatch, progress);

    expect(calls()).toEqual([
      'GET /onedelivery/package', 'POST /onedelivery/pickup', 'POST /onedelivery/batch', `GET /onedelivery/batch/${handed.carrierRef}/manifest.pdf`,
    ]);
    expect(JSON.parse(proxy.calls[1]!.body!)).toEqual({ pickup_date: asked.date });
    expect(JSON.parse(proxy.calls[2]!.body!)).toEqual({ articles: orderNumbers });
    expect(handed.carrierRef).toMatch(/^IT-46F-\d{14}$/);
    // One sets the window: the courier comes when One answered, not when it was wished
    expect(handed.pickup).toEqual({ confirmation: expect.stringMatching(/^I\d+$/), date: asked.date, from: '13:00', to: '16:00' });
    expect(held(shipments)).toEqual(shipments.map((s) => expect.objectContaining({ orderNumber: s.providerShipmentId, sentForProcessing: true, batch: handed.carrierRef })));

    const protocol = Buffer.from(handed.document!);
    expect(protocol.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(protocol);
    expect(text).toContain(`Dávka ${handed.carrierRef}`);
    for (const n of [...numbersOf(shipments), ...orderNumbers]) expect(text).toContain(n);
    expect(text).toContain('Balíků: 4');

    const batch = (await (await one('GET', `batch/${handed.carrierRef}`)).json()) as { packages: string[]; transport_date: string };
    expect(batch.packages).toEqual(orderNumbers);
    expect(batch.transport_date).toMatch(/^\d{4}-\d{2}-\d{2} 17:00:00$/);

    proxy.calls.length = 0;
    const again = await handOver(dispatch, progress);
    expect(calls(), 'only the protocol is read again').toEqual([`GET /onedelivery/batch/${handed.carrierRef}/manifest.pdf`]);
    expect({ ...again, document: undefined }).toEqual({ ...handed, document: undefined });
  });

  it('sends the packages once when the first attempt died after One made the batch but before the progress was stored', async () => {
    const shipments = await created(2);
    const progress = memoryProgress();
    progress.failSave((saved) => 'closed' in saved);
    const dispatch = dispatchOf(shipments);
    proxy.calls.length = 0;

    await expect(handOver(dispatch, progress)).rejects.toThrow('the process died');
    const [batch] = new Set(held(shipments).map((p) => p.batch));
    expect(batch).toMatch(/^IT-46F-/);
    const handed = await handOver(dispatch, progress);

    expect(count('POST /onedelivery/batch'), 'one batch in all').toBe(1);
    expect(held(shipments).map((p) => p.batch)).toEqual([batch, batch]);
    // the lost answer took the batch's number with it: packdesk's hand-over list serves
    expect(handed).toEqual({ carrierRef: null });
    expect(warnings).toEqual([expect.stringContaining('its protocol is in One\'s app')]);
  });

  it.each([
    ['error500', { count: 1 }],
    ['timeout', { count: 1, ms: 300 }],
  ])('takes %s at the batch as worth another try, and the retry sends the packages in one batch', async (mode, extra) => {
    const shipments = await created(2);
    const dispatch = dispatchOf(shipments);
    // the fault meets POST /batch: it is armed as the send is marked, just before it goes out
    const progress = memoryProgress();
    const faulted = hooked(progress, markingTheBatch, () => fault(mode, extra));
    proxy.calls.length = 0;

    const first = await failureOf(handOver(dispatch, faulted, 1500));
    expect(first).toBeInstanceOf(CarrierTransientError);
    expect(calls().at(-1)).toBe('POST /onedelivery/batch');
    expect(held(shipments).map((p) => p.sentForProcessing)).toEqual([false, false]);
    const handed = await handOver(dispatch, faulted);

    expect(count('POST /onedelivery/batch'), 'the faulted call never reached One').toBe(2);
    expect(held(shipments).map((p) => p.batch)).toEqual([handed.carrierRef, handed.carrierRef]);
    for (const n of numbersOf(shipments)) expect(pdfText(handed.document!)).toContain(n);
  });

  it('orders the courier again after an error 500, but never after a booking whose answer was lost', async () => {
    const asked = { date: pragueDay(1), from: '10:00', to: '12:00' };
    const [first] = await created(1);
    const failing = memoryProgress();
    const dispatch = dispatchOf([first!], asked);
    proxy.calls.length = 0;
    await expect(handOver(dispatch, hooked(failing, markingThePickup, () => fault('error500', { count: 1 })))).rejects.toBeInstanceOf(CarrierTransientError);
    const booked = await handOver(dispatch, failing);
    expect(count('POST /onedelivery/pickup')).toBe(2);
    expect(booked.pickup).toEqual({ confirmation: expect.stringMatching(/^I\d+$/), date: asked.date, from: '13:00', to: '16:00' });

    const [second] = await created(1);
    const lost = memoryProgress();
    const lostDispatch = dispatchOf([second!], asked);
    proxy.calls.length = 0;
    await expect(handOver(lostDispatch, hooked(lost, markingThePickup, () => fault('timeout', { count: 1, ms: 300 })), 1500)).rejects.toBeInstanceOf(CarrierTransientError);
    const unconfirmed = await handOver(lostDispatch, lost);

    expect(count('POST /onedelivery/pickup'), 'the lost booking only').toBe(1);
    // One lists no pickups: no confirmation, and what to check; the batch still goes out
    expect(unconfirmed.pickup).toEqual({ confirmation: null, ...asked, note: expect.stringContaining('check with One by Allegro whether the courier') });
    expect(count('POST /onedelivery/batch')).toBe(1);
    expect(unconfirmed.carrierRef).toBe(held([second!])[0]!.batch);
  });

  it('refuses a courier for a past day with One\'s reason, and leaves the packages unsent until the day is fixed', async () => {
    const shipments = await created(1);
    const yesterday = pragueDay(-1);
    const progress = memoryProgress();
    proxy.calls.length = 0;

    const refusal = await failureOf(handOver(dispatchOf(shipments, { date: yesterday, from: '10:00', to: '12:00' }), progress));

    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe(`One by Allegro refused the request (HTTP 403): Pickup date in the past — pickup_date: ${yesterday} is in the past`);
    expect((refusal as CarrierRefusedError).errors).toEqual({ 'pickup.date': [`One by Allegro: ${yesterday} is in the past`] });
    expect(count('POST /onedelivery/batch')).toBe(0);
    expect(held(shipments)[0]!.sentForProcessing).toBe(false);
    expect(progress.state).toEqual({});

    const fixed = await handOver(dispatchOf(shipments, { date: pragueDay(1), from: '10:00', to: '12:00' }), progress);
    expect(fixed.pickup?.confirmation).toMatch(/^I\d+$/);
    expect(held(shipments)[0]!.batch).toBe(fixed.carrierRef);
  });

  it('refuses a package One does not know, naming it, and books and sends nothing', async () => {
    const [real] = await created(1);
    const unknown: ShipmentToDispatch = { ...real!, providerShipmentId: '46F99999999', reference: 'NOT-AT-ONE' };
    proxy.calls.length = 0;

    const refusal = await failureOf(handOver(dispatchOf([real!, unknown], { date: pragueDay(1), from: '10:00', to: '12:00' }), memoryProgress()));

    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe('One by Allegro does not know package 46F99999999 (shipment NOT-AT-ONE): deleted at One?');
    expect((refusal as CarrierRefusedError).errors).toEqual({ shipment_ids: [refusal.message] });
    expect(calls().filter((c) => c.startsWith('POST'))).toEqual([]);
    expect(held([real!])[0]!.sentForProcessing).toBe(false);
  });

  it('passes on One\'s refusal of a package another batch took in the meantime, naming the batch', async () => {
    const shipments = await created(2);
    const progress = memoryProgress();
    // someone sends the second package in One's app between our read and our batch
    const raced = hooked(progress, markingTheBatch, () => one('POST', 'batch', { articles: [shipments[1]!.providerShipmentId] }));

    const refusal = await failureOf(handOver(dispatchOf(shipments), raced));

    const other = held(shipments)[1]!.batch;
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe(
      `One by Allegro refused the request (HTTP 403): Package already sent for processing — articles: package ${shipments[1]!.providerShipmentId} is in batch ${other} already`,
    );
    expect((refusal as CarrierRefusedError).errors).toEqual({ shipment_ids: [`One by Allegro: package ${shipments[1]!.providerShipmentId} is in batch ${other} already`] });
    expect(held(shipments)[0]!.sentForProcessing).toBe(false);
    expect(progress.state, 'the refused send is no longer marked').toEqual({});

    // run again: only the package still waiting goes, and no protocol of One's covers both
    const handed = await handOver(dispatchOf(shipments), progress);
    expect(held(shipments).map((p) => p.batch)).toEqual([handed.carrierRef, other]);
    expect(handed.document).toBeUndefined();
  });

  it('sends nothing for a channel that sent each package at creation: packdesk\'s hand-over list is the document', async () => {
    const autoSent = { ...settings, sendForProcessing: true };
    const shipments = await created(2, autoSent);
    expect(held(shipments).map((p) => p.sentForProcessing)).toEqual([true, true]);
    proxy.calls.length = 0;

    const handed = await handOver(dispatchOf(shipments), memoryProgress(), undefined, autoSent);

    expect(handed).toEqual({ carrierRef: null });
    expect(calls().filter((c) => c.startsWith('POST'))).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('answers the hand-over\'s calls as One does: misspelt or missing fields, a package batched twice or unknown, a past day, an unknown batch', async () => {
    const [shipment] = await created(1);
    const orderNumber = shipment!.providerShipmentId;

    const misspelt = await one('POST', 'batch', { packages: [orderNumber] });
    expect(misspelt.status).toBe(400);
    expect(await misspelt.json()).toEqual({ message: 'Invalid batch', detail: ['packages: unknown field'] });
    const unknown = await one('POST', 'batch', { articles: ['46F99999999'] });
    expect(unknown.status).toBe(403);
    expect(await unknown.json()).toEqual({ message: 'Package not found', detail: ['articles: package 46F99999999 not found'] });

    expect((await (await one('GET', 'package?sent=0')).json() as { order_number: string }[]).map((p) => p.order_number)).toContain(orderNumber);
    const sent = await one('POST', 'batch', { articles: [orderNumber] });
    expect(sent.status).toBe(200);
    const { batch } = (await sent.json()) as { batch: { number: string } };
    const twice = await one('POST', 'batch', { articles: [orderNumber] });
    expect(twice.status).toBe(403);
    expect(await twice.json()).toEqual({ message: 'Package already sent for processing', detail: [`articles: package ${orderNumber} is in batch ${batch.number} already`] });
    expect((await (await one('GET', 'package?sent=0')).json() as { order_number: string }[]).map((p) => p.order_number)).not.toContain(orderNumber);
    expect((await (await one('GET', 'package?sent=1')).json() as { order_number: string }[]).map((p) => p.order_number)).toContain(orderNumber);

    const wrongField = await one('POST', 'pickup', { date: pragueDay(1) });
    expect(wrongField.status).toBe(400);
    expect(await wrongField.json()).toEqual({ message: 'Invalid pickup', detail: ['date: unknown field', 'pickup_date: a day yyyy-MM-dd required'] });
    const noSuchDay = await one('POST', 'pickup', { pickup_date: '2030-02-30' });
    expect(noSuchDay.status).toBe(400);
    const past = await one('POST', 'pickup', { pickup_date: pragueDay(-1) });
    expect(past.status).toBe(403);
    expect(await past.json()).toEqual({ message: 'Pickup date in the past', detail: [`pickup_date: ${pragueDay(-1)} is in the past`] });

    const noBatch = await one('GET', 'batch/IT-46F-20000101000000/manifest.pdf');
    expect(noBatch.status).toBe(404);
    expect(await noBatch.json()).toEqual({ message: 'Batch not found', detail: ['number: IT-46F-20000101000000'] });
    const labels = await one('GET', `batch/${batch.number}/labels.pdf`);
    expect(labels.headers.get('content-type')).toBe('application/pdf');
  });

  it('tracks nothing past "data received" until a batch sends the package, and the package once it is sent', async () => {
    const shipments = await created(1);
    const [n] = numbersOf(shipments) as [string];
    const advance = () => fetch(`${emu.url}/_emulator/onedelivery/parcels/${encodeURIComponent(n)}/advance`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: 'delivered' }),
    });

    const refused = await advance();
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toContain('is not sent for processing');
    const [waiting] = await provider.adapter.track([{ trackingNumber: n }], settings, ctx(memoryProgress()));
    expect(waiting!.found && waiting!.events.map((e) => e.status)).toEqual(['created']);

    await handOver(dispatchOf(shipments), memoryProgress());
    expect((await advance()).status).toBe(200);
    const [tracked] = await provider.adapter.track([{ trackingNumber: n }], settings, ctx(memoryProgress()));
    expect(tracked!.found && tracked!.events.at(-1)!.status).toBe('delivered');
  });
});

describe('One\'s hand-over answers as nuty456/WeDoApi\'s README shows them', () => {
  it('reads the batch of `POST /batch`, and names a package whose article code is not "0"', () => {
    const answer = {
      articles: [{ code: '0', order_number: '46F00000001' }],
      batch: { protocol_url: 'http://zasilky3.intime.cz/test/protocol/20230412MYZUkf.html', id: '51225', number: 'IT-46F-20230412212520' },
    };
    expect(parseBatch(answer, ['46F00000001'])).toEqual({ number: 'IT-46F-20230412212520', notTaken: [] });
    expect(parseBatch({ ...answer, articles: [...answer.articles, { code: '3', order_number: '46F00000002' }] }, ['46F00000001', '46F00000002']).notTaken)
      .toEqual([{ orderNumber: '46F00000002', code: '3' }]);
    expect(() => parseBatch({ articles: answer.articles }, ['46F00000001'])).toThrow(CarrierTransientError);
  });

  it('reads the courier of `POST /pickup` in One\'s window, the asked end standing for one One left out', () => {
    const answer = {
      pickup_address: { street: 'Testovaci', building_number: '41', city: 'As', postal_code: '11100', country_code: 'CZ' },
      id: 'I27682', pickup_type: 'IRREGULAR', pickup_from: '14:24:35', pickup_to: null, created: '2023-08-07T14:24:35', is_deletable: true,
    };
    expect(parsePickup(answer, { date: '2023-09-14', from: '10:00', to: '16:00' })).toEqual({ confirmation: 'I27682', date: '2023-09-14', from: '14:24', to: '16:00' });
    expect(() => parsePickup({ ...answer, id: undefined }, { date: '2023-09-14', from: '10:00', to: '16:00' })).toThrow(CarrierTransientError);
  });
});
