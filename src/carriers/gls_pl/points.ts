import { splitStreet } from '../../domain/street.js';
import { xmlList, xmlObject, xmlString, type XmlNode, type XmlObject } from '../soap.js';
import type { PickupPoint } from '../types.js';

/**
 * GLS Poland's ParcelShops as ADE's own point operations answer them (the ADE WSDL, github.com/kerogos/gls-polska
 * src/Soap/AdeParcelShop_SearchByZip.php, AdeParcelShop_SearchByID.php, AdeParcelShop_GetByCountry.php, CParcelShop.php;
 * GLS Poland's shop module asks adeParcelShop_SearchByID the same way: github.com/glspoland/Magento-Integration-Module
 * Service/Soap/SoapRequest.php). The point's `id` is what a consignment names in `srv_sds.id`. Pure.
 */

/** cParcelShop's opening fields, ISO weekday first. */
const DAYS = [[1, 'mon'], [2, 'tue'], [3, 'wed'], [4, 'thu'], [5, 'fri'], [6, 'sat'], [7, 'sun']] as const;

/** ADE's times are `HH:MM` (a trailing `:SS` is dropped; the format is inferred, the WSDL types them as strings). */
function time(node: XmlNode | undefined): string | undefined {
  const match = /^([01]\d|2[0-4]):([0-5]\d)(:[0-5]\d)?$/.exec((xmlString(node) ?? '').trim());
  return match ? `${match[1]}:${match[2]}` : undefined;
}

function coordinate(node: XmlNode | undefined): number | undefined {
  const value = Number(xmlString(node));
  return xmlString(node) !== undefined && Number.isFinite(value) && value !== 0 ? value : undefined;
}

/**
 * One cParcelShop as ours; undefined without an id. cParcelShop tells no type, status or payments: every point is a
 * ParcelShop, open (ADE lists the points that take parcels: inferred), and takes no cash on delivery (GLS Poland's
 * shop module offers none with its ParcelShop method: Model/Payment/Checks/CanUseForShippingMethod.php).
 */
export function pickupPointOfParcelShop(node: XmlNode | undefined): PickupPoint | undefined {
  const shop = xmlObject(node);
  const id = (xmlString(shop.id) ?? '').trim();
  if (!id) return undefined;
  const text = (name: string) => (xmlString(shop[name]) ?? '').trim();
  const countryCode = (text('country') || 'PL').toUpperCase();
  const street = splitStreet(text('street'), countryCode);
  const lat = coordinate(shop.gps_lati);
  const lon = coordinate(shop.gps_long);
  return {
    id,
    name: [text('name1'), text('name2'), text('name3')].filter(Boolean).join(' ') || id,
    type: 'parcelshop',
    address: {
      street: street.street_name,
      houseNumber: [street.house_number, street.apartment_number].filter(Boolean).join('/'),
      city: text('city'), postalCode: text('zipcode'), countryCode,
    },
    openingHours: DAYS.flatMap(([day, key]) => {
      const from = time(shop[`${key}_open`]);
      const to = time(shop[`${key}_close`]);
      return from && to && from < to ? [{ day, from, to }] : [];
    }),
    location: lat !== undefined && lon !== undefined ? { lat, lon } : null,
    cashOnDelivery: false,
    open: true,
  };
}

/** `{return: cParcelShopArray{items}}` of adeParcelShop_SearchByZip and adeParcelShop_GetByCountry. */
export function parseParcelShops(body: XmlObject): PickupPoint[] {
  return xmlList(xmlObject(body.return).items).flatMap((item) => pickupPointOfParcelShop(item) ?? []);
}
