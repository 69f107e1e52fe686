import type { FieldErrors } from '../../domain/errors.js';
import { nameOfCode, statusOfCode } from '../codes.js';
import { localTime } from '../local-time.js';
import { readSoapBody, SoapFault, xmlList, xmlObject, xmlString, type XmlObject } from '../soap.js';
import type { TrackingEventFromCarrier, TrackResult } from '../types.js';
import { MRW_TRACKING } from './codes.js';

/**
 * SAGEC and TrackingService answers → our results. Pure. SAGEC answers every operation with `Estado` (1 done, 0
 * not) and `Mensaje`, a numbered list of MRW's sentences ("1) La fecha de recogida se cambió a 09/09/2024.2) … 3) Se
 * debe indicar el teléfono de contacto del destinatario"), and no error codes: our field paths are read from the
 * sentences. Shapes: MRW's WSDLs (TransmEnvioResponse, EtiquetaEnvioResponse, CancelarEnvioResponse; InfoSeguimiento).
 */

const NAME = 'MRW';
export const madridTime = localTime('Europe/Madrid');

/**
 * MRW numbers a shipment (albarán); each parcel is the albarán and its bulto number in three digits, as MRW's label
 * barcodes carry them after a prefix (a label reader's pattern `\d00631 <albarán> 001`). MRW publishes no rule of its own.
 */
