import { formatMinorUnits } from '../../domain/money.js';
import { productForShipment } from '../codes.js';
import { CarrierRefusedError } from '../errors.js';
import type { CarrierParty, DispatchForCarrier, PickupRequest, ShipmentForCarrier } from '../types.js';
import { GLS_POINT_SERVICE, GLS_PRODUCT, GLS_PRODUCTS, GLS_RETURN_PRODUCT, GLS_RETURN_SERVICE, type GlsProduct } from './codes.js';
import { glsLocalMs, wcfDate, wcfDay } from './dates.js';
import type { GlsSettings } from './settings.js';

/**
 * Our shipment → the body of MyGLS `POST /ParcelService.svc/json/PrintLabels`, without the `Username` and
 * `Password` the client adds to every call (as webapix/mygls-sdk's `Client::payload` does). Pure. Field names:
 * webapix/mygls-sdk `src/Models/{Parcel,Address,Contact}.php`, `src/Requests/PrintLabels.php`, and the ParcelService
 * WSDL's data contracts (generated in RustamKuramshin/mygls-java-clients, `…/APIDTOs_LabelOperations/*.java`).
 */

export interface GlsAddress {
  Name: string;
  Street: string;
  HouseNumber: string;
  HouseNumberInfo?: string;
  City: string;
  ZipCode: string;
  CountryIsoCode: string;
  ContactName: string;
  ContactPhone: string;
  ContactEmail: string;
}

export interface GlsParcel {
  ClientNumber: number;
  ClientReference: string;
  Count: number;
  CODAmount?: number;
  CODCurrency?: string;
  CODReference?: string;
  Content?: string;
  PickupAddress: GlsAddress;
  DeliveryAddress: GlsAddress;
  PickupDate: string;
  ServiceList: GlsService[];
}

/** A `Service` of the parcel: its code, and for the ParcelShop Delivery service the point's id. */
export interface GlsService {
  Code: string;
  PSDParameter?: { StringValue: string };
}

export interface GlsPrintLabelsRequest {
  ParcelList: GlsParcel[];
  TypeOfPrinter: string;
  ShowPrintDialog: false;
}

/** Postal codes of the MyGLS countries are digits; GLS takes them without the space (`110 00` → `11000`). */
function zipCode(party: CarrierParty): string {
  return party.postalCode.replace(/\s+/g, '');
}

/** A firm is the addressee with its person as contact; a private person is both. */
function glsAddress(party: CarrierParty): GlsAddress {
  const name = party.companyName ?? party.personName ?? '';
  return {
    Name: name,
    Street: party.street,
    HouseNumber: party.houseNumber,
    ...(party.apartmentNumber ? { HouseNumberInfo: party.apartmentNumber } : {}),
    City: party.city,
    ZipCode: zipCode(party),
    CountryIsoCode: party.countryCode,
    ContactName: party.personName ?? name,
    ContactPhone: party.phone,
    ContactEmail: party.email,
  };
}

/** The product a shipment goes with: a return is the Pick&ReturnService, which takes no cash on delivery. */
export function glsProductOf(s: ShipmentForCarrier): GlsProduct {
  // neither product has a COD twin: the product comes back unchanged, or a return with COD is refused
  return productForShipment('GLS', GLS_PRODUCTS, s.returnOf ? GLS_RETURN_PRODUCT : GLS_PRODUCT, s.cashOnDelivery !== null) as GlsProduct;
}

/** MyGLS carries no weights, so GLS cannot refuse a heavy parcel at creation: packdesk holds the 40 kg limit itself. */
function refuseOverweight(s: ShipmentForCarrier, product: GlsProduct): void {
  const limit = GLS_PRODUCTS[product].maxWeightKg;
  const errors: Record<string, string[]> = {};
  s.parcels.forEach((p, i) => {
    if (p.weightKg > limit) errors[`parcels.${i}.weight_amount`] = [`GLS: a parcel may weigh at most ${limit} kg (this one weighs ${p.weightKg} kg)`];
  });
  if (Object.keys(errors).length > 0) throw new CarrierRefusedError(`GLS takes parcels up to ${limit} kg`, errors);
}

/**
 * A point shipment's ParcelShop Delivery service, sent as GLS's own WooCommerce plugin sends it; the DeliveryAddress
 * stays the recipient's. GLS has no post offices to deliver to.
 */
