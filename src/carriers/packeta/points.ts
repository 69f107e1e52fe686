import { splitStreet } from '../../domain/street.js';
import type { PickupPoint, PickupPointType } from '../types.js';

/**
 * Packeta's point feed → our pickup points. Pure. The feed is JSON, one list of pickup points (`branch.json`) and one
 * of boxes such as Z-BOX (`box.json`), the members as docs.packetery.com "Branch export version 5" lists them and
 * aleroycz/packeta-sdk-java reads them (`model/feed/Branch.java`). Its `id` is the `addressId` of a packet to it.
 */

/** One point of the feed; numbers may come as text. */
export interface PacketaFeedPoint {
  id?: string | number;
  name?: string;
  place?: string;
  street?: string;
  city?: string;
  zip?: string;
  /** Lower case (`cz`). */
  country?: string;
  currency?: string;
  status?: { statusId?: string | number; description?: string };
  displayFrontend?: string | number;
  latitude?: string | number;
  longitude?: string | number;
  maxWeight?: string | number;
  /** `regular`: per English weekday, `08:00–12:00, 13:00–18:00` (an en dash), empty when closed. */
  openingHours?: { regular?: Partial<Record<string, string>> };
  /** Boxes: `zbox`, `alzabox` … */
  type?: string;
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const INTERVAL = /(\d{1,2}:\d{2})\s*[–-]\s*(\d{1,2}:\d{2})/g;
const hhmm = (time: string) => time.padStart(5, '0');

function openingHoursOf(regular: Partial<Record<string, string>> | undefined): PickupPoint['openingHours'] {
  return WEEKDAYS.flatMap((weekday, i) => [...(regular?.[weekday] ?? '').matchAll(INTERVAL)].map((m) => ({ day: i + 1, from: hhmm(m[1]!), to: hhmm(m[2]!) })));
}

function locationOf(point: PacketaFeedPoint): PickupPoint['location'] {
  const lat = Number(point.latitude);
  const lon = Number(point.longitude);
  return point.latitude !== undefined && point.longitude !== undefined && Number.isFinite(lat) && Number.isFinite(lon) ? { lat, lon } : null;
}

/**
 * One point as ours. Inferred: `status.statusId` 1 is a point that takes packets (the feed lists the open points,
 * others carry another status while they pause), and every point collects cash on delivery (the feed has no flag for
 * it: points take cash or card, Z-BOXes card in Packeta's app).
 */
function pickupPointOf(point: PacketaFeedPoint, type: PickupPointType): PickupPoint | undefined {
  const id = String(point.id ?? '').trim();
  if (!/^\d+$/.test(id)) return undefined;
  const countryCode = String(point.country ?? '').toUpperCase();
  const street = splitStreet(point.street ?? '', countryCode);
  return {
    id,
    name: point.name?.trim() || point.place?.trim() || id,
    type,
    address: {
      street: street.street_name,
      houseNumber: [street.house_number, street.apartment_number].filter(Boolean).join('/'),
      city: point.city?.trim() ?? '',
      postalCode: point.zip?.trim() ?? '',
      countryCode,
    },
    openingHours: openingHoursOf(point.openingHours?.regular),
    location: locationOf(point),
    cashOnDelivery: true,
    open: String(point.status?.statusId ?? '1') === '1',
  };
}

/** Every point of one feed file that a packet can name. */
export function pickupPointsOf(list: readonly PacketaFeedPoint[], type: PickupPointType): PickupPoint[] {
  return list.flatMap((p) => pickupPointOf(p, type) ?? []);
}
