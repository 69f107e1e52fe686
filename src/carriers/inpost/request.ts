import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import type { CarrierParcel, CarrierParty, DispatchForCarrier, ShipmentForCarrier } from '../types.js';
import {
  INPOST_CURRENCY, INPOST_LOCKER_MAX_KG, INPOST_LOCKER_SERVICE, INPOST_LOCKER_SIDES_CM, INPOST_LOCKER_TEMPLATES, INPOST_RETURN_SENDING_METHOD,
  INPOST_RETURN_SERVICE,
} from './codes.js';
import type { InpostSettings } from './settings.js';

/**
 * Our shipment → the body of ShipX's `POST /v1/organizations/{organization_id}/shipments` (the "simplified mode":
 * the request names its `service`, and InPost buys the label by itself). Pure. Field names: the forms of
 * michalbiarda/shipx-php-sdk (`Model/ShipmentForm`, `TransactionPartyForm`, `AddressForm`, `ParcelsSimple`,
 * `DimensionsSimple`, `WeightSimple`, `ShipmentCustomAttributes`, `Price`) and ShipX's "Form validation" page
 * (dokumentacja-inpost.atlassian.net/wiki/spaces/PL/pages/18153492).
 */

const NAME = 'InPost';

export interface InpostAddress {
  street: string;
  building_number: string;
  city: string;
  post_code: string;
  country_code: string;
}

export interface InpostParty {
  company_name?: string;
  first_name?: string;
  last_name?: string;
  email: string;
  phone: string;
  address?: InpostAddress;
}

export type InpostParcel =
  | { template: string }
  | { id: string; dimensions: { length: number; width: number; height: number; unit: 'mm' }; weight: { amount: number; unit: 'kg' }; is_non_standard: boolean };

export interface InpostMoney {
  amount: number;
  currency: string;
}

export interface InpostShipmentRequest {
  receiver: InpostParty;
  sender: InpostParty;
  parcels: InpostParcel[];
  service: string;
  custom_attributes: { sending_method: string; target_point?: string };
  cod?: InpostMoney;
  insurance?: InpostMoney;
  /** Marks the shipment as a return (11731061: "Określa przesyłkę jako zwrotną"). */
  is_return?: boolean;
  /** Our shipment id: what finds the shipment again in the organization's list after a lost answer (3 to 100 characters). */
  reference: string;
  comments?: string;
}

/** InPost's size rule for a courier parcel that is not standard: a side over 120 cm or the three over 220 cm together (inpost.pl). */
const NON_STANDARD = { sideCm: 120, sumCm: 220 };

/** Polish numbers go as their nine digits ("every example sends 9 digits"); any other is sent as written, for ShipX to refuse. */
function phoneOf(phone: string): string {
  const digits = phone.replace(/[\s()-]/g, '');
  const polish = /^(?:\+|00)?48(\d{9})$/.exec(digits);
  return polish ? polish[1]! : digits.replace(/^\+/, '');
}

/** A person's name split at its last space; a one-word name is a last name. */
function names(personName: string | null): { first_name?: string; last_name?: string } {
  if (!personName) return {};
  const trimmed = personName.trim();
  const at = trimmed.lastIndexOf(' ');
  return at < 0 ? { last_name: trimmed } : { first_name: trimmed.slice(0, at), last_name: trimmed.slice(at + 1) };
}

export function inpostAddress(party: CarrierParty): InpostAddress {
  return {
    street: party.street,
    // Polish addresses write the flat after the building: 12/5
    building_number: party.apartmentNumber ? `${party.houseNumber}/${party.apartmentNumber}` : party.houseNumber,
    city: party.city, post_code: party.postalCode, country_code: party.countryCode,
  };
}

function partyOf(party: CarrierParty, withAddress: boolean): InpostParty {
  return {
    ...(party.companyName ? { company_name: party.companyName } : {}),
    ...names(party.personName),
    email: party.email,
    phone: phoneOf(party.phone),
    ...(withAddress ? { address: inpostAddress(party) } : {}),
  };
}

/** A Paczkomat size the parcel fits, by its sides sorted (the smallest against the template's height); refused on its path else. */
function templateOf(parcel: CarrierParcel, index: number): string {
  const [height, width, length] = [parcel.heightCm, parcel.widthCm, parcel.lengthCm].sort((a, b) => a - b) as [number, number, number];
  if (parcel.weightKg > INPOST_LOCKER_MAX_KG) {
    throw new CarrierRefusedError(`${NAME} Paczkomat parcels weigh up to ${INPOST_LOCKER_MAX_KG} kg`, {
      [`parcels.${index}.weight_amount`]: [`${NAME} Paczkomat parcels weigh up to ${INPOST_LOCKER_MAX_KG} kg`],
    });
  }
  const fits = INPOST_LOCKER_TEMPLATES.find((t) => height <= t.heightCm && width <= INPOST_LOCKER_SIDES_CM.width && length <= INPOST_LOCKER_SIDES_CM.length);
  if (!fits) {
    const why = `${NAME} Paczkomat lockers take parcels up to 41 × 38 × 64 cm (size C)`;
    throw new CarrierRefusedError(why, { [`parcels.${index}`]: [why] });
  }
  return fits.template;
}

function courierParcel(parcel: CarrierParcel, index: number): InpostParcel {
  const sides = [parcel.lengthCm, parcel.widthCm, parcel.heightCm];
  return {
    id: String(index + 1),
    dimensions: { length: parcel.lengthCm * 10, width: parcel.widthCm * 10, height: parcel.heightCm * 10, unit: 'mm' },
    weight: { amount: parcel.weightKg, unit: 'kg' },
    is_non_standard: Math.max(...sides) > NON_STANDARD.sideCm || sides.reduce((a, b) => a + b, 0) > NON_STANDARD.sumCm,
  };
}