function pointServices(s: ShipmentForCarrier): GlsService[] {
  const point = s.pickupPoint;
  if (!point) return [];
  if (point.type === 'post_office') {
    throw new CarrierRefusedError('GLS delivers to its ParcelShops and ParcelLockers, not to post offices', {
      pickup_point: ['GLS delivers to its ParcelShops and ParcelLockers, not to post offices: choose a GLS point'],
    });
  }
  return [{ Code: GLS_POINT_SERVICE, PSDParameter: { StringValue: point.id } }];
}

/** A return is collected at the customer's door and brought to the warehouse by the Pick&ReturnService. */
function returnServices(s: ShipmentForCarrier): GlsService[] {
  return s.returnOf ? [{ Code: GLS_RETURN_SERVICE }] : [];
}

function printerType(s: ShipmentForCarrier, settings: GlsSettings): string {
  if (s.labelFormat === 'pdf') return settings.pdfPrinterType;
  if (s.labelFormat === 'zpl') return settings.zplPrinterType;
  throw new CarrierRefusedError(`GLS cannot produce ${s.labelFormat} labels`, { label_format: [`GLS cannot produce ${s.labelFormat} labels; choose pdf or zpl`] });
}

/**
 * One MyGLS parcel with `Count` = our parcels: GLS numbers each package of it (one PrintLabelsInfo per package).
 * `ClientReference` carries our shipment id, which GetParcelList and GetParcelStatuses give back; the user's
 * reference goes to `CODReference` (the payment reference of the payout) and, with the label comment, to `Content`.
 * Cash on delivery to a point is the same `CODAmount`: the PSD service changes where GLS delivers, not the product.
 * A return (`returnOf`) is collected at its sender, the customer, on the shipping date; MyGLS's Parcel has no member
 * for the parcel it returns, so `Content`, printed on the label, names the outbound parcel numbers.
 */
export function glsPrintLabelsRequest(s: ShipmentForCarrier, settings: GlsSettings): GlsPrintLabelsRequest {
  const typeOfPrinter = printerType(s, settings);
  refuseOverweight(s, glsProductOf(s));
  const cod = s.cashOnDelivery;
  const returned = s.returnOf ? `Return of GLS parcel ${s.returnOf.trackingNumbers.join(', ')}` : null;
  const content = [returned, s.reference, s.labelComment].filter((t): t is string => Boolean(t)).join(' · ');
  return {
    ParcelList: [{
      ClientNumber: settings.clientNumber,
      ClientReference: s.id,
      Count: s.parcels.length,
      ...(cod ? { CODAmount: Number(formatMinorUnits(cod.amountMinor)), CODCurrency: cod.currency, CODReference: s.reference ?? s.id } : {}),
      ...(content ? { Content: content } : {}),
      PickupAddress: glsAddress(s.sender),
      DeliveryAddress: glsAddress(s.recipient),
      PickupDate: wcfDay(s.shippingDate, settings.country),
      ServiceList: [...pointServices(s), ...returnServices(s)],
    }],
    TypeOfPrinter: typeOfPrinter,
    ShowPrintDialog: false,
  };
}

export interface GlsPickupRequest {
  ClientNumber: number;
  Count: number;
  PickupTimeFrom: string;
  PickupTimeTo: string;
  Address: GlsAddress;
}

/**
 * A dispatch's courier → the body of `POST /ParcelService.svc/json/CreatePickupRequest`, without the login, as GLS's
 * WooCommerce plugin sends it (includes/api/class-gls-shipping-pickup-api-service.php, `create_pickup_request`):
 * a number of packages and a window, no parcel numbers. The window is the station's, on the account country's clock.
 */
export function glsPickupRequest(dispatch: DispatchForCarrier, pickup: PickupRequest, settings: GlsSettings): GlsPickupRequest {
  return {
    ClientNumber: settings.clientNumber,
    Count: dispatch.shipments.reduce((sum, s) => sum + s.parcels.length, 0),
    PickupTimeFrom: wcfDate(glsLocalMs(pickup.date, pickup.from, settings.country)),
    PickupTimeTo: wcfDate(glsLocalMs(pickup.date, pickup.to, settings.country)),
    // the plugin's Address has no HouseNumberInfo: the apartment stays on the labels only
    Address: glsAddress({ ...dispatch.sender, apartmentNumber: null }),
  };
}
