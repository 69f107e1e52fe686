import type { CarrierProduct, TrackingCode, TrackingCodeList } from '../codes.js';

/** InPost ShipX code lists, read by the adapter and the emulator. */

/**
 * ShipX services as `service` names them (dokumentacja-inpost.atlassian.net, space PL: "Form validation" 18153492 and
 * the shipment search examples 18153512). Cash on delivery is a shipment attribute (`cod`), not a product of its own.
 */
export const INPOST_PRODUCTS: Readonly<Record<string, CarrierProduct>> = {
  inpost_locker_standard: { name: 'Paczkomat® InPost — standard', cod: true },
  inpost_courier_standard: { name: 'Kurier InPost — standard', cod: true },
  // 18153492: insurance "is required for … inpost_courier_express_1000, …_1200, …_1700 when passing the COD attribute"
  inpost_courier_express_1000: { name: 'Kurier InPost — ekspres do 10:00', cod: true },
  inpost_courier_express_1200: { name: 'Kurier InPost — ekspres do 12:00', cod: true },
  inpost_courier_express_1700: { name: 'Kurier InPost — ekspres do 17:00', cod: true },
  // no source names cash on delivery for C2C: none is assumed
  inpost_courier_c2c: { name: 'Kurier InPost — C2C' },
};

/** The services a channel may name for shipments to a door. */
export const INPOST_DOOR_SERVICES = [
  'inpost_courier_standard', 'inpost_courier_express_1000', 'inpost_courier_express_1200', 'inpost_courier_express_1700', 'inpost_courier_c2c',
] as const;

/** The service of a shipment to a Paczkomat or PaczkoPunkt: `custom_attributes.target_point` names it (18153492). */
export const INPOST_LOCKER_SERVICE = 'inpost_locker_standard';

/**
 * `custom_attributes.sending_method` values that need no drop-off point (18153492 lists parcel_locker, pok, pop,
 * courier_pok, branch, dispatch_order; parcel_locker, pok and courier_pok require `dropoff_point` as well).
 */
export const INPOST_SENDING_METHODS = ['dispatch_order', 'pop', 'branch'] as const;

/**
 * The service of a return (`is_return`, 11731061): InPost's courier standard. ShipX prints return labels of courier
 * services only, "excluding allegro" (Return label download, 18153511), and InPost's own Magento plugin none for C2C;
 * a return into a Paczkomat is InPost's Szybkie Zwroty, a service outside ShipX (the plugin links locker shipments there).
 */
export const INPOST_RETURN_SERVICE = 'inpost_courier_standard';

/** The services ShipX takes `is_return` on (inferred from its return labels' rule above: the courier services but C2C). */
export const INPOST_RETURN_SERVICES: readonly string[] = INPOST_DOOR_SERVICES.filter((s) => s !== 'inpost_courier_c2c');

/**
 * How a return reaches InPost: the customer hands the labelled parcel in at a PaczkoPunkt (`pop`, which needs no
 * drop-off point, 18153492). Inferred: returns join no dispatch order, so no courier would come for them.
 */
export const INPOST_RETURN_SENDING_METHOD = 'pop';

/**
 * Paczkomat sizes (`parcels.template`): A small 8 × 38 × 64 cm, B medium 19 × 38 × 64, C large 41 × 38 × 64, up to
 * 25 kg (inpost.pl "Gabaryty paczek", as the public SDKs' size docs repeat them).
 */
export const INPOST_LOCKER_TEMPLATES = [
  { template: 'small', heightCm: 8 },
  { template: 'medium', heightCm: 19 },
  { template: 'large', heightCm: 41 },
] as const;
export const INPOST_LOCKER_SIDES_CM = { width: 38, length: 64 } as const;
export const INPOST_LOCKER_MAX_KG = 25;

/** ShipX takes cash on delivery in złoty only (`cod.currency`, default PLN). */
export const INPOST_CURRENCY = 'PLN';

