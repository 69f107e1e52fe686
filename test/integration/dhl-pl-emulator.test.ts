import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dhlPlService, SERVICE_PATH } from '../../src/carriers/dhl_pl/service.js';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { readSoapBody, SoapFault, soapEnvelope, soapHttpHeaders, type SoapService } from '../../src/carriers/soap.js';

const PRODUCTION = dhlPlService(false);
const SANDBOX = dhlPlService(true);

/** What is particular to DHL Parcel Poland's emulator: it stands in for DHL24's production and sandbox services, whose namespaces differ. */
describe('the DHL Parcel Poland emulator', () => {
  let emu: RunningEmulators;
  /** One WebAPI2 call written by `writer` (envelope namespace and SOAPAction), as raw HTTP. */
  const call = async (writer: SoapService, operation: string) => {
    const res = await fetch(`${emu.urls.dhl_pl}${SERVICE_PATH}`, {
      method: 'POST', headers: soapHttpHeaders(writer, operation), body: soapEnvelope(writer, { name: operation, content: {} }),
    });
    return { status: res.status, xml: await res.text() };
  };

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['dhl_pl'], port: 0 });
  });
  afterAll(() => emu.close());

  it.each([['production', PRODUCTION], ['sandbox', SANDBOX]] as const)('answers a call in the %s namespace in that same namespace', async (_mode, service) => {
    const { status, xml } = await call(service, 'getVersion');
    expect(status, xml).toBe(200);
    expect(xml).toContain(`<getVersionResponse xmlns="${service.namespace}">`);
    expect(readSoapBody(xml)).toHaveProperty(['getVersionResponse', 'getVersionResult']);
  });

  it('refuses an operation in neither namespace, and a sandbox call with the production SOAPAction, as SOAP faults', async () => {
    const elsewhere = 'https://example.test/webapi2';
    const unknown = await call({ ...PRODUCTION, namespace: elsewhere, action: (op) => `${elsewhere}#${op}` }, 'getVersion');
    expect(unknown.status).toBe(500);
    expect(readSoapBody(unknown.xml)).toMatchObject(new SoapFault('Client', `Unknown operation {${elsewhere}}getVersion.`, {}));
    const mixed = await call({ ...SANDBOX, action: PRODUCTION.action }, 'getVersion');
    expect(mixed.status).toBe(500);
    expect(readSoapBody(mixed.xml)).toMatchObject({ code: 'Client', reason: expect.stringMatching(/SOAPAction/) });
  });
});
