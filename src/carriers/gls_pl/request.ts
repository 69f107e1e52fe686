import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import { soapElement, type SoapPart, type XmlElement } from '../soap.js';
import type { CarrierParty, ShipmentForCarrier } from '../types.js';
import { GLS_PL_COD_CURRENCY } from './codes.js';
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

/** The services of the consignment in cServicesBool's order; undefined when it has none. */
function servicesOf(s: ShipmentForCarrier, settings: GlsPlSettings): XmlElement | undefined {
  const cod = s.cashOnDelivery;
  if (cod && cod.currency !== GLS_PL_COD_CURRENCY) {
    throw new CarrierRefusedError(`GLS Poland collects cash on delivery in ${GLS_PL_COD_CURRENCY} only`, {
      cash_on_delivery_currency: [`GLS Poland: cash on delivery is collected in ${GLS_PL_COD_CURRENCY} only`],
    });
  }
  const flags: XmlElement = {
    cod: cod ? ON : undefined,
    cod_amount: cod ? formatMinorUnits(cod.amountMinor) : undefined,
    s10: settings.service === 's10' ? ON : undefined,
    s12: settings.service === 's12' ? ON : undefined,
    sat: settings.service === 'sat' ? ON : undefined,
  };
  return Object.values(flags).some((v) => v !== undefined) ? flags : undefined;
}

/** `cConsign`: the recipient (r…), our references, the shipping date, services and one `items` per parcel. */
export function glsPlConsign(s: ShipmentForCarrier, settings: GlsPlSettings): XmlElement {
  const r = s.recipient;
  const company = r.companyName;
  return {
    rname1: company ?? r.personName ?? '',
    rname2: company ? r.personName : undefined,
    rcountry: r.countryCode,
    rzipcode: r.postalCode.trim(),
    rcity: r.city,
    rstreet: streetLine(r),
    rphone: r.phone || undefined,
    // "Email, osoba kontaktowa odbiorcy"
    rcontact: r.email || undefined,
    // printed on the label: the user's reference
    references: s.reference ?? undefined,
    // our shipment id, read back with adePreparingBox_GetConsign when an insert's answer was lost
    notes: s.id,
    date: s.shippingDate,
    srv_bool: servicesOf(s, settings),
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
