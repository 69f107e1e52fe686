import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import { soapElement, type SoapPart, type XmlElement } from '../soap.js';
import type { CarrierParty, ShipmentForCarrier } from '../types.js';
import { GLS_PL_COD_CURRENCY, GLS_PL_POINT_SERVICE, GLS_PL_RETURN_SERVICE } from './codes.js';
import { ADE_SERVICE } from './service.js';
import type { GlsPlSettings } from './settings.js';

/**
 * Our shipment → ADE `adePreparingBox_Insert {session, consign_prep_data}`. Element names and order are those of
 * `cConsign`, `cParcelsArray`, `cParcel` and `cServicesBool` in the classes generated from the ADE WSDL
 * (github.com/kerogos/gls-polska src/Soap/), reconstructed as fixtures/schema/create-request.xsd. Pure.
 */

/** ADE's boolean service flags take 1 for "on" (cServicesBool: "Wartość pola 1 oznacza aktywność usługi"). */
const ON = 1;

/** Parcels weigh at least 0.01 kg in ADE (err_cons_weight_is_less_than_zero); weights go with two decimals. */
function kilograms(weightKg: number): string {
  return String(Math.max(0.01, Math.round(weightKg * 100) / 100));
}

function streetLine(party: CarrierParty): string {
  const house = party.apartmentNumber ? `${party.houseNumber}/${party.apartmentNumber}` : party.houseNumber;
  return `${party.street} ${house}`.trim();
}

/**
 * The delivery service of the shipment: `sds` (delivery to a ParcelShop) when it names a point, else the channel's.
 * GLS Poland's own shop module sends its ParcelShop method with `sds` and none of s10, s12, sat
 * (github.com/glspoland/Magento-Integration-Module Model/ShippingMethods.php, Model/ApiHandler.php).
 */
export function glsPlServiceOf(s: ShipmentForCarrier, settings: GlsPlSettings): string {
  if (s.returnOf) return GLS_PL_RETURN_SERVICE;
  return s.pickupPoint ? GLS_PL_POINT_SERVICE : settings.service;
}

/** A point GLS Poland cannot deliver the shipment to, refused on `pickup_point` before ADE is asked. */
function checkPoint(s: ShipmentForCarrier): void {
  const point = s.pickupPoint;
  if (!point) return;
  if (point.type !== null && point.type !== 'parcelshop') {
    throw new CarrierRefusedError('GLS Poland delivers to its ParcelShops only', {
      pickup_point: [`GLS Poland delivers to GLS ParcelShops, not to a ${point.type.replace('_', ' ')}: choose a GLS ParcelShop`],
    });
  }
  // GLS Poland's shop module offers no cash on delivery with its ParcelShop method (Model/Payment/Checks/CanUseForShippingMethod.php)
  if (s.cashOnDelivery) {
    throw new CarrierRefusedError('GLS Poland collects no cash on delivery at its ParcelShops', {
      pickup_point: ['GLS Poland collects no cash on delivery at a ParcelShop: send the parcel to the door, or without cash on delivery'],
    });
  }
}

/** The services of the consignment in cServicesBool's order; undefined when it has none. */
function servicesOf(s: ShipmentForCarrier, settings: GlsPlSettings): XmlElement | undefined {
  const cod = s.cashOnDelivery;
  if (cod && cod.currency !== GLS_PL_COD_CURRENCY) {
    throw new CarrierRefusedError(`GLS Poland collects cash on delivery in ${GLS_PL_COD_CURRENCY} only`, {
      cash_on_delivery_currency: [`GLS Poland: cash on delivery is collected in ${GLS_PL_COD_CURRENCY} only`],
    });
  }
  const service = glsPlServiceOf(s, settings);
  const flags: XmlElement = {
    cod: cod ? ON : undefined,
    cod_amount: cod ? formatMinorUnits(cod.amountMinor) : undefined,
    s10: service === 's10' ? ON : undefined,
    s12: service === 's12' ? ON : undefined,
    sat: service === 'sat' ? ON : undefined,
    srs: service === GLS_PL_RETURN_SERVICE ? ON : undefined,
    sds: service === GLS_PL_POINT_SERVICE ? ON : undefined,
  };
  return Object.values(flags).some((v) => v !== undefined) ? flags : undefined;
}

