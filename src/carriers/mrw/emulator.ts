/**
 * MRW as a local server: SAGEC (MRWEnvio.asmx: TransmEnvio, GetEtiquetaEnvio, CancelarEnvio) with the `AuthInfo`
 * header, and TrackingService (GetEnvios, credentials in the body) at their real paths, SOAP 1.1. Refusals come as
 * SAGEC gives them, `Estado` 0 and numbered sentences; requests the schema does not fit as ASP.NET Client faults.
 */
import type { FastifyPluginAsync } from 'fastify';
import { mergeLabels } from '../../labels/index.js';
import { isBadCredential } from '../emulator/auth.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { renderLabel } from '../emulator/labels.js';
import { numberSequence } from '../emulator/numbers.js';
import { generatePoints, type GeneratedPoint } from '../emulator/points.js';
import { EmulatedShipments, type EmulatedEvent, type EmulatedShipment } from '../emulator/shipments.js';
import { serveSoap, soapFaultResponse, type SoapRequest } from '../emulator/soap.js';
import { xmlObject, xmlString, type XmlElement } from '../soap.js';
import { MRW_SERVICES, MRW_TRACKING } from './codes.js';
import { checkAgainstSchema } from './emulator-schema.js';
import { checkTransmEnvio, type EmulatedParty, type EmulatedTransmEnvio } from './emulator-validation.js';
import { bultoNumbers, madridTime } from './response.js';
import { SAGEC_PATH, SAGEC_SERVICE, TRACKING_PATH, TRACKING_SERVICE } from './services.js';

type MrwShipment = EmulatedShipment<EmulatedTransmEnvio & { franchise: string; subscriber: string; numeroSolicitud: string }>;

/** SAGEC's answer to credentials it does not know (MRW's own wording, seen in integrations' tests). */
const NO_ACCESS = 'El usuario especificado no dispone de acceso al sistema, consulte con su franquicia.';

/** `Estado` and a numbered `Mensaje`, as SAGEC writes every result. */
function result(done: boolean, sentences: readonly string[], more: XmlElement = {}): XmlElement {
  return { Estado: done ? '1' : '0', Mensaje: sentences.length > 0 ? sentences.map((s, i) => `${i + 1}) ${s}`).join('') : undefined, ...more };
}

