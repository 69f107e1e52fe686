import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { dhlPlAdapter } from './adapter.js';
import { DHL_PL_BASE_URLS } from './client.js';
import { DHL_PL_PRODUCTS, DHL_PL_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { dhlPlCreateRequest } from './request.js';
import { parseCreated, parseRefusal, parseTracking } from './response.js';
import { dhlPlSettings } from './settings.js';

const mappers: CarrierMappers = {
  createRequest: (shipment, settings) => dhlPlCreateRequest(shipment, dhlPlSettings.parse(settings)),
  parseCreated: (body) => parseCreated(String(body)),
  parseRefusal: (status, body) => parseRefusal(status, String(body)),
  // each asked number is a shipment's waybill, asked alone as getTrackAndTraceInfo takes it
  parseTracking: (body, asked) => asked.flatMap((shipmentId) => parseTracking(String(body), { shipmentId, trackingNumbers: [shipmentId] })),
};

/**
 * DHL Parcel Poland — DHL24 WebAPI v2 (SOAP 1.1): createShipments (createShipment with product SP and the point's
 * SAP number to a DHL POP or DHL BOX, found with getNearestServicepoints; createShipmentReturn for a return), getPieceId, getLabels, deleteShipments,
 * getTrackAndTraceInfo (by the shipment's number, as its method page documents `shipmentId`; its parcels share the
 * shipment's events); at the end of the day bookCourier and the PNP report (getPnp, read with getLabelsData). Follows DHL's WebAPI2 documentation and the WSDL's types as karrio vendors them
 * (modules/connectors/dhl_poland/schemas/webapi2.xsd).
 */
export const provider: ProviderDefinition = {
  code: 'dhl_pl',
  name: 'DHL Parcel Poland',
  regions: ['PL', 'EU'],
  baseUrls: DHL_PL_BASE_URLS,
  // getLabels offers PDF (BLP, LBLP, LP) and ZPL (ZBLP, ZBLP300), no EPL; 50 parcels is our own cap (DHL publishes none)
  // returns: createShipmentReturn with ZK (within Poland) or ZC (Connect, from abroad), the outbound's waybill as primaryWaybillNumber
  capabilities: { nativeLabelFormats: ['pdf', 'zpl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: true, trackingPerShipment: true, returns: true },
  settings: dhlPlSettings.specs,
  docs: [
    'https://dhl24.com.pl/en/webapi2/doc/info/createShipments.html',
    'https://dhl24.com.pl/en/webapi2/doc/info/createShipment.html',
    'https://dhl24.com.pl/en/webapi2/doc/info/createShipmentReturn.html',
    'https://dhl24.com.pl/en/servicepoint/doc/info/PointAllStructure.html',
    'https://dhl24.com.pl/en/webapi2/doc/info/getPieceIdResponse.html',
    'https://dhl24.com.pl/en/webapi2/doc/info/shipmentEvent.html',
    'https://dhl24.com.pl/webapi2/doc/info.html?id=getTrackAndTraceInfo',
    'https://dhl24.com.pl/en/webapi2/doc/info/bookCourier.html',
    'https://dhl24.com.pl/en/webapi2/doc/info/getPnp.html',
    'https://sandbox.dhl24.com.pl/webapi2/doc/info.html?id=itemsToLabelDataResponse',
    'https://github.com/karrioapi/karrio/blob/main/modules/connectors/dhl_poland/schemas/webapi2.xsd',
    'https://github.com/karrioapi/karrio/blob/main/modules/connectors/mydhl/vendors/status_1.csv',
  ],
  adapter: dhlPlAdapter,
  trackingCodes: DHL_PL_TRACKING,
  products: DHL_PL_PRODUCTS,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createDhlPlEmulator),
};
