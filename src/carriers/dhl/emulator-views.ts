/** What the MyDHL API emulator shows: tracking shipments, pieces and events, and the label printed on each piece. */
import type { EmulatedLabel } from '../emulator/labels.js';
import type { EmulatedEvent, EmulatedParcel } from '../emulator/shipments.js';
import { DHL_COD_SERVICE, DHL_TRACKING } from './codes.js';
import type { DhlShipment, LevelOfDetail, TrackingView } from './emulator-tracking.js';
import type { SeenParty, SeenShipmentRequest } from './emulator-validation.js';

/** Checkpoints scanned where the shipment starts; the others are at the destination. */
const ORIGIN_CODES = new Set(['PU', 'SA', 'PL', 'DF']);

function serviceArea(party: SeenParty): { code: string; description: string } {
  const city = party.postalAddress.cityName.toUpperCase();
  return { code: city.replace(/[^A-Z]/g, '').slice(0, 3).padEnd(3, 'X'), description: `${city}-${party.postalAddress.countryCode}` };
}

/**
 * An event as MyDHL's tracking shows it (date and time without offset, as GET /tracking gives them; the emulator's
 * are UTC), at the origin's or the destination's service area.
 */
export function eventView(event: EmulatedEvent, request?: SeenShipmentRequest): Record<string, unknown> {
  const at = new Date(event.at).toISOString();
  const party = request && (ORIGIN_CODES.has(event.code) ? request.customerDetails.shipperDetails : request.customerDetails.receiverDetails);
  return {
    date: at.slice(0, 10),
    time: at.slice(11, 19),
    typeCode: event.code,
    description: DHL_TRACKING.codes[event.code]?.name ?? event.code,
    ...(party ? { serviceArea: [serviceArea(party)] } : {}),
  };
}

/** A parcel's scans as the tracking view asks (the label's creation is no MyDHL event); undefined for none. */
function scans(parcel: EmulatedParcel, request: SeenShipmentRequest, view: TrackingView): Record<string, unknown>[] | undefined {
  if (view === 'shipment-details-only') return undefined;
  const events = parcel.events.filter((e) => e.code !== DHL_TRACKING.created).map((e) => eventView(e, request));
  return view === 'last-checkpoint' ? events.slice(-1) : events;
}

function partyView(party: SeenParty): Record<string, unknown> {
  const { cityName, postalCode, countryCode } = party.postalAddress;
  return { name: party.contactInformation.fullName, postalAddress: { cityName, postalCode, countryCode }, serviceArea: [serviceArea(party)] };
}

/**
 * One entry of `shipments[]` in a tracking answer. The shipment's own events are its first piece's; `pieces` lists
 * the asked pieces (all of them when asked by waybill or reference).
 */
export function trackedShipmentView(s: DhlShipment, pieces: readonly EmulatedParcel[], level: LevelOfDetail, view: TrackingView): Record<string, unknown> {
  const { request } = s;
  const packages = request.content.packages;
  return {
    shipmentTrackingNumber: s.id,
    status: 'Success',
    shipmentTimestamp: new Date(s.createdAt).toISOString().slice(0, 19),
    productCode: s.product,
    description: request.content.description,
    shipperDetails: partyView(request.customerDetails.shipperDetails),
    receiverDetails: partyView(request.customerDetails.receiverDetails),
    totalWeight: packages.reduce((sum, p) => sum + p.weight, 0),
    unitOfMeasurements: 'metric',
    shipperReferences: request.customerReferences ?? [],
    ...(level !== 'piece' ? { events: scans(s.parcels[0]!, request, view) } : {}),
    numberOfPieces: s.parcels.length,
    ...(level !== 'shipment' ? {
      pieces: pieces.map((p) => ({
        number: p.index,
        typeCode: 'PIECE',
        shipmentTrackingNumber: s.id,
        trackingNumber: p.number,
        weight: packages[p.index - 1]?.weight,
        ...(packages[p.index - 1]?.dimensions ? { dimensions: packages[p.index - 1]!.dimensions } : {}),
        unitOfMeasurements: 'metric',
        events: scans(p, request, view),
      })),
    } : {}),
  };
}

/** A party's name and address as DHL prints them, a line each. */
export function addressLines(party: SeenParty): string[] {
  const { postalAddress: a, contactInformation: c } = party;
  const names = c.companyName === c.fullName ? [c.companyName] : [c.companyName, c.fullName];
  return [...names, a.addressLine1, a.addressLine2, a.addressLine3, `${a.postalCode} ${a.cityName}`, a.countryCode]
    .filter((line): line is string => Boolean(line));
}

/** What DHL prints on a piece's transport label: a Code 128 of the piece id (the licence plate), parties, COD. */
export function labelContent(s: DhlShipment, parcel: EmulatedParcel): EmulatedLabel {
  const { request } = s;
  const pieceReference = request.content.packages[parcel.index - 1]?.customerReferences?.[0]?.value;
  const cod = request.valueAddedServices?.find((v) => v.serviceCode === DHL_COD_SERVICE);
  return {
    // The label's head prints the DHL logo, the product code and the waybill number.
    carrier: 'DHL',
    trackingNumber: parcel.number,
    parcelIndex: parcel.index,
    parcelCount: s.parcels.length,
    reference: pieceReference ?? request.customerReferences?.[0]?.value,
    product: `${s.product} WAYBILL ${s.id}`,
    sender: addressLines(request.customerDetails.shipperDetails),
    recipient: [...addressLines(request.customerDetails.receiverDetails), request.customerDetails.receiverDetails.contactInformation.phone],
    ...(cod?.value !== undefined && cod.currency ? { cod: { amount: cod.value.toFixed(2), currency: cod.currency } } : {}),
  };
}
