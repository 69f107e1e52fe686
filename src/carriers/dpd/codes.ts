import type { CarrierProduct, ProductList, TrackingCodeList } from '../codes.js';

/**
 * DPD code lists, read by the adapter and the emulator. Business units and products: "META API — Specification and
 * description" 1.2 (DPD Group, vendored in github.com/karrioapi/karrio, modules/connectors/dpd_meta/vendor/
 * METAAPI_CUSTOMER_DOCUMENTATION_1_2.pdf: Authentication process, Product mapping). Tracking: the statuses of DPD's
 * ParcelLifeCycleService 2.0 (`statusInfo/status`), as karrio's DPD connector reads them
 * (modules/connectors/dpd/tests/dpd/test_tracking.py, karrio/providers/dpd/units.py).
 */

/** `X-DPD-BUCODE` values: 001 DE, 002 Chronopost FR, 010 NL, 011 UK, 014 AT, 015 CZ, 016 SK, 017 HU, 018 BG, 020 SEUR, 021 PL, 023 BRT, 026 SI, 028 HR, 030 PT, 031 EE, 032 LT, 033 LV, 034 BE, 036 CH, 038 DPD FR, 041 RO, 046 IE. */
export const DPD_BU_CODES = [
  '001', '002', '010', '011', '014', '015', '016', '017', '018', '020', '021', '023',
  '026', '028', '030', '031', '032', '033', '034', '036', '038', '041', '046',
] as const;

/** The META-API OpenAPI's `LabelPaperFormat` values (A7 only in the newer meta-api-docs.json). */
export const DPD_PAPER_FORMATS = ['A4', 'A5', 'A6', 'A7'] as const;

export interface DpdProduct extends CarrierProduct {
  /** Heaviest parcel the product takes; 31.5 kg is DPD's parcel limit (karrio dpd_meta services.csv, max_weight). */
  maxParcelWeightKg: number;
  /** Parcel to Shop (PSD): the receiver is a Pickup point, `receiver.pudoId` ("*2 Mandatory if Parcel to Shop has been requested"). */
  toPoint?: true;
  /** The PSD product a shipment of this product goes out with to a Pickup point (packdesk's pairing, by the products' names). */
  pointTwin?: string;
}

const PARCEL_MAX_KG = 31.5;

/**
 * DPD Group product codes; COD is its own product (101→109 D-COD, 327→329 D-2C-COD, 328→330 D-2C-COD-XD). Parcel to
 * Shop is 337 (338 small parcel), which the product table pairs with no COD product.
 */
export const DPD_PRODUCTS: ProductList & Readonly<Record<string, DpdProduct>> = {
  101: { name: 'D (Classic)', codTwin: '109', pointTwin: '337', maxParcelWeightKg: PARCEL_MAX_KG },
  103: { name: 'D,6 (Classic, Saturday)', maxParcelWeightKg: PARCEL_MAX_KG },
  105: { name: 'D, EXW (Classic, Ex Works)', maxParcelWeightKg: PARCEL_MAX_KG },
  109: { name: 'D, COD (Classic, cash on delivery)', cod: true, maxParcelWeightKg: PARCEL_MAX_KG },
  113: { name: 'D, SWAP (Classic, exchange)', maxParcelWeightKg: PARCEL_MAX_KG },
  136: { name: 'XD (Small parcel)', pointTwin: '338', maxParcelWeightKg: PARCEL_MAX_KG },
  154: { name: 'PL (Parcel Letter)', maxParcelWeightKg: PARCEL_MAX_KG },
  155: { name: 'PM2 (Express 18:00)', maxParcelWeightKg: PARCEL_MAX_KG },
  179: { name: 'AM1 (Express 10:00)', maxParcelWeightKg: PARCEL_MAX_KG },
  225: { name: 'AM2 (Express 12:00)', maxParcelWeightKg: PARCEL_MAX_KG },
  302: { name: 'IE2 (International Express)', maxParcelWeightKg: PARCEL_MAX_KG },
  327: { name: 'D,2C (Classic to private address)', codTwin: '329', pointTwin: '337', maxParcelWeightKg: PARCEL_MAX_KG },
  328: { name: 'D,2C, XD (Classic to private address, small parcel)', codTwin: '330', pointTwin: '338', maxParcelWeightKg: PARCEL_MAX_KG },
  329: { name: 'D,2C, COD (Classic to private address, cash on delivery)', cod: true, maxParcelWeightKg: PARCEL_MAX_KG },
  330: { name: 'D,2C, COD, XD (Classic to private address, cash on delivery, small parcel)', cod: true, maxParcelWeightKg: PARCEL_MAX_KG },
  332: { name: '2C Return', maxParcelWeightKg: PARCEL_MAX_KG },
  337: { name: 'D, 2C, PSD (Classic to a Pickup parcelshop)', toPoint: true, maxParcelWeightKg: PARCEL_MAX_KG },
  338: { name: 'D, 2C, PSD, XD (Classic to a Pickup parcelshop, small parcel)', toPoint: true, maxParcelWeightKg: PARCEL_MAX_KG },
  350: { name: 'AM0 (Express 08:30)', maxParcelWeightKg: PARCEL_MAX_KG },
  358: { name: 'D,6,2C (Classic to private address, Saturday)', maxParcelWeightKg: PARCEL_MAX_KG },
};

