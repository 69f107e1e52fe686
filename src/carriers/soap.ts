/**
 * SOAP for carrier clients: envelopes written element by element in the order the carrier's WSDL declares them,
 * answers read with fast-xml-parser. packdesk writes envelopes itself rather than through a WSDL-driven SOAP
 * library: each carrier's request is then a plain object its tests check against the carrier's published XSD,
 * nothing is fetched at run time, and numbers such as `00123` stay text (`parseTagValue: false`).
 */
import { XMLParser } from 'fast-xml-parser';
import type { CarrierHttp } from './carrier-http.js';
import { CarrierRefusedError, CarrierTransientError } from './errors.js';

export type SoapVersion = '1.1' | '1.2';

export const SOAP_ENVELOPE_NAMESPACES: Readonly<Record<SoapVersion, string>> = {
  '1.1': 'http://schemas.xmlsoap.org/soap/envelope/',
  '1.2': 'http://www.w3.org/2003/05/soap-envelope',
};

/** An element's content: text, child elements in order, a repeated element (a list), or absent (not written). */
export type XmlValue = string | number | boolean | null | undefined | XmlElement | readonly XmlValue[];
export interface XmlElement {
  readonly [name: string]: XmlValue;
}

/** The carrier's service as its WSDL describes it. */
export interface SoapService {
  version: SoapVersion;
  /** The target namespace of the operations' elements. */
  namespace: string;
  /**
   * Whether the elements inside an operation are in the namespace too (`elementFormDefault="qualified"`, as .NET
   * services have it) or in no namespace (the default of Java and PHP services).
   */
  qualified: boolean;
  /** The SOAPAction of an operation (SOAP 1.1 header, SOAP 1.2 `action` parameter). */
  action(operation: string): string;
}

/** One element in the service's namespace, e.g. the operation or a header block. */
export interface SoapPart {
  name: string;
  content: XmlElement;
}

// XML 1.0 allows tab, newline, carriage return and the characters from U+0020 on (no lone surrogates, no U+FFFE/F).
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(value: string): string {
  return value.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function xmlValue(name: string, value: XmlValue): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map((item: XmlValue) => xmlValue(name, item)).join('');
  if (typeof value === 'object') return `<${name}>${xmlContent(value as XmlElement)}</${name}>`;
  return `<${name}>${xmlText(String(value))}</${name}>`;
}

/** Child elements in order, each written as `<name>…</name>` (no namespace). */
export function xmlContent(element: XmlElement): string {
  return Object.entries(element).map(([name, value]) => xmlValue(name, value)).join('');
}

/**
 * An element of the service's namespace. Qualified: a default namespace declaration puts every element inside in
 * it too. Unqualified: a prefix names the namespace of this element only, its children stay in no namespace.
 */
export function soapElement(service: Pick<SoapService, 'namespace' | 'qualified'>, part: SoapPart): string {
  const ns = xmlText(service.namespace);
  return service.qualified
    ? `<${part.name} xmlns="${ns}">${xmlContent(part.content)}</${part.name}>`
    : `<ns:${part.name} xmlns:ns="${ns}">${xmlContent(part.content)}</ns:${part.name}>`;
}

/** A whole envelope: optional header blocks, and the body's one element (an operation, its response or a fault). */
export function soapEnvelope(service: Pick<SoapService, 'version' | 'namespace' | 'qualified'>, body: SoapPart | string, headers: readonly SoapPart[] = []): string {
  const header = headers.length > 0 ? `<soap:Header>${headers.map((h) => soapElement(service, h)).join('')}</soap:Header>` : '';
  const content = typeof body === 'string' ? body : soapElement(service, body);
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP_ENVELOPE_NAMESPACES[service.version]}">${header}<soap:Body>${content}</soap:Body></soap:Envelope>`;
}

