import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provider } from '../../src/carriers/dhl_pl/index.js';
import { trackAndTracePart } from '../../src/carriers/dhl_pl/request.js';
import { dhlPlService, SERVICE_PATH } from '../../src/carriers/dhl_pl/service.js';
import { dhlPlSettings } from '../../src/carriers/dhl_pl/settings.js';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { readSoapBody, SoapFault, soapEnvelope, soapHttpHeaders } from '../../src/carriers/soap.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { advanceEmulatedParcel, createdDemoShipment, demoChannel } from '../helpers/shipments.js';

const HOUR = 3_600_000;
const PRODUCTION = dhlPlService(false);

/**
 * What is particular to DHL Parcel Poland's tracking: getTrackAndTraceInfo takes the shipment's number (`shipmentId`,
 * DHL24's method page: "Numer identyfikacyjny przesyłki", example 11122223333), so each parcel, labelled with its JJD
 * piece number, is tracked by its shipment's waybill and shares the shipment's events.
 */
describe('DHL Parcel Poland tracking by the shipment\'s waybill', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let channel: string;

  const trackAndTrace = async (shipmentId: string) => {
    const res = await fetch(`${emu.urls.dhl_pl}${SERVICE_PATH}`, {
      method: 'POST', headers: soapHttpHeaders(PRODUCTION, 'getTrackAndTraceInfo'),
      body: soapEnvelope(PRODUCTION, trackAndTracePart(shipmentId, dhlPlSettings.parse(provider.demo.settings))),
    });
    return readSoapBody(await res.text());
  };
  const advance = (number: string, to: string) => advanceEmulatedParcel(emu.url, 'dhl_pl', number, to);
  const shipment = (parcels: number) => createdDemoShipment(d, a, 'dhl_pl', channel, parcels);

  beforeAll(async () => {
    d = await startTestDaemon({ carrierTimeoutMs: 10_000 });
    emu = await startEmulators({ providers: ['dhl_pl'], port: 0, clock: d.clock });
    a = await d.account('Sklep DHL');
    channel = await demoChannel(a, 'dhl_pl', emu.urls.dhl_pl!);
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
  });

  it('moves both pieces of a shipment to delivered when DHL reports the shipment delivered', async () => {
    const s = await shipment(2);
    const [n1] = s.parcels.map((p) => p.tracking_number) as [string];
    expect(s.parcels.map((p) => p.tracking_number)).toEqual([expect.stringMatching(/^JJD\d{24}$/), expect.stringMatching(/^JJD\d{24}$/)]);
    await advance(n1, 'delivered');
    d.clock.advance(7 * HOUR);
    await d.runJobs();
    const now = (await a.request('GET', `/v1/shipments/${s.id}`)).json().data;
    expect(now.parcels.map((p: { tracking_status: string }) => p.tracking_status)).toEqual(['delivered', 'delivered']);
    expect(now.status).toBe('delivered');
  });

  it('answers getTrackAndTraceInfo in the emulator for a waybill, and a fault for a piece number', async () => {
    const s = await shipment(1);
    expect(s.provider_shipment_id).toMatch(/^\d{11}$/);
    expect(await trackAndTrace(s.provider_shipment_id)).toHaveProperty(['getTrackAndTraceInfoResponse', 'getTrackAndTraceInfoResult', 'shipmentId'], s.provider_shipment_id);
    expect(await trackAndTrace(s.parcels[0]!.tracking_number)).toMatchObject(new SoapFault('101', `shipmentId: brak przesyłki o numerze ${s.parcels[0]!.tracking_number}`, {}));
  });

  it('tracks a waybill given out elsewhere (11 digits) as an external tracking parcel', async () => {
    const s = await shipment(1);
    await advance(s.parcels[0]!.tracking_number, 'in_transit');
    const res = await a.request('POST', '/v1/tracking-parcels', { tracking_number: s.provider_shipment_id, shipping_channel_id: channel });
    expect(res.statusCode, res.body).toBe(201);
    await d.runJobs();
    expect((await a.request('GET', `/v1/tracking-parcels/${res.json().data.id}`)).json().data.status).toBe('in_transit');
  });
});
