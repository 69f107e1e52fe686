import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { provider } from '../../src/carriers/mrw/index.js';
import { getEnviosPart } from '../../src/carriers/mrw/request.js';
import { TRACKING_PATH, TRACKING_SERVICE } from '../../src/carriers/mrw/services.js';
import { mrwSettings } from '../../src/carriers/mrw/settings.js';
import { readSoapBody, soapEnvelope, soapHttpHeaders } from '../../src/carriers/soap.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { advanceEmulatedParcel, createdDemoShipment, demoChannel } from '../helpers/shipments.js';

const HOUR = 3_600_000;

/**
 * What is particular to MRW's tracking: TrackingService answers by albarán (GetEnvios `tipoFiltro` 0, MRW's tracking
 * WSDL has no bulto in `Seguimiento`), so a shipment's parcels (albarán + 3-digit bulto) share the albarán's state.
 */
describe('MRW tracking by albarán', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let channel: string;

  const getEnvios = async (value: string) => {
    const res = await fetch(`${emu.urls.mrw}${TRACKING_PATH}`, {
      method: 'POST', headers: soapHttpHeaders(TRACKING_SERVICE, 'GetEnvios'),
      body: soapEnvelope(TRACKING_SERVICE, getEnviosPart({ byAlbaran: value }, mrwSettings.parse(provider.demo.settings))),
    });
    expect(res.status).toBe(200);
    return readSoapBody(await res.text());
  };
  const advance = (number: string, to: string) => advanceEmulatedParcel(emu.url, 'mrw', number, to);
  const shipment = (parcels: number) => createdDemoShipment(d, a, 'mrw', channel, parcels);

  beforeAll(async () => {
    d = await startTestDaemon({ carrierTimeoutMs: 10_000 });
    emu = await startEmulators({ providers: ['mrw'], port: 0, clock: d.clock });
    a = await d.account('Tienda MRW');
    channel = await demoChannel(a, 'mrw', emu.urls.mrw!);
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
  });

  it('moves both parcels of a shipment to delivered when MRW reports its albarán delivered', async () => {
    const s = await shipment(2);
    const [n1, n2] = s.parcels.map((p) => p.tracking_number) as [string, string];
    expect([n1.slice(0, 12), n2.slice(0, 12)]).toEqual([n1.slice(0, 12), n1.slice(0, 12)]);
    expect([n1.slice(12), n2.slice(12)]).toEqual(['001', '002']);
    await advance(n1, 'delivered');
    d.clock.advance(7 * HOUR);
    await d.runJobs();
    const now = (await a.request('GET', `/v1/shipments/${s.id}`)).json().data;
    expect(now.parcels.map((p: { tracking_status: string }) => p.tracking_status)).toEqual(['delivered', 'delivered']);
    expect(now.status).toBe('delivered');
  });

  it('finds a shipment by its albarán in the emulator, and nothing by a bulto\'s number', async () => {
    const [n1] = (await shipment(1)).parcels.map((p) => p.tracking_number) as [string];
    expect(JSON.stringify(await getEnvios(n1.slice(0, 12)))).toContain('Busqueda correcta por Número de Albarán.');
    expect(JSON.stringify(await getEnvios(n1))).toContain('No se encontraron resultados');
  });

  it('tracks an albarán given out elsewhere (12 characters, as MRW shows it) as an external tracking parcel', async () => {
    const [n1] = (await shipment(1)).parcels.map((p) => p.tracking_number) as [string];
    await advance(n1, 'in_transit');
    const albaran = n1.slice(0, 12);
    const res = await a.request('POST', '/v1/tracking-parcels', { tracking_number: albaran, shipping_channel_id: channel });
    expect(res.statusCode, res.body).toBe(201);
    await d.runJobs();
    const tracked = (await a.request('GET', `/v1/tracking-parcels/${res.json().data.id}`)).json().data;
    expect(tracked.status).toBe('in_transit');
    expect(tracked.tracking_url).toContain(`envio=${albaran}`);
  });
});
