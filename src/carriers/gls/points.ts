import { splitStreet } from '../../domain/street.js';
import type { PickupPoint } from '../types.js';
import { GLS_POINT_FEATURES, GLS_POINT_TYPES } from './codes.js';

/**
 * GLS's public point list → our pickup points, and the search over it. Pure. GLS publishes one file per country
 * (`/data/deliveryPoints/<country>.json` on its map host), the list its map widget shows; the widget hands the chosen
 * item to the page, and GLS's WooCommerce plugin sends that item's `id` as the PSD service's `StringValue` and shows
 * its `name` and `contact` (assets/js/gls-shipping-public.js). The other members (`location`, `hours`, `features`,
 * `lockerSaturation`) are as clients of the list read them (dfoddav2/shopickup-integration-layer
 * `packages/adapters/GLS/src/types`, `…/mappers`): their meaning is inferred, as noted where it is used.
 */

/** One item of a country's point list. */
export interface GlsDeliveryPoint {
  /** Opaque (`2351-CSOMAGPONT`, `RO021622-PLOCKER001`): sent to MyGLS exactly as listed. */
  id?: string;
  goldId?: number;
  name?: string;
  contact?: { countryCode?: string; postalCode?: string; city?: string; address?: string; phone?: string; web?: string };
  /** `[latitude, longitude]`. */
  location?: unknown;
  /** `[weekday 1–7, from, to]`, or `[weekday, from, to, break from, break to]`; null times: closed. */
  hours?: unknown;
  features?: string[];
  type?: string;
  lockerSaturation?: string | null;
  externalId?: string;
  hasWheelchairAccess?: boolean;
}

export interface GlsDeliveryPointList {
  items?: GlsDeliveryPoint[];
}

const TIME = /^([01]\d|2[0-4]):[0-5]\d$/;

function time(value: unknown): string | undefined {
  return typeof value === 'string' && TIME.test(value) ? value : undefined;
}

/** The list's hours → ours; a day with a break is two intervals, a day without times is closed. */
function openingHoursOf(hours: unknown): PickupPoint['openingHours'] {
  if (!Array.isArray(hours)) return [];
  return hours.flatMap((entry: unknown) => {
    if (!Array.isArray(entry)) return [];
    const [day, from, to, breakFrom, breakTo] = [entry[0], time(entry[1]), time(entry[2]), time(entry[3]), time(entry[4])];
    if (!Number.isInteger(day) || (day as number) < 1 || (day as number) > 7 || !from || !to) return [];
    const d = day as number;
    return breakFrom && breakTo ? [{ day: d, from, to: breakFrom }, { day: d, from: breakTo, to }] : [{ day: d, from, to }];
  });
}

function locationOf(value: unknown): PickupPoint['location'] {
  if (!Array.isArray(value)) return null;
  const [lat, lon] = value as unknown[];
  return typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon) && (lat !== 0 || lon !== 0)
    ? { lat, lon } : null;
}

/**
 * One listed point as ours, or undefined for an item GLS's shipments cannot go to (no id, a type other than a
 * ParcelShop or ParcelLocker). Inferred from how the list's clients read it: `delivery` among the features means GLS
 * delivers parcels there (a list without features is taken as delivering), `lockerSaturation` `outOfOrder` means it
 * takes none now, and a recipient can pay cash on delivery where it accepts cash, a card or online payment.
 */
export function pickupPointOf(item: GlsDeliveryPoint, country: string): PickupPoint | undefined {
  const type = GLS_POINT_TYPES[item.type ?? ''];
  const id = typeof item.id === 'string' ? item.id : '';
  if (!type || id.trim() === '') return undefined;
  const contact = item.contact ?? {};
  const countryCode = (contact.countryCode || country).toUpperCase();
  const street = splitStreet(contact.address ?? '', countryCode);
  const features = Array.isArray(item.features) ? item.features : [];
  const payments: readonly string[] = GLS_POINT_FEATURES.payments;
  return {
    id,
    name: item.name?.trim() || id,
    type,
    address: {
      street: street.street_name,
      houseNumber: [street.house_number, street.apartment_number].filter(Boolean).join('/'),
      city: contact.city?.trim() ?? '',
      postalCode: contact.postalCode?.trim() ?? '',
      countryCode,
    },
    openingHours: openingHoursOf(item.hours),
    location: locationOf(item.location),
    cashOnDelivery: features.some((f) => payments.includes(f)),
    open: (features.length === 0 || features.includes(GLS_POINT_FEATURES.delivery)) && item.lockerSaturation !== GLS_POINT_FEATURES.outOfOrder,
  };
}

/** Every point of a country's list that a shipment can name. */
export function pickupPointsOf(list: GlsDeliveryPointList, country: string): PickupPoint[] {
  return (list.items ?? []).flatMap((item) => pickupPointOf(item, country) ?? []);
}
