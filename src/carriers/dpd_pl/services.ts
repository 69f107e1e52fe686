import type { SoapService } from '../soap.js';

/**
 * The two SOAP services packdesk calls. Both are JAX-WS services (SOAP 1.1, empty SOAPAction as the Axis stubs
 * generated from their WSDLs send it) whose schemas have no `elementFormDefault`: only the operation element is in
 * the namespace (DPDPackageXmlServices.xsd in DPD's "DPDServices — customer documentation" 2.87 example project;
 * the request examples of that document write `<ns2:generatePackagesNumbersV4 xmlns:ns2=…><openUMLFeV3>`).
 */
export const DPD_PACKAGE_SERVICE: SoapService = {
  version: '1.1', namespace: 'http://dpdservices.dpd.com.pl/', qualified: false, action: () => '',
};

/** DPD Info Services (tracking events), a separate host with its own namespace. */
export const DPD_INFO_SERVICE: SoapService = {
  version: '1.1', namespace: 'http://events.dpdinfoservices.dpd.com.pl/', qualified: false, action: () => '',
};

export const PACKAGE_SERVICE_PATH = '/DPDPackageObjServicesService/DPDPackageObjServices';
export const INFO_SERVICE_PATH = '/DPDInfoServicesObjEventsService/DPDInfoServicesObjEvents';
