import type { CarrierProduct, TrackingCode, TrackingCodeList } from '../codes.js';
import type { PickupPointType } from '../types.js';

/** GLS's MyGLS code lists, read by the adapter and the emulator. */

/** The countries whose GLS runs MyGLS; the API host is api.mygls.<country> (test: api.test.mygls.<country>). */
export const GLS_COUNTRIES = ['cz', 'sk', 'hu', 'ro', 'si', 'hr', 'rs'] as const;
export type GlsCountry = (typeof GLS_COUNTRIES)[number];

/** Postal code digits per destination country and the currency GLS collects cash on delivery in there. */
export const GLS_COUNTRY_RULES: Readonly<Record<string, { zipDigits: number; codCurrency: string }>> = {
  CZ: { zipDigits: 5, codCurrency: 'CZK' },
  SK: { zipDigits: 5, codCurrency: 'EUR' },
  HU: { zipDigits: 4, codCurrency: 'HUF' },
  RO: { zipDigits: 6, codCurrency: 'RON' },
  SI: { zipDigits: 4, codCurrency: 'EUR' },
  HR: { zipDigits: 5, codCurrency: 'EUR' },
  RS: { zipDigits: 5, codCurrency: 'RSD' },
};

/** `TypeOfPrinter` values whose document holds one label per page (thermal PDF), which packdesk can cut per parcel. */
export const GLS_PDF_PRINTERS = ['Thermo', 'ShipItThermoPdf'] as const;
/** `TypeOfPrinter` values that return ZPL (ThermoZPL prints at 203 dpi, ThermoZPL_300DPI at 300 dpi). */
export const GLS_ZPL_PRINTERS = ['ThermoZPL', 'ThermoZPL_300DPI'] as const;
/** Every `TypeOfPrinter` the MyGLS API documents for PrintLabels and GetPrintedLabels. */
export const GLS_PRINTER_TYPES = ['A4_2x2', 'A4_4x1', 'Connect', 'Thermo', 'ThermoZPL', 'ShipItThermoPdf', 'ThermoZPL_300DPI', 'ShipItThermoZpl'] as const;
export const GLS_ZPL_PRINTER_TYPES: ReadonlySet<string> = new Set(['ThermoZPL', 'ThermoZPL_300DPI', 'ShipItThermoZpl']);

/**
 * MyGLS has no product codes: a parcel is a GLS Business Parcel, and cash on delivery is the parcel's `CODAmount`,
 * so the one product carries COD itself. GLS takes parcels up to 40 kg (gls-group.eu, "BusinessParcel"); MyGLS's
 * PrintLabels carries no weight, so packdesk checks the limit before sending. A return is the same parcel with the
 * Pick&ReturnService (`GLS_RETURN_SERVICE`), named apart so a shipment shows it; it collects no cash (inferred), and
 * its weight limit is the BusinessParcel's (inferred: GLS publishes none of its own).
 */
export const GLS_PRODUCTS: Readonly<Record<'BusinessParcel' | 'PickAndReturnService', CarrierProduct & { maxWeightKg: number }>> = {
  BusinessParcel: { name: 'GLS BusinessParcel', cod: true, maxWeightKg: 40 },
  PickAndReturnService: { name: 'GLS Pick&ReturnService', maxWeightKg: 40 },
};
export type GlsProduct = keyof typeof GLS_PRODUCTS;
export const GLS_PRODUCT: GlsProduct = 'BusinessParcel';
export const GLS_RETURN_PRODUCT: GlsProduct = 'PickAndReturnService';

/**
 * MyGLS's Pick&ReturnService: GLS collects the parcel at the `PickupAddress` (the customer) on the `PickupDate` and
 * brings it to the `DeliveryAddress` (the shop's warehouse). Code: webapix/mygls-sdk `src/Services/PickAndReturn.php`
 * (`{"Code": "PRS"}`, no parameter, as the WSDL's `Service` has no PRSParameter); use: GLS Czech Republic, "Reverse
 * logistics" (gls-group.com/CZ/en/shipping-solutions/reverse-logistics): on a customer's return request, order
 * Pick&ReturnService with the customer's address as sender, the return address as consignee, and the collection date.
 */
