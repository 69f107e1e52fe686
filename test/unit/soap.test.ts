import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CarrierHttp } from '../../src/carriers/carrier-http.js';
import { EmulatedSoapFault, serveSoap, soapFaultResponse, type SoapHandler } from '../../src/carriers/emulator/soap.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { readSoapBody, SoapFault, soapCall, soapElement, xmlList, xmlObject, xmlString, type SoapService, type XmlElement } from '../../src/carriers/soap.js';
import { systemClock } from '../../src/domain/clock.js';
import { xsdErrors } from '../helpers/xsd.js';

const NS = 'http://example.test/parcels/';
/** A .NET-style service: every element in the namespace, SOAP 1.1. */
const qualified: SoapService = { version: '1.1', namespace: NS, qualified: true, action: (op) => `${NS}${op}` };
/** A Java-style service: only the operation element in the namespace, SOAP 1.2. */
const unqualified: SoapService = { version: '1.2', namespace: NS, qualified: false, action: (op) => `urn:${op}` };

describe('the SOAP kit: envelopes written by the client, read by an emulator endpoint, answered and read back', () => {
  let app: FastifyInstance;
  let base: string;
  const http = () => new CarrierHttp('soaptest', base, { channelId: 'ch_soap', log: pino({ level: 'silent' }), clock: systemClock }, ['s3cret']);

  beforeAll(async () => {
    app = Fastify();
    app.addContentTypeParser(['text/xml', 'application/soap+xml'], { parseAs: 'string' }, (_request, body, done) => done(null, body));
    const handlers: Record<string, SoapHandler> = {
      createParcels: ({ body, headers }) => {
        const parcels = xmlList(xmlObject(body.parcels).parcel);
        if (parcels.length === 0) throw new EmulatedSoapFault('Client', 'No parcels', { name: 'ParcelFault', content: { field: 'parcels', code: 'EMPTY' } });
        return {
          name: 'createParcelsResponse',
          content: { numbers: { number: parcels.map((_, i) => `0012${i}`) }, note: xmlString(body.note), user: xmlString(xmlObject(headers.Auth).user) },
        };
      },
    };
    serveSoap(app, '/q', qualified, handlers);
    serveSoap(app, '/u', unqualified, handlers);
    app.get('/missing', (_request, reply) => reply.code(404).send('not here'));
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  const create = (note: string, parcels: XmlElement[]) => ({ name: 'createParcels', content: { note, parcels: { parcel: parcels } } });

  for (const [path, service] of [['/q', qualified], ['/u', unqualified]] as const) {
    it(`round-trips an operation in SOAP ${service.version} (${service.qualified ? 'qualified' : 'unqualified'}): text stays text, hostile characters are escaped`, async () => {
      const note = 'a < b & "c" \u0000 ok';
      const answer = await soapCall(http(), path, service, create(note, [{ weight: 1 }, { weight: 2 }]), [{ name: 'Auth', content: { user: 'me' } }]);
      const response = xmlObject(answer.createParcelsResponse);
      expect(xmlObject(response.numbers).number).toEqual(['00120', '00121']);
      expect(response.note).toBe('a < b & "c"  ok');
      expect(response.user).toBe('me');
    });

    it(`answers a fault with detail in SOAP ${service.version}, which the client throws as SoapFault`, async () => {
      const fault = await soapCall(http(), path, service, create('x', [])).catch((err: unknown) => err);
      expect(fault).toBeInstanceOf(SoapFault);
      expect(fault).toMatchObject({ code: service.version === '1.1' ? 'Client' : 'Sender', reason: 'No parcels', detail: { ParcelFault: { field: 'parcels', code: 'EMPTY' } } });
    });
  }

  it('refuses an element in the wrong namespace, an unknown operation and a wrong SOAPAction, as the WSDL would', async () => {
    // Children written unqualified to a qualified service: they are in no namespace.
    const wrongNamespace = await soapCall(http(), '/q', { ...qualified, qualified: false }, create('x', [{ weight: 1 }])).catch((err: unknown) => err);
    expect(wrongNamespace).toMatchObject({ code: 'Client', reason: expect.stringMatching(/Unexpected element \{\}note/) });
    const unknown = await soapCall(http(), '/q', qualified, { name: 'deleteParcels', content: {} }).catch((err: unknown) => err);
    expect(unknown).toMatchObject({ code: 'Client', reason: 'Unknown operation deleteParcels.' });
    const action = await soapCall(http(), '/q', { ...qualified, action: () => 'urn:other' }, create('x', [{ weight: 1 }])).catch((err: unknown) => err);
    expect(action).toMatchObject({ code: 'Client', reason: expect.stringMatching(/SOAPAction: urn:other/) });
    const version = await soapCall(http(), '/q', { ...qualified, version: '1.2' }, create('x', [{ weight: 1 }])).catch((err: unknown) => err);
    expect(version).toMatchObject({ code: 'VersionMismatch' });
  });

  it('takes an answer without a SOAP envelope as a refusal of the address on a 4xx', async () => {
    const err = await soapCall(http(), '/missing', qualified, create('x', [])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CarrierRefusedError);
    expect((err as CarrierRefusedError).errors).toHaveProperty(['settings.baseUrl']);
  });

  it('writes the fault an emulator injects in the service version, readable by the client', () => {
    const injected = readSoapBody(soapFaultResponse(unqualified, 'Internal error').body);
    expect(injected).toMatchObject({ code: 'Receiver', reason: 'Internal error' });
  });

  it('writes operation elements that validate against an XSD, and a misspelt element fails it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'packdesk-xsd-'));
    const schema = join(dir, 'parcels.xsd');
    writeFileSync(schema, `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${NS}" elementFormDefault="qualified">
  <xs:element name="createParcels"><xs:complexType><xs:sequence>
    <xs:element name="note" type="xs:string"/>
    <xs:element name="parcels"><xs:complexType><xs:sequence>
      <xs:element name="parcel" maxOccurs="unbounded"><xs:complexType><xs:sequence><xs:element name="weight" type="xs:decimal"/></xs:sequence></xs:complexType></xs:element>
    </xs:sequence></xs:complexType></xs:element>
  </xs:sequence></xs:complexType></xs:element>
</xs:schema>`);
    expect(xsdErrors(soapElement(qualified, create('x', [{ weight: 1.5 }, { weight: 2 }])), schema)).toEqual([]);
    const misspelt = xsdErrors(soapElement(qualified, create('x', [{ wieght: 1.5 }])), schema);
    expect(misspelt.join('\n')).toMatch(/wieght/);
  });
});
