import type { CarrierProduct, TrackingCodeList } from '../codes.js';

/**
 * DHL Express code lists, read by the adapter and the emulator. Tracking codes: DHL's published status list, its
 * "express" rows (vendored as `status_1.csv` beside the MyDHL OpenAPI in github.com/karrioapi/karrio,
 * modules/connectors/mydhl/vendors/). Products: the global product codes karrio's MyDHL connector lists
 * (modules/connectors/mydhl/karrio/providers/mydhl/units.py); which of them a lane offers comes from GET /products.
 */

export interface DhlProduct extends CarrierProduct {
  /** Heaviest piece the product takes; inferred (the OpenAPI gives none): 300 kg a parcel piece, 0.3 kg the Express Envelope. */
  maxPieceWeightKg: number;
}

const PARCEL_MAX_KG = 300;

export const DHL_PRODUCTS: Readonly<Record<string, DhlProduct>> = {
  P: { name: 'Express Worldwide', maxPieceWeightKg: PARCEL_MAX_KG },
  U: { name: 'Express Worldwide (EU)', maxPieceWeightKg: PARCEL_MAX_KG },
  D: { name: 'Express Worldwide (documents)', maxPieceWeightKg: PARCEL_MAX_KG },
  T: { name: 'Express 12:00', maxPieceWeightKg: PARCEL_MAX_KG },
  Y: { name: 'Express 9:00', maxPieceWeightKg: PARCEL_MAX_KG },
  K: { name: 'Express 10:30', maxPieceWeightKg: PARCEL_MAX_KG },
  '8': { name: 'Express Easy', maxPieceWeightKg: PARCEL_MAX_KG },
  '7': { name: 'Express Worldwide B2C', maxPieceWeightKg: PARCEL_MAX_KG },
  '6': { name: 'Express Easy B2C', maxPieceWeightKg: PARCEL_MAX_KG },
  Q: { name: 'Medical Express', maxPieceWeightKg: PARCEL_MAX_KG },
  W: { name: 'Economy Select', maxPieceWeightKg: PARCEL_MAX_KG },
  H: { name: 'Europack', maxPieceWeightKg: PARCEL_MAX_KG },
  N: { name: 'Express Domestic', maxPieceWeightKg: PARCEL_MAX_KG },
  '1': { name: 'Express Domestic 12:00', maxPieceWeightKg: PARCEL_MAX_KG },
  O: { name: 'Express Domestic 10:30', maxPieceWeightKg: PARCEL_MAX_KG },
  I: { name: 'Express Domestic 9:00', maxPieceWeightKg: PARCEL_MAX_KG },
  C: { name: 'Medical Express Domestic', maxPieceWeightKg: PARCEL_MAX_KG },
  X: { name: 'Express Envelope', maxPieceWeightKg: 0.3 },
};

export const DHL_CHANNEL_PRODUCTS = Object.keys(DHL_PRODUCTS);

/**
 * Cash on delivery is a value-added service, not a product. Unconfirmed by DHL: MyDHL's OpenAPI 3.1.1 names no COD
 * code (its `serviceCode` values come from GET /products or /rates; the rates example lists some 70, none for COD).
 * `KB` with the amount and currency is what karrio's DHL Express connector sends (karrioapi/karrio
 * modules/connectors/dhl_express/karrio/providers/dhl_express/units.py, `dhl_cash_on_delivery`, commit deea10f8) and
 * the PluginHive WooCommerce DHL Express plugin (XML-PI `SpecialServiceType` KB with `ChargeValue`).
 */
export const DHL_COD_SERVICE = 'KB';

/**
 * Paperless Trade (PLT): DHL sends the shipment's customs invoice to customs electronically. The MyDHL OpenAPI's PLT
 * example shipment carries `valueAddedServices: [{serviceCode: WY}]`, and "the original shipment must contain WY as the
 * special service" for PLT images; an account has it only where DHL enabled it.
 */
export const DHL_PAPERLESS_TRADE_SERVICE = 'WY';

/** `content.incoterm` values of the MyDHL OpenAPI (supermodelIoLogisticsExpressCreateShipmentRequest). */
export const DHL_INCOTERMS = ['EXW', 'FCA', 'CPT', 'CIP', 'DPU', 'DAP', 'DDP', 'FAS', 'FOB', 'CFR', 'CIF', 'DAF', 'DAT', 'DDU', 'DEQ', 'DES'] as const;

