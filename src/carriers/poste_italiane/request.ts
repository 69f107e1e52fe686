import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import type { CarrierParty, ShipmentForCarrier } from '../types.js';
import { POSTE_POINT_SERVICES, POSTE_SERVICES, POSTE_ZPL_FORMAT, type PostePrintFormat } from './codes.js';
import type { PosteItalianeSettings } from './settings.js';

/**
 * Our shipment → the body of Poste Delivery Business `POST postalandlogistics/parcel/waybill`. Pure. Field names,
 * limits and value formats: mlocati/MLPosteDeliveryExpress `Library/Waybill/Request/*.cs`, `Library/Waybill/Services/
 * {CashOnDelivery,MultiPack}.cs` and the request its WaybillGenerationTests send to Poste's sandbox.
 */

export interface PosteAddress {
  nameSurname: string;
  contactName: string;
  address: string;
  streetNumber: string;
  zipCode: string;
  city: string;
  province: string;
  country: string;
  countryName: string;
  email: string;
  phone: string;
  cellphone: string;
  addressId: string;
  note1: string;
  note2: string;
}

export interface PosteDeclaredParcel {
  weight: string;
  height: string;
  length: string;
  width: string;
}

export type PosteServices = Record<string, Record<string, string>>;

export interface PosteWaybillRequest {
  clientReferenceId: string;
  printFormat: PostePrintFormat;
  product: string;
  data: {
    declared: PosteDeclaredParcel[];
    content: string;
    services: PosteServices;
    sender: PosteAddress;
    receiver: PosteAddress;
  };
}

export interface PosteCreateRequest {
  costCenterCode: string;
  paperless: 'false';
  shipmentDate: string;
  waybills: PosteWaybillRequest[];
}

/** Poste's own country codes ("ISO4"): Italy is ITA1 (mlocati/MLPosteDeliveryExpress README, `Library/Country/Country.cs`). */
const ITALY = { iso4: 'ITA1', name: 'Italia' };

/** The field limits of Poste's manual (Address.cs MaxLength); longer text is cut rather than refused. */
export const cut = (text: string, max: number) => text.trim().slice(0, max);

export function refuseOutsideItaly(party: CarrierParty, path: string): void {
  if (party.countryCode === 'IT') return;
  throw new CarrierRefusedError(`Poste Italiane ships packdesk's products within Italy only, not to or from ${party.countryCode}`, {
    [path]: ['Poste Italiane: PosteDelivery Business Standard and Express run within Italy (international products need customs lines)'],
  });
}

/**
 * A firm goes in `nameSurname` with the person as `contactName`; a person alone in `nameSurname`. The street number
 * has four characters at most: a longer one, and the flat (interno), go after the street.
 */
function posteAddress(party: CarrierParty, notes: { note1?: string; note2?: string } = {}): PosteAddress {
  const house = party.houseNumber.trim();
  const fitsNumber = house.length <= 4;
  const street = [party.street.trim(), fitsNumber ? '' : house, party.apartmentNumber ? `int. ${party.apartmentNumber.trim()}` : '']
    .filter(Boolean).join(' ');
  return {
    nameSurname: cut(party.companyName ?? party.personName ?? '', 35),
    contactName: party.companyName && party.personName ? cut(party.personName, 35) : '',
    address: cut(street, 40),
    streetNumber: fitsNumber ? house : '',
    zipCode: party.postalCode.replace(/\s/g, ''),
    city: cut(party.city, 30),
    // packdesk's addresses hold no province; Poste requires one only for US and Canadian receivers
    province: '',
    country: ITALY.iso4,
    countryName: ITALY.name,
    email: cut(party.email, 50),
    phone: party.phone.replace(/[^\d+]/g, ''),
    cellphone: '',
    addressId: '',
    note1: cut(notes.note1 ?? '', 20),
    note2: cut(notes.note2 ?? '', 20),
  };
}

