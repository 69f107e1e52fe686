import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import type { CarrierParty, ShipmentForCarrier } from '../types.js';
import { ONEDELIVERY_DEFAULT_PRODUCT, ONEDELIVERY_POINT_PRODUCT, ONEDELIVERY_PRODUCTS } from './codes.js';
import type { OnedeliverySettings } from './settings.js';

/**
 * Our shipment → the body of One by Allegro's (WE|DO's) `POST /package`. Pure. Field names and lengths:
 * nuty456/WeDoApi `models/{Pkg,Receiver,Sender,AdditionalService}.java` and the field table of
 * bridge.intime.cz/doc/restapi-pup.html.
 */

export interface OnedeliveryAddress {
  /** A firm's or a person's name (100). */
  name: string;
  /** Street and house number (100). */
  street: string;
  city: string;
  /** Five digits, no space (5). */
  postal_code: string;
  /** ISO 3166-1 alpha-2 country (2). */
  state: string;
  firstname?: string;
  surname?: string;
  email?: string;
  phone?: string;
  /** A note for the courier (75). */
  note?: string;
}

export interface OnedeliveryPackageRequest {
  receiver: OnedeliveryAddress;
  sender: OnedeliveryAddress;
  reference_number: string;
  reference_number2: string;
  package_count: number;
  /** Total kg of all parcels. */
  weight: number;
  /** Declared value in CZK. */
  value: number;
  comment?: string;
  product?: string;
  /** The pickup place's code (10), with product PUP (restapi-pup.html, Pkg.java). */
  pup_branch?: string;
  /** The recipient's mobile phone for the pickup place's notice (15), with product PUP. */
  pup_contact?: string;
  additional_service?: { cash_on_delivery?: number; reverse_order?: boolean };
}

const NAME_PART = 30;
const NOTE = 75;
const REFERENCE = 20;
/** `comment` keeps 255 characters (Pkg.java `@Size(max = 255)`). */
const COMMENT = 255;
/** `pup_branch` keeps 10 characters (Pkg.java `@Size(max = 10)`). */
const PUP_BRANCH = 10;

/** One collects cash on delivery in the destination's currency; its sources name no currency field (inferred: CZK in CZ, EUR in SK). */
const COD_CURRENCIES: Readonly<Record<string, string>> = { CZ: 'CZK', SK: 'EUR' };

/**
 * `reference_number` keeps 20 characters (Pkg.java `@Size(max = 20)`), and it is the reference `GET /package` lists:
 * our id goes there without its `sh_` prefix (a packdesk id's 20 random characters), whole in `reference_number2` (50).
 */
export function referenceNumberOf(shipmentId: string): string {
  return shipmentId.replace(/^sh_/, '').slice(-REFERENCE);
}

function personParts(personName: string | null): { firstname?: string; surname?: string } {
  if (!personName) return {};
  const [first, ...rest] = personName.trim().split(/\s+/);
  return rest.length > 0 ? { firstname: first!.slice(0, NAME_PART), surname: rest.join(' ').slice(0, NAME_PART) } : { surname: first!.slice(0, NAME_PART) };
}

/** Czech and Slovak postal codes are written `110 00`; One takes the five digits. */
function postalCode(party: CarrierParty): string {
  return party.postalCode.replace(/\s+/g, '');
}

function addressOf(party: CarrierParty, note: string | null): OnedeliveryAddress {
  const house = party.apartmentNumber ? `${party.houseNumber}, ${party.apartmentNumber}` : party.houseNumber;
  return {
    name: party.companyName ?? party.personName ?? '',
    street: `${party.street} ${house}`,
    city: party.city,
    postal_code: postalCode(party),
    state: party.countryCode,
    ...personParts(party.personName),
    email: party.email,
    phone: party.phone,
    ...(note ? { note: note.slice(0, NOTE) } : {}),
  };
}

function codAmount(s: ShipmentForCarrier): number | undefined {
  const cod = s.cashOnDelivery;
  if (!cod) return undefined;
  const currency = COD_CURRENCIES[s.recipient.countryCode];
  if (cod.currency !== currency) {
    const why = currency ? `in ${currency} for ${s.recipient.countryCode}` : 'in Czechia (CZK) and Slovakia (EUR) only';
    throw new CarrierRefusedError(`One by Allegro collects cash on delivery ${why}, not in ${cod.currency}`, {
      cash_on_delivery_currency: [`One by Allegro collects cash on delivery ${why}`],
    });
  }
  return Number(formatMinorUnits(cod.amountMinor));
}

/** A parcel over the product's weight is refused here, on its own path, before One refuses the whole shipment. */
function checkWeights(s: ShipmentForCarrier, product: string): void {
  const limit = ONEDELIVERY_PRODUCTS[product]?.maxWeightKg;
  if (limit === undefined) return;
  const errors: Record<string, string[]> = {};
  s.parcels.forEach((p, i) => {
    if (p.weightKg > limit) errors[`parcels.${i}.weight_amount`] = [`One by Allegro ${product} carries parcels up to ${limit} kg`];
  });
  if (Object.keys(errors).length > 0) throw new CarrierRefusedError(`One by Allegro ${product} carries parcels up to ${limit} kg`, errors);
}

