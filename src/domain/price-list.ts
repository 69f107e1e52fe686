import { isCalendarDate } from './calendar-date.js';
import type { FieldErrorCollector } from './errors.js';
import { COUNTRY_CODES, CURRENCY_CODES } from './reference-data.js';

/**
 * A channel's own price list, for carriers whose API answers no price: what each parcel costs by its weight in the
 * destination's zone, plus the surcharges of a contract (cash on delivery, fuel, each parcel after the first).
 * Amounts are in the list's currency, in major units as the API takes money.
 */
export interface PriceList {
  currency: string;
  /** Zones by name, each a list of destination countries (and the working days on the way, where the list names them); a country in no zone is not served. */
  zones: { name: string; countries: string[]; transit_days?: number | null }[];
  /** Weight bands of a parcel, lightest first: a parcel costs the price of the first band it fits, in its zone. */
  bands: { max_weight_kg: number; prices: Record<string, number> }[];
  /** Cash on delivery: a fixed fee and a percentage of the amount collected (in the list's currency). */
  cod?: { fixed?: number; percent?: number } | null;
  /** The fuel surcharge, a percentage of the parcels' prices. */
  fuel_percent?: number | null;
  /** Each parcel of a shipment after its first. */
  extra_parcel?: number | null;
  /** The day the list applies from (YYYY-MM-DD); before it a shipment is not priced by it. */
  valid_from?: string | null;
}

/** Where a shipment's price comes from: the carrier's creation answer, its rate API (asked once created), the channel's price list. */
export const PRICE_SOURCES = ['carrier', 'quote', 'price_list'] as const;

/** What the price list says of one shipment: its price in minor units, or why it cannot price it. */
export type ListPrice = { amountMinor: number; currency: string } | { cannot: string };

/** What pricing reads of a shipment. */
export interface PricedShipment {
  countryCode: string;
  /** Each parcel's weight, kg. */
  parcelWeightsKg: number[];
  cashOnDelivery: { amountMinor: number; currency: string } | null;
  shippingDate: string;
}

/** The checks the schema cannot make: known codes, zones that name each country once, whole transit days, bands that price every zone. */
export function checkPriceList(list: PriceList | null | undefined, errors: FieldErrorCollector, path = 'price_list'): void {
  if (!list || typeof list !== 'object') return;
  if (typeof list.currency === 'string' && !CURRENCY_CODES.has(list.currency)) errors.add(`${path}.currency`, 'must be an ISO 4217 currency code (EUR, CZK, PLN …)');
  if (list.valid_from != null && !isCalendarDate(list.valid_from)) errors.add(`${path}.valid_from`, 'must be a date YYYY-MM-DD');
  const zones = Array.isArray(list.zones) ? list.zones : [];
  const zoneOf = new Map<string, string>();
  zones.forEach((zone, z) => {
    if (zones.findIndex((other) => other.name === zone.name) !== z) errors.add(`${path}.zones.${z}.name`, `names zone "${zone.name}" a second time`);
    if (zone.transit_days != null && !(Number.isInteger(zone.transit_days) && zone.transit_days >= 0)) errors.add(`${path}.zones.${z}.transit_days`, 'must be a whole number of days, 0 or more');
    (Array.isArray(zone.countries) ? zone.countries : []).forEach((country, c) => {
      const at = `${path}.zones.${z}.countries.${c}`;
      if (!COUNTRY_CODES.has(country)) errors.add(at, 'must be an ISO 3166-1 alpha-2 country code');
      else if (zoneOf.has(country)) errors.add(at, `is already in zone "${zoneOf.get(country)}"`);
      else zoneOf.set(country, zone.name);
    });
  });
  const bands = Array.isArray(list.bands) ? list.bands : [];
  bands.forEach((band, b) => {
    const previous = bands[b - 1];
    if (previous && typeof band.max_weight_kg === 'number' && band.max_weight_kg <= previous.max_weight_kg) {
      errors.add(`${path}.bands.${b}.max_weight_kg`, `must be above the band before it (${previous.max_weight_kg} kg): bands go from the lightest`);
    }
    for (const zone of zones) {
      if (band.prices && typeof band.prices === 'object' && !(zone.name in band.prices)) errors.add(`${path}.bands.${b}.prices`, `has no price for zone "${zone.name}"`);
    }
    for (const name of Object.keys(band.prices ?? {})) {
      if (!zones.some((zone) => zone.name === name)) errors.add(`${path}.bands.${b}.prices.${name}`, 'is no zone of the list');
    }
  });
}

/** The working days on the way to a country by the list's zone for it; null where the list names none. */
export function listTransitDays(list: PriceList, countryCode: string): number | null {
  return list.zones.find((z) => z.countries.includes(countryCode))?.transit_days ?? null;
}

/** The shipment's price by the list: each parcel by its band in the destination's zone, then the surcharges. */
export function listPrice(list: PriceList, s: PricedShipment): ListPrice {
  if (list.valid_from && s.shippingDate < list.valid_from) return { cannot: `the price list applies from ${list.valid_from}` };
  const zone = list.zones.find((z) => z.countries.includes(s.countryCode));
  if (!zone) return { cannot: `the price list has no zone for ${s.countryCode}` };
  let parcels = 0;
  for (const kg of s.parcelWeightsKg) {
    const band = list.bands.find((b) => kg <= b.max_weight_kg);
    if (!band) return { cannot: `a ${kg} kg parcel is above the price list's heaviest band (${list.bands.at(-1)?.max_weight_kg ?? 0} kg)` };
    parcels += band.prices[zone.name]!;
  }
  let total = parcels * (1 + (list.fuel_percent ?? 0) / 100) + (list.extra_parcel ?? 0) * Math.max(0, s.parcelWeightsKg.length - 1);
  if (s.cashOnDelivery) {
    const { fixed = 0, percent = 0 } = list.cod ?? {};
    if (percent > 0 && s.cashOnDelivery.currency !== list.currency) {
      return { cannot: `the price list's COD percentage is in ${list.currency}, the amount collected in ${s.cashOnDelivery.currency}` };
    }
    total += fixed + (s.cashOnDelivery.amountMinor / 100) * (percent / 100);
  }
  return { amountMinor: Math.round(total * 100), currency: list.currency };
}
