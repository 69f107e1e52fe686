import { createHash } from 'node:crypto';
import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import type { CarrierParcel, CarrierParty, ShipmentForCarrier } from '../types.js';
import { ALLEGRO_MAX_PACKAGES, ALLEGRO_MULTI_PARCEL_CARRIERS, ALLEGRO_PACKAGE_TYPES } from './codes.js';
import type { AllegroDeliveryService } from './response.js';
import type { AllegroSettings } from './settings.js';

/**
 * Our shipment → the bodies of Allegro's shipment-management commands. Pure. Field names: Allegro's OpenAPI
 * (em411/allegro-php-api `resources/spec.yaml`): ShipmentCreateCommandDto, ShipmentCreateRequestDto, AddressDto,
 * PackageRequestDto, CashOnDeliveryDto, ShipmentCancelCommandDto, LabelRequestDto; a point's id in ReceiverAddressDto.point.
 */

export interface AllegroAddress {
  name?: string;
  company?: string;
  street: string;
  postalCode: string;
  city: string;
  countryCode: string;
  email: string;
  phone: string;
  /** ReceiverAddressDto.point: the pickup point's id, where the delivery method delivers to points. */
  point?: string;
}

interface Measure<U extends string> {
  value: number;
  unit: U;
}

export interface AllegroPackage {
  type: 'PACKAGE' | 'DOX' | 'PALLET' | 'OTHER';
  length: Measure<'CENTIMETER'>;
  width: Measure<'CENTIMETER'>;
  height: Measure<'CENTIMETER'>;
  weight: Measure<'KILOGRAMS'>;
  textOnLabel?: string;
}

export interface AllegroCreateInput {
  deliveryMethodId: string;
  credentialsId?: string;
  sender: AllegroAddress;
  receiver: AllegroAddress;
  referenceNumber: string;
  packages: AllegroPackage[];
  cashOnDelivery?: { amount: string; currency: string; ownerName?: string; iban?: string };
  labelFormat: 'PDF' | 'ZPL';
}

export interface AllegroCreateCommand {
  commandId: string;
  input: AllegroCreateInput;
}

export interface AllegroCancelCommand {
  commandId: string;
  input: { shipmentId: string };
}

/** PickupTimeDto: a day (`yyyy-MM-dd`) and the slot's times (`HH:MM`). */
export interface AllegroPickupTime {
  date: string;
  minTime?: string;
  maxTime?: string;
}

/** PickupProposalsRequestDto of `POST /shipment-management/pickup-proposals`. */
export interface AllegroPickupProposalsRequest {
  shipmentIds: string[];
  readyDate?: string;
  address: AllegroAddress;
}

/** PickupCreateCommandDto of `POST /shipment-management/pickups/create-commands`. */
export interface AllegroPickupCommand {
  commandId: string;
  input: { shipmentIds: string[]; pickupDateProposalId?: string; pickupTime?: AllegroPickupTime; address: AllegroAddress };
}

export interface AllegroLabelRequest {
  shipmentIds: string[];
  pageSize?: 'A4' | 'A6';
}

/** Namespace of packdesk's name-based command ids (RFC 4122 §4.3, version 5). */
const COMMAND_NAMESPACE = Buffer.from('4f0c8e52a1d34b7e9c65d2a7f1e03b98', 'hex');

