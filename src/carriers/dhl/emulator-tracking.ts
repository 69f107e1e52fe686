/** The query of MyDHL's `GET /tracking` and the shipments it finds (MyDHL OpenAPI 3.1.1, parameters track*). */
import type { EmulatedParcel, EmulatedShipment, EmulatedShipments } from '../emulator/shipments.js';
import type { SeenShipmentRequest } from './emulator-validation.js';

export type DhlShipment = EmulatedShipment<SeenShipmentRequest>;
export type LevelOfDetail = 'shipment' | 'piece' | 'all';

export const TRACKING_VIEWS = ['all-checkpoints', 'all-checkpoints-with-remarks', 'last-checkpoint', 'shipment-details-only', 'advance-shipment', 'bbx-children'] as const;
export type TrackingView = (typeof TRACKING_VIEWS)[number];
const LEVELS: readonly LevelOfDetail[] = ['shipment', 'piece', 'all'];
const MAX_NUMBERS = 200;

export interface TrackingQuery {
  ok: true;
  shipmentTrackingNumbers: string[];
  pieceTrackingNumbers: string[];
  shipmentReference?: string;
  shipmentReferenceType: string;
  shipperAccountNumber?: string;
  trackingView: TrackingView;
  levelOfDetail: LevelOfDetail;
}

type QueryValues = Record<string, string | string[] | undefined>;

function values(query: QueryValues, name: string): string[] {
  const value = query[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v) => v !== '');
}

/** The OpenAPI's 400 wordings: "Missing mandatory parameters: …", "Parameters not having correct format: …". */
export function readTrackingQuery(query: QueryValues): TrackingQuery | { ok: false; message: string } {
  const shipmentTrackingNumbers = values(query, 'shipmentTrackingNumber');
  const pieceTrackingNumbers = values(query, 'pieceTrackingNumber');
  const [shipmentReference] = values(query, 'shipmentReference');
  const [shipperAccountNumber] = values(query, 'shipperAccountNumber');
  const [trackingView = 'all-checkpoints'] = values(query, 'trackingView');
  const [levelOfDetail = 'shipment'] = values(query, 'levelOfDetail');
  if (!(TRACKING_VIEWS as readonly string[]).includes(trackingView)) {
    return { ok: false, message: `Parameters not having correct format: trackingView (valid parameters for trackingView are [${TRACKING_VIEWS.join(', ')}]` };
  }
  if (!(LEVELS as readonly string[]).includes(levelOfDetail)) {
    return { ok: false, message: `Parameters not having correct format: levelOfDetail (valid parameters for levelOfDetail are [${LEVELS.join(', ')}]` };
  }
  for (const [name, list] of [['shipmentTrackingNumber', shipmentTrackingNumbers], ['pieceTrackingNumber', pieceTrackingNumbers]] as const) {
    if (list.length > MAX_NUMBERS) return { ok: false, message: `Parameters not having correct format: ${name} (maxItems=${MAX_NUMBERS})` };
  }
  if (shipmentReference && !shipperAccountNumber) return { ok: false, message: 'Missing mandatory parameters: shipperAccountNumber' };
  if (!shipmentReference && shipmentTrackingNumbers.length === 0 && pieceTrackingNumbers.length === 0) {
    return { ok: false, message: 'Missing mandatory parameters: shipmentTrackingNumber' };
  }
  return {
    ok: true, shipmentTrackingNumbers, pieceTrackingNumbers, shipmentReference, shipperAccountNumber,
    shipmentReferenceType: values(query, 'shipmentReferenceType')[0] ?? 'CU',
    trackingView: trackingView as TrackingView, levelOfDetail: levelOfDetail as LevelOfDetail,
  };
}

/** The caller's shipments asked for, each with the asked pieces (all of them when asked by waybill or reference). */
export function findTracked(
  shipments: EmulatedShipments<SeenShipmentRequest>, owner: string, q: TrackingQuery,
): { shipment: DhlShipment; pieces: EmulatedParcel[] }[] {
  const found = new Map<string, { shipment: DhlShipment; pieces: Set<EmulatedParcel> }>();
  const add = (shipment: DhlShipment, pieces: readonly EmulatedParcel[]) => {
    const entry = found.get(shipment.id) ?? { shipment, pieces: new Set<EmulatedParcel>() };
    for (const p of pieces) entry.pieces.add(p);
    found.set(shipment.id, entry);
  };
  for (const awb of q.shipmentTrackingNumbers) {
    const shipment = shipments.byId(owner, awb);
    if (shipment) add(shipment, shipment.parcels);
  }
  for (const number of q.pieceTrackingNumbers) {
    const piece = shipments.parcel(number, owner);
    if (piece) add(piece.shipment, [piece.parcel]);
  }
  if (q.shipmentReference) {
    for (const shipment of shipments.all()) {
      const { request } = shipment;
      const referenced = request.customerReferences?.some((r) => r.value === q.shipmentReference && (r.typeCode ?? 'CU') === q.shipmentReferenceType);
      const account = request.accounts.some((a) => a.typeCode === 'shipper' && a.number === q.shipperAccountNumber);
      if (shipment.owner === owner && referenced && account) add(shipment, shipment.parcels);
    }
  }
  return [...found.values()].map(({ shipment, pieces }) => ({ shipment, pieces: [...pieces].sort((a, b) => a.index - b.index) }));
}
