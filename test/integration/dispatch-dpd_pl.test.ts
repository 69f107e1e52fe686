import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError, CarrierTransientError } from '../../src/carriers/errors.js';
import { warsawTime } from '../../src/carriers/local-time.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierParty, CarrierProgress, DispatchedAtCarrier, DispatchForCarrier, PickupRequest, ShipmentToDispatch } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { demoShipment, memoryProgress, pdfText, refusalOf, toDispatch, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { soapOperation, xsdErrors } from '../helpers/xsd.js';

/**
 * DPD Poland's end of the day, driven through the adapter against its emulator: a courier booked with
 * packagesPickupCallV4 and DPD's hand-over protocol from generateProtocolV2, each exactly once at DPD whatever fails
 * on the way (DPD's server faults, timeouts, a crash between DPD's answer and our saving it), and DPD's refusals as
 * refusals a person can act on. Every request is checked against DPD's published schema.
 */

const provider = findProvider('dpd_pl')!;
const dispatcher = provider.adapter.dispatch!;
const XSD = fileURLToPath(new URL('../../src/carriers/dpd_pl/fixtures/schema/create-request.xsd', import.meta.url));
const sender = demoShipment(provider, 'sh_sender', '2026-01-01').sender;
const berlin = (recipient: CarrierParty): CarrierParty => ({ ...recipient, street: 'Invalidenstraße', houseNumber: '116', apartmentNumber: null, city: 'Berlin', postalCode: '10115', countryCode: 'DE' });
const day = (offsetDays: number) => warsawTime.format(Date.now() + offsetDays * 86_400_000).slice(0, 10);
const tomorrow: PickupRequest = { date: day(1), from: '14:00', to: '16:00' };