/** The HTTP headers of a call: SOAP 1.1 names the action in `SOAPAction`, SOAP 1.2 in the content type. */
export function soapHttpHeaders(service: SoapService, operation: string): Record<string, string> {
  const action = service.action(operation);
  return service.version === '1.1'
    ? { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${action}"` }
    : { 'content-type': `application/soap+xml; charset=utf-8; action="${action}"` };
}

/** A parsed element: text, or child elements by local name (an array where the element repeats). */
export type XmlObject = { [name: string]: XmlNode };
export type XmlNode = string | XmlObject | XmlNode[];

const parser = new XMLParser({
  removeNSPrefix: true, ignoreAttributes: true, parseTagValue: false, trimValues: true, processEntities: true, htmlEntities: false,
});

/** An element that may repeat, as a list (absent → empty). */
export function xmlList(node: XmlNode | undefined): XmlNode[] {
  if (node === undefined || node === '') return [];
  return Array.isArray(node) ? node : [node];
}

/** An element read as an object (text or absent → empty object). */
export function xmlObject(node: XmlNode | undefined): XmlObject {
  return node !== undefined && typeof node === 'object' && !Array.isArray(node) ? node : {};
}

/** An element's text (absent or not text → undefined). */
export function xmlString(node: XmlNode | undefined): string | undefined {
  return typeof node === 'string' ? node : undefined;
}

/** A SOAP Fault: `code` without its prefix (Client, Server, Sender, Receiver or the carrier's own), `detail` parsed. */
export class SoapFault extends Error {
  constructor(readonly code: string, readonly reason: string, readonly detail: XmlObject) {
    super(reason);
    this.name = 'SoapFault';
  }
}

/** An XML document parsed by local names (see XmlNode), or undefined when it is not XML. */
export function readXml(xml: string): XmlObject | undefined {
  try {
    return xmlObject(parser.parse(xml) as XmlNode);
  } catch {
    return undefined;
  }
}

/** The Envelope's Body, parsed; a Fault becomes SoapFault; anything that is not an envelope, undefined. */
export function readSoapBody(xml: string): XmlObject | SoapFault | undefined {
  const parsed = readXml(xml);
  if (parsed === undefined) return undefined;
  const envelope = xmlObject(parsed.Envelope);
  if (!('Body' in envelope)) return undefined;
  const body = xmlObject(envelope.Body);
  if (!('Fault' in body)) return body;
  const fault = xmlObject(body.Fault);
  // SOAP 1.1: faultcode/faultstring/detail; SOAP 1.2: Code/Value, Reason/Text, Detail.
  const code = xmlString(fault.faultcode) ?? xmlString(xmlObject(fault.Code).Value) ?? '';
  const reason = xmlString(fault.faultstring) ?? xmlString(xmlObject(fault.Reason).Text) ?? '';
  return new SoapFault(code.replace(/^.*:/, ''), reason, xmlObject(fault.detail ?? fault.Detail));
}

/**
 * Calls one operation and answers its Body. A SOAP Fault is thrown as SoapFault for the carrier's client to read
 * (which faults are refusals is the carrier's knowledge); an answer that is no SOAP envelope is a refusal on a 4xx
 * (wrong address or path) and worth another try otherwise.
 */
export async function soapCall(http: CarrierHttp, path: string, service: SoapService, operation: SoapPart, headers: readonly SoapPart[] = []): Promise<XmlObject> {
  const res = await http.call('POST', path, {
    headers: soapHttpHeaders(service, operation.name), body: soapEnvelope(service, operation, headers), soapFaults: true,
  });
  const body = readSoapBody(res.text());
  if (body instanceof SoapFault) throw body;
  if (body !== undefined && res.status < 300) return body;
  if (res.status >= 400 && res.status < 500) {
    throw new CarrierRefusedError(`${http.provider} answered HTTP ${res.status} without a SOAP envelope`, { 'settings.baseUrl': [`HTTP ${res.status} from the SOAP service`] });
  }
  throw new CarrierTransientError(`${http.provider} answered HTTP ${res.status} without a SOAP envelope`);
}
