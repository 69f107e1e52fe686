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

export function sessionTypeOf(recipientCountry: string): DpdPlSessionType {
  return recipientCountry === 'PL' ? 'DOMESTIC' : 'INTERNATIONAL';
}

/** `serviceCurrencyEnum` of DPD's schema (DPDPackageXmlServices.xsd), the currencies `services.cod.currency` takes. */
export const DPD_PL_CURRENCIES = [
  'PLN', 'EUR', 'USD', 'CHF', 'SEK', 'NOK', 'CZK', 'RON', 'HUF', 'HRK', 'BGN', 'DKK', 'GBP', 'RSD', 'RUB', 'TRY',
] as const;

/**
 * `businessCode` of DPD Info Services events with DPD's Polish wording. DPD publishes no catalogue: these are the
 * codes DPD's tracking shows, as public DPD PL integrations record them (GitHub code search for "330135" and
 * "Przyjęcie przesyłki w oddziale DPD"). Notification codes (170304 e-mail/SMS sent, 170309, 170310) say nothing
 * of where the parcel is and are left out on purpose: SPEC §3.2's rule for unknown codes fits them. DPD Pickup
 * points have no code among them, so no code means ready_for_pickup.
 */
export const DPD_PL_TRACKING: TrackingCodeList & { codes: Readonly<Record<string, TrackingCode>> } = {
  created: '030103',
  codes: {
    '030103': { name: 'Zarejestrowano dane przesyłki, przesyłka jeszcze nie nadana', status: 'created', next: ['040101'] },
    '040101': { name: 'Przesyłka odebrana przez Kuriera', status: 'in_transit', next: ['330135'] },
    '330135': { name: 'Przyjęcie przesyłki w oddziale DPD', status: 'in_transit', next: ['170102', '320201', '230405'] },
    '330137': { name: 'Przyjęcie przesyłki w oddziale DPD', status: 'in_transit', next: ['170102'] },
    '230405': { name: 'Przekazano za granicę', status: 'in_transit', next: ['501300'] },
    '170102': { name: 'Wydanie przesyłki do doręczenia', status: 'out_for_delivery', next: ['190101', '500442'] },
    '190101': { name: 'Przesyłka doręczona', status: 'delivered' },
    // delivered by DPD's partner abroad
    '501300': { name: 'Przesyłka doręczona', status: 'delivered' },
    '200602': { name: 'Odbiór własny', status: 'delivered' },
    // a failed attempt is tried again, or the parcel waits at the depot
    '500442': { name: 'Przesyłka niedoręczona - odbiorca nieobecny', status: 'on_hold', next: ['170102', '320201'] },
    '500419': { name: 'Przesyłka niedoręczona - odbiorca nieobecny', status: 'on_hold', next: ['170102', '320201'] },
    '320201': { name: 'Magazynowanie przesyłki w oddziale', status: 'on_hold', next: ['170102', '230403'] },
    '230403': { name: 'Zwrot przesyłki', status: 'returned' },
  },
};
