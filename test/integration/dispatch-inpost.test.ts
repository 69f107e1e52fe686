import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierProgress, DispatchedAtCarrier, DispatchForCarrier, PickupRequest, ShipmentToDispatch } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { demoShipment, memoryProgress, nextWorkingDay, pdfText, toDispatch, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';

/**
 * The end of the day at InPost, driven through the adapter against its emulator: the day's shipments sent by
 * `dispatch_order` wait for InPost's courier until a dispatch order names them (`POST …/dispatch_orders`), whose
 * printout is the hand-over document — ordered exactly once, whatever dies on the way.
 */

const provider = findProvider('inpost')!;
const dispatcher = provider.adapter.dispatch!;
const ORDERS = '/inpost/v1/organizations/1234/dispatch_orders';

interface HeldShipment { shipmentId: string; dispatchOrder: number | null }

describe('end of the day at InPost: one dispatch order for the day\'s shipments, and its printout', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let made = 0;

  const ctx = (progress: CarrierProgress) => ({ channelId: 'ch_inpost_dispatch', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000, progress });
  const calls = () => proxy.calls.map((c) => `${c.method} ${c.path}`);
  const count = (call: string) => calls().filter((c) => c === call).length;
  const held = (of: ShipmentToDispatch[]) => {
    const all = emu.emulator('inpost').shipments() as unknown as HeldShipment[];
    return of.map((s) => all.find((h) => h.shipmentId === s.providerShipmentId)!);
  };
  /** Shipments of 1, 2, 1 … parcels created at InPost's emulator by the adapter, as a dispatch hands them over. */
  const created = async (n: number, channel = settings): Promise<ShipmentToDispatch[]> => {
    const handed: ShipmentToDispatch[] = [];
    for (let i = 0; i < n; i++) {
      const s = demoShipment(provider, `sh_inpost_dispatch_${++made}`, new Date().toISOString().slice(0, 10), i === 1 ? 2 : 1);
      handed.push(toDispatch(s, await provider.adapter.createShipment(s, channel, ctx(memoryProgress()))));
    }
    return handed;
  };
  const dispatchOf = (shipments: ShipmentToDispatch[], pickup: PickupRequest | null = null): DispatchForCarrier => ({
    id: `dp_inpost_${++made}`, shipments, pickup, sender: demoShipment(provider, 'sender', '2026-11-26').sender,
  });
  const handOver = (dispatch: DispatchForCarrier, progress: CarrierProgress, channel = settings) => dispatcher.handOver(dispatch, channel, ctx(progress));
  const failureOf = (promise: Promise<DispatchedAtCarrier>) => promise.then(() => { throw new Error('InPost took it'); }, (err: unknown) => err as Error);
  const numbersOf = (shipments: ShipmentToDispatch[]) => shipments.flatMap((s) => s.parcels.map((p) => p.trackingNumber));

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('declares a close, a protocol and a courier, and no cancel once handed over', () => {
    expect(dispatcher.capabilities).toEqual({ close: true, protocol: true, pickup: true });
    expect(dispatcher.cancelAfterHandOver).toBe(false);
  });

  it('orders one courier for three shipments\' four parcels, gives the order\'s printout naming every parcel, and a second run orders nothing', async () => {
    const shipments = await created(3);
    const asked = { date: nextWorkingDay(), from: '10:00', to: '14:00' };
    const progress = memoryProgress();
    proxy.calls.length = 0;

    const handed = await handOver(dispatchOf(shipments, asked), progress);

    expect(calls()).toEqual([`POST ${ORDERS}`, `GET ${ORDERS}/printouts`]);
    const sent = JSON.parse(proxy.calls[0]!.body!) as Record<string, unknown>;
    expect(sent).toEqual({
      shipments: shipments.map((s) => Number(s.providerShipmentId)),
      address: { street: 'Puławska', building_number: '145', city: 'Warszawa', post_code: '02-715', country_code: 'PL' },
      name: 'Magazyn Mokotów sp. z o.o.', phone: '601234567', email: 'magazyn@example.pl',
      comment: `${asked.date} ${asked.from}–${asked.to}`,
    });
    expect(handed.carrierRef).toMatch(/^\d+$/);
    // ShipX takes no window: the wish travels as the comment, and the booking says so
    expect(handed.pickup).toMatchObject({ confirmation: handed.carrierRef, ...asked, note: expect.stringContaining('no day or window') });
    const document = pdfText(handed.document!);
    for (const n of numbersOf(shipments)) expect(document).toContain(n);
    expect(held(shipments).map((h) => String(h.dispatchOrder))).toEqual(shipments.map(() => handed.carrierRef));

    proxy.calls.length = 0;
    const again = await handOver(dispatchOf(shipments, asked), progress);
    expect(again.carrierRef).toBe(handed.carrierRef);
    expect(count(`POST ${ORDERS}`)).toBe(0);
  });

  it('finds the dispatch order a crash left unrecorded by its shipment, instead of ordering a second courier', async () => {
    const shipments = await created(2);
    const progress = memoryProgress();
    // the process dies after ShipX made the order and before its id was stored
    progress.failSave((saved) => saved.order !== undefined);
    await expect(handOver(dispatchOf(shipments), progress)).rejects.toThrow(/process died/);
    expect(progress.state).toHaveProperty('sendingSince');
    proxy.calls.length = 0;

    const handed = await handOver(dispatchOf(shipments), progress);

    expect(calls()).toEqual([`GET ${ORDERS}`, `GET ${ORDERS}/printouts`]);
    expect(held(shipments).map((h) => String(h.dispatchOrder))).toEqual([handed.carrierRef, handed.carrierRef]);
  });

  it('refuses a shipment InPost does not know on shipment_ids, and leaves nothing that could have been ordered', async () => {
    const [real] = await created(1);
    const ghost: ShipmentToDispatch = { ...real!, providerShipmentId: '99999999' };
    const progress = memoryProgress();

    const refused = await failureOf(handOver(dispatchOf([real!, ghost]), progress));

    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect((refused as CarrierRefusedError).errors).toEqual({ shipment_ids: ['InPost: shipments id_99999999_does_not_exist'] });
    expect(progress.state).toEqual({});
    expect(held([real!])[0]!.dispatchOrder).toBeNull();
  });

  it('orders no courier for a channel whose parcels are handed in at a PaczkoPunkt, unless the dispatch asks for one', async () => {
    const pop = { ...settings, sendingMethod: 'pop' };
    const shipments = await created(1, pop);
    proxy.calls.length = 0;
    expect(await handOver(dispatchOf(shipments), memoryProgress(), pop)).toEqual({ carrierRef: null });
    expect(calls()).toEqual([]);
  });
});