describe('DPD Poland hands the day\'s parcels over: courier and protocol, once', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let shipments: ShipmentToDispatch[];

  const ctx = (progress: CarrierProgress, timeoutMs = 10_000) => ({ channelId: 'ch_dpd_pl_dispatch', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs, progress });
  const operations = () => proxy.calls.map((c) => soapOperation(c.body).name);
  const handOver = (progress: CarrierProgress, pickup: PickupRequest | null = tomorrow, of = shipments, timeoutMs?: number): Promise<DispatchedAtCarrier> => {
    const dispatch: DispatchForCarrier = { id: `dp_${Math.random().toString(36).slice(2, 10)}`, shipments: of, sender, pickup };
    return dispatcher.handOver(dispatch, settings, ctx(progress, timeoutMs));
  };
  const fault = async (mode: string, count = 1) => {
    const res = await fetch(`${emu.url}/_emulator/dpd_pl/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode, count }) });
    expect(res.status).toBe(200);
  };
  /** The protocol DPD holds each parcel of the shipments in (null: none). */
  const protocolsAtDpd = () => {
    const waybills = new Set(shipments.flatMap((s) => s.parcels.map((p) => p.trackingNumber)));
    return emu.emulator('dpd_pl').shipments()
      .filter((s) => (s.shipmentNumbers as string[]).some((n) => waybills.has(n)))
      .flatMap((s) => s.protocols as (string | null)[]);
  };

  /** Three shipments of the demo story created at DPD's emulator by the adapter (four parcels, one with cash on delivery); `abroad` sends the last to Berlin. */
  async function createThree(abroad = false): Promise<ShipmentToDispatch[]> {
    const created: ShipmentToDispatch[] = [];
    for (const parcels of [1, 2, 1]) {
      const demo = demoShipment(provider, `sh_dpd_dispatch_${Math.random().toString(36).slice(2, 10)}`, day(0), parcels);
      const shipment = {
        ...demo, cashOnDelivery: parcels === 2 ? { amountMinor: 12_950, currency: 'PLN' } : null,
        recipient: abroad && created.length === 2 ? berlin(demo.recipient) : demo.recipient,
      };
      created.push(toDispatch(shipment, await provider.adapter.createShipment(shipment, settings, ctx(memoryProgress()))));
    }
    return created;
  }

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));
  beforeEach(async () => {
    shipments = await createThree();
    proxy.calls.length = 0;
  });

  it('books one courier and gets one protocol, a PDF that lists every parcel; its requests are DPD\'s schema', async () => {
    const progress = memoryProgress();
    const handed = await handOver(progress);

    expect(operations()).toEqual(['packagesPickupCallV4', 'generateProtocolV2']);
    for (const call of proxy.calls) expect(xsdErrors(soapOperation(call.body).element, XSD), soapOperation(call.body).name).toEqual([]);
    expect(handed.carrierRef).toMatch(/^\d+$/);
    expect(handed.pickup).toEqual({ confirmation: expect.stringMatching(/^\d+$/), ...tomorrow });
    expect(Buffer.from(handed.document!).subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(handed.document!);
    for (const waybill of shipments.flatMap((s) => s.parcels.map((p) => p.trackingNumber))) expect(text).toContain(waybill);
    expect(text).toContain('Liczba paczek: 4');
    expect(protocolsAtDpd()).toEqual([handed.carrierRef, handed.carrierRef, handed.carrierRef, handed.carrierRef]);

    proxy.calls.length = 0;
    const again = await handOver(progress);
    expect(again).toEqual(handed);
    const asked = proxy.calls.map((c) => soapOperation(c.body));
    expect(asked.map((a) => a.name), 'only the duplicate of the same protocol, no second courier').toEqual(['generateProtocolV2']);
    expect(asked[0]!.element).toContain(`<documentId>${handed.carrierRef}</documentId>`);
    expect(protocolsAtDpd()).toEqual([handed.carrierRef, handed.carrierRef, handed.carrierRef, handed.carrierRef]);
  });

  it('makes the protocol once when the daemon died after DPD made it but before the progress was stored', async () => {
    const progress = memoryProgress();
    progress.failSave((next) => JSON.stringify(next).includes('documentId'));
    await expect(handOver(progress)).rejects.toThrow('the process died before the progress was stored');

    const handed = await handOver(progress);
    const made = protocolsAtDpd();
    expect(new Set(made).size, 'one protocol holds every parcel').toBe(1);
    expect(made).not.toContain(null);
    expect(operations().filter((o) => o === 'packagesPickupCallV4'), 'one courier').toHaveLength(1);
    // the lost answer's document cannot be had again: packdesk's own list stands in for it
    expect(handed).toEqual({ carrierRef: null, pickup: { confirmation: expect.stringMatching(/^\d+$/), ...tomorrow } });
  });

  it('makes one protocol for the parcels in Poland and one for those abroad, as DPD asks, printed as one document', async () => {
    shipments = await createThree(true);
    proxy.calls.length = 0;
    const progress = memoryProgress();
    const handed = await handOver(progress, null);

    expect(operations(), 'all as domestic, refused for the one abroad, then one per kind').toEqual(['generateProtocolV2', 'generateProtocolV2', 'generateProtocolV2']);
    const [domestic, international] = handed.carrierRef!.split(', ');
    expect(protocolsAtDpd()).toEqual([domestic, domestic, domestic, international]);
    const text = pdfText(handed.document!);
    for (const waybill of shipments.flatMap((s) => s.parcels.map((p) => p.trackingNumber))) expect(text).toContain(waybill);
    proxy.calls.length = 0;
    const again = await handOver(progress, null);
    expect(again.carrierRef).toBe(handed.carrierRef);
    expect(pdfText(again.document!), 'the same two protocols, merged anew').toBe(text);
    expect(proxy.calls.map((c) => soapOperation(c.body).element).every((e) => /<documentId>\d+<\/documentId>/.test(e)), 'duplicates only').toBe(true);
  });

  it('refuses a courier for a past day before anything is made, saying which day DPD can come', async () => {
    const refusal = await refusalOf(handOver(memoryProgress(), { date: day(-1), from: '10:00', to: '12:00' }));
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe(`DPD Poland refused the courier booking: Pickup date ${day(-1)} is in the past: the courier can come on ${day(0)} at the earliest`);
    expect(refusal.errors).toEqual({ 'pickup.date': [expect.stringContaining('is in the past')] });
    expect(operations()).toEqual(['packagesPickupCallV4']);
    expect(protocolsAtDpd(), 'no protocol').toEqual([null, null, null, null]);
  });

  it('refuses a protocol for a parcel DPD does not know, naming it', async () => {
    const unknown = { ...shipments[0]!, parcels: [{ trackingNumber: '13059999999999', carrierRef: null, weightKg: 1 }] };
    const refusal = await refusalOf(handOver(memoryProgress(), null, [unknown, ...shipments.slice(1)]));
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe('DPD Poland refused the hand-over protocol: parcel 13059999999999 is unknown (NOT_FOUND)');
    expect(refusal.errors).toEqual({ shipment_ids: ['DPD Poland: parcel 13059999999999 is unknown'] });
    expect(protocolsAtDpd(), 'no protocol').toEqual([null, null, null, null]);
  });

  it('refuses to hand the same parcels over twice', async () => {
    const first = await handOver(memoryProgress(), null);
    const refusal = await refusalOf(handOver(memoryProgress(), null));
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    const waybill = shipments[0]!.parcels[0]!.trackingNumber;
    expect(refusal.message).toBe(`DPD Poland refused the hand-over protocol: parcel ${waybill} is in a hand-over protocol already (ALREADY_ADVICED)`);
    expect(refusal.errors.shipment_ids).toHaveLength(4);
    expect(new Set(protocolsAtDpd())).toEqual(new Set([first.carrierRef]));
  });

  it('answers a misspelt element of a courier order as DPD\'s schema validation does', async () => {
    const { login, password, masterFid } = provider.demo.settings;
    const envelope = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>`
      + `<ns:packagesPickupCallV4 xmlns:ns="http://dpdservices.dpd.com.pl/"><dpdPickupParamsV3><operationType>INSERT</operationType><pickupDat>${tomorrow.date}</pickupDat></dpdPickupParamsV3>`
      + `<authDataV1><login>${login}</login><masterFid>${masterFid}</masterFid><password>${password}</password></authDataV1></ns:packagesPickupCallV4></soap:Body></soap:Envelope>`;
    const res = await fetch(`${emu.urls.dpd_pl}/DPDPackageObjServicesService/DPDPackageObjServices`, { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' }, body: envelope });
    expect(res.status).toBe(500);
    const fault = await res.text();
    expect(fault).toContain('<ns:SchemaValidationException');
    expect(fault).toContain('Invalid content was found starting with element \'pickupDat\'');
  });

  it('takes DPD\'s server faults as worth another try, and the retry books and closes once', async () => {
    const progress = memoryProgress();
    await fault('error500');
    await expect(handOver(progress)).rejects.toBeInstanceOf(CarrierTransientError);
    const handed = await handOver(progress);
    expect(operations()).toEqual(['packagesPickupCallV4', 'packagesPickupCallV4', 'generateProtocolV2']);
    expect(handed.pickup?.confirmation).toMatch(/^\d+$/);

    const closing = memoryProgress();
    const others = await createThree();
    proxy.calls.length = 0;
    await fault('error500');
    await expect(handOver(closing, null, others)).rejects.toBeInstanceOf(CarrierTransientError);
    const closed = await handOver(closing, null, others);
    expect(operations()).toEqual(['generateProtocolV2', 'generateProtocolV2']);
    expect(closed.carrierRef).toMatch(/^\d+$/);
  });

  it('closes once after a protocol call timed out, and never books a second courier after a booking timed out', async () => {
    const progress = memoryProgress();
    await fault('timeout');
    await expect(handOver(progress, null, shipments, 1_000)).rejects.toBeInstanceOf(CarrierTransientError);
    const closed = await handOver(progress, null);
    expect(operations()).toEqual(['generateProtocolV2', 'generateProtocolV2']);
    expect(new Set(protocolsAtDpd())).toEqual(new Set([closed.carrierRef]));

    const booking = memoryProgress();
    const others = await createThree();
    proxy.calls.length = 0;
    await fault('timeout');
    await expect(handOver(booking, tomorrow, others, 1_000)).rejects.toBeInstanceOf(CarrierTransientError);
    const handed = await handOver(booking, tomorrow, others);
    // DPDServices cannot say whether the lost booking was made: no second courier, and an unconfirmed one saying what to check
    expect(operations()).toEqual(['packagesPickupCallV4', 'generateProtocolV2']);
    expect(handed.pickup).toEqual({ confirmation: null, ...tomorrow, note: expect.stringContaining('check with DPD Poland whether the courier') });
    expect(handed.carrierRef).toMatch(/^\d+$/);
  });
});