/** A UUID made from a name: the same name always gives the same id. */
export function commandIdFor(name: string): string {
  const hash = createHash('sha1').update(COMMAND_NAMESPACE).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Polish postal codes as Allegro writes them (`10-200`, AddressDto example); others as given. */
function postalCodeOf(party: CarrierParty): string {
  const code = party.postalCode.trim();
  const digits = code.replace(/\D/g, '');
  return party.countryCode === 'PL' && digits.length === 5 ? `${digits.slice(0, 2)}-${digits.slice(2)}` : code;
}

/** AddressDto: a person in `name`, a firm in `company` ("Name or Company are required"), house and flat after the street ("Główna 30"). */
export function addressOf(party: CarrierParty): AllegroAddress {
  const house = party.apartmentNumber ? `${party.houseNumber}/${party.apartmentNumber}` : party.houseNumber;
  return {
    ...(party.personName ? { name: party.personName } : {}),
    ...(party.companyName ? { company: party.companyName } : {}),
    street: `${party.street} ${house}`,
    postalCode: postalCodeOf(party),
    city: party.city,
    countryCode: party.countryCode,
    email: party.email,
    phone: party.phone,
  };
}

/** The user's reference and label comment go in `textOnLabel`, the one text Allegro prints on the label. */
function packageOf(parcel: CarrierParcel, s: ShipmentForCarrier): AllegroPackage {
  const text = [s.reference, s.labelComment].filter((t): t is string => Boolean(t)).join(' · ');
  return {
    type: ALLEGRO_PACKAGE_TYPES[parcel.parcelType.toLowerCase()] ?? 'OTHER',
    length: { value: parcel.lengthCm, unit: 'CENTIMETER' },
    width: { value: parcel.widthCm, unit: 'CENTIMETER' },
    height: { value: parcel.heightCm, unit: 'CENTIMETER' },
    weight: { value: parcel.weightKg, unit: 'KILOGRAMS' },
    ...(text ? { textOnLabel: text } : {}),
  };
}

export function labelFormatOf(s: ShipmentForCarrier): 'PDF' | 'ZPL' {
  if (s.labelFormat === 'pdf' || s.labelFormat === 'zpl') return s.labelFormat === 'pdf' ? 'PDF' : 'ZPL';
  throw new CarrierRefusedError(`Allegro cannot produce ${s.labelFormat} labels`, { label_format: [`Allegro creates PDF or ZPL labels, not ${s.labelFormat}`] });
}

/** The create command for the parcels at `parcelIndexes` (all of them on multi-parcel delivery methods, else one). */
export function allegroCreateCommand(
  s: ShipmentForCarrier, settings: AllegroSettings, command: { commandId: string; parcelIndexes: readonly number[] },
): AllegroCreateCommand {
  const cod = s.cashOnDelivery;
  return {
    commandId: command.commandId,
    input: {
      deliveryMethodId: settings.deliveryMethodId,
      ...(settings.credentialsId ? { credentialsId: settings.credentialsId } : {}),
      sender: addressOf(s.sender),
      receiver: { ...addressOf(s.recipient), ...(s.pickupPoint ? { point: s.pickupPoint.id } : {}) },
      // our id is the seller's own shipment identifier ("Shipment identifier in own system")
      referenceNumber: s.id,
      packages: command.parcelIndexes.map((i) => packageOf(s.parcels[i]!, s)),
      ...(cod ? {
        cashOnDelivery: {
          amount: formatMinorUnits(cod.amountMinor), currency: cod.currency,
          ...(settings.codOwnerName ? { ownerName: settings.codOwnerName } : {}), ...(settings.codIban ? { iban: settings.codIban } : {}),
        },
      } : {}),
      labelFormat: labelFormatOf(s),
    },
  };
}

/**
 * Which parcels travel together: all in one shipment on DPD and WE|DO methods (at most 10 packages), else one
 * shipment per parcel. COD is refused here when the delivery service has none, over its limit or in another currency.
 */
export function parcelGroups(s: ShipmentForCarrier, service: AllegroDeliveryService): number[][] {
  const indexes = s.parcels.map((_, i) => i);
  const cod = s.cashOnDelivery;
  if (cod) {
    const limit = service.cashOnDelivery;
    if (!limit) {
      throw new CarrierRefusedError(`Allegro delivery method ${service.name} has no cash on delivery`, {
        cash_on_delivery_amount: [`Allegro: ${service.name} does not take cash on delivery; choose another delivery method on the channel`],
      });
    }
    if (limit.currency && cod.currency !== limit.currency) {
      throw new CarrierRefusedError(`Allegro collects cash on delivery in ${limit.currency} on ${service.name}`, {
        cash_on_delivery_currency: [`Allegro: ${service.name} collects cash on delivery in ${limit.currency}`],
      });
    }
    if (limit.limit !== undefined && cod.amountMinor > Math.round(limit.limit * 100)) {
      throw new CarrierRefusedError(`Allegro takes at most ${limit.limit} ${limit.currency ?? ''} cash on delivery on ${service.name}`.trim(), {
        cash_on_delivery_amount: [`Allegro: at most ${limit.limit} on ${service.name}`],
      });
    }
  }
  if (!ALLEGRO_MULTI_PARCEL_CARRIERS.includes(service.carrierId)) return indexes.map((i) => [i]);
  if (indexes.length > ALLEGRO_MAX_PACKAGES) {
    throw new CarrierRefusedError(`Allegro takes at most ${ALLEGRO_MAX_PACKAGES} parcels in one shipment`, {
      parcels: [`Allegro: at most ${ALLEGRO_MAX_PACKAGES} parcels in one ${service.name} shipment`],
    });
  }
  return [indexes];
}

/** A cancel command's id: the same within the hour, so a retried cancel asks for the same command, and a new one later. */
export function allegroCancelCommand(shipmentId: string, now: number): AllegroCancelCommand {
  return { commandId: commandIdFor(`cancel:${shipmentId}:${Math.floor(now / 3_600_000)}`), input: { shipmentId } };
}

/** `pageSize` applies to PDF labels only. */
export function allegroLabelRequest(shipmentIds: readonly string[], format: 'PDF' | 'ZPL', settings: AllegroSettings): AllegroLabelRequest {
  return { shipmentIds: [...shipmentIds], ...(format === 'PDF' ? { pageSize: settings.labelPageSize } : {}) };
}
