import type { CreateShipmentBody, LabelFormat, Order, PatchShipmentBody, Shipment, ShipOrderBody } from '../api';
import { readDecimal, showDecimal } from '../decimal';
import { addressBody, addressOf, contactBody, emptyAddress, emptyParty, isBlank, partyOf, type Address, type Party } from './party-fields';
import { choiceOf, type PointChoice, type PointRecord } from './pickup-point';

/** What the ship screen holds between the scan and the carrier's answer, and the bodies it sends. */

export interface ParcelInput { weight: string; length: string; width: string; height: string }
export interface Draft {
  reference_number: string;
  /** The awaiting order this ships (`POST /v1/orders/{id}/ship`); null for a new shipment. */
  order_id: string | null;
  /** The shipment the carrier refused, which this corrects (`PATCH /v1/shipments/{id}`). */
  shipment_id: string | null;
  /** Whether the packer changed the order's recipient, address or COD (sent to the order before shipping it). */
  order_changed: boolean;
  /** Empty: the station's (the order's own when it names one). */
  channel: string;
  label_format: LabelFormat | '';
  recipient: Party;
  /** The recipient's own address; to a pickup point it may stay empty (the point's is the destination then). */
  destination: Address;
  /** The pickup point or locker it goes to instead of the door. */
  pickup_point: PointChoice | null;
  parcels: ParcelInput[];
  cod_amount: string;
  cod_currency: string;
  /** Shown once the route needs one (the API answered 422 on `customs`) or the record had one. */
  customs: CustomsDraft | null;
  /** The return label is made with it, for the box. */
  return: boolean;
}

export interface CustomsItemInput { sku: string; description: string; hs_code: string; quantity: string; unit_value: string; unit_weight: string; origin_country: string }
export interface CustomsDraft {
  contents_type: CustomsRecord['contents_type'];
  incoterm: string;
  items: CustomsItemInput[];
  /** What the desk does not edit (invoice number, EORI, tax ids …), sent back as the record had it. */
  kept: Record<string, unknown>;
}
type CustomsRecord = NonNullable<Order['customs']>;

/** The draft's channel when the account's shipping rules choose it (the body then names none). */
export const BY_RULES = 'rules';
const channelOf = (draft: Settled) => (draft.channel === BY_RULES ? undefined : draft.channel);

/** A draft whose channel and label format are settled (the station's filled in). */
export type Settled = Draft & { label_format: LabelFormat };

export const emptyParcel = (): ParcelInput => ({ weight: '', length: '', width: '', height: '' });
export const emptyCustomsItem = (): CustomsItemInput => ({ sku: '', description: '', hs_code: '', quantity: '1', unit_value: '', unit_weight: '', origin_country: '' });
export const emptyCustoms = (): CustomsDraft => ({ contents_type: 'sale', incoterm: '', items: [emptyCustomsItem()], kept: {} });

function customsOf(record: CustomsRecord): CustomsDraft {
  const { contents_type, incoterm, items, ...kept } = record;
  return {
    contents_type, incoterm: incoterm ?? '', kept,
    items: items.map((i) => ({
      sku: i.sku ?? '', description: i.description, hs_code: i.hs_code ?? '', quantity: String(i.quantity), unit_value: showDecimal(i.unit_value),
      unit_weight: showDecimal(i.unit_weight), origin_country: i.origin_country,
    })),
  };
}

const SKU_MEMORY = 'packdesk.customs.sku.';
/** The item as this desk last declared the SKU, for a row where only the SKU was typed. */
export function rememberedItem(sku: string): Partial<CustomsItemInput> {
  try {
    return JSON.parse(localStorage.getItem(SKU_MEMORY + sku.trim()) ?? '{}') as Partial<CustomsItemInput>;
  } catch {
    return {};
  }
}
/** Keeps each declared item with a SKU for the next declaration of it (on a shipment the carrier took). */
export function rememberItems(customs: CustomsDraft | null): void {
  for (const { sku, quantity: _quantity, ...item } of customs?.items ?? []) if (sku.trim()) localStorage.setItem(SKU_MEMORY + sku.trim(), JSON.stringify(item));
}

type ParcelRecord = { weight_amount?: number; length_dimension?: number; width_dimension?: number; height_dimension?: number };
const parcelOf = (p: ParcelRecord): ParcelInput => ({
  weight: showDecimal(p.weight_amount), length: showDecimal(p.length_dimension), width: showDecimal(p.width_dimension), height: showDecimal(p.height_dimension),
});

/** A new shipment with this reference, on the station's channel and label format. */
export function newDraft(reference: string, country = 'CZ'): Draft {
  return {
    reference_number: reference, order_id: null, shipment_id: null, order_changed: false, channel: '', label_format: '',
    recipient: emptyParty(), destination: emptyAddress(country), pickup_point: null, parcels: [emptyParcel()], cod_amount: '', cod_currency: '',
    customs: null, return: false,
  };
}

/** The recipient's side of a record: who, where, which point, how many parcels of what, how much to collect. */
type Filled = Pick<Order, 'recipient_contact' | 'destination_address' | 'cash_on_delivery_amount' | 'cash_on_delivery_currency'> & {
  parcels: ParcelRecord[];
  pickup_point?: PointRecord | null;
  customs?: CustomsRecord | null;
  return?: boolean;
};

