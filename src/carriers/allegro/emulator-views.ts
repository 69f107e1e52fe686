/** How the Allegro emulator shows what it holds: ShipmentDto, tracking histories and the label's printed content. */
import type { EmulatedLabel } from '../emulator/labels.js';
import type { EmulatedEvent, EmulatedParcel, EmulatedShipment } from '../emulator/shipments.js';
import { ALLEGRO_TRACKING } from './codes.js';
import type { EmulatedService } from './emulator-validation.js';
import type { AllegroAddress, AllegroCreateInput } from './request.js';

export interface AllegroHeld {
  commandId: string;
  input: AllegroCreateInput;
  service: EmulatedService;
  canceledAt?: number;
  /** The pickup a create-pickup command ordered for the shipment. */
  pickup?: { pickupId: string; carrierPickupId: string; date: string; minTime: string; maxTime: string };
}

export type AllegroEmulatedShipment = EmulatedShipment<AllegroHeld>;

const iso = (at: number) => new Date(at).toISOString();

/** `GET /shipment-management/shipments/{id}` (ShipmentDto). */
export function shipmentView(s: AllegroEmulatedShipment): Record<string, unknown> {
  const { input, service } = s.request;
  return {
    id: s.id,
    deliveryMethodId: input.deliveryMethodId,
    credentialsId: input.credentialsId ?? null,
    sender: input.sender,
    receiver: input.receiver,
    referenceNumber: input.referenceNumber,
    packages: input.packages.map((p, i) => ({
      waybill: s.parcels[i]!.number, ...p, transportingInfo: [{ carrierId: service.carrierId, carrierWaybill: s.parcels[i]!.number }],
    })),
    ...(input.cashOnDelivery ? { cashOnDelivery: input.cashOnDelivery } : {}),
    createdDate: iso(s.createdAt),
    canceledDate: s.request.canceledAt === undefined ? null : iso(s.request.canceledAt),
    carrier: service.carrierId,
    labelFormat: input.labelFormat ?? 'PDF',
    additionalServices: [],
    additionalProperties: {},
    transport: [service.carrierId],
    pickupAvailable: true,
  };
}

/** One tracking status (ParcelTrackingStatus), as the advance control endpoint and the tracking call show it. */
export function trackingStatusView(event: EmulatedEvent): Record<string, unknown> {
  return { occurredAt: iso(event.at), code: event.code, description: ALLEGRO_TRACKING.codes[event.code]?.description };
}

/** One `waybills[]` entry (ParcelTrackingHistory): no `trackingDetails` for a waybill the carrier does not know. */
export function waybillView(waybill: string, parcel: EmulatedParcel | undefined): Record<string, unknown> {
  const events = (parcel?.events ?? []).filter((e) => e.code !== ALLEGRO_TRACKING.cancelled);
  if (events.length === 0) return { waybill };
  return {
    waybill,
    trackingDetails: { statuses: events.map(trackingStatusView), createdAt: iso(events[0]!.at), updatedAt: iso(events[events.length - 1]!.at) },
  };
}

function addressLines(a: AllegroAddress): string[] {
  return [a.company, a.name, a.street, `${a.postalCode} ${a.city}`, a.countryCode].filter((l): l is string => Boolean(l));
}

/** What the emulated label prints; the Code 128 of the waybill stands in for the carrier's own label. */
export function labelContent(s: AllegroEmulatedShipment, parcel: EmulatedParcel): EmulatedLabel {
  const { input, service } = s.request;
  const cod = input.cashOnDelivery;
  return {
    carrier: service.name,
    trackingNumber: parcel.number,
    parcelIndex: parcel.index,
    parcelCount: s.parcels.length,
    reference: input.packages[parcel.index - 1]?.textOnLabel ?? input.referenceNumber,
    product: `Wysyłam z Allegro · ${service.carrierId}`,
    sender: addressLines(input.sender),
    recipient: [...addressLines(input.receiver), ...(input.receiver.point ? [`Punkt odbioru ${input.receiver.point}`] : []), input.receiver.phone],
    ...(cod ? { cod: { amount: cod.amount.replace(',', '.'), currency: cod.currency } } : {}),
  };
}
