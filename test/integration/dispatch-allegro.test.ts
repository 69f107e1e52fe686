import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierTransientError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierProgress, DispatchForCarrier, PickupRequest, ShipmentToDispatch } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { allegroAccessToken, demoShipment, memoryProgress, pdfText, refusalOf, toDispatch, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { carrierSchemaErrors } from '../helpers/json-schema.js';

const provider = findProvider('allegro')!;
const dispatcher = provider.adapter.dispatch!;
const DAY_MS = 86_400_000;
/** `offsetDays` days from today, a later day counted Monday to Friday: the emulated Allegro carriers collect on working days. */
const localDay = (offsetDays: number) => {
  let d = new Date(Date.now() + Math.min(offsetDays, 0) * DAY_MS);
  for (let left = offsetDays; left > 0;) {
    d = new Date(d.getTime() + DAY_MS);
    if (![0, 6].includes(d.getDay())) left--;
  }
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** Allegro's published request schemas, from the OpenAPI components kept beside the carrier's fixtures. */
const schemaErrors = (request: unknown, component: string) => carrierSchemaErrors('allegro', undefined, component)(request);

/** The end of the day through "Wysyłam z Allegro": the courier booked with a pickup command, and the carrier's protocol. */
describe('Allegro hand-over: pickup command and protocol', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let accessToken: string;
  let made = 0;

  const ctx = (progress: CarrierProgress, timeoutMs = 10_000) => ({
    channelId: 'ch_allegro_dispatch', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs, progress,
    grant: { accessToken: async () => accessToken, refused: async () => undefined },
  });
  const callsTo = (method: string, path: string) => proxy.calls.filter((c) => c.method === method && c.path === `/allegro${path}`);
  const pickupCommands = () => callsTo('POST', '/shipment-management/pickups/create-commands').length;
  const fault = (mode: string, extra: Record<string, unknown> = {}) => fetch(`${emu.url}/_emulator/allegro/faults`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode, ...extra }),
  });
  /** The pickup the emulated Allegro holds for each Allegro shipment of the dispatch's shipments. */
  const pickupsAtAllegro = async (handed: readonly ShipmentToDispatch[]) => {
    const { shipments } = (await (await fetch(`${emu.url}/_emulator/allegro/shipments`)).json()) as { shipments: { id: string; pickup: { carrierPickupId: string } | null }[] };
    return handed.flatMap((h) => h.providerShipmentId.split(',')).map((id) => shipments.find((s) => s.id === id)?.pickup?.carrierPickupId ?? null);
  };

  /** `n` shipments created through the adapter, the second of two parcels, as a dispatch hands them over. */
  const created = async (n: number): Promise<ShipmentToDispatch[]> => {
    const handed: ShipmentToDispatch[] = [];
    for (let i = 0; i < n; i++) {
      const s = demoShipment(provider, `sh_allegro_${++made}`, localDay(0), i === 1 ? 2 : 1);
      handed.push(toDispatch(s, await provider.adapter.createShipment(s, settings, ctx(memoryProgress()))));
    }
    return handed;
  };
  const dispatchOf = (shipments: ShipmentToDispatch[], pickup: PickupRequest | null): DispatchForCarrier => ({
    id: `dp_allegro_${made}`, shipments, pickup, sender: demoShipment(provider, 'sender', localDay(0)).sender,
  });

  withCarrierBehindProxy(provider, async (running) => {
    ({ emu, proxy, settings } = running);
    accessToken = await allegroAccessToken(provider, emu);
  });
  beforeEach(async () => {
    await fault('none');
  });

  it('declares a pickup and a protocol, nothing to close, and no cancelling once handed over', () => {
    expect(dispatcher.capabilities).toEqual({ close: false, protocol: true, pickup: true });
    expect(dispatcher.cancelAfterHandOver).toBe(false);
  });

  it('books one pickup for three shipments in the slot nearest the window, gives the protocol of every parcel, and a second run books nothing', async () => {
    const shipments = await created(3);
    const progress = memoryProgress();
    proxy.calls.length = 0;

    const handed = await dispatcher.handOver(dispatchOf(shipments, { date: localDay(1), from: '10:00', to: '16:00' }), settings, ctx(progress));
    expect(callsTo('POST', '/shipment-management/pickup-proposals')).toHaveLength(1);
    expect(pickupCommands()).toBe(1);
    expect(callsTo('POST', '/shipment-management/protocol')).toHaveLength(1);
    expect(handed.pickup).toEqual({ confirmation: expect.stringMatching(/^AD\d+$/), date: localDay(1), from: '12:00', to: '16:00' });
    expect(handed.carrierRef).toBe(handed.pickup!.confirmation);
    expect(await pickupsAtAllegro(shipments)).toEqual([handed.carrierRef, handed.carrierRef, handed.carrierRef]);
    expect(Buffer.from(handed.document!).subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(handed.document!);
    for (const parcel of shipments.flatMap((s) => s.parcels)) expect(text).toContain(parcel.trackingNumber);

    proxy.calls.length = 0;
    const again = await dispatcher.handOver(dispatchOf(shipments, { date: localDay(1), from: '10:00', to: '16:00' }), settings, ctx(progress));
    expect(again.pickup).toEqual(handed.pickup);
    // the protocol is only read again (scope shipments:read); no pickup is asked for or proposed
    expect(proxy.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /allegro/shipment-management/protocol']);
  });

  it('asks for no pickup without one, and gives the protocol', async () => {
    const shipments = await created(1);
    proxy.calls.length = 0;
    const handed = await dispatcher.handOver(dispatchOf(shipments, null), settings, ctx(memoryProgress()));
    expect(handed.carrierRef).toBeNull();
    expect(pdfText(handed.document!)).toContain(shipments[0]!.parcels[0]!.trackingNumber);
    expect(proxy.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /allegro/shipment-management/protocol']);
  });

  it('books once when the first attempt died after Allegro booked the pickup but before it was stored', async () => {
    const shipments = await created(3);
    const progress = memoryProgress();
    progress.failSave((saved) => 'pickup' in saved);
    proxy.calls.length = 0;
    const pickup = { date: localDay(2), from: '09:00', to: '12:00' };

    await expect(dispatcher.handOver(dispatchOf(shipments, pickup), settings, ctx(progress))).rejects.toThrow(/died/);
    const [booked] = await pickupsAtAllegro(shipments);
    expect(booked).not.toBeNull();
    const handed = await dispatcher.handOver(dispatchOf(shipments, pickup), settings, ctx(progress));
    expect(pickupCommands(), 'the command is asked for again, never sent twice').toBe(1);
    expect(handed.carrierRef).toBe(booked);
    expect(progress.state).toEqual({ pickup: handed.pickup });
  });

  it.each(['error500', 'timeout'] as const)('takes %s on the pickup command as an outage, and the retry books one pickup', async (mode) => {
    const shipments = await created(2);
    const progress = memoryProgress();
    // the fault hits the pickup command itself: armed once its id is saved, just before it is posted
    const save = progress.save;
    progress.save = async (saved) => {
      await save(saved);
      if ('pickupCommand' in saved && pickupCommands() === 0) await fault(mode, { count: 1, ...(mode === 'timeout' ? { ms: 3000 } : {}) });
    };
    proxy.calls.length = 0;
    const pickup = { date: localDay(1), from: '08:00', to: '11:00' };

    const first = await dispatcher.handOver(dispatchOf(shipments, pickup), settings, ctx(progress, 1500)).then(() => undefined, (err: unknown) => err);
    expect(first).toBeInstanceOf(CarrierTransientError);
    expect(await pickupsAtAllegro(shipments)).toEqual([null, null]);
    const handed = await dispatcher.handOver(dispatchOf(shipments, pickup), settings, ctx(progress));
    expect(pickupCommands(), 'the faulted command and its one retry, with the same id').toBe(2);
    const [faulted, retried] = callsTo('POST', '/shipment-management/pickups/create-commands').map((c) => (JSON.parse(c.body!) as { commandId: string }).commandId);
    expect(retried).toBe(faulted);
    expect(handed.pickup).toMatchObject({ date: localDay(1), from: '09:00', to: '12:00' });
    expect(await pickupsAtAllegro(shipments)).toEqual([handed.carrierRef, handed.carrierRef]);
  });

  it('passes on Allegro’s refusals of a past day, an unknown shipment and a second pickup, on the dispatch’s fields', async () => {
    const shipments = await created(2);
    const past = await refusalOf(dispatcher.handOver(dispatchOf(shipments, { date: localDay(-1), from: '10:00', to: '16:00' }), settings, ctx(memoryProgress())));
    expect(past.message).toBe(`Allegro refused the hand-over: The ready date ${localDay(-1)} is in the past. (VALIDATION_ERROR)`);
    expect(past.errors).toEqual({ 'pickup.date': [`Allegro: The ready date ${localDay(-1)} is in the past.`] });

    const late = await refusalOf(dispatcher.handOver(dispatchOf(shipments, { date: localDay(1), from: '17:00', to: '19:00' }), settings, ctx(memoryProgress())));
    expect(late.message).toContain(`Allegro offers no pickup of these shipments on ${localDay(1)} between 17:00 and 19:00 (offered: ${localDay(1)} 09:00–12:00`);
    expect(Object.keys(late.errors)).toEqual(['pickup.date']);

    const stranger = { ...shipments[0]!, providerShipmentId: '0b7d5d5e-0000-4000-8000-000000000000' };
    const unknown = await refusalOf(dispatcher.handOver(dispatchOf([...shipments, stranger], { date: localDay(1), from: '10:00', to: '16:00' }), settings, ctx(memoryProgress())));
    expect(unknown.message).toBe('Allegro refused the hand-over: Shipment 0b7d5d5e-0000-4000-8000-000000000000 not found. (SHIPMENT_NOT_FOUND)');
    expect(unknown.errors).toEqual({ shipment_ids: ['Allegro: Shipment 0b7d5d5e-0000-4000-8000-000000000000 not found.'] });
    const noProtocol = await refusalOf(dispatcher.handOver(dispatchOf([stranger], null), settings, ctx(memoryProgress())));
    expect(Object.keys(noProtocol.errors)).toEqual(['shipment_ids']);

    const first = await dispatcher.handOver(dispatchOf(shipments, { date: localDay(1), from: '10:00', to: '16:00' }), settings, ctx(memoryProgress()));
    const progress = memoryProgress();
    const twice = await refusalOf(dispatcher.handOver(dispatchOf(shipments, { date: localDay(2), from: '10:00', to: '16:00' }), settings, ctx(progress)));
    expect(twice.message).toContain(`is already ordered: ${first.carrierRef} on ${localDay(1)}`);
    expect(Object.keys(twice.errors)).toEqual(['shipment_ids']);
    expect(progress.state, 'a refused command is forgotten, so the fixed dispatch gets a new one').toEqual({});
  });

  it('sends the hand-over requests as Allegro’s published schema declares them', async () => {
    const shipments = await created(2);
    proxy.calls.length = 0;
    await dispatcher.handOver(dispatchOf(shipments, { date: localDay(3), from: '10:00', to: '16:00' }), settings, ctx(memoryProgress()));
    const bodyOf = (path: string) => JSON.parse(callsTo('POST', path)[0]!.body!) as Record<string, unknown>;
    const shipmentIds = shipments.flatMap((s) => s.providerShipmentId.split(','));
    const proposals = bodyOf('/shipment-management/pickup-proposals');
    expect(proposals).toMatchObject({ shipmentIds, readyDate: localDay(3), address: { company: 'Magazyn Wola sp. z o.o.', street: 'Główna 30', postalCode: '00-111' } });
    expect(schemaErrors(proposals, 'PickupProposalsRequestDto')).toEqual([]);
    const command = bodyOf('/shipment-management/pickups/create-commands');
    expect(command).toMatchObject({
      commandId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      input: { shipmentIds, pickupTime: { date: localDay(3), minTime: '12:00', maxTime: '16:00' }, pickupDateProposalId: `${localDay(3).replace(/-/g, '')}12001600` },
    });
    expect(schemaErrors(command, 'PickupCreateCommandDto')).toEqual([]);
    const protocol = bodyOf('/shipment-management/protocol');
    expect(protocol).toEqual({ shipmentIds });
    expect(schemaErrors(protocol, 'ShipmentIdsDto')).toEqual([]);

    // a misspelt key fails the schema, and the emulated Allegro refuses it as Allegro does
    const misspelt = { ...command, input: { ...(command.input as object), pickupDate: localDay(3) } };
    expect(schemaErrors(misspelt, 'PickupCreateCommandDto')).toEqual([]); // the OpenAPI leaves additional properties open
    const answer = await fetch(`${emu.urls.allegro}/shipment-management/pickups/create-commands`, {
      method: 'POST', body: JSON.stringify({ ...misspelt, commandId: undefined }),
      headers: { 'content-type': 'application/vnd.allegro.public.v1+json', accept: 'application/vnd.allegro.public.v1+json', authorization: `Bearer ${accessToken}` },
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ errors: [{ code: 'VALIDATION_ERROR', message: 'Unrecognized field', path: 'input.pickupDate' }] });
  });
});
