import type { TrackingCode, TrackingCodeList } from '../codes.js';

/** DPD Poland's code lists, read by the adapter and the emulator. */

/**
 * DPDServices has no product switch: a shipment is DOMESTIC or INTERNATIONAL (the `sessionType` labels are asked
 * for with), and cash on delivery is the `services.cod` flag of either. Weight limits per parcel are DPD's own
 * refusals (ERROR_PARCEL_WEIGHT_INCORRECT: "allowed interval 0.51 - 50kg" domestic, "0.01 - 31.5kg" export) in
 * the "Error codes" sheet attached to DPD's customer documentation 2.87.
 */
export const DPD_PL_SESSION_TYPES = {
  DOMESTIC: { name: 'DPD Classic, Poland', maxWeightKg: 50 },
  INTERNATIONAL: { name: 'DPD Classic, abroad', maxWeightKg: 31.5 },
} as const;

export type DpdPlSessionType = keyof typeof DPD_PL_SESSION_TYPES;

/**
 * A DPD Pickup point or locker is the `services.dpdPickup.pudo` of either session type, with its own parcel limits
 * (customer documentation 2.87, "dpdPickup (type: ServiceDpdPickupOpenUMLFeV1)"; codes 3015, 3022–3024, 3026 of the
 * "Error codes" sheet): 20 kg, the longest side 100 cm, the base's circumference plus the height 250 cm.
 */
export const DPD_PL_PICKUP_LIMITS = { maxWeightKg: 20, maxSideCm: 100, maxGirthPlusHeightCm: 250 } as const;

export function sessionTypeOf(recipientCountry: string): DpdPlSessionType {
  return recipientCountry === 'PL' ? 'DOMESTIC' : 'INTERNATIONAL';
}

/** `serviceCurrencyEnum` of DPD's schema (DPDPackageXmlServices.xsd), the currencies `services.cod.currency` takes. */
export const DPD_PL_CURRENCIES = [
  'PLN', 'EUR', 'USD', 'CHF', 'SEK', 'NOK', 'CZK', 'RON', 'HUF', 'HRK', 'BGN', 'DKK', 'GBP', 'RSD', 'RUB', 'TRY',
] as const;

/** A parcel waiting at its DPD Pickup point: the stand-in code, and DPD's wording of the event whatever its code. */
export const DPD_PL_AT_POINT = { code: '330170', wording: /^\s*Przyjęcie przesyłki do punktu Pickup/i } as const;

/**
 * `businessCode` of DPD Info Services events with DPD's Polish wording. DPD publishes no catalogue: these are the
 * codes DPD's tracking shows, as public DPD PL integrations record them (GitHub code search for "330135" and
 * "Przyjęcie przesyłki w oddziale DPD"). Notification codes (170304 e-mail/SMS sent, 170309, 170310) say nothing
 * of where the parcel is and are left out on purpose: SPEC §3.2's rule for unknown codes fits them. A parcel for a
 * DPD Pickup point reads "Wydanie … do doręczenia", "Przyjęcie przesyłki do punktu Pickup", then "Przesyłka
 * doręczona" once collected (DPD's public tracking page, tracktrace.dpd.com.pl, as public trackers record it); no
 * public source shows the point event's businessCode, so DPD_PL_AT_POINT's code is packdesk's stand-in and the
 * adapter reads the wording as well.
 */
export const DPD_PL_TRACKING: TrackingCodeList & { codes: Readonly<Record<string, TrackingCode>> } = {
  created: '030103',
  codes: {
    '030103': { name: 'Zarejestrowano dane przesyłki, przesyłka jeszcze nie nadana', status: 'created', next: ['040101'] },
    '040101': { name: 'Przesyłka odebrana przez Kuriera', status: 'in_transit', next: ['330135'] },
    '330135': { name: 'Przyjęcie przesyłki w oddziale DPD', status: 'in_transit', next: ['170102', '320201', '230405'] },
    '330137': { name: 'Przyjęcie przesyłki w oddziale DPD', status: 'in_transit', next: ['170102'] },
    '230405': { name: 'Przekazano za granicę', status: 'in_transit', next: ['501300'] },
    // out to the door, or to the DPD Pickup point (where a recipient may also redirect a parcel)
    '170102': { name: 'Wydanie przesyłki do doręczenia', status: 'out_for_delivery', next: ['190101', '500442', DPD_PL_AT_POINT.code] },
    '190101': { name: 'Przesyłka doręczona', status: 'delivered' },
    // delivered by DPD's partner abroad
    '501300': { name: 'Przesyłka doręczona', status: 'delivered' },
    '200602': { name: 'Odbiór własny', status: 'delivered' },
    // at the DPD Pickup point until collected, else sent back
    [DPD_PL_AT_POINT.code]: { name: 'Przyjęcie przesyłki do punktu Pickup', status: 'ready_for_pickup', next: ['190101', '230403'] },
    // a failed attempt is tried again, or the parcel waits at the depot
    '500442': { name: 'Przesyłka niedoręczona - odbiorca nieobecny', status: 'on_hold', next: ['170102', '320201'] },
    '500419': { name: 'Przesyłka niedoręczona - odbiorca nieobecny', status: 'on_hold', next: ['170102', '320201'] },
    '320201': { name: 'Magazynowanie przesyłki w oddziale', status: 'on_hold', next: ['170102', '230403'] },
    '230403': { name: 'Zwrot przesyłki', status: 'returned' },
  },
};
