import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError, CarrierTransientError } from '../../src/carriers/errors.js';
import oneParcel from '../../src/carriers/gls_pl/fixtures/create-request.one-parcel-company-s12-pdf.json' with { type: 'json' };
import threeParcels from '../../src/carriers/gls_pl/fixtures/create-request.three-parcel-saturday-epl.json' with { type: 'json' };
import twoParcelsCod from '../../src/carriers/gls_pl/fixtures/create-request.two-parcel-cod-zpl.json' with { type: 'json' };
import { ADE_PATH, ADE_SERVICE } from '../../src/carriers/gls_pl/service.js';
import { warsawTime } from '../../src/carriers/local-time.js';
import { findProvider } from '../../src/carriers/registry.js';
import { readSoapBody, soapEnvelope, soapHttpHeaders, SoapFault, type XmlElement } from '../../src/carriers/soap.js';
import type { CarrierProgress, ChannelSettings, DispatchForCarrier, PickupRequest, ShipmentForCarrier, ShipmentToDispatch } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { recordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { soapOperation, xsdErrors } from '../helpers/xsd.js';

/**
 * The end of the day at GLS Poland, driven through its adapter against the ADE emulator: a courier for the day, the
 * pickup that takes the consignments out of ADE's preparing box (without it GLS never receives them), and the
 * hand-over receipt the courier signs — each exactly once, whatever dies on the way.
 */

const gls = findProvider('gls_pl')!;
const dispatcher = gls.adapter.dispatch!;
const DISPATCH_XSD = fileURLToPath(new URL('../../src/carriers/gls_pl/fixtures/schema/dispatch-request.xsd', import.meta.url));
const FIXTURES = [oneParcel, threeParcels, twoParcelsCod] as unknown as { shipment: ShipmentForCarrier }[];
const DAY_MS = 86_400_000;
const warsawDay = (ms: number) => warsawTime.format(ms).slice(0, 10);

interface HeldConsignment { consignId: string; state: string; pickupId: string | null; notes: string; shipmentNumbers: string[] }

/** A carrier progress kept in memory, as the dispatch job keeps it in its row; `failOnce` makes one save fail after the carrier answered. */
function memoryProgress(failOnce?: (p: Record<string, unknown>) => boolean): CarrierProgress & { saved: Record<string, unknown> | null } {
  let failed = false;
  const progress = {
    saved: null as Record<string, unknown> | null,
    load: () => progress.saved,
    save: async (p: Record<string, unknown>) => {
      if (failOnce && !failed && failOnce(p)) {
        failed = true;
        throw new Error('the process died before the progress was stored');
      }
      progress.saved = p;
    },
  };
  return progress;
}

describe('end of the day at GLS Poland: courier, pickup out of the preparing box, and its receipt', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: ChannelSettings;
  let dispatches = 0;
  let shipments = 0;
  const traces: { msg: string; request?: string }[] = [];
  const ctx = {
    channelId: 'ch_gls_pl_dispatch', clock: systemClock, timeoutMs: 10_000,
    log: pino({ level: 'debug' }, { write: (line: string) => traces.push(JSON.parse(line) as { msg: string; request?: string }) }),
  };

  const control = (method: string, path: string, body?: unknown) => fetch(`${emu.url}/_emulator/gls_pl/${path}`, {
    method, ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  const held = async () => ((await (await control('GET', 'shipments')).json()) as { shipments: HeldConsignment[] }).shipments;
  /** The ADE operations the proxy saw since the last clear, by name. */
  const operations = () => proxy.calls.map((c) => c.soapAction?.split('#')[1]).filter((op): op is string => op !== undefined);
  const count = (op: string) => operations().filter((o) => o === op).length;

  /** `n` shipments created at the emulator through the adapter (1, 3 and 2 parcels, the folder's fixtures), as a dispatch hands them over. */
  const createdShipments = async (n: number, label: string): Promise<ShipmentToDispatch[]> => {
    const created: ShipmentToDispatch[] = [];
    for (let i = 0; i < n; i++) {
      const s = { ...FIXTURES[i % FIXTURES.length]!.shipment, id: `sh_gls_dispatch_${++shipments}`, reference: `${label}-${i + 1}` };
      const at = await gls.adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() });
      created.push({
        providerShipmentId: at.providerShipmentId, reference: s.reference,
        parcels: at.parcels.map((p, j) => ({ trackingNumber: p.trackingNumber, carrierRef: p.carrierRef ?? null, weightKg: s.parcels[j]!.weightKg })),
        cashOnDelivery: s.cashOnDelivery,
      });
    }
    return created;
  };
  const dispatchOf = (handed: ShipmentToDispatch[], pickup: PickupRequest | null = null): DispatchForCarrier => ({
    id: `dp_gls_pl_${++dispatches}`, shipments: handed, sender: FIXTURES[0]!.shipment.sender, pickup,
  });
  const handOver = (dispatch: DispatchForCarrier, progress: CarrierProgress) => dispatcher.handOver(dispatch, settings, { ...ctx, progress });
  const refusalOf = (dispatch: DispatchForCarrier, progress: CarrierProgress = memoryProgress()) =>
    handOver(dispatch, progress).then(() => { throw new Error('the hand-over was not refused'); }, (err: unknown) => err as Error);
  const numbersOf = (handed: ShipmentToDispatch[]) => handed.flatMap((s) => s.parcels.map((p) => p.trackingNumber));
  /** An ADE operation sent straight to the emulator: its answer, or the SOAP Fault it answered with. */
  const ade = async (operation: string, content: XmlElement) => {
    const res = await fetch(`${emu.urls.gls_pl}${ADE_PATH}`, {
      method: 'POST', headers: soapHttpHeaders(ADE_SERVICE, operation), body: soapEnvelope(ADE_SERVICE, { name: operation, content }),
    });
    return readSoapBody(await res.text());
  };
  const session = async () => {
    const login = await ade('adeLogin', { user_name: gls.demo.settings.username as string, user_password: gls.demo.settings.password as string });
    return ((login as { adeLoginResponse: { return: { session: string } } }).adeLoginResponse.return.session);
  };

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['gls_pl'], port: 0 });
    proxy = await recordingProxy(emu.url);
    settings = { ...gls.demo.settings, baseUrl: `${proxy.url}/gls_pl` };
  });
  afterAll(async () => {
    await proxy?.close();
    await emu?.close();
  });
  beforeEach(async () => {
    await control('POST', 'faults', { mode: 'none' });
  });

  it('hands three shipments over with one courier order, one pickup and one receipt naming every parcel, and a second run does nothing new', async () => {
    expect(dispatcher.capabilities).toEqual({ close: true, protocol: true, pickup: true });
    expect(dispatcher.cancelAfterHandOver).toBe(false);
    const handed = await createdShipments(3, 'EOD');
    const numbers = numbersOf(handed);
    expect(numbers).toHaveLength(6);
    const pickup = { date: warsawDay(Date.now() + DAY_MS), from: '14:00', to: '16:00' };
    const dispatch = dispatchOf(handed, pickup);
    const progress = memoryProgress();
    proxy.calls.length = 0;
    traces.length = 0;

    const answered = await handOver(dispatch, progress);

    expect([count('adeCourier_Order'), count('adePickup_Create'), count('adePickup_GetReceipt')]).toEqual([1, 1, 1]);
    expect(answered.carrierRef).toMatch(/^\d+$/);
    expect(answered.pickup).toEqual({ confirmation: answered.carrierRef, ...pickup });
    const atAde = (await held()).filter((c) => handed.some((s) => s.providerShipmentId === c.consignId));
    expect(atAde.map((c) => [c.state, c.pickupId])).toEqual(handed.map(() => ['Pickup', answered.carrierRef]));

    const receipt = Buffer.from(answered.document!);
    expect(receipt.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((await decodePdfBarcodes(receipt)).flat().sort()).toEqual([...numbers].sort());
    const text = spawnSync('pdftotext', ['-', '-'], { input: receipt, encoding: 'utf8' }).stdout;
    for (const n of numbers) expect(text).toContain(n);
    expect(text).toContain(answered.carrierRef);

    // every hand-over operation as sent (the debug trace, secrets redacted) against the types of the ADE WSDL
    const sent = traces.filter((t) => t.msg === 'carrier call' && t.request).map((t) => soapOperation(t.request));
    expect(sent.map((op) => op.name)).toEqual(expect.arrayContaining(['adeCourier_Order', 'adePickup_Create', 'adePickup_GetReceipt']));
    for (const op of sent) expect(xsdErrors(op.element, DISPATCH_XSD), op.element).toEqual([]);

    proxy.calls.length = 0;
    const again = await handOver(dispatch, progress);
    expect(operations()).toEqual(['adePickup_GetReceipt']);
    expect(again.carrierRef).toBe(answered.carrierRef);
    expect(again.pickup).toEqual(answered.pickup);
  });

  it('finds the pickup of a run that died after ADE made it but before the progress was stored, and closes once', async () => {
    const handed = await createdShipments(3, 'CRASH');
    const dispatch = dispatchOf(handed);
    const progress = memoryProgress((p) => p.pickupId !== undefined);
    proxy.calls.length = 0;

    await expect(handOver(dispatch, progress)).rejects.toThrow('the process died');
    expect(count('adePickup_Create')).toBe(1);
    const answered = await handOver(dispatch, progress);

    expect(count('adePickup_Create')).toBe(1);
    expect(count('adePickup_Get')).toBeGreaterThan(0);
    const atAde = (await held()).filter((c) => handed.some((s) => s.providerShipmentId === c.consignId));
    expect(atAde.map((c) => c.pickupId)).toEqual(handed.map(() => answered.carrierRef));
    expect((await decodePdfBarcodes(Buffer.from(answered.document!))).flat().sort()).toEqual(numbersOf(handed).sort());
  });

  it.each([
    ['error500', { mode: 'error500', count: 1 }],
    ['timeout', { mode: 'timeout', count: 1, ms: 300 }],
  ])('gives a passing failure on %s and closes once when tried again', async (_mode, fault) => {
    const handed = await createdShipments(2, `FAULT-${fault.mode}`);
    const dispatch = dispatchOf(handed);
    const progress = memoryProgress();
    proxy.calls.length = 0;
    // creating the shipments logged the channel in: the fault meets adePickup_Create, the hand-over's first call
    await control('POST', 'faults', fault);

    await expect(handOver(dispatch, progress)).rejects.toBeInstanceOf(CarrierTransientError);
    expect(operations()).toEqual(['adePickup_Create']);
    expect((await held()).filter((c) => handed.some((s) => s.providerShipmentId === c.consignId)).map((c) => c.state)).toEqual(['PreparingBox', 'PreparingBox']);
    const answered = await handOver(dispatch, progress);

    const atAde = (await held()).filter((c) => handed.some((s) => s.providerShipmentId === c.consignId));
    expect(atAde.map((c) => c.pickupId)).toEqual([answered.carrierRef, answered.carrierRef]);
    expect(count('adePickup_Create')).toBe(2); // the faulted one never reached ADE's handler
  });

  it('orders no second courier after the answer to the first was lost: ADE cannot tell, so the dispatch’s courier stays unconfirmed', async () => {
    const handed = await createdShipments(1, 'COURIER-LOST');
    const asked = { date: warsawDay(Date.now() + DAY_MS), from: '09:00', to: '12:00' };
    const dispatch = dispatchOf(handed, asked);
    const progress = memoryProgress();
    proxy.calls.length = 0;
    await control('POST', 'faults', { mode: 'timeout', count: 1, ms: 300 });

    await expect(handOver(dispatch, progress)).rejects.toBeInstanceOf(CarrierTransientError);
    expect(operations()).toEqual(['adeCourier_Order']);
    const answered = await handOver(dispatch, progress);

    expect(count('adeCourier_Order')).toBe(1);
    expect(count('adePickup_Create')).toBe(1);
    expect(answered.pickup).toEqual({ confirmation: null, ...asked, note: expect.stringContaining('check with GLS Poland whether the courier') });
    expect((await held()).find((c) => c.consignId === handed[0]!.providerShipmentId)!.pickupId).toBe(answered.carrierRef);
  });

  it('refuses a courier for a past day with the day in the message, and leaves the consignments in the preparing box', async () => {
    const handed = await createdShipments(1, 'PAST');
    const yesterday = warsawDay(Date.now() - DAY_MS);
    const progress = memoryProgress();
    proxy.calls.length = 0;

    const refusal = await refusalOf(dispatchOf(handed, { date: yesterday, from: '10:00', to: '12:00' }), progress);

    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe(`GLS Poland refused a courier for ${yesterday}: Data nadania jest nieprawidłowa (err_date_is_invalid)`);
    expect((refusal as CarrierRefusedError).errors).toHaveProperty(['pickup.date']);
    expect(count('adePickup_Create')).toBe(0);
    expect(progress.saved).toEqual({});
    expect((await held()).find((c) => c.consignId === handed[0]!.providerShipmentId)!.state).toBe('PreparingBox');
  });

  it('refuses a consignment ADE does not hold, naming it, and takes none of the dispatch', async () => {
    const [real] = await createdShipments(1, 'KNOWN');
    const unknown: ShipmentToDispatch = { ...real!, providerShipmentId: '999999', reference: 'NOT-AT-GLS' };

    const refusal = await refusalOf(dispatchOf([real!, unknown]));

    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toBe('GLS Poland took nothing: its preparing box does not hold consignment 999999 (shipment NOT-AT-GLS): handed over in another pickup already, or deleted in ADE');
    expect((refusal as CarrierRefusedError).errors).toEqual({ shipment_ids: [expect.stringContaining('consignment 999999 (shipment NOT-AT-GLS)')] });
    expect((await held()).find((c) => c.consignId === real!.providerShipmentId)!.state).toBe('PreparingBox');
  });

  it('refuses to hand a consignment over twice: ADE keeps it in its first pickup', async () => {
    const handed = await createdShipments(2, 'TWICE');
    const first = await handOver(dispatchOf(handed), memoryProgress());
    proxy.calls.length = 0;

    const refusal = await refusalOf(dispatchOf([handed[1]!]));

    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.message).toContain(`does not hold consignment ${handed[1]!.providerShipmentId} (shipment TWICE-2): handed over in another pickup already`);
    expect(count('adePickup_Create')).toBe(1);
    expect((await held()).find((c) => c.consignId === handed[1]!.providerShipmentId)!.pickupId).toBe(first.carrierRef);
  });

  it('answers a second pickup of a consignment and an element the WSDL lacks with ADE\'s SOAP faults', async () => {
    const [handed] = await createdShipments(1, 'RAW');
    const id = handed!.providerShipmentId;
    const sid = await session();
    const created = await ade('adePickup_Create', { session: sid, consigns_ids: { items: [id] }, desc: 'by hand' });
    expect(created).not.toBeInstanceOf(SoapFault);

    const twice = await ade('adePickup_Create', { session: sid, consigns_ids: { items: [id] }, desc: 'by hand, again' });
    expect(twice).toMatchObject({ code: 'err_cons_not_found', reason: 'Przesyłka nie została znaleziona.' });
    const misspelt = await ade('adePickup_Create', { session: sid, consign_ids: { items: [id] } });
    expect(misspelt).toMatchObject({ code: 'Client', reason: expect.stringContaining('consign_ids') });
    const none = await ade('adePickup_Create', { session: sid, consigns_ids: {} });
    expect(none).toMatchObject({ code: 'err_pickup_make_problem' });
  });

  it('looks for a lost insert among the preparing box\'s consignments only, after a hand-over took others out of it', async () => {
    await handOver(dispatchOf(await createdShipments(1, 'TAKEN')), memoryProgress());
    const s = { ...FIXTURES[0]!.shipment, id: `sh_gls_dispatch_${++shipments}`, reference: 'AFTER-PICKUP' };
    const progress = memoryProgress();
    await control('POST', 'faults', { mode: 'timeout', count: 1, ms: 300 });
    await expect(gls.adapter.createShipment(s, settings, { ...ctx, progress })).rejects.toBeInstanceOf(CarrierTransientError);

    const created = await gls.adapter.createShipment(s, settings, { ...ctx, progress });

    expect((await held()).filter((c) => c.notes === s.id).map((c) => [c.consignId, c.state])).toEqual([[created.providerShipmentId, 'PreparingBox']]);
  });

  it('tracks nothing of a parcel still in the preparing box, and the parcel once its pickup gave it to GLS', async () => {
    const handed = await createdShipments(1, 'TRACK');
    const [n] = numbersOf(handed) as [string];
    const advance = () => control('POST', `parcels/${n}/advance`, { to: 'delivered' });

    const refused = await advance();
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toContain('preparing box');
    expect(await gls.adapter.track([{ trackingNumber: n }], settings, ctx)).toEqual([{ trackingNumber: n, found: false }]);

    await handOver(dispatchOf(handed), memoryProgress());
    expect((await advance()).status).toBe(200);
    const [tracked] = await gls.adapter.track([{ trackingNumber: n }], settings, ctx);
    expect(tracked).toMatchObject({ trackingNumber: n, found: true });
    expect(tracked!.found && tracked!.events.at(-1)!.status).toBe('delivered');
  });
});