/** 2C Return: the return product of the product tables, which a return goes out with. */
export const DPD_RETURN_PRODUCT = '332';

/** Business units whose columns of both product tables (domestic, international) leave 2C Return empty: CHR FR, CZ, SK, HU, BRT. */
export const DPD_BUS_WITHOUT_RETURN: readonly string[] = ['002', '015', '016', '017', '023'];

/** Products a channel may choose: the COD products go out only as a COD twin. */
export const DPD_CHANNEL_PRODUCTS = Object.keys(DPD_PRODUCTS).filter((code) => !DPD_PRODUCTS[code]!.cod);

/**
 * ParcelLifeCycleService statuses → standard statuses. The BE/NL names are those of karrio's DPD fixtures; the
 * German names (ACCEPTED … DELIVERED) are DPD Germany's and carry no moves. `next` gives the emulator DPD's usual moves.
 */
export const DPD_TRACKING: TrackingCodeList = {
  created: 'SHIPMENT',
  codes: {
    SHIPMENT: { name: 'Order data transmitted to DPD', status: 'created', next: ['PickedUp'] },
    PickedUp: { name: 'DPD has received your parcel.', status: 'in_transit', next: ['BetweenDepots'] },
    BetweenDepots: { name: 'The parcel is at the parcel dispatch centre.', status: 'in_transit', next: ['Depot'] },
    Depot: { name: 'At parcel delivery centre.', status: 'in_transit', next: ['Courier', 'ParcelShop'] },
    Courier: { name: 'Parcel out for delivery', status: 'out_for_delivery', next: ['Delivered', 'DeliveryFailure'] },
    DeliveryFailure: { name: 'Unfortunately we have not been able to deliver your parcel.', status: 'on_hold', next: ['ReturningFromDelivery'] },
    ReturningFromDelivery: {
      name: 'After an unsuccessful delivery attempt the parcel is back at the recipient depot.', status: 'on_hold', next: ['Courier', 'ParcelShop', 'ReturnedToSender'],
    },
    ParcelShop: { name: 'Delivered by driver to Pickup parcelshop', status: 'ready_for_pickup', next: ['Delivered', 'ReturnedToSender'] },
    Delivered: { name: 'Delivered', status: 'delivered' },
    // No public source names the return status; the emulator uses this one, a real unknown name stays status null.
    ReturnedToSender: { name: 'Returned to sender', status: 'returned' },
    ACCEPTED: { name: 'Parcel handed to DPD', status: 'in_transit' },
    AT_SENDING_DEPOT: { name: 'At the sending depot', status: 'in_transit' },
    ON_THE_ROAD: { name: 'On the road', status: 'in_transit' },
    AT_DELIVERY_DEPOT: { name: 'At the delivery depot', status: 'in_transit' },
    DELIVERED: { name: 'Delivered', status: 'delivered' },
  },
};