export const GLS_RETURN_SERVICE = 'PRS';

/**
 * MyGLS's ParcelShop Delivery service: the parcel goes to the ParcelShop or ParcelLocker whose id is the service's
 * `PSDParameter.StringValue` (webapix/mygls-sdk `src/Services/ParcelShopDelivery.php`, GLS's WooCommerce plugin
 * `includes/api/class-gls-shipping-api-data.php` `get_service_list`; the WSDL's `ServiceParameterStringInteger`).
 */
export const GLS_POINT_SERVICE = 'PSD';

/**
 * GLS's map host of each MyGLS country: its map widget (`/widget/gls-dpm.js`, which GLS's WooCommerce plugin embeds)
 * reads the country's ParcelShops and ParcelLockers from `/data/deliveryPoints/<country>.json` there, without a login.
 */
export const GLS_MAP_HOSTS: Readonly<Record<GlsCountry, string>> = {
  cz: 'https://map.gls-czech.com', sk: 'https://map.gls-slovakia.com', hu: 'https://map.gls-hungary.com', ro: 'https://map.gls-romania.com',
  si: 'https://map.gls-slovenia.com', hr: 'https://map.gls-croatia.com', rs: 'https://map.gls-serbia.com',
};

/** The point list's `type` → ours: GLS delivers to ParcelShops and ParcelLockers, never to post offices. */
export const GLS_POINT_TYPES: Readonly<Record<string, PickupPointType>> = { 'parcel-shop': 'parcelshop', 'parcel-locker': 'locker' };

/**
 * The point list's `features` and `lockerSaturation` words a shipment depends on: `delivery` (GLS delivers parcels
 * there), the ways a recipient pays cash on delivery there, and the saturation of a point that takes nothing now.
 */
export const GLS_POINT_FEATURES = {
  delivery: 'delivery',
  payments: ['acceptsCash', 'acceptsCard', 'acceptsOnline'],
  outOfOrder: 'outOfOrder',
} as const;

/**
 * `StatusCode`s of GetParcelStatuses with the names the webapix/mygls-sdk gives them (src/Models/ParcelStatus.php),
 * two digits as MyGLS writes them. `DELETED` is not a status code but MyGLS's label state after DeleteLabels
 * ("Set DELETED state for labels/parcels"); the emulator keeps it out of GetParcelStatuses. `next` gives the
 * emulator GLS's usual moves, the common one first.
 */