/** Grams and whole centimetres, as strings (WaybillDataDeclared.cs: integers greater than 0). */
function declared(s: ShipmentForCarrier): PosteDeclaredParcel[] {
  const whole = (n: number) => String(Math.max(1, Math.ceil(n)));
  return s.parcels.map((p) => ({
    weight: String(Math.max(1, Math.round(p.weightKg * 1000))),
    height: whole(p.heightCm), length: whole(p.lengthCm), width: whole(p.widthCm),
  }));
}

/** Several parcels are one waybill with Multicollo (APT000945); cash on delivery is the service APT000918. */
function services(s: ShipmentForCarrier, settings: PosteItalianeSettings): PosteServices {
  const out: PosteServices = {};
  const cod = s.cashOnDelivery;
  if (cod) {
    if (cod.currency !== 'EUR') {
      throw new CarrierRefusedError(`Poste Italiane collects cash on delivery in EUR only, not ${cod.currency}`, {
        cash_on_delivery_currency: ['Poste Italiane collects cash on delivery in EUR only'],
      });
    }
    out[POSTE_SERVICES.cashOnDelivery] = { amount: formatMinorUnits(cod.amountMinor), paymentMode: settings.codPaymentMode };
  }
  if (s.parcels.length > 1) out[POSTE_SERVICES.multiParcel] = {};
  if (s.pickupPoint) out[pointService(s)] = { node: s.pickupPoint.id.trim(), name: '' };
  return out;
}

/** The point's service, by its type: Poste's point codes do not tell a Punto Poste from a locker or a post office. */
function pointService(s: ShipmentForCarrier): string {
  const { type, id } = s.pickupPoint!;
  if (!type) {
    throw new CarrierRefusedError(`Poste Italiane needs the type of point ${id}`, {
      pickup_point: ['Poste Italiane: give the point\'s type (parcelshop: Punto Poste, locker: Punto Poste Locker, post_office: Ufficio Postale)'],
    });
  }
  if (!id.trim()) throw new CarrierRefusedError('Poste Italiane needs the point\'s code', { pickup_point: ['Poste Italiane: the point\'s code is empty'] });
  // DeliveryToLockerItaly.cs: ServiceFlags.OnlyOnePackage
  if (type === 'locker' && s.parcels.length > 1) {
    throw new CarrierRefusedError('Poste Italiane delivers one parcel per waybill to a Punto Poste Locker', {
      pickup_point: [`Poste Italiane: a Punto Poste Locker takes one parcel per shipment, not ${s.parcels.length}`],
    });
  }
  return POSTE_POINT_SERVICES[type].service;
}

function printFormat(s: ShipmentForCarrier, settings: PosteItalianeSettings): PostePrintFormat {
  if (s.labelFormat === 'pdf') return settings.pdfFormat;
  if (s.labelFormat === 'zpl') return POSTE_ZPL_FORMAT;
  throw new CarrierRefusedError(`Poste Italiane cannot produce ${s.labelFormat} labels`, {
    label_format: [`Poste Italiane prints PDF (A4 or 10×11 cm) and ZPL labels, not ${s.labelFormat}`],
  });
}

export function posteCreateRequest(s: ShipmentForCarrier, settings: PosteItalianeSettings): PosteCreateRequest {
  refuseOutsideItaly(s.sender, 'origin_address.country_code');
  refuseOutsideItaly(s.recipient, 'destination_address.country_code');
  return {
    costCenterCode: settings.costCenterCode,
    paperless: 'false',
    shipmentDate: `${s.shippingDate}T00:00:00.000+0000`,
    waybills: [{
      // "unique for the customer", 25 characters: our shipment id (sh_ + 20) fits
      clientReferenceId: s.id,
      printFormat: printFormat(s, settings),
      product: settings.product,
      data: {
        declared: declared(s),
        content: cut(settings.content, 30),
        services: services(s, settings),
        // the sender's note1 is the only note Poste prints (Address.cs): the user's reference goes there
        sender: posteAddress(s.sender, { note1: s.reference ?? '', note2: s.labelComment ?? '' }),
        receiver: posteAddress(s.recipient),
      },
    }],
  };
}