/**
 * Event `typeCode`s → standard statuses. MyDHL has no event for a label created but not yet picked up: the table
 * starts at the status list's shipment-level `104 pre-transit`, which MyDHL shows as a shipment without events.
 * `next` gives the emulator DHL's usual moves, the common one first.
 */
export const DHL_TRACKING: TrackingCodeList = {
  created: '104',
  codes: {
    104: { name: 'pre-transit', status: 'created', next: ['PU', 'SA'] },
    102: { name: 'transit', status: 'in_transit' },
    103: { name: 'failure', status: 'on_hold' },
    101: { name: 'delivered', status: 'delivered' },
    PU: { name: 'Shipment pick up', status: 'in_transit', next: ['PL'] },
    SA: { name: 'Shipment acceptance', status: 'in_transit', next: ['PL'] },
    PL: { name: 'Processed at location', status: 'in_transit', next: ['DF'] },
    DF: { name: 'Depart facility', status: 'in_transit', next: ['AF'] },
    AF: { name: 'Arrived facility', status: 'in_transit', next: ['AR', 'IC', 'MS', 'MC'] },
    MS: { name: 'Mis-sort', status: 'on_hold', next: ['PL'] },
    MC: { name: 'Miscode', status: 'on_hold', next: ['PL'] },
    IC: { name: 'In clearance processing', status: 'in_transit', next: ['CR', 'RR', 'BN', 'CD', 'UD', 'HP'] },
    RR: { name: 'Response received', status: 'in_transit', next: ['CR'] },
    BN: { name: 'Customer broker notified', status: 'in_transit', next: ['BR'] },
    BR: { name: 'Broker release', status: 'in_transit', next: ['AR'] },
    CD: { name: 'Controllable clearance delay', status: 'on_hold', next: ['CR', 'RT'] },
    UD: { name: 'Uncontrollable clearance delay', status: 'on_hold', next: ['CR'] },
    HP: { name: 'Held for payment', status: 'on_hold', next: ['PY', 'RT'] },
    PY: { name: 'Payment', status: 'in_transit', next: ['CR'] },
    CR: { name: 'Clearance release', status: 'in_transit', next: ['AR'] },
    AR: { name: 'Arrival in delivery facility', status: 'in_transit', next: ['WC', 'CC', 'OH', 'SM', 'FD', 'TP', 'SC', 'TR'] },
    SM: { name: 'Scheduled for movement', status: 'in_transit', next: ['WC'] },
    FD: { name: "Forward destination (DD's expected)", status: 'in_transit', next: ['WC'] },
    SC: { name: 'Service changed', status: 'in_transit', next: ['WC'] },
    TR: { name: 'Record of transfer', status: 'in_transit', next: ['WC'] },
    TP: { name: "Forwarded to 3rd party - no DD's", status: 'in_transit' },
    WC: { name: 'With delivering courier', status: 'out_for_delivery', next: ['OK', 'NH', 'CA', 'BA', 'CM', 'MD', 'ND', 'RD', 'AD', 'PD', 'DD'] },
    AD: { name: 'Agreed delivery', status: 'in_transit', next: ['WC'] },
    NH: { name: 'Not home', status: 'on_hold', next: ['WC', 'CC', 'RT'] },
    CA: { name: 'Closed on arrival', status: 'on_hold', next: ['WC', 'CC', 'RT'] },
    MD: { name: 'Missed delivery cycle', status: 'on_hold', next: ['WC'] },
    ND: { name: 'Not delivered', status: 'on_hold', next: ['WC', 'RT'] },
    BA: { name: 'Bad address', status: 'on_hold', next: ['WC', 'RT'] },
    CM: { name: 'Customer moved', status: 'on_hold', next: ['WC', 'RT'] },
    // a refused parcel goes back to the sender
    RD: { name: 'Refused delivery', status: 'on_hold', next: ['RT'] },
    CC: { name: 'Awaiting cnee collection', status: 'ready_for_pickup', next: ['OK', 'RT'] },
    OH: { name: 'On hold', status: 'on_hold', next: ['WC', 'SS'] },
    SS: { name: 'Shipment stopped', status: 'on_hold', next: ['RT', 'DS'] },
    OK: { name: 'Delivery', status: 'delivered' },
    PD: { name: 'Partial delivery', status: 'delivered_with_exception' },
    DD: { name: 'Delivered damaged', status: 'delivered_with_exception' },
    RT: { name: 'Returned to consignor', status: 'returned' },
    DS: { name: 'Destroyed / disposal', status: 'error' },
    CS: { name: 'Closed shipment', status: 'error' },
  },
};