export function bultoNumbers(numeroEnvio: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${numeroEnvio}${String(i + 1).padStart(3, '0')}`);
}

/** The albarán a parcel number belongs to (an albarán is its own). */
export function albaranOf(parcelNumber: string): string {
  return parcelNumber.slice(0, 12);
}

/** `1) a.2) b` → [`a.`, `b`]; a message without numbers is one sentence. */
export function mensajeItems(mensaje: string): string[] {
  return mensaje.split(/\d+\)\s*/).map((item) => item.trim()).filter(Boolean);
}

/** Sentences that tell, not refuse: a moved pickup date, a label printed "RF" (to be checked at the franchise). */
const NOTICE = /se cambi[oó]|solicitada es|se imprimir[aá]/i;
const CREDENTIALS = /no dispone de acceso|usuario .*(no v[aá]lido|incorrect)|contrase[ñn]a/i;

function isCredentialMessage(text: string): boolean {
  return CREDENTIALS.test(text);
}

/** Our field for one of MRW's sentences. */
export function mrwFieldPath(sentence: string): string {
  const text = sentence.toLowerCase();
  const origin = /remitente|recogida|origen/.test(text);
  const party = origin ? { contact: 'sender_contact', address: 'origin_address' } : { contact: 'recipient_contact', address: 'destination_address' };
  const bulto = /bulto\s+(\d+)/.exec(text);
  // customs data: the recipient's NIF and the kind of goods are fields of their own; value and contents come from the items
  if (/\bnif del destinatario/.test(text)) return 'customs.importer_tax_id';
  if (/tipo de mercanc[ií]a/.test(text)) return 'customs.contents_type';
  if (/valor declarado|contenido del env[ií]o/.test(text)) return 'customs';
  // the franchise office a shipment "con entrega en franquicia" goes to
  if (/franquicia/.test(text)) return 'pickup_point';
  if (/tel[eé]fono/.test(text)) return `${party.contact}.phone_number`;
  if (/c[oó]digo postal/.test(text)) return `${party.address}.postal_code`;
  if (/peso|kg/.test(text)) return bulto ? `parcels.${Number(bulto[1]) - 1}.weight_amount` : 'parcels';
  if (/bultos?/.test(text)) return 'parcels';
  if (/reembolso/.test(text)) return 'cash_on_delivery_amount';
  if (/servicio/.test(text)) return 'shipping_channel_id';
  if (/poblaci[oó]n/.test(text)) return `${party.address}.city_name`;
  if (/direcci[oó]n|\bv[ií]a\b|n[uú]mero de la calle/.test(text)) return `${party.address}.street_name`;
  if (/nombre/.test(text)) return `${party.contact}.company_name`;
  return 'shipment';
}

export interface MrwAnswer {
  /** `Estado` 1. */
  done: boolean;
  /** MRW's refusing sentences. */
  problems: string[];
  /** MRW's informing sentences. */
  notices: string[];
}

/** `Estado` and `Mensaje` of a result element. */
export function mrwAnswer(result: XmlObject): MrwAnswer {
  const items = mensajeItems(xmlString(result.Mensaje) ?? '');
  const done = xmlString(result.Estado) === '1';
  return { done, problems: done ? [] : items.filter((i) => !NOTICE.test(i)), notices: items.filter((i) => done || NOTICE.test(i)) };
}

export type MrwRefusal = { message: string; errors: FieldErrors };

/** MRW's refusing sentences on our fields; the credentials' refusal on the channel. */
export function refusalOf(answer: MrwAnswer, what: string): MrwRefusal {
  const problems = answer.problems.length > 0 ? answer.problems : ['MRW answered Estado 0 without a reason'];
  const errors: FieldErrors = {};
  for (const p of problems) (errors[isCredentialMessage(p) ? 'shipping_channel_id' : mrwFieldPath(p)] ??= []).push(`${NAME}: ${p}`);
  return { message: `${NAME} refused ${what}: ${problems[0]}`, errors };
}

export type MrwCreated =
  | { state: 'created'; numeroEnvio: string; numeroSolicitud: string | null; notices: string[] }
  | { state: 'credentials_refused'; reason: string }
  | ({ state: 'refused' } & MrwRefusal);

function credentialProblem(answer: MrwAnswer): string | undefined {
  return answer.problems.find(isCredentialMessage);
}

/** TransmEnvioResponse → MRW's shipment number, or why not. */
export function parseTransmEnvioBody(body: XmlObject): MrwCreated {
  const result = xmlObject(xmlObject(body.TransmEnvioResponse).TransmEnvioResult);
  const answer = mrwAnswer(result);
  const numeroEnvio = xmlString(result.NumeroEnvio);
  if (answer.done && numeroEnvio) return { state: 'created', numeroEnvio, numeroSolicitud: xmlString(result.NumeroSolicitud) ?? null, notices: answer.notices };
  const credentials = credentialProblem(answer);
  if (credentials) return { state: 'credentials_refused', reason: credentials };
  return { state: 'refused', ...refusalOf(answer, 'the shipment') };
}

export type MrwLabel =
  | { state: 'found'; document: Buffer }
  | { state: 'credentials_refused'; reason: string }
  | { state: 'refused'; message: string };

/** GetEtiquetaEnvioResponse → the PDF of the shipment's labels (`EtiquetaFile`, base64Binary). */
export function parseEtiquetaBody(body: XmlObject): MrwLabel {
  const result = xmlObject(xmlObject(body.GetEtiquetaEnvioResponse).GetEtiquetaEnvioResult);
  const answer = mrwAnswer(result);
  const file = xmlString(result.EtiquetaFile);
  if (answer.done && file) return { state: 'found', document: Buffer.from(file, 'base64') };
  const credentials = credentialProblem(answer);
  if (credentials) return { state: 'credentials_refused', reason: credentials };
  return { state: 'refused', message: `${NAME} made no label: ${answer.problems[0] ?? 'no EtiquetaFile in the answer'}` };
}

export type MrwCancelled = { state: 'cancelled' } | { state: 'credentials_refused'; reason: string } | ({ state: 'refused' } & MrwRefusal);

/** CancelarEnvioResponse; MRW refuses a shipment already on its way ("El estado del pedido ya no permite cancelaciones"). */
export function parseCancelarBody(body: XmlObject): MrwCancelled {
  const answer = mrwAnswer(xmlObject(xmlObject(body.CancelarEnvioResponse).CancelarEnvioResult));
  if (answer.done) return { state: 'cancelled' };
  const credentials = credentialProblem(answer);
  if (credentials) return { state: 'credentials_refused', reason: credentials };
  return { state: 'refused', ...refusalOf(answer, 'to cancel the shipment') };
}

/** The Body of an answer, or a SoapFault; an answer that is no SOAP envelope reads as an empty Body. */
export function soapBodyOf(xml: string): XmlObject | SoapFault {
  return readSoapBody(xml) ?? {};
}

interface TrackingItem {
  albaran: string | undefined;
  event: TrackingEventFromCarrier | undefined;
}

export type MrwTracking =
  | { state: 'found'; items: TrackingItem[] }
  | { state: 'not_found' }
  | { state: 'credentials_refused'; reason: string };

/** Events of GetEnviosResult: Seguimiento/Abonado[]/SeguimientoAbonado/Seguimiento[]; "No se encontraron resultados" when none. */
export function parseGetEnviosBody(body: XmlObject): MrwTracking {
  const result = xmlObject(xmlObject(body.GetEnviosResponse).GetEnviosResult);
  const message = xmlString(result.MensajeSeguimiento) ?? '';
  const items = xmlList(xmlObject(result.Seguimiento).Abonado)
    .flatMap((abonado) => xmlList(xmlObject(xmlObject(abonado).SeguimientoAbonado).Seguimiento))
    .map(xmlObject)
    .map((s) => ({ albaran: xmlString(s.NumAlbaran), event: trackingEvent(s) }));
  if (items.length > 0) return { state: 'found', items };
  if (isCredentialMessage(message)) return { state: 'credentials_refused', reason: message };
  return { state: 'not_found' };
}

/** The albarán a reference search found (the newest, when a reference was used twice). */
export function albaranFound(tracking: MrwTracking): string | undefined {
  return tracking.state === 'found' ? tracking.items.map((i) => i.albaran).filter(Boolean).pop() : undefined;
}

/** One result per asked number: the events of its albarán, which TrackingService reports for the whole shipment (no bulto in `Seguimiento`). */
export function trackResults(tracking: MrwTracking, asked: readonly string[]): TrackResult[] {
  return asked.map((trackingNumber) => {
    const own = tracking.state === 'found'
      ? tracking.items.filter((i) => i.albaran === undefined || i.albaran === trackingNumber || i.albaran === albaranOf(trackingNumber))
      : [];
    const events = own.flatMap((i) => i.event ?? []).sort((a, b) => a.occurredAt - b.occurredAt);
    return events.length === 0 ? { trackingNumber, found: false } : { trackingNumber, found: true, events };
  });
}

/** `Publicado` (xs:dateTime, with an offset as MRW sends it; Madrid time without one). */
function publishedAt(text: string): number | undefined {
  if (/(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return madridTime.parse(text);
}

function trackingEvent(s: XmlObject): TrackingEventFromCarrier | undefined {
  const code = xmlString(s.Estado);
  const occurredAt = publishedAt(xmlString(s.Publicado) ?? '');
  if (!code || occurredAt === undefined) return undefined;
  const person = xmlString(s.PersonaEntrega);
  return {
    code, text: xmlString(s.EstadoDescripcion) ?? nameOfCode(MRW_TRACKING, code), status: statusOfCode(MRW_TRACKING, code),
    location: null, description: person ? `Entregado a ${person}` : null, occurredAt,
  };
}

/** A Fault as a refusal: MRW's .NET faults name no field, so the shipment carries it. */
export function faultRefusal(fault: SoapFault): MrwRefusal {
  return { message: `${NAME} refused the request: ${fault.reason}`, errors: { shipment: [`${NAME}: ${fault.reason}`] } };
}

/** A refusal as our errors: a Fault, or an answer with Estado 0. */
export function parseRefusal(xml: string): MrwRefusal {
  const body = soapBodyOf(xml);
  if (body instanceof SoapFault) return faultRefusal(body);
  const [operation] = Object.keys(body);
  const response = xmlObject(body[operation ?? '']);
  const [resultName] = Object.keys(response);
  const answer = mrwAnswer(xmlObject(response[resultName ?? '']));
  const credentials = credentialProblem(answer);
  if (credentials) return { message: `${NAME} refused the credentials: ${credentials}`, errors: { shipping_channel_id: [`${NAME}: ${credentials}`] } };
  return refusalOf(answer, 'the shipment');
}
