import type { SoapService } from '../soap.js';

/** DHL24 hosts; the WebAPI2 service is SERVICE_PATH below each (karrio dhl_poland utils.py `server_url`). */
export const DHL_PL_BASE_URLS = { production: 'https://dhl24.com.pl', sandbox: 'https://sandbox.dhl24.com.pl' };
export const SERVICE_PATH = '/webapi2/provider/service.html?ws=1';

/**
 * The WebAPI2 service: SOAP 1.1 whose target namespace is the endpoint's own address (the sandbox has its own), with
 * `elementFormDefault="qualified"` (webapi2.xsd vendored by karrio), so every element inside an operation is in it;
 * SOAPAction `<namespace>#<operation>` (karrio dhl_poland proxy.py).
 */
export function dhlPlService(sandboxMode: boolean): SoapService {
  const namespace = `${sandboxMode ? DHL_PL_BASE_URLS.sandbox : DHL_PL_BASE_URLS.production}${SERVICE_PATH}`;
  return { version: '1.1', namespace, qualified: true, action: (operation) => `${namespace}#${operation}` };
}
