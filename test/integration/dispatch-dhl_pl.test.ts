import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { dhlPlService, SERVICE_PATH } from '../../src/carriers/dhl_pl/service.js';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierTransientError } from '../../src/carriers/errors.js';
import { warsawTime } from '../../src/carriers/local-time.js';
import { findProvider } from '../../src/carriers/registry.js';
import { readSoapBody, soapElement, soapEnvelope, soapHttpHeaders } from '../../src/carriers/soap.js';
import type { CarrierProgress, DispatchForCarrier, PickupRequest, ShipmentToDispatch } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { demoShipment, memoryProgress, pdfText, refusalOf, toDispatch, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { soapOperation, xsdErrors } from '../helpers/xsd.js';

const provider = findProvider('dhl_pl')!;
const dispatcher = provider.adapter.dispatch!;
const XSD = fileURLToPath(new URL('../../src/carriers/dhl_pl/fixtures/schema/create-request.xsd', import.meta.url));
const DAY_MS = 86_400_000;
const warsawDay = (offsetDays: number) => warsawTime.format(Date.now() + offsetDays * DAY_MS).slice(0, 10);

/** The end of the day at DHL Parcel Poland: a courier booked with bookCourier for the day's shipments, and DHL's PNP report for the courier to sign. */
describe('DHL Parcel Poland hand-over: bookCourier and the PNP report', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let made = 0;

  const ctx = (progress: CarrierProgress, timeoutMs = 10_000) => ({ channelId: 'ch_dhl_pl_dispatch', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs, progress });
  /** Each WebAPI2 operation the proxy passed on, by name. */
  const operations = () => proxy.calls.map((c) => c.soapAction?.split('#')[1]);
  const count = (operation: string) => operations().filter((o) => o === operation).length;
  const fault = (mode: string, extra: Record<string, unknown> = {}) => fetch(`${emu.url}/_emulator/dhl_pl/faults`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode, ...extra }),
  });
  const courierOrders = async () => ((await (await fetch(`${emu.url}/_emulator/dhl_pl/shipments`)).json()) as { shipments: { waybill: string; courierOrder: { orderId: string } | null }[] }).shipments;

  /** `n` shipments created at the emulator through the adapter, the second of two parcels, as a dispatch hands them over. */
  const created = async (n: number): Promise<ShipmentToDispatch[]> => {
    const handed: ShipmentToDispatch[] = [];
    for (let i = 0; i < n; i++) {
      const s = demoShipment(provider, `sh_dhlpl_${++made}`, warsawDay(0), i === 1 ? 2 : 1);
      handed.push(toDispatch(s, await provider.adapter.createShipment(s, settings, ctx(memoryProgress()))));
    }
    return handed;
  };
  const dispatchOf = (shipments: ShipmentToDispatch[], pickup: PickupRequest | null): DispatchForCarrier => ({
    id: `dp_${made}`, shipments, pickup, sender: demoShipment(provider, 'sender', warsawDay(0)).sender,
  });

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));
  beforeEach(async () => {
    await fault('none');
  });

  it('declares a protocol and a pickup, no close, and no cancel once handed over', () => {
    expect(dispatcher.capabilities).toEqual({ close: false, protocol: true, pickup: true });
    expect(dispatcher.cancelAfterHandOver).toBe(false);
  });

  it('books one courier for three shipments, hands back DHL’s PNP report naming every parcel, and does nothing new when run again', async () => {
    const shipments = await created(3);
    const pickup = { date: warsawDay(1), from: '10:00', to: '14:00' };
    const progress = memoryProgress();
    proxy.calls.length = 0;

    const handed = await dispatcher.handOver(dispatchOf(shipments, pickup), settings, ctx(progress));
    expect(count('bookCourier')).toBe(1);
    expect(count('getPnp')).toBe(1);
    expect(handed.pickup).toEqual({ confirmation: expect.stringMatching(/^\d{5}WWW$/), ...pickup });
    expect(handed.carrierRef).toBe(handed.pickup!.confirmation);
    const orders = await courierOrders();
    for (const s of shipments) expect(orders.find((o) => o.waybill === s.providerShipmentId)?.courierOrder?.orderId).toBe(handed.carrierRef);

    const text = pdfText(handed.document!);
    expect(Buffer.from(handed.document!).subarray(0, 5).toString()).toBe('%PDF-');
    expect(text).toContain('Potwierdzenie Nadania Przesyłek');
    expect(text).toContain(`Data nadania: ${pickup.date}`);
    for (const s of shipments) {
      expect(text).toContain(s.providerShipmentId);
      for (const p of s.parcels) expect(text).toContain(p.trackingNumber);
    }

    const again = await dispatcher.handOver(dispatchOf(shipments, pickup), settings, ctx(progress));
    expect(count('bookCourier'), 'no second courier').toBe(1);
    expect(again.pickup).toEqual(handed.pickup);
    expect(pdfText(again.document!)).toBe(text);
  });

  it('hands over without a pickup: no courier is booked, DHL’s PNP report of the day lists the shipments', async () => {
    const shipments = await created(3);
    proxy.calls.length = 0;
    const handed = await dispatcher.handOver(dispatchOf(shipments, null), settings, ctx(memoryProgress()));
    expect(count('bookCourier')).toBe(0);
    expect(count('getPnp')).toBe(1);
    expect(handed).toMatchObject({ carrierRef: null });
    expect(handed.pickup).toBeUndefined();
    const text = pdfText(handed.document!);
    expect(text).toContain(`Data nadania: ${warsawDay(0)}`);
    for (const p of shipments.flatMap((s) => s.parcels)) expect(text).toContain(p.trackingNumber);
  });

  it('books once when the first attempt died after DHL booked the courier but before the order number was stored', async () => {
    const shipments = await created(3);
    const progress = memoryProgress();
    progress.failSave((saved) => 'pickup' in saved);
    proxy.calls.length = 0;
    const pickup = { date: warsawDay(1), from: '09:00', to: '12:00' };

    await expect(dispatcher.handOver(dispatchOf(shipments, pickup), settings, ctx(progress))).rejects.toThrow(/died/);
    expect(count('bookCourier')).toBe(1);
    const handed = await dispatcher.handOver(dispatchOf(shipments, pickup), settings, ctx(progress));
    expect(count('bookCourier'), 'the order DHL noted on the shipments is found, not booked again').toBe(1);
    const orders = await courierOrders();
    expect(handed.pickup).toEqual({ confirmation: orders.find((o) => o.waybill === shipments[0]!.providerShipmentId)!.courierOrder!.orderId, ...pickup });
    expect(progress.state).toEqual({ pickup: handed.pickup });
  });

  it.each(['error500', 'timeout'] as const)('takes %s at bookCourier as an outage, and the retry books one courier', async (mode) => {
    const shipments = await created(3);
    const progress = memoryProgress();
    await fault(mode, { count: 1 });
    proxy.calls.length = 0;
    const pickup = { date: warsawDay(2), from: '12:00', to: '16:00' };

    const first = await dispatcher.handOver(dispatchOf(shipments, pickup), settings, ctx(progress, 1500)).then(() => undefined, (err: unknown) => err);
    expect(first).toBeInstanceOf(CarrierTransientError);
    const handed = await dispatcher.handOver(dispatchOf(shipments, pickup), settings, ctx(progress));
    expect(count('bookCourier'), 'the faulted call and the retry').toBe(2);
    const ids = new Set(shipments.map((s) => s.providerShipmentId));
    const booked = (await courierOrders()).filter((o) => ids.has(o.waybill)).map((o) => o.courierOrder?.orderId);
    expect(booked).toEqual([handed.carrierRef, handed.carrierRef, handed.carrierRef]);
  });

  it('passes on DHL’s refusals of a past day, an unknown shipment and a second courier for the same shipments, on the dispatch’s fields', async () => {
    const shipments = await created(2);
    const past = await refusalOf(dispatcher.handOver(dispatchOf(shipments, { date: warsawDay(-1), from: '10:00', to: '14:00' }), settings, ctx(memoryProgress())));
    expect(past.message).toBe(`DHL Parcel Poland refused the courier booking: pickupDate: data odbioru ${warsawDay(-1)} już minęła`);
    expect(past.errors).toEqual({ 'pickup.date': [`DHL Parcel Poland: pickupDate: data odbioru ${warsawDay(-1)} już minęła`] });

    const window = await refusalOf(dispatcher.handOver(dispatchOf(shipments, { date: warsawDay(1), from: '14:00', to: '10:00' }), settings, ctx(memoryProgress())));
    expect(Object.keys(window.errors)).toEqual(['pickup.to']);

    const unknown = [...shipments, { ...shipments[0]!, providerShipmentId: '90000000000' }];
    const stranger = await refusalOf(dispatcher.handOver(dispatchOf(unknown, { date: warsawDay(1), from: '10:00', to: '14:00' }), settings, ctx(memoryProgress())));
    expect(stranger.errors).toEqual({ shipment_ids: ['DHL Parcel Poland: shipmentIdList.item[2]: nie znaleziono przesyłki 90000000000'] });
    const unknownWithoutPickup = await refusalOf(dispatcher.handOver(dispatchOf(unknown, null), settings, ctx(memoryProgress())));
    expect(unknownWithoutPickup.message).toMatch(/DHL Parcel Poland does not know shipment 90000000000/);

    const first = await dispatcher.handOver(dispatchOf(shipments, { date: warsawDay(1), from: '10:00', to: '14:00' }), settings, ctx(memoryProgress()));
    const twice = await refusalOf(dispatcher.handOver(dispatchOf(shipments, { date: warsawDay(1), from: '15:00', to: '17:00' }), settings, ctx(memoryProgress())));
    expect(twice.message).toContain(`ma już zamówionego kuriera (zamówienie ${first.carrierRef})`);
    expect(Object.keys(twice.errors)).toEqual(['shipment_ids']);

    // a shipment with its courier booked is no longer deleted
    const cancel = await refusalOf(provider.adapter.cancel!({ providerShipmentId: shipments[0]!.providerShipmentId, trackingNumbers: [] }, settings, ctx(memoryProgress())));
    expect(cancel.message).toContain('ma zamówionego kuriera');
  });

  it('sends bookCourier, getLabelsData and getPnp as DHL’s WSDL types declare them', async () => {
    const shipments = await created(2);
    proxy.calls.length = 0;
    await dispatcher.handOver(dispatchOf(shipments, { date: warsawDay(3), from: '08:00', to: '12:00' }), settings, ctx(memoryProgress()));
    expect(operations()).toEqual(['bookCourier', 'getLabelsData', 'getPnp']);
    for (const call of proxy.calls) expect(xsdErrors(soapOperation(call.body!).element, XSD), call.soapAction).toEqual([]);
    // a misspelt element fails the schema, and DHL's SoapServer refuses it
    const service = dhlPlService(false);
    const misspelt = { name: 'bookCourier', content: { authData: { username: 'u', password: 'p' }, pickupDay: '2030-01-02' } };
    expect(xsdErrors(soapElement(service, misspelt), XSD)).not.toEqual([]);
    const answer = await fetch(`${emu.urls.dhl_pl}${SERVICE_PATH}`, { method: 'POST', headers: soapHttpHeaders(service, 'bookCourier'), body: soapEnvelope(service, misspelt) });
    expect(readSoapBody(await answer.text())).toMatchObject({ code: 'Client', reason: expect.stringContaining('unexpected element bookCourier.pickupDay') });
  });
});
