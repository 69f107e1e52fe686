import type { SoapService } from '../soap.js';

/**
 * The ADE Plus WebAPI 2 as its WSDL (`ade_webapi2.php?wsdl`) describes it: SOAP 1.1, document/literal (named
 * complexTypes `adeLogin`, `adeLoginResponse`, … wrap each operation's parts, see the classes generated from the WSDL
 * in github.com/kerogos/gls-polska src/Soap/), elements inside an operation unqualified, as PHP services write them.
 * The target namespace and the SOAPAction are inferred (no public copy of the WSDL text): the service URL, and
 * `<namespace>#<operation>` as PHP's WSDL generators write it.
 */
export const ADE_SERVICE: SoapService = {
  version: '1.1',
  namespace: 'https://adeplus.gls-poland.com/adeplus/pm1/ade_webapi2.php',
  qualified: false,
  action: (operation) => `https://adeplus.gls-poland.com/adeplus/pm1/ade_webapi2.php#${operation}`,
};

/** ADE hosts (github.com/kerogos/gls-polska config/gls-polska.php); the service lives at ADE_PATH on both. */
export const GLS_PL_BASE_URLS = {
  production: 'https://adeplus.gls-poland.com',
  sandbox: 'https://ade-test.gls-poland.com',
};
export const ADE_PATH = '/adeplus/pm1/ade_webapi2.php';

/**
 * GLS Group Track & Trace (github.com/kerogos/gls-polska src/Services/AdeTTClient.php): HTTP Basic with the
 * separate T&T credentials, `GET /public/v1/tracking/references/{number}`. A channel's `baseUrl` override (an
 * emulator, a proxy) serves it beside ADE.
 */
export const GLS_TRACKING_BASE_URL = 'https://api.gls-group.eu';
export const GLS_TRACKING_PATH = '/public/v1/tracking/references/';
