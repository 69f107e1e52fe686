import { Type } from 'typebox';
import { ORDER_STATUSES } from '../../src/services/orders.js';
import { Nullable, PlainText, Timestamp } from '../http/schemas.js';
import {
  AddressSchema, ContactSchema, creationFields, CustomsInputSchema, ParcelInputSchema, PickupPointInputSchema, PrintSchema, StationNameSchema, updatableFields,
} from './shipment-schemas.js';

/** JSON schemas of the order queue: an order is a shipment's creation input that may wait for its channel and parcels. */

const {
  print: _print, label_format, label_dpi, parcels, cash_on_delivery_amount, cash_on_delivery_currency, shipping_date, sender_contact, origin_address, ...parties
} = creationFields;
const fromStation = ' (default: the packing station\'s, when the order is shipped)';
const waiting = {
  label_format, label_dpi, parcels, cash_on_delivery_amount, cash_on_delivery_currency, shipping_date,
  sender_contact: { ...sender_contact, description: `company_name, or first_name and last_name (or name)${fromStation}` }, origin_address: { ...origin_address, description: `Where the carrier picks up${fromStation}` },
};

export const CreateOrderBody = Type.Object({
  shipping_channel_id: Type.Optional(PlainText({ minLength: 1, maxLength: 255, description: 'The channel to ship with, if known already; else given when shipping' })),
  ...parties,
  ...Object.fromEntries(Object.entries(waiting).map(([k, v]) => [k, Type.Optional(v)])),
  ...updatableFields,
});

export const PatchOrderBody = Type.Object({
  ...Object.fromEntries(Object.entries(CreateOrderBody.properties).map(([k, v]) => [k, Type.Optional(v)])),
});

export const ShipOrderBody = Type.Object({
  parcels: Type.Optional(Type.Array(ParcelInputSchema, { minItems: 1, maxItems: 50, description: "The parcels as weighed; default the order's" })),
  shipping_channel_id: Type.Optional(PlainText({ minLength: 1, maxLength: 255, description: "Default the order's, else the station's" })),
  label_format: Type.Optional(Type.String({ enum: ['pdf', 'zpl', 'epl'], description: "Default the order's, else the station's, else pdf" })),
  print: Type.Optional(Nullable(PrintSchema)),
  station: Type.Optional({ ...StationNameSchema, description: "The packing station: sender, pickup address, channel and format neither the body nor the order gives come from its settings, and it prints on the station's printer when the station auto-prints" }),
});

export const OrderSchema = Type.Object({
  id: Type.String({ description: 'or_…' }),
  status: Type.String({ enum: [...ORDER_STATUSES] }),
  reference_number: Nullable(Type.String()),
  shipment_id: Nullable(Type.String({ description: 'The shipment it was shipped as' })),
  import_id: Nullable(Type.String({ description: 'The import that queued it' })),
  shipping_channel_id: Nullable(Type.String()),
  label_format: Nullable(Type.String()),
  sender_contact: Nullable(ContactSchema),
  recipient_contact: ContactSchema,
  origin_address: Nullable(AddressSchema),
  destination_address: AddressSchema,
  pickup_point: Type.Optional(Nullable(PickupPointInputSchema)),
  customs: Type.Optional(Nullable(CustomsInputSchema)),
  return: Type.Optional(Type.Boolean()),
  parcels: Type.Array(ParcelInputSchema),
  cash_on_delivery_amount: Nullable(Type.Number()),
  cash_on_delivery_currency: Nullable(Type.String()),
  shipping_date: Type.Optional(Type.String()),
  label_comment: Type.Optional(Nullable(Type.String())),
  metadata: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
  enable_tracking: Type.Optional(Type.Boolean()),
  created_at: Timestamp,
  updated_at: Timestamp,
  shipped_at: Nullable(Timestamp),
  cancelled_at: Nullable(Timestamp),
});
