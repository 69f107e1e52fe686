import type { CarrierProduct, TrackingCode, TrackingCodeList } from '../codes.js';

/**
 * Poste Delivery Business code lists, read by the adapter and the emulator. Aptus codes, services and print formats:
 * mlocati/MLPosteDeliveryExpress `Library/AptusCode.cs`, `Library/Waybill/Services/*.cs`, `Library/Waybill/PrintFormat.cs`.
 */

/** The domestic products (Italy → Italy); the international ones need customs lines packdesk does not hold. */
export const POSTE_CHANNEL_PRODUCTS = ['APT000902', 'APT000901'] as const;
export type PosteProductCode = (typeof POSTE_CHANNEL_PRODUCTS)[number];

/** Cash on delivery is the service APT000918 on the same product, so both products carry it themselves. */
export const POSTE_PRODUCTS: Readonly<Record<PosteProductCode, CarrierProduct & { maxWeightKg: number }>> = {
  // No per-parcel limit appears in the API sources; 30 kg is packdesk's assumption (the emulator refuses above it).
  APT000902: { name: 'PosteDelivery Business Standard', cod: true, maxWeightKg: 30 },
  APT000901: { name: 'PosteDelivery Business Express', cod: true, maxWeightKg: 30 },
};

/** The services packdesk sends (keys of `data.services`). */
export const POSTE_SERVICES = {
  cashOnDelivery: 'APT000918',
  multiParcel: 'APT000945',
} as const;

/**
 * Delivery to a point is a service of the same product, `{node: point code, name: point name}`: APT000947 Punto Poste,
 * APT000948 Punto Poste Locker (one parcel only), APT000949 Ufficio Postale (Fermoposta). Point types are searched with
 * `serviceType` RTZ, APT and FMP of `parcel/deliveryPoint` (mlocati/MLPosteDeliveryExpress `Library/Waybill/Services/
 * {PuntoPoste,DeliveryToLockerItaly,PostalOffice,DeliveryToNode}.cs`, `WaybillData.ApplyDeliveryPoint`,
 * `Library/DeliveryPoint/ServiceType.cs`; smart-dato/post-it-sdk `src/Enums/DeliveryPointServiceType.php`).
 */
export const POSTE_POINT_SERVICES = {
  parcelshop: { service: 'APT000947', serviceType: 'RTZ' },
  locker: { service: 'APT000948', serviceType: 'APT' },
  post_office: { service: 'APT000949', serviceType: 'FMP' },
} as const;

/** `paymentMode` of APT000918: CON cash, ACM cashier's cheque, ABM bank cheque to the sender (CashOnDelivery.cs). */
export const POSTE_COD_PAYMENT_MODES = ['CON', 'ACM', 'ABM'] as const;

/** `printFormat` values for PDF labels: a 10×11 cm label or an A4 sheet; `ZPL` is the 10×11 thermal label. */
export const POSTE_PDF_FORMATS = ['1011', 'A4'] as const;
export const POSTE_ZPL_FORMAT = 'ZPL';
export type PostePrintFormat = (typeof POSTE_PDF_FORMATS)[number] | typeof POSTE_ZPL_FORMAT;

type PosteTrackingCode = TrackingCode & { phase: string; documented: boolean };

/**
 * The three-letter `status` of `return.shipment[].tracking[]` with its `phase`. Poste documents the field, its phase
 * texts and one code, PCP (mlocati/MLPosteDeliveryExpress `Library/Tracking/Response/Tracking.cs`), but publishes no
 * list: the other codes are packdesk's own (`documented: false`), named after Poste's phases, so the emulator can walk
 * a parcel; the adapter reads any code it does not know as unknown (SPEC §3.2).
 */
export const POSTE_TRACKING: TrackingCodeList & { codes: Readonly<Record<string, PosteTrackingCode>> } = {
  created: 'LDV',
  codes: {
    // a new waybill has no events yet (the tracking answer's list is empty): the emulator never shows this code
    LDV: { name: 'Lettera di vettura creata', phase: 'PRESA IN CARICO', documented: false, status: 'created', next: ['ACC'] },
    ACC: { name: 'Spedizione accettata', phase: 'PRESA IN CARICO', documented: false, status: 'in_transit', next: ['PCP'] },
    PCP: { name: 'In transito presso il Centro Operativo Postale', phase: 'IN TRANSITO', documented: true, status: 'in_transit', next: ['INC', 'GIA'] },
    INC: { name: 'In consegna', phase: 'IN CONSEGNA', documented: false, status: 'out_for_delivery', next: ['CON', 'MCR'] },
    CON: { name: 'Consegnata', phase: 'CONSEGNATA', documented: false, status: 'delivered' },
    // a missed delivery is tried again, left at a post office, or sent back
    MCR: { name: 'Mancata consegna per destinatario assente', phase: 'IN CONSEGNA', documented: false, status: 'on_hold', next: ['INC', 'GIA', 'RES'] },
    GIA: { name: 'In giacenza presso l\'Ufficio Postale', phase: 'IN GIACENZA', documented: false, status: 'ready_for_pickup', next: ['CON', 'RES'] },
    RES: { name: 'Restituita al mittente', phase: 'RESO AL MITTENTE', documented: false, status: 'returned' },
  },
};

/**
 * Courier pickup slots (`timeSlot`, mlocati/MLPosteDeliveryExpress `Library/PickupBooking/TimeSlot.cs`): Poste names
 * morning, afternoon or either, without hours. Its couriers pick up between 09:00 and 18:00 (business.poste.it
 * "Celere: servizi e accessori", ritiro a domicilio); the split at 13:00 is packdesk's assumption.
 */
export const POSTE_TIME_SLOTS = {
  AM: { from: '09:00', to: '13:00' },
  PM: { from: '13:00', to: '18:00' },
  AMPM: { from: '09:00', to: '18:00' },
} as const;
export type PosteTimeSlot = keyof typeof POSTE_TIME_SLOTS;

/** `bookingType` (PickupBooking/BookingType.cs): one waybill, one paperless waybill, or several parcels at one address. */
export const POSTE_BOOKING_TYPES = { single: 'RIT0001', paperless: 'RIT0002', multiple: 'RIT0003' } as const;

/** A booking's `status` in the pickup report (PickupBooking/Status.cs); a cancelled one no longer brings a courier. */
export const POSTE_PICKUP_STATUSES = {
  PRENOTATO: 'Prenotato', INSERITO: 'Inserito', IN_ESECUZIONE: 'In esecuzione', EFFETTUATO: 'Effettuato',
  NON_EFFETTUATO: 'Non effettuato', RITIRO_ANNULLATO: 'Ritiro annullato', RITIRO_LAV_MAN: 'Ritiro in carico all\'operatore',
} as const;
export const POSTE_PICKUP_CANCELLED = 'RITIRO_ANNULLATO';
