import { readSoapBody, SoapFault, xmlObject } from '../soap.js';
import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { glsPlAdapter } from './adapter.js';
import { GLS_PL_BASE_URLS } from './client.js';
import { GLS_PL_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { glsPlInsertXml } from './request.js';
import { labelsInParcelOrder, parseGlsPlRefusal, parseParcelLabels, parseTrackingAnswer, type GlsTrackingAnswer } from './response.js';
import { glsPlSettings } from './settings.js';

/** The session of a request comes from adeLogin at run time; the fixtures show it as this. */
const FIXTURE_SESSION = 'SESSION';

const mappers: CarrierMappers = {
  createRequest: (shipment, settings) => glsPlInsertXml(shipment, glsPlSettings.parse(settings), FIXTURE_SESSION),
  parseCreated: (body, shipment) => {
    const answer = readSoapBody(String(body));
    if (answer === undefined || answer instanceof SoapFault) throw new Error('not an adePreparingBox_GetConsignLabelsExt answer');
    const labels = parseParcelLabels(xmlObject(answer.adePreparingBox_GetConsignLabelsExtResponse));
    return labelsInParcelOrder(labels, labels.map((l) => l.number), shipment.parcels.length);
  },
  parseRefusal: (status, body) => parseGlsPlRefusal(status, String(body ?? '')),
  parseTracking: (body, asked) => parseTrackingAnswer(body as GlsTrackingAnswer | undefined, asked),
};

/**
 * GLS Poland — ADE Plus WebAPI 2 (SOAP, adeLogin session): preparing box, per-parcel labels, delete, pickup with its
 * receipt, courier order, ParcelShop delivery (`sds`) and search (adeParcelShop_*); GLS Track & Trace.
 */
export const provider: ProviderDefinition = {
  code: 'gls_pl',
  name: 'GLS Poland',
  regions: ['PL'],
  baseUrls: GLS_PL_BASE_URLS,
  // ADE documents no parcel limit per consignment; packdesk's shipments have at most 50 parcels.
  // returns: ShopReturn-Service (srs) with the customer and the warehouse in srv_ppe, the outbound's parcels in its references
  capabilities: { nativeLabelFormats: ['pdf', 'zpl', 'epl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true, returns: true },
  settings: glsPlSettings.specs,
  docs: [
    'https://adeplus.gls-poland.com/adeplus/pm1/manuals/webapi2_pl/index.htm',
    'https://adeplus.gls-poland.com/adeplus/pm1/ade_webapi2.php?wsdl',
    'https://github.com/kerogos/gls-polska',
    'https://github.com/dbojdo/gls-ade',
    'https://github.com/sylapi/courier-gls',
    'https://github.com/tjamps/gls-tracking',
    'https://github.com/glspoland/Magento-Integration-Module',
  ],
  adapter: glsPlAdapter,
  trackingCodes: GLS_PL_TRACKING,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createGlsPlEmulator),
};
