import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import { soapElement, type SoapPart, type XmlElement } from '../soap.js';
import type { CarrierParty, LabelFormat, ShipmentForCarrier } from '../types.js';
import { DPD_PL_CURRENCIES, sessionTypeOf, type DpdPlSessionType } from './codes.js';
import { DPD_PACKAGE_SERVICE } from './services.js';
import type { DpdPlSettings } from './settings.js';

/**
 * Our shipment → the operations of DPDServices. Pure. Element names and order: the `sequence`s of DPD's schema
 * (DPDPackageXmlServices.xsd, "DPDServices — customer documentation" 2.87 example project), which the JAXB classes
 * generated from the DPDPackageObjServices WSDL repeat.
 */

/** `{login, masterFid, password}`: authDataV1 of the package services, in schema order. */
function authData(settings: DpdPlSettings): XmlElement {
  return { login: settings.login, masterFid: settings.masterFid, password: settings.password };
}

/** DPD takes postal codes as characters only ("02274": customer documentation, findPostalCodeV1). */
export function dpdPostalCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/** packageAddressOpenUMLFeV1: house and flat after the street ("Polna 200/3"), a person in `name`, a firm in `company`. */
function address(party: CarrierParty, fid?: number): XmlElement {
  const house = party.apartmentNumber ? `${party.houseNumber}/${party.apartmentNumber}` : party.houseNumber;
  return {
    address: `${party.street} ${house}`,
    city: party.city,
    company: party.companyName,
    countryCode: party.countryCode,
    email: party.email,
    fid,
    name: party.personName,
    phone: party.phone,
    postalCode: dpdPostalCode(party.postalCode),
  };
}

/** `services.cod`: amount in major units as text, one of DPD's currencies. */
function services(s: ShipmentForCarrier): XmlElement | undefined {
  const cod = s.cashOnDelivery;
  if (!cod) return undefined;
  if (!(DPD_PL_CURRENCIES as readonly string[]).includes(cod.currency)) {
    throw new CarrierRefusedError(`DPD Poland cannot collect cash on delivery in ${cod.currency}`, {
      cash_on_delivery_currency: [`DPD Poland collects cash on delivery in ${DPD_PL_CURRENCIES.join(', ')}`],
    });
  }
  return { cod: { amount: formatMinorUnits(cod.amountMinor), currency: cod.currency } };
}

/** DPD prints 100 characters of a reference (ERROR_PACKAGE_REF_NO2_SIZE_EXCEEEDED). */
const MAX_REFERENCE = 100;

/**
 * generatePackagesNumbersV4: one package (our shipment) of parcels in our order, each getting its own waybill.
 * Our shipment id is the package `reference`, DPD's unique search key (a second package with it is refused as
 * DUPLICATED_PACKAGE_REFERENCE, and labels can be asked for by it); the user's reference is `ref1`, printed.
 */
export function generatePackagesNumbersPart(s: ShipmentForCarrier, settings: DpdPlSettings): SoapPart {
  const pkg: XmlElement = {
    parcels: s.parcels.map((p) => ({
      content: settings.parcelContent,
      sizeX: Math.ceil(p.lengthCm),
      sizeY: Math.ceil(p.widthCm),
      sizeZ: Math.ceil(p.heightCm),
      weight: Math.round(p.weightKg * 100) / 100,
    })),
    payerType: 'SENDER',
    receiver: address(s.recipient),
    ref1: s.reference?.slice(0, MAX_REFERENCE),
    ref2: s.labelComment?.slice(0, MAX_REFERENCE),
    reference: s.id,
    sender: address(s.sender, settings.masterFid),
    services: services(s),
  };
  return {
    name: 'generatePackagesNumbersV4',
    content: { openUMLFeV3: { packages: [pkg] }, pkgNumsGenerationPolicyV1: 'ALL_OR_NOTHING', langCode: 'PL', authDataV1: authData(settings) },
  };
}

/** The create request exactly as sent: the operation element's XML. */
export function dpdPlCreateRequest(s: ShipmentForCarrier, settings: DpdPlSettings): string {
  return soapElement(DPD_PACKAGE_SERVICE, generatePackagesNumbersPart(s, settings));
}

export type DpdPackageLookup = { packageId: string } | { reference: string };

const DOC_FORMATS: Readonly<Record<LabelFormat, string>> = { pdf: 'PDF', zpl: 'ZPL', epl: 'EPL' };

/**
 * generateSpedLabelsV4 for one package, by DPD's package id or by our reference. LBL_PRINTER is the label-printer
 * page DPD needs for ZPL and EPL ("Note 1" of the method) and a page per parcel in PDF; BIC3 is the standard label.
 */
export function generateSpedLabelsPart(lookup: DpdPackageLookup, sessionType: DpdPlSessionType, format: LabelFormat, settings: DpdPlSettings): SoapPart {
  const pkg = 'packageId' in lookup ? { packageId: lookup.packageId } : { reference: lookup.reference };
  return {
    name: 'generateSpedLabelsV4',
    content: {
      dpdServicesParamsV1: { policy: 'STOP_ON_FIRST_ERROR', session: { packages: [pkg], sessionType } },
      outputDocFormatV1: DOC_FORMATS[format],
      outputDocPageFormatV1: 'LBL_PRINTER',
      outputLabelType: 'BIC3',
      authDataV1: authData(settings),
    },
  };
}

export function sessionTypeOfShipment(s: ShipmentForCarrier): DpdPlSessionType {
  return sessionTypeOf(s.recipient.countryCode);
}

/** findPostalCodeV1: the cheapest call that checks the credentials (DPD answers "Login failed" otherwise). */
export function findPostalCodePart(settings: DpdPlSettings): SoapPart {
  return { name: 'findPostalCodeV1', content: { postalCodeV1: { countryCode: 'PL', zipCode: '02274' }, authDataV1: authData(settings) } };
}

/** getEventsForWaybillV1 of DPD Info Services, whose authDataV1 is `{channel, login, password}`. */
export function eventsForWaybillPart(waybill: string, settings: DpdPlSettings): SoapPart {
  return {
    name: 'getEventsForWaybillV1',
    content: {
      waybill,
      eventsSelectType: 'ALL',
      language: 'PL',
      authDataV1: { channel: settings.infoChannel ?? String(settings.masterFid), login: settings.login, password: settings.password },
    },
  };
}
