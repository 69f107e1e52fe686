import type { TrackingCodeList } from '../codes.js';

/**
 * GLS Poland code lists, read by the adapter and the emulator.
 *
 * ADE has no product codes: a consignment is GLS's parcel service with `srv_bool` flags (cServicesBool of the ADE
 * WSDL, github.com/kerogos/gls-polska src/Soap/CServicesBool.php). The channel picks one delivery flag; cash on
 * delivery is the `cod` flag with `cod_amount` in PLN on top of it.
 */
export const GLS_PL_SERVICES = ['standard', 's10', 's12', 'sat'] as const;
export type GlsPlService = (typeof GLS_PL_SERVICES)[number];

/**
 * Delivery to a GLS ParcelShop: the `sds` flag of cServicesBool with the point's id in `srv_sds` (cServiceSDS.id), as
 * GLS Poland's own shop module sends it (github.com/glspoland/Magento-Integration-Module Model/ApiHandler.php).
 */
export const GLS_PL_POINT_SERVICE = 'sds';

/**
 * A return: ShopReturn-Service, the `srs` flag of cServicesBool ("Zwrot paczki w dowolnym punkcie ParcelShop") with
 * the customer and the warehouse in `srv_ppe` (cServicePPE), as ADE's own structure pages describe them (quoted in
 * github.com/dbojdo/gls-ade src/Model/ServicesBool.php and src/Model/ServicePpe.php).
 */
export const GLS_PL_RETURN_SERVICE = 'srs';

/** The product packdesk stores: the delivery service, `+cod` when the consignment carries cash on delivery. */
export function glsPlProduct(service: string, withCod: boolean): string {
  return withCod ? `${service}+cod` : service;
}

/** Cash on delivery is collected in złoty only (ADE's `cod_amount` has no currency; `cdx` is the export variant). */
export const GLS_PL_COD_CURRENCY = 'PLN';

/** Label modes of adePreparingBox_GetConsignLabelsExt for 160×100 mm roll labels (ADE label mode list). */
export const GLS_PL_LABEL_MODES = { pdf: 'roll_160x100_pdf', zpl: 'roll_160x100_zebra', epl: 'roll_160x100_zebra_epl' } as const;

/**
 * GLS Track & Trace event codes (`StatusCode.ReasonCode`) with GLS's English wording, as sylapi/courier-gls lists
 * them (src/StatusTransformer.php); the standard status follows the wording (sylapi's own grouping for 12.83, a
 * parcel waiting for collection, and 29.0, lost). `next` gives the emulator GLS's usual moves.
 *
 * `deleted` is no GLS code: a consignment deleted from the ADE preparing box never reaches GLS tracking; the
 * emulator marks its parcels with it and tracking then finds none of them.
 */