/** `2026-11-25T12:31:05+01:00`: Madrid wall-clock time with its offset, as TrackingService writes `Publicado`. */
function published(ms: number): string {
  const local = madridTime.format(ms);
  const offset = Math.round((Date.parse(`${local}Z`) - Math.floor(ms / 1000) * 1000) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * MRW's franchise offices in Spain, where a shipment "con entrega en franquicia" waits: generated, each numbered with
 * a franchise code of five digits as MRW writes them (`02650`, `00626`), from the point's `seq`.
 */
export function mrwOffices(): Map<string, GeneratedPoint> {
  const points = generatePoints({ countryCode: 'ES', count: 300, seed: 'mrw-franquicias', types: ['post_office'] });
  return new Map(points.map((p) => [mrwOfficeCode(p.seq), p]));
}

function mrwOfficeCode(seq: number): string {
  return String(1000 + seq * 7).padStart(5, '0');
}

interface Caller {
  owner: string;
  franchise: string;
  subscriber: string;
}

/** The caller of a SAGEC call, from its AuthInfo header; undefined when SAGEC would not let it in. */
function sagecCaller(soap: SoapRequest): Caller | undefined {
  const auth = xmlObject(soap.headers.AuthInfo);
  checkAgainstSchema('AuthInfo', auth, SAGEC_SERVICE.namespace);
  const [franchise, subscriber, user, password] = ['CodigoFranquicia', 'CodigoAbonado', 'UserName', 'Password'].map((k) => xmlString(auth[k]) ?? '');
  if (!franchise || !subscriber || !user || !password || isBadCredential(franchise, subscriber, user, password)) return undefined;
  return { owner: `${franchise}/${subscriber}`, franchise, subscriber };
}

export function createMrwEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const eventView = (event: EmulatedEvent) => ({ Estado: event.code, EstadoDescripcion: MRW_TRACKING.codes[event.code]?.name ?? null, Publicado: published(event.at) });
  const shipments = new EmulatedShipments<MrwShipment['request']>(clock, MRW_TRACKING, eventView);
  const nextAlbaran = numberSequence(clock, { prefix: '8', digits: 7 });
  const offices = mrwOffices();
  /** The shipment's labels in one PDF, a page per bulto in order, the same bytes every time. */
  const documentOf = (s: MrwShipment): Promise<Buffer> => shipments.document(s, 'pdf', (p) => renderLabel('pdf', {
    carrier: 'MRW', trackingNumber: p.number, parcelIndex: p.index, parcelCount: s.parcels.length, reference: s.request.bultos[p.index - 1]?.reference ?? undefined,
    // a franchise office's code where the service's name would be: the label's product line is short
    product: `${s.product} ${s.request.franchiseOffice ? `Franquicia ${s.request.franchiseOffice.code ?? ''}` : MRW_SERVICES[s.product]?.name ?? ''}${s.request.cod ? ' · Reembolso' : ''}`.trim(),
    sender: partyLines(s.request.sender), recipient: partyLines(s.request.recipient),
    cod: s.request.cod ? { amount: s.request.cod.amount.replace(',', '.'), currency: 'EUR' } : undefined,
  }));

  const transmEnvio = (soap: SoapRequest) => {
    const answer = (done: boolean, sentences: string[], more?: XmlElement) => ({ name: 'TransmEnvioResponse', content: { TransmEnvioResult: result(done, sentences, more) } });
    checkAgainstSchema('TransmEnvio', soap.body, SAGEC_SERVICE.namespace);
    const caller = sagecCaller(soap);
    if (!caller) return answer(false, [NO_ACCESS]);
    const check = checkTransmEnvio(xmlObject(soap.body.request), (office) => offices.get(office));
    if (!check.ok) return answer(false, check.problems);
    const albaran = `${caller.franchise.padStart(5, '0').slice(-5)}${nextAlbaran()}`;
    const stamp = madridTime.format(clock.now(), '').replace(/\D/g, '');
    const numeroSolicitud = `${caller.franchise.padStart(5, '0').slice(-5)}${caller.subscriber.padStart(6, '0').slice(-6)}${stamp}${String(clock.now() % 1000).padStart(3, '0')}`;
    shipments.add({
      owner: caller.owner, referenceId: check.shipment.reference ?? '', product: check.shipment.service, labelFormat: 'pdf', id: albaran,
      request: { ...check.shipment, franchise: caller.franchise, subscriber: caller.subscriber, numeroSolicitud },
      numbers: bultoNumbers(albaran, check.shipment.bultos.length),
    });
    return answer(true, [], { NumeroSolicitud: numeroSolicitud, NumeroEnvio: albaran, Url: `https://sagec.mrw.es/Panel.aspx?NumSol=${numeroSolicitud}` });
  };

  const etiquetaEnvio = async (soap: SoapRequest) => {
    const answer = (done: boolean, sentences: string[], more?: XmlElement) => ({ name: 'GetEtiquetaEnvioResponse', content: { GetEtiquetaEnvioResult: result(done, sentences, more) } });
    checkAgainstSchema('GetEtiquetaEnvio', soap.body, SAGEC_SERVICE.namespace);
    const caller = sagecCaller(soap);
    if (!caller) return answer(false, [NO_ACCESS]);
    const request = xmlObject(soap.body.request);
    const separator = xmlString(request.SeparadorNumerosEnvio) || ',';
    const asked = (xmlString(request.NumeroEnvio) ?? '').split(separator).map((n) => n.trim()).filter(Boolean);
    const found = asked.map((n) => shipments.byId(caller.owner, n));
    const missing = asked.filter((_, i) => !found[i]);
    if (asked.length === 0) return answer(false, ['Debe indicar el número de envío']);
    if (missing.length > 0) return answer(false, missing.map((n) => `No existe el envío ${n}.`));
    const parts = await Promise.all((found as MrwShipment[]).map(documentOf));
    const document = parts.length === 1 ? parts[0]! : Buffer.from((await mergeLabels('pdf', parts)).content);
    return answer(true, [], { EtiquetaFile: document.toString('base64') });
  };

  const cancelarEnvio = (soap: SoapRequest) => {
    const answer = (done: boolean, sentences: string[], more?: XmlElement) => ({ name: 'CancelarEnvioResponse', content: { CancelarEnvioResult: result(done, sentences, more) } });
    checkAgainstSchema('CancelarEnvio', soap.body, SAGEC_SERVICE.namespace);
    const caller = sagecCaller(soap);
    if (!caller) return answer(false, [NO_ACCESS]);
    const numero = xmlString(xmlObject(xmlObject(soap.body.request).CancelaEnvio).NumeroEnvioOriginal) ?? '';
    const s = shipments.byId(caller.owner, numero);
    if (!s) return answer(false, [`No existe el envío ${numero}.`]);
    if (shipments.cancel(s) === 'not_cancellable') return answer(false, ['El estado del pedido ya no permite cancelaciones']);
    return answer(true, [], { NumeroSolicitud: s.request.numeroSolicitud, NumeroEnvio: s.id });
  };

  /** TrackingService: by albarán (tipoFiltro 0; a bulto's number finds nothing) or by the shipment's Referencia (1). */
  const getEnvios = ({ body }: SoapRequest) => {
    checkAgainstSchema('GetEnvios', body, TRACKING_SERVICE.namespace);
    const answer = (message: string, found: { s: MrwShipment; events: EmulatedEvent[] }[] = []) => ({
      name: 'GetEnviosResponse',
      content: {
        GetEnviosResult: {
          MensajeSeguimiento: message,
          Seguimiento: found.length === 0 ? undefined : {
            Abonado: [{
              InformacionAbonado: { Aplicacion: 'SAGEC', CodigoAbonado: found[0]!.s.request.subscriber, Franquicia: found[0]!.s.request.franchise },
              SeguimientoAbonado: {
                Seguimiento: found.flatMap(({ s, events }) => events.map((e) => ({
                  Estado: e.code, EstadoDescripcion: MRW_TRACKING.codes[e.code]?.name, Intentos: 0, NumAlbaran: s.id, Publicado: published(e.at),
                }))),
              },
            }],
          },
        },
      },
    });
    const [login, pass, franchise, subscriber, filter, value] = ['login', 'pass', 'codigoFranquicia', 'codigoAbonado', 'tipoFiltro', 'valorFiltroDesde'].map((k) => xmlString(body[k]) ?? '');
    if (!login || !pass || isBadCredential(login, pass)) return answer('Usuario o contraseña incorrectos');
    const owner = `${franchise}/${subscriber}`;
    if (filter === '1') {
      const found = shipments.byReference(owner, value).map((s) => ({ s, events: s.parcels[0]!.events }));
      return found.length > 0 ? answer('Busqueda correcta por Referencia.', found) : answer('No se encontraron resultados');
    }
    const whole = filter === '0' ? shipments.byId(owner, value) : undefined;
    return whole ? answer('Busqueda correcta por Número de Albarán.', [{ s: whole, events: whole.parcels[0]!.events }]) : answer('No se encontraron resultados');
  };

  const routes: FastifyPluginAsync = async (app) => {
    serveSoap(app, SAGEC_PATH, SAGEC_SERVICE, { TransmEnvio: transmEnvio, GetEtiquetaEnvio: etiquetaEnvio, CancelarEnvio: cancelarEnvio });
    serveSoap(app, TRACKING_PATH, TRACKING_SERVICE, { GetEnvios: getEnvios });
  };

  return {
    code,
    routes,
    // MRW tracks the albarán: all its bultos move together; one for a franchise office waits there (07) before it is collected
    advance: (trackingNumber, to) => {
      const found = shipments.parcel(trackingNumber);
      const waiting = found && shipments.lastStatus(found.parcel) === 'ready_for_pickup';
      return found?.shipment.request.franchiseOffice && to === 'delivered' && !waiting
        ? shipments.collectAtPoint(trackingNumber, true)
        : shipments.advanceWithShipment(trackingNumber, to);
    },
    shipments: () => shipments.records((s) => ({
      state: MRW_TRACKING.codes[shipments.lastCode(s.parcels[0]!)]!.name,
      numeroEnvio: s.id,
      numeroSolicitud: s.request.numeroSolicitud,
      franchise: s.request.franchise,
      subscriber: s.request.subscriber,
      cod: s.request.cod,
      franchiseOffice: s.request.franchiseOffice,
      customs: s.request.customs,
      weights: s.request.bultos.map((b) => b.weightKg),
      recipient: s.request.recipient,
    })),
    // AuthInfo travels in every call: there are no tokens to expire
    expireTokens: () => {},
    reset: () => shipments.reset(),
    faultResponse: (status, path) => soapFaultResponse(
      path.includes(TRACKING_PATH) ? TRACKING_SERVICE : SAGEC_SERVICE,
      status === 429 ? 'Server was unable to process request. ---> Too many requests, try again later.' : 'Server was unable to process request. ---> Object reference not set to an instance of an object.',
    ),
  };
}

function partyLines(p: EmulatedParty): string[] {
  return [p.name, p.attentionOf, p.street, [p.postalCode, p.city].filter(Boolean).join(' '), p.phone].filter((l): l is string => Boolean(l));
}