/**
 * ShipX status names (`GET /v1/statuses`, 18153478; the list as moku-systems/inpost-shipx `ApiShipmentStatus` types it)
 * → standard statuses. `next` is the emulator's usual path: a courier parcel from collection to the door, a locker
 * parcel to `ready_to_pickup` at its Paczkomat. The emulator starts a parcel at `confirmed`, the status ShipX gives a
 * shipment once its label is bought.
 */
export const INPOST_TRACKING: TrackingCodeList & { codes: Readonly<Record<string, TrackingCode>> } = {
  created: 'confirmed',
  codes: {
    created: { name: 'Przesyłka utworzona', status: 'created', next: ['confirmed'] },
    offers_prepared: { name: 'Przygotowano oferty', status: 'created', next: ['confirmed'] },
    offer_selected: { name: 'Oferta wybrana', status: 'created', next: ['confirmed'] },
    confirmed: { name: 'Przygotowana przez Nadawcę', status: 'created', next: ['collected_from_sender', 'dispatched_by_sender'] },
    dispatched_by_sender: { name: 'Paczka nadana w automacie Paczkomat', status: 'in_transit', next: ['taken_by_courier'] },
    dispatched_by_sender_to_pok: { name: 'Nadana w PaczkoPunkcie', status: 'in_transit', next: ['taken_by_courier_from_pok'] },
    collected_from_sender: { name: 'Odebrana od klienta', status: 'in_transit', next: ['adopted_at_source_branch'] },
    taken_by_courier: { name: 'Odebrana od Nadawcy', status: 'in_transit', next: ['adopted_at_source_branch'] },
    taken_by_courier_from_pok: { name: 'Odebrana z PaczkoPunktu nadawczego', status: 'in_transit', next: ['adopted_at_source_branch'] },
    adopted_at_source_branch: { name: 'Przyjęta w oddziale InPost', status: 'in_transit', next: ['sent_from_source_branch'] },
    sent_from_source_branch: { name: 'W trasie', status: 'in_transit', next: ['adopted_at_sorting_center'] },
    adopted_at_sorting_center: { name: 'Przyjęta w Sortowni', status: 'in_transit', next: ['sent_from_sorting_center'] },
    sent_from_sorting_center: { name: 'Wysłana z Sortowni', status: 'in_transit', next: ['adopted_at_target_branch'] },
    adopted_at_target_branch: { name: 'Przyjęta w Oddziale Docelowym', status: 'in_transit', next: ['out_for_delivery', 'delay_in_delivery'] },
    delay_in_delivery: { name: 'Możliwe opóźnienie doręczenia', status: 'in_transit', next: ['out_for_delivery'] },
    out_for_delivery: { name: 'Przekazano do doręczenia', status: 'out_for_delivery', next: ['delivered', 'ready_to_pickup', 'undelivered'] },
    ready_to_pickup: { name: 'Umieszczona w automacie Paczkomat (odbiorczym)', status: 'ready_for_pickup', next: ['delivered', 'pickup_time_expired'] },
    ready_to_pickup_from_pok: { name: 'Gotowa do odbioru w PaczkoPunkcie', status: 'ready_for_pickup', next: ['delivered', 'pickup_time_expired'] },
    avizo: { name: 'Powrót do oddziału', status: 'on_hold', next: ['out_for_delivery', 'returned_to_sender'] },
    undelivered: { name: 'Przekazanie do doręczenia nieudane', status: 'on_hold', next: ['out_for_delivery', 'returned_to_sender'] },
    undelivered_wrong_address: { name: 'Adres odbiorcy nieprawidłowy', status: 'on_hold', next: ['returned_to_sender'] },
    undelivered_unknown_receiver: { name: 'Odbiorca nieznany', status: 'on_hold', next: ['returned_to_sender'] },
    rejected_by_receiver: { name: 'Odmowa przyjęcia', status: 'on_hold', next: ['returned_to_sender'] },
    pickup_time_expired: { name: 'Upłynął termin odbioru', status: 'on_hold', next: ['returned_to_sender'] },
    delivered: { name: 'Dostarczona', status: 'delivered' },
    returned_to_sender: { name: 'Zwrot do nadawcy', status: 'returned' },
    canceled: { name: 'Anulowana', status: 'cancelled' },
  },
};