const PLACE_KEYS = ['street_name', 'house_number', 'city_name', 'postal_code', 'country_code'] as const;
const samePlace = (a: Partial<Record<(typeof PLACE_KEYS)[number], string>>, b: typeof a) => PLACE_KEYS.every((k) => (a[k] ?? '') === (b[k] ?? ''));

function filledFrom(record: Filled): Pick<Draft, 'recipient' | 'destination' | 'pickup_point' | 'parcels' | 'cod_amount' | 'cod_currency' | 'customs' | 'return'> {
  const point = record.pickup_point ? choiceOf(record.pickup_point) : null;
  // a destination that is the point's own address goes with the point: a point changed later brings its own
  const pointsAddress = point?.address != null && samePlace(point.address, record.destination_address);
  return {
    recipient: partyOf(record.recipient_contact), pickup_point: point,
    destination: pointsAddress ? emptyAddress(record.destination_address.country_code) : addressOf(record.destination_address),
    parcels: record.parcels.length > 0 ? record.parcels.map(parcelOf) : [emptyParcel()],
    cod_amount: showDecimal(record.cash_on_delivery_amount, 2), cod_currency: record.cash_on_delivery_currency ?? '',
    customs: record.customs ? customsOf(record.customs) : null, return: record.return ?? false,
  };
}

/** An awaiting order: its own channel and label format win over the station's. */
export function draftOfOrder(order: Order): Draft {
  return {
    ...newDraft(order.reference_number ?? ''), ...filledFrom(order), order_id: order.id,
    channel: order.shipping_channel_id ?? '', label_format: (order.label_format as LabelFormat | null) ?? '',
  };
}

/** A new shipment filled from an earlier one with the same reference, on its channel while that still ships. */
export function draftOfEarlier(earlier: Shipment, channels: string[]): Draft {
  return { ...newDraft(earlier.reference_number ?? ''), ...filledFrom(earlier), channel: channels.includes(earlier.shipping_channel_id) ? earlier.shipping_channel_id : '' };
}

/** A refused shipment as the fields to correct. */
export function draftOfRefused(shipment: Shipment): Draft {
  return {
    ...newDraft(shipment.reference_number ?? ''), ...filledFrom(shipment), shipment_id: shipment.id,
    channel: shipment.shipping_channel_id, label_format: shipment.label_format,
  };
}

/** An empty field is left out: the channel's parcel_defaults fill it. */
const parcelsBody = (draft: Settled) => draft.parcels.map((p) => ({
  weight_amount: readDecimal(p.weight), length_dimension: readDecimal(p.length), width_dimension: readDecimal(p.width), height_dimension: readDecimal(p.height),
}));

function codBody(draft: Settled) {
  const amount = readDecimal(draft.cod_amount);
  return amount === undefined
    ? { cash_on_delivery_amount: null, cash_on_delivery_currency: null }
    : { cash_on_delivery_amount: amount, cash_on_delivery_currency: draft.cod_currency.trim().toUpperCase() || null };
}

/** The point as the API takes it; null: to the door. */
const pointBody = (draft: Settled) => (draft.pickup_point
  ? { provider_point_id: draft.pickup_point.provider_point_id, ...(draft.pickup_point.type ? { type: draft.pickup_point.type } : {}) }
  : null);

/** The declaration as the API takes it; an empty cell is left out for the API to name. */
function customsBody(draft: Settled) {
  const c = draft.customs;
  if (!c) return null;
  const text = (v: string) => (v.trim() === '' ? undefined : v.trim());
  return {
    ...c.kept, contents_type: c.contents_type, incoterm: text(c.incoterm)?.toUpperCase(),
    items: c.items.map((i) => ({
      sku: text(i.sku), description: i.description.trim(), hs_code: text(i.hs_code), quantity: readDecimal(i.quantity)!, unit_value: readDecimal(i.unit_value)!,
      unit_weight: readDecimal(i.unit_weight)!, origin_country: i.origin_country.trim().toUpperCase(),
    })),
  };
}

/**
 * What the packer may change of an order or a refused shipment: who, where, how much to collect, the customs
 * declaration and the return label; to a point an empty address is left to the point's.
 */
const recipientBody = (draft: Settled) => ({
  recipient_contact: contactBody(draft.recipient),
  ...(draft.pickup_point && isBlank(draft.destination) ? {} : { destination_address: addressBody(draft.destination) }),
  pickup_point: pointBody(draft), ...codBody(draft), customs: customsBody(draft), return: draft.return,
});

/** A new shipment at `station`: the daemon adds the station's sender, pickup address and auto-print. */
export function createBody(draft: Settled, station: string): CreateShipmentBody {
  return {
    station, shipping_channel_id: channelOf(draft), label_format: draft.label_format, reference_number: draft.reference_number.trim() || null,
    ...recipientBody(draft), parcels: parcelsBody(draft),
  };
}

export const orderChangeBody = recipientBody;

export function shipOrderBody(draft: Settled, station: string): ShipOrderBody {
  return { station, parcels: parcelsBody(draft), shipping_channel_id: channelOf(draft), label_format: draft.label_format };
}

/** The corrected creation fields of a refused shipment. */
export function correctionBody(draft: Settled): PatchShipmentBody {
  return { shipping_channel_id: channelOf(draft), label_format: draft.label_format, ...recipientBody(draft), parcels: parcelsBody(draft) };
}

/** The fields a field path names open the recipient card. */
export const RECIPIENT_PATHS = /^(recipient_contact|destination_address|cash_on_delivery_)/;
