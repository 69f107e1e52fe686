import type { SoapService } from '../soap.js';

/**
 * SAGEC (MRWEnvio.asmx), an ASP.NET web service: its schema has `elementFormDefault="qualified"` and its SOAP 1.1
 * binding names each operation's SOAPAction `http://www.mrw.es/<element>` (MRW's WSDL, https://sagec.mrw.es/
 * MRWEnvio.asmx?WSDL, as saved in OCA/l10n-spain `delivery_mrw/api/mrw-api-prod.wsdl`). The label operation is
 * `EtiquetaEnvio` in the WSDL's portType, but its element and SOAPAction are `GetEtiquetaEnvio`.
 */
export const SAGEC_SERVICE: SoapService = {
  version: '1.1', namespace: 'http://www.mrw.es/', qualified: true, action: (operation) => `http://www.mrw.es/${operation}`,
};

/**
 * MRW TrackingService, a WCF service on its own host: namespace `http://tempuri.org/`, qualified, SOAPAction
 * `http://tempuri.org/ITrackingService/<operation>` (its WSDL, https://trackingservice.mrw.es/TrackingService.svc?wsdl,
 * saved in OCA/l10n-spain `delivery_mrw/api/mrw-api-tracking-prod.wsdl`).
 */
export const TRACKING_SERVICE: SoapService = {
  version: '1.1', namespace: 'http://tempuri.org/', qualified: true, action: (operation) => `http://tempuri.org/ITrackingService/${operation}`,
};

export const SAGEC_PATH = '/MRWEnvio.asmx';
export const TRACKING_PATH = '/TrackingService.svc/TrackingServices';
