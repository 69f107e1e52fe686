/**
 * SOAP endpoints for carrier emulators: reads the envelope namespace-aware, checks the SOAP version, the
 * SOAPAction, and that the operation and every element inside it are in the namespace the carrier's WSDL puts them
 * in, then hands the operation's content (by local names, as clients read answers) to the carrier's handler.
 * Whatever a handler throws as EmulatedSoapFault is answered as a SOAP Fault in the service's version.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { XMLParser } from 'fast-xml-parser';
import { SOAP_ENVELOPE_NAMESPACES, soapElement, soapEnvelope, xmlText, type SoapPart, type SoapService, type SoapVersion, type XmlObject } from '../soap.js';

export interface SoapRequest {
  /** The service at the endpoint whose namespace the operation is in; it answers the request. */
  service: SoapService;
  version: SoapVersion;
  operation: string;
  /** The operation element's content, by local names. */
  body: XmlObject;
  /** Header blocks by local name. */
  headers: XmlObject;
}

/** A fault to answer: `Client`/`Server` (written in the version's form) or the carrier's own fault code. */
export class EmulatedSoapFault extends Error {
  constructor(readonly code: string, readonly reason: string, readonly detail?: SoapPart) {
    super(reason);
  }
}

const parser = new XMLParser({
  ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: false, parseTagValue: false, parseAttributeValue: false,
  trimValues: true, processEntities: true, htmlEntities: false, textNodeName: '#text',
});

type Raw = string | { [key: string]: Raw } | Raw[];
type Scope = Readonly<Record<string, string>>;

/** The element's namespace scope after its own xmlns declarations. */
function scopeOf(raw: Raw, parent: Scope): Scope {
  if (typeof raw !== 'object' || Array.isArray(raw)) return parent;
  const scope: Record<string, string> = { ...parent };
  for (const [key, value] of Object.entries(raw)) {
    if (key === '@xmlns') scope[''] = String(value);
    else if (key.startsWith('@xmlns:')) scope[key.slice(7)] = String(value);
  }
  return scope;
}

function qualifiedName(key: string, scope: Scope): { local: string; namespace: string | undefined } {
  const colon = key.indexOf(':');
  const prefix = colon < 0 ? '' : key.slice(0, colon);
  return { local: colon < 0 ? key : key.slice(colon + 1), namespace: scope[prefix] || undefined };
}

/**
 * An element's content by local names, failing on the first element that is not in `expected` (its namespace as
 * the WSDL has it: the target namespace when qualified, none when not).
 */
function contentOf(raw: Raw, scope: Scope, expected: string | undefined, at: string): XmlObject | string {
  if (typeof raw === 'string') return raw;
  if (Array.isArray(raw)) throw new EmulatedSoapFault('Client', `Unexpected repeated content at ${at}`);
  const out: Record<string, XmlObject[string]> = {};
  const text = raw['#text'];
  for (const [key, value] of Object.entries(raw)) {
    if (key.startsWith('@') || key === '#text') continue;
    const items = (Array.isArray(value) ? value : [value]).map((item) => {
      const inner = scopeOf(item, scope);
      const { local, namespace } = qualifiedName(key, inner);
      if (namespace !== expected) {
        throw new EmulatedSoapFault('Client', `Unexpected element {${namespace ?? ''}}${local} at ${at}: expected it in ${expected ? `namespace ${expected}` : 'no namespace'}`);
      }
      return contentOf(item, inner, expected, `${at}/${local}`);
    });
    out[qualifiedName(key, scope).local] = items.length === 1 ? items[0]! : items;
  }
  return Object.keys(out).length === 0 && typeof text === 'string' ? text : out;
}

function single(raw: Raw | undefined, scope: Scope, namespace: string, local: string): { raw: Raw; scope: Scope } | undefined {
  if (raw === undefined || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  for (const [key, value] of Object.entries(raw)) {
    if (key.startsWith('@') || key === '#text') continue;
    if (Array.isArray(value)) continue;
    const inner = scopeOf(value, scope);
    const name = qualifiedName(key, inner);
    if (name.local === local && name.namespace === namespace) return { raw: value, scope: inner };
  }
  return undefined;
}

/** The SOAPAction a request names: the SOAP 1.1 header, or the `action` parameter of a SOAP 1.2 content type. */
function actionOf(request: FastifyRequest, version: SoapVersion): string | undefined {
  const raw = version === '1.1' ? request.headers.soapaction : /;\s*action="?([^";]*)"?/i.exec(request.headers['content-type'] ?? '')?.[1];
  return typeof raw === 'string' ? raw.replace(/^"|"$/g, '') : undefined;
}

/**
 * Reads one SOAP request as the endpoint's service whose namespace its operation is in declares it (the envelope in
 * the first service's SOAP version); a request none of them would take throws EmulatedSoapFault.
 */
