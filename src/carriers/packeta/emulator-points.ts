/**
 * Packeta's point feed in the emulator: generated pickup points and Z-BOXes in CZ, SK, HU and RO (a few hundred a
 * country), shaped as the v5 feed's `branch.json` and `box.json` list them, and the home-delivery carriers a packet's
 * `addressId` may name instead (carrier.json).
 */
import { generatePoints, type GeneratedPoint } from '../emulator/points.js';
import type { PacketaFeedPoint } from './points.js';

const COUNTRIES = ['CZ', 'SK', 'HU', 'RO'] as const;
const PER_COUNTRY = 300;
const CURRENCIES: Readonly<Record<string, string>> = { CZ: 'CZK', SK: 'EUR', HU: 'HUF', RO: 'RON' };
/** The heaviest packet a point or box takes, in kg (inferred: Packeta's points 15 kg, its boxes 10 kg). */
export const MAX_WEIGHT = { parcelshop: 15, locker: 10 } as const;
/** Home delivery's heaviest packet, in kg (inferred). */
export const HOME_DELIVERY_MAX_WEIGHT = 30;

/**
 * Carriers to the door: Packeta Home in CZ and SK, as carrier.json lists them, which Packeta delivers itself; and a
 * partner carrier of the emulator's own (its id and name are not Packeta's) that prints its own label with its own
 * number (`courierPrefix` and the packet id).
 */
export const HOME_DELIVERY_CARRIERS: Readonly<Record<string, { name: string; country: string; courierPrefix?: string }>> = {
  106: { name: 'CZ Zásilkovna domů HD', country: 'CZ' },
  131: { name: 'SK Packeta Home HD', country: 'SK' },
  9001: { name: 'HU Partner Courier HD (emulated)', country: 'HU', courierPrefix: 'HUP' },
};

/** Postal codes a door address takes, by country: CZ and SK five digits, HU four, RO six. */
export const POSTAL_CODES: Readonly<Record<string, RegExp>> = { CZ: /^\d{5}$/, SK: /^\d{5}$/, HU: /^\d{4}$/, RO: /^\d{6}$/ };

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

export interface EmulatedPoint extends GeneratedPoint {
  id: string;
  maxWeight: number;
}

/** Ids as Packeta's (plain numbers): 10001… in CZ, 20001… in SK, 30001… in HU, 40001… in RO. */
const idOf = (country: number, seq: number) => String((country + 1) * 10_000 + seq + 1);

export class PacketaPoints {
  private generated?: Map<string, EmulatedPoint>;

  /** Generated on first use: most emulator runs never ask for a point. */
  private get byId(): Map<string, EmulatedPoint> {
    this.generated ??= new Map(COUNTRIES.flatMap((countryCode, c) => generatePoints({ countryCode, count: PER_COUNTRY, seed: 'packeta', types: ['parcelshop', 'locker'] })
      .map((p): [string, EmulatedPoint] => [idOf(c, p.seq), { ...p, id: idOf(c, p.seq), maxWeight: MAX_WEIGHT[p.type as 'parcelshop' | 'locker'] }])));
    return this.generated;
  }

  get(id: string): EmulatedPoint | undefined {
    return this.byId.get(id);
  }

  /** One feed file: pickup points (`branch.json`) or boxes (`box.json`), closed ones with another status. */
  feed(file: 'branch' | 'box'): PacketaFeedPoint[] {
    const type = file === 'branch' ? 'parcelshop' : 'locker';
    return [...this.byId.values()].filter((p) => p.type === type).map((p) => ({
      id: p.id,
      name: `${p.city}, ${p.street} ${p.houseNumber}`,
      place: type === 'locker' ? 'Z-BOX' : p.name,
      street: `${p.street} ${p.houseNumber}`,
      city: p.city,
      zip: p.postalCode,
      country: p.countryCode.toLowerCase(),
      currency: CURRENCIES[p.countryCode],
      status: p.open ? { statusId: '1', description: 'Pickup point is open.' } : { statusId: '2', description: 'Pickup point is temporarily closed.' },
      displayFrontend: '1',
      latitude: String(p.lat),
      longitude: String(p.lon),
      maxWeight: String(p.maxWeight),
      openingHours: {
        regular: Object.fromEntries(WEEKDAYS.map((day, i) => [day, p.hours.filter((h) => h.day === i + 1).map((h) => `${h.from}–${h.to}`).join(', ')])),
      },
      ...(type === 'locker' ? { type: 'zbox' } : {}),
    }));
  }
}

/** The currency of a point's or a carrier's country. */
export function currencyOfCountry(country: string): string | undefined {
  return CURRENCIES[country];
}