/**
 * A shipment to a pickup place goes as WEDO POINT (restapi-pup.html): product PUP, the place's code in `pup_branch`
 * and the recipient's mobile in `pup_contact`, whatever product the channel names; PUP without a place is refused.
 */
function pointDelivery(s: ShipmentForCarrier, channelProduct: string | undefined): Pick<OnedeliveryPackageRequest, 'pup_branch' | 'pup_contact'> | undefined {
  const point = s.pickupPoint;
  if (!point) {
    if (channelProduct !== ONEDELIVERY_POINT_PRODUCT) return undefined;
    const why = `One by Allegro product ${ONEDELIVERY_POINT_PRODUCT} delivers to a WEDO POINT pickup place`;
    throw new CarrierRefusedError(why, { pickup_point: [`${why}: give the shipment a pickup point, or choose a door product on the channel`] });
  }
  const code = point.id.trim();
  if (code.length === 0 || code.length > PUP_BRANCH) {
    throw new CarrierRefusedError(`One by Allegro has no pickup place ${point.id}`, {
      pickup_point: [`a One by Allegro pickup place code has 1 to ${PUP_BRANCH} characters (e.g. VM00075)`],
    });
  }
  return { pup_branch: code, pup_contact: s.recipient.phone };
}

/**
 * A return goes as One's "zpětná zásilka" (return shipment, `additional_service.reverse_order`: nuty456/WeDoApi
 * `AdditionalService.java`): the courier collects at the receiver and brings the package to the sender. Inferred from
 * restapi-pup.html, where only a direct order (`direct_order`, collected at a third party's) must name its sender: a
 * return keeps the outbound's sides, the customer as `receiver` and the warehouse as `sender`; One's package has no field
 * for the outbound, so its order number travels in the comment. No cash on delivery, no pickup place.
 */
function returnPackage(s: ShipmentForCarrier, returnOf: NonNullable<ShipmentForCarrier['returnOf']>, settings: OnedeliverySettings): OnedeliveryPackageRequest {
  if (s.cashOnDelivery) {
    throw new CarrierRefusedError('One by Allegro collects no cash on delivery on a return shipment', {
      cash_on_delivery_amount: ['One by Allegro return shipments (reverse_order) carry no cash on delivery'],
    });
  }
  if (s.pickupPoint) {
    throw new CarrierRefusedError('One by Allegro collects a return shipment at the customer\'s door, not at a pickup place', {
      pickup_point: ['One by Allegro return shipments (reverse_order) are collected at the customer\'s address'],
    });
  }
  // a channel that ships to WEDO POINT places returns with the product One picks for a door
  const product = settings.product && settings.product !== ONEDELIVERY_POINT_PRODUCT ? settings.product : undefined;
  checkWeights(s, product ?? ONEDELIVERY_DEFAULT_PRODUCT);
  const comment = [`Return of One by Allegro package ${returnOf.providerShipmentId}`, s.reference].filter(Boolean).join(' · ');
  return {
    receiver: addressOf(s.sender, s.labelComment),
    sender: addressOf(s.recipient, null),
    reference_number: referenceNumberOf(s.id),
    reference_number2: s.id,
    package_count: s.parcels.length,
    weight: totalWeight(s),
    value: settings.declaredValue ?? 0,
    comment: comment.slice(0, COMMENT),
    ...(product ? { product } : {}),
    additional_service: { reverse_order: true },
  };
}

function totalWeight(s: ShipmentForCarrier): number {
  return Math.round(s.parcels.reduce((sum, p) => sum + p.weightKg, 0) * 1000) / 1000;
}

export function onedeliveryPackageRequest(s: ShipmentForCarrier, settings: OnedeliverySettings): OnedeliveryPackageRequest {
  if (s.labelFormat === 'epl') {
    throw new CarrierRefusedError('One by Allegro prints labels as PDF or ZPL, not EPL', { label_format: ['One by Allegro prints labels as PDF or ZPL only'] });
  }
  if (s.returnOf) return returnPackage(s, s.returnOf, settings);
  const point = pointDelivery(s, settings.product || undefined);
  const product = point ? ONEDELIVERY_POINT_PRODUCT : settings.product || undefined;
  checkWeights(s, product ?? ONEDELIVERY_DEFAULT_PRODUCT);
  const cod = codAmount(s);
  const weight = totalWeight(s);
  return {
    receiver: addressOf(s.recipient, s.labelComment),
    sender: addressOf(s.sender, null),
    reference_number: referenceNumberOf(s.id),
    reference_number2: s.id,
    package_count: s.parcels.length,
    weight,
    value: settings.declaredValue ?? cod ?? 0,
    // One documents no reference it prints; the shop's own reference travels as the shipment's comment
    ...(s.reference ? { comment: s.reference } : {}),
    ...(product ? { product } : {}),
    ...point,
    ...(cod !== undefined ? { additional_service: { cash_on_delivery: cod } } : {}),
  };
}

/** `POST /batch` (WeDoApi `models/Articles.java`): the order numbers to send for processing in one batch. */
export interface OnedeliveryBatchRequest {
  articles: string[];
}

/** `POST /pickup` (WeDoApi `orderPickup`): the day only; One sets the window. */
export interface OnedeliveryPickupRequest {
  /** `yyyy-MM-dd`. */
  pickup_date: string;
}