export const GLS_PL_TRACKING: TrackingCodeList = {
  created: '0.0',
  cancelled: 'deleted',
  codes: {
    '0.0': { name: 'Data transferred to GLS System', status: 'created', next: ['1.0'] },
    '0.94': { name: 'Data transferred to GLS System', status: 'waiting_for_shipment' },
    '0.100': { name: 'Data transferred to GLS System', status: 'waiting_for_shipment' },
    '1.0': { name: 'Outbound from GLS location', status: 'in_transit', next: ['2.0'] },
    '1.79': { name: 'Outbound from GLS location', status: 'in_transit' },
    '2.0': { name: 'Inbound to GLS location', status: 'in_transit', next: ['11.0', '8.0', '12.83'] },
    '2.20': { name: 'Problem in customs clearance', status: 'on_hold' },
    '2.21': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '3.0': { name: 'Delivered', status: 'delivered' },
    '4.20': { name: 'Stored', status: 'on_hold' },
    '4.21': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '4.24': { name: 'Not out for delivery', status: 'on_hold' },
    '4.25': { name: 'Released by customs', status: 'in_transit' },
    '4.26': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '4.30': { name: 'Not delivered', status: 'on_hold' },
    '4.31': { name: 'Not out for delivery', status: 'on_hold' },
    '4.32': { name: 'Not delivered', status: 'on_hold' },
    '4.33': { name: 'Not delivered', status: 'on_hold' },
    '4.36': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '4.37': { name: 'Not out for delivery', status: 'on_hold' },
    '4.40': { name: 'Not delivered', status: 'on_hold', next: ['11.0', '5.0'] },
    '4.41': { name: 'Not delivered', status: 'on_hold' },
    '4.42': { name: 'Pickup-Service cancelled', status: 'on_hold' },
    '4.52': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '4.80': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '4.99': { name: 'Change completed for', status: 'in_transit' },
    '5.0': { name: 'Returned to consignor', status: 'returned' },
    '6.0': { name: 'Forwarded', status: 'in_transit' },
    '6.2': { name: 'Forwarded', status: 'in_transit' },
    '6.10': { name: 'Not delivered', status: 'on_hold' },
    '6.12': { name: 'Forwarded', status: 'in_transit' },
    '6.20': { name: 'Forwarded', status: 'in_transit' },
    '6.79': { name: 'Not delivered', status: 'on_hold' },
    '7.21': { name: 'Not out for delivery', status: 'on_hold' },
    '8.0': { name: 'Stored', status: 'on_hold', next: ['11.0', '5.0'] },
    '8.27': { name: 'Stored', status: 'on_hold' },
    '8.97': { name: 'Stored', status: 'on_hold' },
    '10.0': { name: 'Inbound to GLS location', status: 'in_transit' },
    '11.0': { name: 'Out for delivery on GLS vehicle', status: 'out_for_delivery', next: ['3.0', '4.40'] },
    '12.00': { name: 'Not delivered', status: 'on_hold' },
    '12.2': { name: 'Not out for delivery', status: 'on_hold' },
    '12.03': { name: 'Not out for delivery', status: 'on_hold' },
    '12.6': { name: 'Not out for delivery', status: 'on_hold' },
    '12.8': { name: 'Not out for delivery', status: 'on_hold' },
    '12.10': { name: 'Stored', status: 'on_hold' },
    '12.20': { name: 'Not out for delivery', status: 'on_hold' },
    '12.23': { name: 'Not out for delivery', status: 'on_hold' },
    '12.30': { name: 'Not out for delivery', status: 'on_hold' },
    '12.31': { name: 'Not out for delivery', status: 'on_hold' },
    '12.32': { name: 'Not out for delivery', status: 'on_hold' },
    '12.42': { name: 'Not out for delivery', status: 'on_hold' },
    '12.43': { name: 'Not out for delivery', status: 'on_hold' },
    '12.44': { name: 'Not delivered', status: 'on_hold' },
    '12.52': { name: 'Not out for delivery', status: 'on_hold' },
    '12.63': { name: 'Not out for delivery', status: 'on_hold' },
    '12.80': { name: 'Not out for delivery', status: 'on_hold' },
    '12.83': { name: 'Not out for delivery', status: 'ready_for_pickup', next: ['3.0', '5.0'] },
    '12.99': { name: 'Not out for delivery', status: 'on_hold' },
    '13.0': { name: 'In customs clearance', status: 'in_transit' },
    '13.64': { name: 'Second delivery attempt unsucessful', status: 'on_hold' },
    '14.53': { name: 'Problem in customs clearance', status: 'on_hold' },
    '14.60': { name: 'Not delivered', status: 'on_hold' },
    '14.61': { name: 'Not out for delivery', status: 'on_hold' },
    '14.62': { name: 'Not delivered', status: 'on_hold' },
    '14.63': { name: 'Problem in customs clearance', status: 'on_hold' },
    '14.66': { name: 'Stored', status: 'on_hold' },
    '14.68': { name: 'Not delivered', status: 'on_hold' },
    '14.70': { name: 'Pickup-Service cancelled', status: 'on_hold' },
    '15.0': { name: 'Released by customs', status: 'in_transit' },
    '15.65': { name: 'Not out for delivery', status: 'on_hold' },
    '16.0': { name: 'Label printed for P&R/P&S-Service.', status: 'waiting_for_shipment' },
    '17.0': { name: 'Pickup-Service Collection done', status: 'in_transit' },
    '18.99': { name: 'Released by customs', status: 'in_transit' },
    '19.01': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '19.33': { name: 'Problem in customs clearance', status: 'on_hold' },
    '19.37': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '19.38': { name: 'Not out for delivery', status: 'on_hold' },
    '19.40': { name: 'Not out for delivery', status: 'on_hold' },
    '19.42': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '19.49': { name: 'Not delivered', status: 'on_hold' },
    '19.72': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '19.73': { name: 'Not delivered', status: 'on_hold' },
    '19.74': { name: 'Not delivered', status: 'on_hold' },
    '19.75': { name: 'Not delivered', status: 'on_hold' },
    '20.0': { name: 'Not out for delivery', status: 'on_hold' },
    '20.19': { name: 'Not out for delivery', status: 'on_hold' },
    '20.32': { name: 'Not out for delivery', status: 'on_hold' },
    '20.71': { name: 'Not delivered', status: 'on_hold' },
    '20.72': { name: 'Not out for delivery', status: 'on_hold' },
    '20.73': { name: 'Not out for delivery', status: 'on_hold' },
    '20.75': { name: 'Pickup-Service cancelled', status: 'on_hold' },
    '21.0': { name: 'Not delivered', status: 'on_hold' },
    '22.0': { name: 'Problem in customs clearance', status: 'on_hold' },
    '25.91': { name: 'Address data entered in the GLS system.', status: 'waiting_for_shipment' },
    '25.97': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '26.16': { name: 'Not out for delivery', status: 'on_hold' },
    '26.17': { name: 'Problem in customs clearance', status: 'on_hold' },
    '26.58': { name: 'Shipment locked', status: 'on_hold' },
    '26.67': { name: 'Shipment locked', status: 'on_hold' },
    '26.68': { name: 'Shipment locked', status: 'on_hold' },
    '27.16': { name: 'Problem in customs clearance', status: 'on_hold' },
    '27.17': { name: 'Not out for delivery', status: 'on_hold' },
    '27.58': { name: 'Shipment unlocked following reason fixed', status: 'in_transit' },
    '27.68': { name: 'Shipment unlocked following reason fixed', status: 'in_transit' },
    '29.0': { name: 'Not out for delivery', status: 'error' },
    '30.40': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '31.74': { name: 'Not out for delivery', status: 'on_hold' },
    '33.77': { name: 'Not delivered', status: 'on_hold' },
    '33.91': { name: 'Change completed for', status: 'in_transit' },
    '34.58': { name: 'Print completed', status: 'waiting_for_shipment' },
    '34.59': { name: 'Print completed', status: 'waiting_for_shipment' },
    '40.0': { name: 'Data transmitted', status: 'waiting_for_shipment' },
    '40.68': { name: 'Data transmitted', status: 'waiting_for_shipment' },
    '40.94': { name: 'Data transmitted', status: 'waiting_for_shipment' },
    '40.97': { name: 'Data transmitted', status: 'waiting_for_shipment' },
    '41.0': { name: 'Not out for delivery', status: 'on_hold' },
    '42.0': { name: 'Customs data captured', status: 'waiting_for_shipment' },
    '44.96': { name: 'External Data transfer', status: 'waiting_for_shipment' },
    '79.0': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '90.45': { name: 'Consignee contacted', status: 'in_transit' },
    '90.132': { name: 'Pickup attempt unsuccessful', status: 'on_hold' },
    '95.0': { name: 'Not delivered', status: 'on_hold' },
    '96.0': { name: 'Additional information requested', status: 'in_transit' },
    deleted: { name: 'Consignment deleted from the ADE preparing box', status: 'cancelled' },
  },
};