/**
 * ShopReturn-Service needs both of its addresses in Poland (ADE's err_cons_srv_srs_both_addresses_must_be_in_poland):
 * a return from or to another country is refused on the address before ADE is asked.
 */
function checkReturn(s: ShipmentForCarrier): void {
  for (const [party, path] of [[s.sender, 'origin_address'], [s.recipient, 'destination_address']] as const) {
    if (party.countryCode !== 'PL') {
      throw new CarrierRefusedError(`GLS Poland's ShopReturn-Service returns parcels within Poland, not from or to ${party.countryCode}`, {
        [`${path}.country_code`]: [`GLS Poland's ShopReturn-Service (srs) takes both addresses in Poland; this one is in ${party.countryCode}`],
      });
    }
  }
}

/**
 * `cServicePPE` of a ShopReturn-Service (ADE's s_srv_ppe: "SRS - dane odsyłającego towar" in the s… section, "SRS -
 * dane odbiorcy ShopReturn-Service" in the r… section): the customer sending the parcel back from a ParcelShop, and
 * the warehouse. `references` names the outbound GLS parcels it returns.
 */
function returnParties(s: ShipmentForCarrier, returnOf: NonNullable<ShipmentForCarrier['returnOf']>): XmlElement {
  return {
    ...partyFields('s', s.sender),
    ...partyFields('r', s.recipient),
    references: returnOf.trackingNumbers.join(' '),
    weight: kilograms(s.parcels.reduce((sum, p) => sum + p.weightKg, 0)),
  };
}

/** A party as ADE's `<prefix>name1` … `<prefix>contact` fields (cConsign's r…, cServicePPE's s… and r…): a firm first, its person second. */
function partyFields(prefix: 'r' | 's', party: CarrierParty): XmlElement {
  const company = party.companyName;
  return {
    [`${prefix}name1`]: company ?? party.personName ?? '',
    [`${prefix}name2`]: company ? party.personName : undefined,
    [`${prefix}country`]: party.countryCode,
    [`${prefix}zipcode`]: party.postalCode.trim(),
    [`${prefix}city`]: party.city,
    [`${prefix}street`]: streetLine(party),
    [`${prefix}phone`]: party.phone || undefined,
    // "Email, osoba kontaktowa"
    [`${prefix}contact`]: party.email || undefined,
  };
}

/** `cConsign`: the recipient (r…), our references, the shipping date, services, the point (srv_sds) and one `items` per parcel. */
export function glsPlConsign(s: ShipmentForCarrier, settings: GlsPlSettings): XmlElement {
  checkPoint(s);
  if (s.returnOf) checkReturn(s);
  return {
    ...partyFields('r', s.recipient),
    // printed on the label: the user's reference
    references: s.reference ?? undefined,
    // our shipment id, read back with adePreparingBox_GetConsign when an insert's answer was lost
    notes: s.id,
    date: s.shippingDate,
    srv_bool: servicesOf(s, settings),
    srv_ppe: s.returnOf ? returnParties(s, s.returnOf) : undefined,
    // cServiceSDS: the ParcelShop by its id; ADE fills the rest of the point's data itself
    srv_sds: s.pickupPoint ? { id: s.pickupPoint.id } : undefined,
    parcels: { items: s.parcels.map((p) => ({ weight: kilograms(p.weightKg) })) },
  };
}

export function insertOperation(session: string, consign: XmlElement): SoapPart {
  return { name: 'adePreparingBox_Insert', content: { session, consign_prep_data: consign } };
}

/** The operation element's XML text, as the fixtures and the published-schema check see it. */
export function glsPlInsertXml(s: ShipmentForCarrier, settings: GlsPlSettings, session: string): string {
  return soapElement(ADE_SERVICE, insertOperation(session, glsPlConsign(s, settings)));
}
