import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import { soapElement, type SoapPart, type XmlElement } from '../soap.js';
import type { CarrierParty, LabelFormat, PickupRequest, ShipmentForCarrier, ShipmentToDispatch } from '../types.js';
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

/** Kilograms to DPD's two decimals. */
const kg = (n: number) => Math.round(n * 100) / 100;

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

/**
 * `services` in the schema's order: `cod` (amount in major units as text, one of DPD's currencies), then `dpdPickup`
 * with the point's id in `pudo` for a DPD Pickup point or locker (customer documentation 2.87: "dpdPickup … Pudo:
 * Pickup point code", its example `<dpdPickup><pudo>PL11805</pudo></dpdPickup>`). Cash on delivery at a point is
 * the same `cod` beside it; DPD takes it at the points that offer it ("cod" validation: "available only for selected
 * Pickup points", as DPD Polska's own module sends both).
 */
function services(s: ShipmentForCarrier): XmlElement | undefined {
  const cod = s.cashOnDelivery;
  const point = s.pickupPoint;
  if (point?.type === 'post_office') {
    throw new CarrierRefusedError('DPD Poland delivers to DPD Pickup points and lockers, not to post offices', {
      pickup_point: ['DPD Poland delivers to DPD Pickup points (parcel shops) and DPD Pickup lockers, not to post offices'],
    });
  }
  if (cod && !(DPD_PL_CURRENCIES as readonly string[]).includes(cod.currency)) {
    throw new CarrierRefusedError(`DPD Poland cannot collect cash on delivery in ${cod.currency}`, {
      cash_on_delivery_currency: [`DPD Poland collects cash on delivery in ${DPD_PL_CURRENCIES.join(', ')}`],
    });
  }
  if (!cod && !point) return undefined;
  return {
    cod: cod ? { amount: formatMinorUnits(cod.amountMinor), currency: cod.currency } : undefined,
    dpdPickup: point ? { pudo: point.id } : undefined,
  };
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
      weight: kg(p.weightKg),
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

/** The create request exactly as sent: the operation element's XML (a return's is its return-label operation). */
export function dpdPlCreateRequest(s: ShipmentForCarrier, settings: DpdPlSettings): string {
  return soapElement(DPD_PACKAGE_SERVICE, s.returnOf ? returnLabelPart(s, s.returnOf, settings) : generatePackagesNumbersPart(s, settings));
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

/**
 * A return: DPD's return label for the outbound parcels, `returnedWaybillsV1` their waybills and `receiver`
 * (pudoReturnReceiver) the warehouse; DPD knows the customer from those waybills. DPD Polska's own module
 * (dpdshipping ReturnLabelHandler) calls generateDomesticReturnLabelV1 for a return address in Poland and
 * generateReturnLabelV1 otherwise, with the label type RETURN; LBL_PRINTER as for any of our labels.
 */
export function returnLabelPart(s: ShipmentForCarrier, returnOf: NonNullable<ShipmentForCarrier['returnOf']>, settings: DpdPlSettings): SoapPart {
  return {
    name: sessionTypeOfShipment(s) === 'DOMESTIC' ? 'generateDomesticReturnLabelV1' : 'generateReturnLabelV1',
    content: {
      returnedWaybillsV1: { waybill: returnOf.trackingNumbers },
      // packageAddressOpenUMLFeV1 without `fid` is pudoReturnReceiver, field for field
      receiver: address(s.recipient),
      outputDocFormatV1: DOC_FORMATS[s.labelFormat],
      outputDocPageFormatV1: 'LBL_PRINTER',
      outputLabelType: 'RETURN',
      authDataV1: authData(settings),
    },
  };
}

export function sessionTypeOfShipment(s: ShipmentForCarrier): DpdPlSessionType {
  return sessionTypeOf(s.recipient.countryCode);
}

/**
 * generateProtocolV2: DPD's hand-over protocol of the packages' parcels (by waybill) in one session type, as a PDF on
 * A4 (the only page format of protocols, customer documentation 2.87 "Generating the protocol"). `pickupAddress` is
 * the shipments' sender exactly as generatePackagesNumbersV4 sent it, which DPD requires to be identical
 * (INCORRECT_PICKUP_ADDRESS_*). With `documentId`, DPD prints that protocol's duplicate instead of making one.
 */
export function generateProtocolPart(
  shipments: readonly ShipmentToDispatch[], sessionType: DpdPlSessionType, sender: CarrierParty, settings: DpdPlSettings, documentId?: string,
): SoapPart {
  const packages = shipments.map((s) => ({ packageId: s.providerShipmentId, parcels: s.parcels.map((p) => ({ waybill: p.trackingNumber })) }));
  return {
    name: 'generateProtocolV2',
    content: {
      dpdServicesParamsV1: { documentId, pickupAddress: address(sender, settings.masterFid), policy: 'STOP_ON_FIRST_ERROR', session: { packages, sessionType } },
      outputDocFormatV1: 'PDF',
      outputDocPageFormatV1: 'A4',
      authDataV1: authData(settings),
    },
  };
}

/**
 * packagesPickupCallV4 INSERT: a courier for the parcels at the sender's address, paid by the master FID. The order
 * type follows the sender's country, as DPD Polska's own shop module sets it; no pallets and no envelopes.
 */
export function packagesPickupCallPart(pickup: PickupRequest, sender: CarrierParty, shipments: readonly ShipmentToDispatch[], settings: DpdPlSettings): SoapPart {
  const weights = shipments.flatMap((s) => s.parcels.map((p) => p.weightKg));
  const name = sender.companyName ?? sender.personName ?? '';
  const person = sender.personName ?? name;
  const house = sender.apartmentNumber ? `${sender.houseNumber}/${sender.apartmentNumber}` : sender.houseNumber;
  return {
    name: 'packagesPickupCallV4',
    content: {
      dpdPickupParamsV3: {
        operationType: 'INSERT',
        orderType: sender.countryCode === 'PL' ? 'DOMESTIC' : 'INTERNATIONAL',
        pickupCallSimplifiedDetails: {
          packagesParams: {
            dox: false, doxCount: 0, pallet: false, palletsCount: 0,
            parcelMaxWeight: weights.length > 0 ? kg(Math.max(...weights)) : undefined, parcelsCount: weights.length,
            parcelsWeight: kg(weights.reduce((sum, w) => sum + w, 0)), standardParcel: true,
          },
          pickupCustomer: { customerFullName: person, customerName: name, customerPhone: sender.phone },
          pickupPayer: { payerName: name, payerNumber: settings.masterFid },
          pickupSender: {
            senderAddress: `${sender.street} ${house}`, senderCity: sender.city, senderFullName: person, senderName: name,
            senderPhone: sender.phone, senderPostalCode: dpdPostalCode(sender.postalCode),
          },
        },
        pickupDate: pickup.date,
        pickupTimeFrom: pickup.from,
        pickupTimeTo: pickup.to,
        waybillsReady: true,
      },
      authDataV1: authData(settings),
    },
  };
}

/**
 * getCourierOrderAvailabilityV1: the courier's ranges at the sender's place, `senderPlaceV1 {countryCode, zipCode}`
 * with the post code in characters only (customer documentation 2.87, "Checking courier availability"). It takes no
 * day: DPD answers the ranges of the place, whatever the day.
 */
export function courierOrderAvailabilityPart(sender: CarrierParty, settings: DpdPlSettings): SoapPart {
  return {
    name: 'getCourierOrderAvailabilityV1',
    content: { senderPlaceV1: { countryCode: sender.countryCode, zipCode: dpdPostalCode(sender.postalCode) }, authDataV1: authData(settings) },
  };
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
