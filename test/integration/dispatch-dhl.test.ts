import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierTransientError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierProgress, DispatchForCarrier, PickupRequest, ShipmentToDispatch } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { demoShipment, memoryProgress, refusalOf, toDispatch, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { carrierSchemaErrors } from '../helpers/json-schema.js';

const provider = findProvider('dhl')!;
const dispatcher = provider.adapter.dispatch!;
const DAY_MS = 86_400_000;
/** A day in the station's time zone (the process's), which the pickup window is written in. */
const localDay = (offsetDays: number) => {
  const d = new Date(Date.now() + offsetDays * DAY_MS);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** MyDHL's published request schema of `POST /pickups`, from the OpenAPI kept beside the carrier's fixtures. */
const pickupRequestErrors = carrierSchemaErrors('dhl', undefined, 'supermodelIoLogisticsExpressPickupRequest');

/** The end of the day at DHL Express: nothing to close, no document of DHL's, a courier booked with `POST /pickups` when asked for. */
describe('DHL Express hand-over: the courier booked with POST /pickups', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let made = 0;

  const ctx = (progress: CarrierProgress, timeoutMs = 10_000) => ({ channelId: 'ch_dhl_dispatch', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs, progress });
  const pickupCalls = () => proxy.calls.filter((c) => c.method === 'POST' && c.path === '/dhl/pickups').length;
  const fault = (mode: string, extra: Record<string, unknown> = {}) => fetch(`${emu.url}/_emulator/dhl/faults`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode, ...extra }),
  });
  const pickupsAtDhl = async (awbs: readonly string[]) => {
    const { shipments } = (await (await fetch(`${emu.url}/_emulator/dhl/shipments`)).json()) as { shipments: { shipmentTrackingNumber: string; pickup: { dispatchConfirmationNumber: string } | null }[] };
    return awbs.map((awb) => shipments.find((s) => s.shipmentTrackingNumber === awb)?.pickup?.dispatchConfirmationNumber ?? null);
  };

  /** `n` shipments created at the emulator through the adapter, the second of two parcels, as a dispatch hands them over. */
  const created = async (n: number): Promise<ShipmentToDispatch[]> => {
    const handed: ShipmentToDispatch[] = [];
    for (let i = 0; i < n; i++) {
      const s = demoShipment(provider, `sh_dhl_${++made}`, localDay(0), i === 1 ? 2 : 1);
      handed.push(toDispatch(s, await provider.adapter.createShipment(s, settings, ctx(memoryProgress()))));
    }
    return handed;
  };
  /** Each story books at its own sender address, so DHL's consolidation of one address's pickups stays within the story. */
  const dispatchOf = (shipments: ShipmentToDispatch[], pickup: PickupRequest | null, street = 'Skladová'): DispatchForCarrier => ({
    id: `dp_dhl_${made}`, shipments, pickup, sender: { ...demoShipment(provider, 'sender', localDay(0)).sender, street },
  });

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));
  beforeEach(async () => {
    await fault('none');
  });

  it('declares only a pickup: nothing to close, no document of DHL’s', () => {
    expect(dispatcher.capabilities).toEqual({ close: false, protocol: false, pickup: true });
  });

  it('books one pickup for three shipments, and a second run with the same progress asks DHL nothing', async () => {
    const shipments = await created(3);
    const pickup = { date: localDay(1), from: '10:00', to: '16:00' };
    const progress = memoryProgress();
    proxy.calls.length = 0;

    const handed = await dispatcher.handOver(dispatchOf(shipments, pickup, 'Skladová'), settings, ctx(progress));
    expect(pickupCalls()).toBe(1);
    expect(handed.pickup).toEqual({ confirmation: expect.stringMatching(/^PRA\d{12}$/), ...pickup });
    expect(handed.carrierRef).toBe(handed.pickup!.confirmation);
    expect(handed.document).toBeUndefined();
    expect(await pickupsAtDhl(shipments.map((s) => s.providerShipmentId))).toEqual([handed.carrierRef, handed.carrierRef, handed.carrierRef]);

    const again = await dispatcher.handOver(dispatchOf(shipments, pickup, 'Skladová'), settings, ctx(progress));
    expect(again).toEqual(handed);
    expect(proxy.calls.length, 'nothing asked of DHL').toBe(1);
  });

  it('asks DHL nothing without a pickup', async () => {
    const shipments = await created(1);
    proxy.calls.length = 0;
    expect(await dispatcher.handOver(dispatchOf(shipments, null), settings, ctx(memoryProgress()))).toEqual({ carrierRef: null });
    expect(proxy.calls).toEqual([]);
  });

  it('books no second courier when the first attempt died after DHL booked it but before the number was stored', async () => {
    const shipments = await created(3);
    const progress = memoryProgress();
    progress.failSave((saved) => JSON.stringify(saved).includes('booked'));
    const pickup = { date: localDay(1), from: '09:00', to: '17:00' };

    await expect(dispatcher.handOver(dispatchOf(shipments, pickup, 'Skladová 2'), settings, ctx(progress))).rejects.toThrow(/died/);
    const [booked] = await pickupsAtDhl([shipments[0]!.providerShipmentId]);
    expect(booked).not.toBeNull();
    proxy.calls.length = 0;
    const handed = await dispatcher.handOver(dispatchOf(shipments, pickup, 'Skladová 2'), settings, ctx(progress));
    // MyDHL cannot look the pickup up: it is not asked for again, and the courier stays unconfirmed with what to check
    expect(pickupCalls()).toBe(0);
    expect(handed).toEqual({ carrierRef: null, pickup: { confirmation: null, ...pickup, note: expect.stringContaining('check with DHL Express whether the courier') } });
  });

  it('takes a server error as an outage with nothing booked, and the retry books one pickup', async () => {
    const shipments = await created(2);
    const progress = memoryProgress();
    await fault('error500', { count: 1 });
    proxy.calls.length = 0;
    const pickup = { date: localDay(2), from: '11:00', to: '15:00' };

    await expect(dispatcher.handOver(dispatchOf(shipments, pickup, 'Skladová error500'), settings, ctx(progress))).rejects.toBeInstanceOf(CarrierTransientError);
    expect(await pickupsAtDhl(shipments.map((s) => s.providerShipmentId))).toEqual([null, null]);
    const handed = await dispatcher.handOver(dispatchOf(shipments, pickup, 'Skladová error500'), settings, ctx(progress));
    expect(pickupCalls(), 'the faulted call and the retry').toBe(2);
    expect(await pickupsAtDhl(shipments.map((s) => s.providerShipmentId))).toEqual([handed.carrierRef, handed.carrierRef]);
  });

  it('never books a second courier after a booking timed out', async () => {
    const shipments = await created(2);
    const progress = memoryProgress();
    await fault('timeout', { count: 1 });
    proxy.calls.length = 0;
    const pickup = { date: localDay(2), from: '11:00', to: '15:00' };

    await expect(dispatcher.handOver(dispatchOf(shipments, pickup, 'Skladová timeout'), settings, ctx(progress, 1500))).rejects.toBeInstanceOf(CarrierTransientError);
    const handed = await dispatcher.handOver(dispatchOf(shipments, pickup, 'Skladová timeout'), settings, ctx(progress));
    expect(pickupCalls(), 'the timed-out call only').toBe(1);
    expect(handed.pickup).toMatchObject({ confirmation: null, note: expect.stringContaining('check with DHL Express') });
  });

  it('passes on DHL’s refusals of a past day, an unknown waybill and the same waybills on another day, on the dispatch’s fields', async () => {
    const shipments = await created(2);
    const past = await refusalOf(dispatcher.handOver(dispatchOf(shipments, { date: localDay(-1), from: '10:00', to: '16:00' }, 'Refused 1'), settings, ctx(memoryProgress())));
    expect(past.message).toBe(`DHL Express refused the pickup (HTTP 400): The pickup date #/plannedPickupDateAndTime '${localDay(-1)}' is in the past.`);
    expect(past.errors).toEqual({ 'pickup.date': [`DHL Express: The pickup date #/plannedPickupDateAndTime '${localDay(-1)}' is in the past.`] });

    const far = await refusalOf(dispatcher.handOver(dispatchOf(shipments, { date: localDay(12), from: '10:00', to: '16:00' }, 'Refused 1'), settings, ctx(memoryProgress())));
    expect(far.message).toContain('more than 10 days in the future');

    const unknown = [...shipments, { ...shipments[0]!, providerShipmentId: '1234567890' }];
    const stranger = await refusalOf(dispatcher.handOver(dispatchOf(unknown, { date: localDay(1), from: '10:00', to: '16:00' }, 'Refused 1'), settings, ctx(memoryProgress())));
    expect(stranger.errors).toEqual({ shipment_ids: ["DHL Express: The shipment #/shipmentDetails/2/shipmentTrackingNumber '1234567890' is not found for this account."] });

    const first = await dispatcher.handOver(dispatchOf(shipments, { date: localDay(1), from: '10:00', to: '16:00' }, 'Refused 1'), settings, ctx(memoryProgress()));
    const twice = await refusalOf(dispatcher.handOver(dispatchOf(shipments, { date: localDay(2), from: '10:00', to: '16:00' }, 'Refused 1'), settings, ctx(memoryProgress())));
    expect(twice.message).toContain(`is already in pickup ${first.carrierRef} on ${localDay(1)}`);
    expect(Object.keys(twice.errors)).toEqual(['shipment_ids']);
  });

  it('sends POST /pickups as MyDHL’s published schema declares it', async () => {
    const shipments = await created(2);
    proxy.calls.length = 0;
    await dispatcher.handOver(dispatchOf(shipments, { date: localDay(3), from: '10:00', to: '16:00' }, 'Schema 1'), settings, ctx(memoryProgress()));
    const [sent] = proxy.calls.filter((c) => c.path === '/dhl/pickups');
    const request = JSON.parse(sent!.body!) as Record<string, unknown>;
    expect(request).toMatchObject({
      plannedPickupDateAndTime: expect.stringMatching(new RegExp(`^${localDay(3)}T10:00:00 GMT[+-]\\d{2}:\\d{2}$`)), closeTime: '16:00',
      accounts: [{ typeCode: 'shipper', number: provider.demo.settings.accountNumber }],
      shipmentDetails: shipments.map((s) => ({ shipmentTrackingNumber: s.providerShipmentId, packages: s.parcels.map((p) => ({ weight: p.weightKg })) })),
    });
    expect(pickupRequestErrors(request)).toEqual([]);
    // a misspelt key fails the schema, and DHL refuses it with its validator's words
    const misspelt = { ...request, pickupDate: localDay(3) };
    expect(pickupRequestErrors(misspelt)).not.toEqual([]);
    const { apiKey, apiSecret } = provider.demo.settings as { apiKey: string; apiSecret: string };
    const answer = await fetch(`${emu.urls.dhl}/pickups`, {
      method: 'POST', body: JSON.stringify(misspelt),
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}` },
    });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({ title: 'Validation error', detail: '#: extraneous key [pickupDate] is not permitted' });
  });
});
