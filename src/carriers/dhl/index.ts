import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { dhlAdapter } from './adapter.js';
import { DHL_BASE_URLS } from './client.js';
import { DHL_PRODUCTS, DHL_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { dhlShipmentRequest } from './request.js';
import { parseCreatedShipment, parseDhlProblem, parseTrackedShipments, type DhlCreatedBody, type DhlProblem } from './response.js';
import { dhlSettings } from './settings.js';

const mappers: CarrierMappers = {
  createRequest: (shipment, settings) => dhlShipmentRequest(shipment, dhlSettings.parse(settings)),
  parseCreated: (body, shipment) => parseCreatedShipment(body as DhlCreatedBody, shipment.parcels.length),
  parseRefusal: (status, body) => parseDhlProblem((body ?? {}) as DhlProblem, status),
  parseTracking: (body, asked) => parseTrackedShipments((body ?? {}) as Parameters<typeof parseTrackedShipments>[0], asked),
};

/** DHL Express — MyDHL API (REST, HTTP Basic): create with per-piece labels (and a customs declaration with DHL's commercial invoice), track, book the courier (`POST /pickups`), find Service Points (`GET /servicepoints`) and ship to one (On Demand Delivery `servicepoint`), return a shipment from its customer; no cancel. */
export const provider: ProviderDefinition = {
  code: 'dhl',
  name: 'DHL Express',
  regions: ['worldwide'],
  baseUrls: DHL_BASE_URLS,
  // MyDHL takes 999 pieces a shipment; packdesk's shipments have at most 50 parcels. No shipment cancel exists (only pickups).
  // Customs: the declaration (exportDeclaration) goes with the shipment and DHL renders its commercial invoice.
  // Returns: an ordinary shipment from the customer to the warehouse, billed to the channel's account (request.ts returnParts).
  capabilities: { nativeLabelFormats: ['pdf', 'zpl', 'epl'], cashOnDelivery: true, multiParcel: true, maxParcels: 50, cancel: false, customs: true, returns: true },
  settings: dhlSettings.specs,
  docs: [
    'https://developer.dhl.com/api-reference/dhl-express-mydhl-api',
    'https://github.com/karrioapi/karrio/blob/main/modules/connectors/mydhl/vendors/dpdhl-express-api-3.1.1_swagger.yaml',
    'https://github.com/karrioapi/karrio/blob/main/modules/connectors/mydhl/vendors/status_1.csv',
    'https://github.com/karrioapi/karrio/tree/main/modules/connectors/mydhl',
    'https://github.com/karrioapi/karrio/blob/main/modules/connectors/dhl_express/karrio/providers/dhl_express/units.py',
  ],
  adapter: dhlAdapter,
  trackingCodes: DHL_TRACKING,
  products: DHL_PRODUCTS,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createDhlEmulator),
};