export function readSoapRequest(services: readonly [SoapService, ...SoapService[]], request: FastifyRequest): SoapRequest {
  if (typeof request.body !== 'string') throw new EmulatedSoapFault('Client', 'The request is not a SOAP envelope (no XML body).');
  let document: Raw;
  try {
    document = parser.parse(request.body) as Raw;
  } catch (err) {
    throw new EmulatedSoapFault('Client', `The request is not well-formed XML: ${(err as Error).message}`);
  }
  const { version } = services[0];
  const envelopeNs = SOAP_ENVELOPE_NAMESPACES[version];
  const envelope = single(document, scopeOf(document, {}), envelopeNs, 'Envelope');
  if (!envelope) throw new EmulatedSoapFault('VersionMismatch', `The request is not a SOAP ${version} envelope (${envelopeNs}).`);
  const body = single(envelope.raw, envelope.scope, envelopeNs, 'Body');
  const operations = body && typeof body.raw === 'object' && !Array.isArray(body.raw)
    ? Object.keys(body.raw).filter((key) => !key.startsWith('@') && key !== '#text') : [];
  if (!body || operations.length !== 1) throw new EmulatedSoapFault('Client', 'The SOAP Body must hold exactly one operation element.');
  const operationRaw = (body.raw as Record<string, Raw>)[operations[0]!]!;
  const { local: operation, namespace } = qualifiedName(operations[0]!, scopeOf(operationRaw, body.scope));
  const service = services.find((s) => s.namespace === namespace);
  if (!service) throw new EmulatedSoapFault('Client', `Unknown operation {${namespace ?? ''}}${operation}.`);
  const action = actionOf(request, version);
  if (action !== undefined && action !== service.action(operation)) {
    throw new EmulatedSoapFault('Client', `Server did not recognize the value of HTTP Header SOAPAction: ${action}.`);
  }
  const inner = service.qualified ? service.namespace : undefined;
  const content = contentOf(operationRaw, scopeOf(operationRaw, body.scope), inner, operation);
  const headers: Record<string, XmlObject[string]> = {};
  const header = single(envelope.raw, envelope.scope, envelopeNs, 'Header');
  if (header && typeof header.raw === 'object' && !Array.isArray(header.raw)) {
    for (const [key, value] of Object.entries(header.raw)) {
      if (key.startsWith('@') || key === '#text' || Array.isArray(value)) continue;
      const scope = scopeOf(value, header.scope);
      const name = qualifiedName(key, scope);
      if (name.namespace === service.namespace) headers[name.local] = contentOf(value, scope, inner, name.local);
    }
  }
  return { service, version, operation, body: typeof content === 'string' ? {} : content, headers };
}

const CONTENT_TYPES: Readonly<Record<SoapVersion, string>> = { '1.1': 'text/xml; charset=utf-8', '1.2': 'application/soap+xml; charset=utf-8' };
const STANDARD_CODES: Readonly<Record<SoapVersion, Readonly<Record<string, string>>>> = {
  '1.1': { Client: 'soap:Client', Server: 'soap:Server', VersionMismatch: 'soap:VersionMismatch' },
  '1.2': { Client: 'soap:Sender', Server: 'soap:Receiver', VersionMismatch: 'soap:VersionMismatch' },
};

/** A Fault envelope in the service's version (HTTP 500, as SOAP sends faults). */
export function soapFaultEnvelope(service: SoapService, fault: EmulatedSoapFault): string {
  const code = xmlText(STANDARD_CODES[service.version][fault.code] ?? fault.code);
  const detail = fault.detail ? soapElement(service, fault.detail) : '';
  const reason = xmlText(fault.reason);
  const xml = service.version === '1.1'
    ? `<soap:Fault><faultcode>${code}</faultcode><faultstring>${reason}</faultstring>${detail ? `<detail>${detail}</detail>` : ''}</soap:Fault>`
    : `<soap:Fault><soap:Code><soap:Value>${code}</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${reason}</soap:Text></soap:Reason>${detail ? `<soap:Detail>${detail}</soap:Detail>` : ''}</soap:Fault>`;
  return soapEnvelope(service, xml);
}

/** The server's fault injection in the carrier's shape: a Server fault (HTTP 500 or 429 as the fault asks). */
export function soapFaultResponse(service: SoapService, reason: string): { contentType: string; body: string } {
  return { contentType: CONTENT_TYPES[service.version], body: soapFaultEnvelope(service, new EmulatedSoapFault('Server', reason)) };
}

export type SoapHandler = (request: SoapRequest, http: FastifyRequest) => Promise<SoapPart> | SoapPart;

/**
 * Serves a SOAP service at `path`: every operation of `handlers`, each answered with the part it returns (the
 * operation's response element); unknown operations, malformed envelopes and thrown EmulatedSoapFaults as Faults.
 * Several services (one per target namespace, e.g. a carrier's production and sandbox) share the handlers: each
 * request is answered in its own service's namespace, a request in none of them in the first's.
 */
export function serveSoap(
  app: FastifyInstance, path: string, service: SoapService | readonly [SoapService, ...SoapService[]], handlers: Readonly<Record<string, SoapHandler>>,
): void {
  const services = 'namespace' in service ? [service] as const : service;
  const fault = (reply: FastifyReply, answering: SoapService, err: EmulatedSoapFault) =>
    reply.code(500).type(CONTENT_TYPES[answering.version]).send(soapFaultEnvelope(answering, err));
  app.post(path, async (request, reply) => {
    let answering = services[0];
    try {
      const soap = readSoapRequest(services, request);
      answering = soap.service;
      const handler = Object.hasOwn(handlers, soap.operation) ? handlers[soap.operation] : undefined;
      if (!handler) throw new EmulatedSoapFault('Client', `Unknown operation ${soap.operation}.`);
      return reply.type(CONTENT_TYPES[answering.version]).send(soapEnvelope(answering, await handler(soap, request)));
    } catch (err) {
      if (err instanceof EmulatedSoapFault) return fault(reply, answering, err);
      throw err;
    }
  });
}