export const GLS_TRACKING: TrackingCodeList & { codes: Readonly<Record<string, TrackingCode>> } = {
  created: '51',
  cancelled: 'DELETED',
  codes: {
    '01': { name: 'APL registration: handed over to GLS', status: 'in_transit', next: ['02'] },
    '02': { name: 'Hub outbound scan', status: 'in_transit', next: ['03'] },
    '03': { name: 'Depot entry', status: 'in_transit', next: ['04'] },
    '04': { name: 'Delivery list scan: out for delivery', status: 'out_for_delivery', next: ['05', '12', '55', '58'] },
    '05': { name: 'Delivered', status: 'delivered' },
    '06': { name: 'Hub storage', status: 'in_transit' },
    '07': { name: 'Depot storage', status: 'in_transit' },
    '08': { name: 'Picked up by recipient', status: 'delivered' },
    '09': { name: 'Fixed delivery date', status: 'on_hold' },
    '11': { name: 'Recipient on holiday', status: 'on_hold' },
    // a notice left: GLS delivers again, or sends the parcel back
    '12': { name: 'Notice left: recipient absent', status: 'on_hold', next: ['04', '23'] },
    '13': { name: 'Depot routing failure', status: 'in_transit' },
    '14': { name: 'Recipient closed', status: 'on_hold' },
    '15': { name: 'Lack of time', status: 'on_hold' },
    '16': { name: 'Lack of money (cash on delivery)', status: 'on_hold' },
    '17': { name: 'Refused by recipient', status: 'on_hold' },
    '18': { name: 'Wrong address', status: 'on_hold' },
    '19': { name: 'Recipient unreachable', status: 'on_hold' },
    '20': { name: 'Wrong postal code', status: 'on_hold' },
    '21': { name: 'Missorted', status: 'in_transit' },
    '22': { name: 'Back to hub', status: 'in_transit' },
    '23': { name: 'Back to the shipper', status: 'returned' },
    '24': { name: 'Depot redelivery', status: 'in_transit' },
    '25': { name: 'Misrouted', status: 'in_transit' },
    '26': { name: 'Hub inbound', status: 'in_transit' },
    '27': { name: 'Small parcel', status: 'in_transit' },
    '28': { name: 'Damaged at hub', status: 'on_hold' },
    '29': { name: 'No data available', status: 'on_hold' },
    '30': { name: 'Damaged', status: 'on_hold' },
    '31': { name: 'Totally damaged', status: 'error' },
    '32': { name: 'Delivery in the evening', status: 'out_for_delivery' },
    '33': { name: 'Too many waiting', status: 'on_hold' },
    '34': { name: 'Delivery too late', status: 'in_transit' },
    '35': { name: 'Not ordered by recipient', status: 'on_hold' },
    '36': { name: 'Closed entrance', status: 'on_hold' },
    '37': { name: 'Central ordered', status: 'in_transit' },
    '38': { name: 'No delivery note', status: 'on_hold' },
    '39': { name: 'Delivery note not confirmed', status: 'on_hold' },
    '43': { name: 'Lost', status: 'error' },
    '44': { name: 'Not a system-like parcel', status: 'on_hold' },
    '46': { name: 'Change of delivery address', status: 'in_transit' },
    '47': { name: 'Transferred to subcontractor', status: 'in_transit' },
    '51': { name: 'Data sent: parcel data entered into the GLS system', status: 'created', next: ['01'] },
    '52': { name: 'COD data sent', status: 'created' },
    '53': { name: 'Depot transit', status: 'in_transit' },
    // not in the SDK's list: GLS CZ reports a parcel put in a ParcelLocker so (ondrejsanetrnik/parcelable src/ParcelStoredUntil.php)
    '54': { name: 'ParcelLocker deposit', status: 'ready_for_pickup', next: ['05', '23'] },
    // the recipient's collection at the point then reads 05 (GLS CZ "Doručeno", ondrejsanetrnik/parcelable src/Gls.php)
    '55': { name: 'ParcelShop deposit', status: 'ready_for_pickup', next: ['05', '57'] },
    '56': { name: 'ParcelShop storage', status: 'ready_for_pickup' },
    '57': { name: 'ParcelShop return: storage time over', status: 'on_hold', next: ['23'] },
    '58': { name: 'Delivered to neighbour', status: 'delivered' },
    '80': { name: 'Changed delivery address', status: 'in_transit' },
    '81': { name: 'Request for information', status: 'in_transit' },
    '82': { name: 'Forwarded: misrouted', status: 'in_transit' },
    '83': { name: 'Pick&Ship/Return registered', status: 'waiting_for_shipment' },
    '84': { name: 'Pick&Ship/Return label printed', status: 'waiting_for_shipment' },
    '85': { name: 'Pick&Ship/Return on the driver\'s list', status: 'waiting_for_shipment' },
    '86': { name: 'Pick&Ship/Return picked up', status: 'in_transit' },
    '87': { name: 'Pick&Ship/Return parcel', status: 'in_transit' },
    '88': { name: 'Not ready for pickup', status: 'waiting_for_shipment' },
    '89': { name: 'Insufficient label', status: 'on_hold' },
    '90': { name: 'Posted via a different mode', status: 'in_transit' },
    '91': { name: 'Pick&Ship/Return cancelled', status: 'cancelled' },
    '94': { name: 'ParcelShop update', status: 'in_transit' },
    DELETED: { name: 'Label deleted', status: 'cancelled' },
  },
};

/** MyGLS writes status codes with two digits (`05`); a bare `5` means the same code. */
export function glsStatusCode(raw: string | number): string {
  const text = String(raw).trim();
  return /^\d$/.test(text) ? `0${text}` : text;
}