function codOf(s: ShipmentForCarrier): InpostMoney | undefined {
  const cod = s.cashOnDelivery;
  if (!cod) return undefined;
  if (cod.currency !== INPOST_CURRENCY) {
    throw new CarrierRefusedError(`${NAME} collects cash on delivery in PLN only, not in ${cod.currency}`, {
      cash_on_delivery_currency: [`${NAME} collects cash on delivery in PLN only`],
    });
  }
  return { amount: Number(formatMinorUnits(cod.amountMinor)), currency: INPOST_CURRENCY };
}

/**
 * A Paczkomat or PaczkoPunkt shipment carries one parcel (ShipX takes one `template` per locker shipment): a
 * shipment of more is refused on `parcels` rather than split, since each ShipX shipment would be a label bought,
 * tracked and collected on its own, and its cash on delivery could not be shared.
 */
function lockerParcels(s: ShipmentForCarrier): InpostParcel[] {
  if (s.parcels.length > 1) {
    const why = `${NAME} delivers one parcel a shipment to a Paczkomat or PaczkoPunkt: send each parcel as a shipment of its own`;
    throw new CarrierRefusedError(why, { parcels: [why] });
  }
  return [{ template: templateOf(s.parcels[0]!, 0) }];
}

/**
 * A return: a ShipX shipment marked `is_return`, the customer its sender and the warehouse its receiver, by courier
 * (INPOST_RETURN_SERVICE) and handed in at a PaczkoPunkt (INPOST_RETURN_SENDING_METHOD) whatever the channel's service
 * and sending method. ShipX's form has no field for the shipment returned: its id goes in `comments`.
 */
function inpostReturnRequest(s: ShipmentForCarrier, returnOf: NonNullable<ShipmentForCarrier['returnOf']>): InpostShipmentRequest {
  if (s.cashOnDelivery) {
    throw new CarrierRefusedError(`${NAME} returns collect no cash on delivery`, { cash_on_delivery_amount: [`${NAME} returns (is_return) take no cash on delivery`] });
  }
  return {
    receiver: partyOf(s.recipient, true),
    sender: partyOf(s.sender, true),
    parcels: s.parcels.map(courierParcel),
    service: INPOST_RETURN_SERVICE,
    custom_attributes: { sending_method: INPOST_RETURN_SENDING_METHOD },
    is_return: true,
    reference: s.id,
    comments: [`Return of InPost shipment ${returnOf.providerShipmentId}`, s.reference].filter(Boolean).join(' · '),
  };
}

export function inpostShipmentRequest(s: ShipmentForCarrier, settings: InpostSettings): InpostShipmentRequest {
  if (s.recipient.countryCode !== 'PL') {
    throw new CarrierRefusedError(`${NAME} (ShipX Poland) delivers in Poland only`, { 'destination_address.country_code': [`${NAME} delivers in Poland only`] });
  }
  if (s.returnOf) return inpostReturnRequest(s, s.returnOf);
  const point = s.pickupPoint;
  if (point?.type === 'post_office') {
    throw new CarrierRefusedError(`${NAME} delivers to Paczkomat lockers and PaczkoPunkt points, not to post offices`, {
      pickup_point: [`${NAME} delivers to Paczkomat lockers and PaczkoPunkt points only`],
    });
  }
  const cod = codOf(s);
  return {
    // a locker recipient is reached by phone and e-mail; the address is the point's, so none is sent
    receiver: partyOf(s.recipient, !point),
    sender: partyOf(s.sender, true),
    parcels: point ? lockerParcels(s) : s.parcels.map(courierParcel),
    service: point ? INPOST_LOCKER_SERVICE : settings.service,
    custom_attributes: { sending_method: settings.sendingMethod, ...(point ? { target_point: point.id.trim().toUpperCase() } : {}) },
    // 18153492: courier services need insurance with COD; InPost's FAQ asks COD parcels insured for at least their COD
    ...(cod ? { cod, insurance: cod } : {}),
    reference: s.id,
    ...(s.reference ? { comments: s.reference } : {}),
  };
}

/** `POST /v1/organizations/{id}/dispatch_orders` (shipx-php-sdk `Model/DispatchOrderForm`): the courier collects these shipments at the address. */
export interface InpostDispatchOrderRequest {
  shipments: number[];
  address: InpostAddress;
  name: string;
  phone: string;
  email: string;
  comment?: string;
}

/** ShipX takes no day or window for a dispatch order: InPost's courier comes on its round, so a wished window goes as the order's comment (inferred). */
export function inpostDispatchOrderRequest(dispatch: DispatchForCarrier): InpostDispatchOrderRequest {
  const { sender, pickup } = dispatch;
  return {
    shipments: dispatch.shipments.map((s) => Number(s.providerShipmentId)),
    address: inpostAddress(sender),
    name: sender.companyName ?? sender.personName ?? '',
    phone: phoneOf(sender.phone),
    email: sender.email,
    ...(pickup ? { comment: `${pickup.date} ${pickup.from}–${pickup.to}` } : {}),
  };
}

/**
 * `POST /v1/organizations/{id}/shipments/calculate` (18153505 "Shipment price calculation"): the shipment as creation
 * would send it, under an `id` the answer's price names (required where several are asked; one is asked here).
 */
export function inpostCalculateRequest(s: ShipmentForCarrier, settings: InpostSettings): InpostCalculateRequest {
  return { shipments: [{ id: s.id, ...inpostShipmentRequest(s, settings) }] };
}

export interface InpostCalculateRequest {
  shipments: (InpostShipmentRequest & { id: string })[];
}
