import { SoapFault } from '../soap.js';
import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { mrwAdapter } from './adapter.js';
import { MRW_BASE_URLS } from './client.js';
import { MRW_SERVICES, MRW_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { mrwCreateRequest } from './request.js';
import { bultoNumbers, parseGetEnviosBody, parseRefusal, parseTransmEnvioBody, soapBodyOf, trackResults } from './response.js';
import { mrwSettings } from './settings.js';

/** The XML of an answer's envelope → its Body ({} for a Fault, which parseRefusal reads). */
function bodyOf(xml: unknown) {
  const body = soapBodyOf(String(xml));
  return body instanceof SoapFault ? {} : body;
}

const mappers: CarrierMappers = {
  createRequest: (shipment, settings) => mrwCreateRequest(shipment, mrwSettings.parse(settings)),
  parseCreated: (xml, shipment) => {
    const created = parseTransmEnvioBody(bodyOf(xml));
    return created.state === 'created' ? { ...created, trackingNumbers: bultoNumbers(created.numeroEnvio, shipment.parcels.length) } : created;
  },
  parseRefusal: (_status, xml) => parseRefusal(String(xml)),
  parseTracking: (xml, asked) => trackResults(parseGetEnviosBody(bodyOf(xml)), asked),
};

/**
 * MRW (Spain, Portugal) — SAGEC (SOAP 1.1, `AuthInfo` header): TransmEnvio, GetEtiquetaEnvio, CancelarEnvio; tracking
 * on MRW TrackingService (GetEnvios by albarán, whose state the shipment's parcels share). Follows MRW's WSDLs (the
 * TrackingService one as OCA/l10n-spain vendors it, delivery_mrw/api/mrw-api-tracking-prod.wsdl), MRW's SAGEC client
 * manual for what the fields mean, and the integrations generated from or tested against them.
 */
export const provider: ProviderDefinition = {
  code: 'mrw',
  name: 'MRW',
  regions: ['ES', 'PT', 'AD'],
  baseUrls: MRW_BASE_URLS,
  // GetEtiquetaEnvio answers a PDF (EtiquetaFile); MRW documents no limit on NumeroBultos: 50 is our own cap. Customs:
  // TransmEnvio's TipoMercancia, ValorDeclarado and NIFs (SAGEC manual §2.3, §3.2); MRW makes no invoice, packdesk does
  capabilities: {
    nativeLabelFormats: ['pdf'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true, trackingPerShipment: true, customs: true,
  },
  settings: mrwSettings.specs,
  docs: [
    'https://sagec.mrw.es/MRWEnvio.asmx?WSDL',
    // MRW's SAGEC client manual ("Manual de implantación cliente", v2.7, December 2013), kept in NaN-tic/python-mrw
    'https://github.com/NaN-tic/python-mrw/blob/5df63d82e6df85f59f061067bbb15713e23964a5/doc/SAGEC%20-%20Documento%20tecnico%20implantacion.pdf',
    'https://trackingservice.mrw.es/TrackingService.svc?wsdl',
    'https://github.com/OCA/l10n-spain/tree/14.0/delivery_mrw',
    'https://github.com/kavinsky/laravel-mrw-api',
    'https://github.com/migonzalvar/pysagec',
  ],
  adapter: mrwAdapter,
  trackingCodes: MRW_TRACKING,
  products: MRW_SERVICES,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createMrwEmulator),
};
