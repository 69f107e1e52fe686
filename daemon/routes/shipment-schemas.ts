import { Type } from 'typebox';
import { PICKUP_POINT_TYPES } from '../../src/carriers/types.js';
import { CUSTOMS_CONTENTS_TYPES, CUSTOMS_DOCUMENT_TYPES } from '../../src/domain/customs.js';
import { PRICE_SOURCES } from '../../src/domain/price-list.js';
import { FieldErrorsSchema, FreeObject, LabelDpiSchema, Nullable, PlainText, Timestamp } from '../http/schemas.js';

/** JSON schemas of shipments: the creation input, the record and the list item. */

const Text = (max = 255) => PlainText({ minLength: 1, maxLength: max });

export const ContactSchema = Type.Object({
  company_name: Type.Optional(PlainText({ maxLength: 255 })),
  first_name: Type.Optional(PlainText({ maxLength: 255 })),
  last_name: Type.Optional(PlainText({ maxLength: 255 })),
  name: Type.Optional(PlainText({ maxLength: 255, description: 'A full name ("Ing. Jan Novák"), split into first_name and last_name when both are empty' })),
  email_address: Text(),
  phone_number: PlainText({ minLength: 1, maxLength: 64, description: 'As written for the address\'s country ("777 888 999") or international; stored in E.164' }),
}, { description: 'company_name, or first_name and last_name (or name), is required' });

export const AddressSchema = Type.Object({
  street_name: PlainText({ minLength: 1, maxLength: 255, description: 'With the house number when house_number is empty ("Vinohradská 1234/56", "ul. Marszałkowska 10/5")' }),
  house_number: Type.Optional(PlainText({ maxLength: 32, description: 'Empty: read from street_name by the country\'s convention' })),
  apartment_number: Type.Optional(PlainText({ maxLength: 32 })),
  city_name: Text(),
  postal_code: PlainText({ minLength: 1, maxLength: 16, description: 'Checked for the country and stored in the carriers\' form ("602 00" → "60200", "00590" → "00-590")' }),
  country_code: Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2' }),
});

/** Bounds that keep every value exact once converted and stored (grams, hundredths of a centimetre, minor units). */
const Weight = Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'In weight_unit; > 0 and ≤ 1,000,000' });
const Dimension = Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description: 'In dimension_unit; > 0 and ≤ 100,000' });
const CodAmount = Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000_000, description: 'At most 2 decimals; ≤ 1,000,000,000' });

const measures = {
  weight_amount: Type.Optional(Weight),
  weight_unit: Type.Optional(Type.String({ enum: ['KG', 'G', 'LB'], default: 'KG' })),
  length_dimension: Type.Optional(Dimension),
  width_dimension: Type.Optional(Dimension),
  height_dimension: Type.Optional(Dimension),
  dimension_unit: Type.Optional(Type.String({ enum: ['CM', 'MM', 'M', 'IN'], default: 'CM' })),
};

/** Weight and dimensions a parcel lacks come from its channel's `parcel_defaults`; without them they are required. */
export const ParcelInputSchema = Type.Object({
  parcel_type: Type.Optional(PlainText({ minLength: 1, maxLength: 64, default: 'package' })),
  ...measures,
});

/** A channel's usual parcel: its weight, and its box (the three dimensions together). */
export const ParcelDefaultsSchema = Type.Object(
  { ...measures, weight_unit: Type.Optional(Type.String({ enum: ['KG', 'G', 'LB'] })), dimension_unit: Type.Optional(Type.String({ enum: ['CM', 'MM', 'M', 'IN'] })) },
  { additionalProperties: false, description: 'What a parcel of this channel is when an order gives no weight or dimensions' },
);

export const PrintSchema = Type.Object({
  printer_id: Text(),
  copies: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 1 })),
});

/** A pickup point or locker of the channel's carrier, instead of the recipient's door. */
export const PickupPointInputSchema = Type.Object({
  provider_point_id: PlainText({ minLength: 1, maxLength: 64, description: "The carrier's id of the point (GET /v1/pickup-points finds it; e-shops' checkouts give it)" }),
  type: Type.Optional(Nullable(Type.String({ enum: [...PICKUP_POINT_TYPES], description: "Checked against the point where the carrier's point API knows it" }))),
}, { additionalProperties: false });

export const StoredPickupPointSchema = Type.Object({
  provider_point_id: Type.String(),
  type: Nullable(Type.String({ enum: [...PICKUP_POINT_TYPES] })),
  name: Nullable(Type.String()),
  address: Nullable(AddressSchema),
}, { description: "The point the shipment goes to; its name and address where the carrier's point API knew it" });

/** One line of the customs declaration: what it is, its tariff code, how many, what each is worth and weighs, where it was made. */
const CustomsItemSchema = Type.Object({
  description: Text(255),
  hs_code: Type.Optional(PlainText({ maxLength: 20, description: 'The HS code, 6 to 10 digits (spaces and dots as written are fine: 8471 30 00); required but for documents' })),
  quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  unit_value: Type.Number({ minimum: 0, maximum: 1_000_000_000, description: 'In the declaration\'s currency; at most 2 decimals' }),
  unit_weight: Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'kg' }),
  origin_country: Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2: where the goods were made' }),
  sku: Type.Optional(PlainText({ maxLength: 64 })),
}, { additionalProperties: false });

/** The customs declaration of a shipment that leaves the customs union (or enters it). */
export const CustomsInputSchema = Type.Object({
  contents_type: Type.String({ enum: [...CUSTOMS_CONTENTS_TYPES] }),
  incoterm: Type.Optional(Type.String({ minLength: 3, maxLength: 3, description: 'Incoterms 2020; default DAP (the recipient pays duties and taxes)' })),
  invoice_number: Type.Optional(Text(35)),
  invoice_date: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD; default the shipping date' })),
  currency: Type.Optional(Type.String({ minLength: 3, maxLength: 3, description: 'Default the currency of the origin country' })),
  exporter_eori: Type.Optional(Text(17)),
  exporter_vat_number: Type.Optional(Text(20)),
  importer_tax_id: Type.Optional(Text(35)),
  items: Type.Array(CustomsItemSchema, { minItems: 1, maxItems: 99 }),
}, { additionalProperties: false, description: 'Required where the route crosses a customs border (EU → US, GB, CH, NO, the Canary Islands …); kept and not sent where it does not' });

export const creationFields = {
  label_format: Type.String({ enum: ['pdf', 'zpl', 'epl'] }),
  label_dpi: Type.Optional({ ...LabelDpiSchema, description: 'For a label packdesk converts to ZPL or EPL: default the dpi of the `print` printer, else 203' }),
  sender_contact: ContactSchema,
  recipient_contact: ContactSchema,
  origin_address: AddressSchema,
  destination_address: AddressSchema,
  parcels: Type.Array(ParcelInputSchema, { minItems: 1, maxItems: 50 }),
  cash_on_delivery_amount: Type.Optional(Nullable(CodAmount)),
  cash_on_delivery_currency: Type.Optional(Nullable(Type.String({ minLength: 3, maxLength: 3 }))),
  shipping_date: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD, default today' })),
  print: Type.Optional(Nullable(PrintSchema)),
  pickup_point: Type.Optional(Nullable({ ...PickupPointInputSchema, description: "Deliver to this pickup point or locker of the channel's carrier: its point product is chosen" })),
  customs: Type.Optional(Nullable(CustomsInputSchema)),
  return: Type.Optional(Type.Boolean({ description: "Make its return label too, for the box: once the carrier has this shipment, its return (return_shipment_ids) is created with the carrier's return product. Default false; the channel's carrier must make returns (GET /v1/providers)" })),
};

export const updatableFields = {
  reference_number: Type.Optional(Nullable(PlainText({ maxLength: 255 }))),
  label_comment: Type.Optional(Nullable(PlainText({ maxLength: 1000, multiline: true }))),
  metadata: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true, description: '≤ 16 KiB as JSON' }))),
  enable_tracking: Type.Optional(Type.Boolean({ description: 'default true' })),
};

export const StationNameSchema = Type.String({ minLength: 1, maxLength: 64, description: "A packing station's name (the daemon's `--station`, else its host name)" });

/** What a station's settings may give (src/services/station-settings.ts), optional here and required without a station. */
const STATION_GIVES = ' (or from the `station`\'s settings)';

export const CreateShipmentBody = Type.Object({
  station: Type.Optional({ ...StationNameSchema, description: 'Read at this station: sender, pickup address, channel and label format the body leaves out come from its settings, and it prints on the station\'s printer when the station auto-prints and the body has no `print`' }),
  shipping_channel_id: Type.Optional({ ...Text(), description: `Required${STATION_GIVES}` }),
  ...creationFields,
  label_format: Type.Optional({ ...creationFields.label_format, description: `Required${STATION_GIVES}` }),
  sender_contact: Type.Optional({ ...ContactSchema, description: `Required${STATION_GIVES}; company_name, or first_name and last_name (or name)` }),
  origin_address: Type.Optional({ ...AddressSchema, description: `Required${STATION_GIVES}` }),
  destination_address: Type.Optional({ ...AddressSchema, description: "Required, unless a pickup_point the carrier's point API knows: then the point's address" }),
  ...updatableFields,
});

/** A shipment to quote: the creation body without its channel, or with the channels to ask. */
const { shipping_channel_id: _channel, ...quotedFields } = CreateShipmentBody.properties;
export const QuoteBody = Type.Object({
  ...quotedFields,
  shipping_channel_ids: Type.Optional(Type.Array(Text(), { minItems: 1, maxItems: 50, uniqueItems: true, description: 'The channels to ask; default every active channel of the account' })),
});

export const QuoteSchema = Type.Object({
  shipping_channel_id: Type.String(),
  name: Type.String(),
  provider: Type.String(),
  price: Nullable(Type.Number()),
  currency: Nullable(Type.String()),
  price_source: Nullable(Type.String({ enum: ['carrier', 'price_list'], description: "Where price came from: the carrier's rate API, or the channel's price_list" })),
  transit_days: Nullable(Type.Integer({ description: "Working days on the way: the carrier's, else the price list zone's transit_days" })),
  estimated_delivery: Nullable(Type.String({ description: "The carrier's estimated delivery (ISO 8601 date or date-time), where it gives one" })),
  cannot: Nullable(Type.String({ description: 'Why this channel cannot carry or price the shipment (null: it can, at price)' })),
  failed: Type.Boolean({ description: "The carrier's rate API failed (5xx, timeout, refusal) and no price list priced the shipment: cannot says why" }),
  carrier_error: Nullable(Type.String({ description: "Why the carrier's rate API did not answer, where the price list priced the shipment instead" })),
  errors: FieldErrorsSchema,
});

/** What a return may set differently from its shipment: by default its channel, label format and parcels. */
export const ReturnShipmentBody = Type.Object({
  shipping_channel_id: Type.Optional({ ...Text(), description: "Default the shipment's; a channel of the same carrier" }),
  label_format: Type.Optional({ ...creationFields.label_format, description: "Default the shipment's" }),
  parcels: Type.Optional({ ...creationFields.parcels, description: "Default the shipment's" }),
  print: creationFields.print,
});

/** Any field; creation fields only while the shipment is pending and its creation failed. */
export const PatchShipmentBody = Type.Object({
  shipping_channel_id: Type.Optional(Text()),
  ...Object.fromEntries(Object.entries(creationFields).map(([k, v]) => [k, Type.Optional(v)])),
  ...updatableFields,
});

const money = Nullable(Type.Number());

export const ShipmentSummarySchema = Type.Object({
  id: Type.String({ description: 'sh_…' }),
  reference_number: Nullable(Type.String()),
  shipping_channel_id: Type.String(),
  provider_shipment_id: Nullable(Type.String()),
  status: Type.String({ enum: ['pending', 'created', 'shipped', 'delivered', 'cancelled', 'returned'] }),
  total_price: money,
  currency: Nullable(Type.String()),
  needs_attention: Type.Boolean({ description: 'Pending, refused by the carrier (or given up on) and not retried: only a fix (PATCH) or a retry moves it' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** What `include=details` adds to each list item. */
export const ShipmentDetailsSchema = Type.Object({
  recipient_name: Type.String(),
  destination_city: Type.String(),
  destination_country: Type.String(),
  tracking_number: Nullable(Type.String({ description: "The first parcel's" })),
  total_parcels_count: Type.Integer(),
  cash_on_delivery_amount: money,
  cash_on_delivery_currency: Nullable(Type.String()),
  provider: Type.String(),
  label_format: Type.String({ enum: ['pdf', 'zpl', 'epl'] }),
  printed_at: Nullable(Timestamp),
  dispatch_id: Nullable(Type.String({ description: 'The dispatch that handed it over (dp_…)' })),
});

export const ShipmentListItemSchema = Type.Object({
  ...ShipmentSummarySchema.properties,
  ...Type.Partial(ShipmentDetailsSchema).properties,
}, { description: 'The list item; the detail fields only with include=details' });

/** The shipping rule that chose a shipment's channel (daemon/routes/shipping-rules.ts). */
export const ChosenBySchema = Type.Object({
  shipping_rule_id: Type.String({ description: 'rule_…' }),
  name: Type.String(),
  reason: Type.String({ description: 'Why that channel: the rule\'s channel, or the cheapest or fastest of its channels with the price' }),
}, { description: 'The shipping rule that chose the channel; null: the channel was named (by the body, the order, the import or the station)' });

export const ShipmentSchema = Type.Object({
  ...ShipmentSummarySchema.properties,
  label_format: Type.String({ enum: ['pdf', 'zpl', 'epl'] }),
  label_dpi: LabelDpiSchema,
  shipping_date: Type.String(),
  is_international: Type.Boolean(),
  cash_on_delivery_amount: money,
  cash_on_delivery_currency: Nullable(Type.String()),
  product: Nullable(Type.String({ description: 'The carrier product used, after the COD switch' })),
  sender_contact: ContactSchema,
  recipient_contact: ContactSchema,
  origin_address: AddressSchema,
  destination_address: AddressSchema,
  pickup_point: Nullable(StoredPickupPointSchema),
  customs: Nullable(CustomsInputSchema),
  return_of: Nullable(Type.String({ description: 'The shipment this one returns to its sender (POST /v1/shipments/{id}/return)' })),
  return: Type.Boolean({ description: 'Its return label is made with it, for the box' }),
  return_shipment_ids: Type.Array(Type.String(), { description: 'The shipments that return this one, oldest first' }),
  price_source: Nullable(Type.String({ enum: [...PRICE_SOURCES], description: "Where total_price came from: the carrier's creation answer, its rate API asked once the shipment was created (quote), or the channel's price_list" })),
  chosen_by: Nullable(ChosenBySchema),
  metadata: Nullable(FreeObject),
  label_comment: Nullable(Type.String()),
  enable_tracking: Type.Boolean(),
  has_label: Type.Boolean(),
  parcels: Type.Array(Type.Object({
    id: Type.String({ description: 'pcl_…' }),
    parcel_type: Type.String(),
    weight_amount: Type.Number(),
    weight_unit: Type.String(),
    length_dimension: Type.Number(),
    width_dimension: Type.Number(),
    height_dimension: Type.Number(),
    dimension_unit: Type.String(),
    tracking_number: Nullable(Type.String()),
    tracking_status: Nullable(Type.String()),
    tracking_url: Nullable(Type.String()),
  })),
  total_parcels_count: Type.Integer(),
  failure: Nullable(Type.Object({ message: Type.String(), errors: FieldErrorsSchema, attempts: Type.Integer(), at: Timestamp })),
  next_attempt_at: Nullable(Timestamp),
  cancelled_at: Nullable(Timestamp),
  printed_at: Nullable({ ...Timestamp, description: 'When a print job holding its label (alone or merged with others) first printed' }),
  print_plan: Nullable(Type.Object({
    printer_id: Nullable(Type.String()),
    printer_name: Nullable(Type.String()),
    copies: Nullable(Type.Integer()),
    reason: Nullable(Type.String({ description: 'Why nothing prints, e.g. "no printer for ZPL at station desk-1"' })),
  }, { description: 'What was asked to print once the label exists (null: nothing was)' })),
  dispatch_id: Nullable(Type.String({ description: 'The end-of-day dispatch that handed it over to the carrier (dp_…)' })),
});

export const LabelPreviewSchema = Type.Object({
  shipment_id: Type.String(),
  reference_number: Nullable(Type.String()),
  provider_shipment_id: Nullable(Type.String()),
  label_format: Type.String({ enum: ['pdf', 'zpl', 'epl'], description: 'The format of the stored label the pictures show' }),
  source: Type.String({ enum: ['carrier', 'converted'] }),
  images: Type.Array(Type.Object({
    parcel: Type.Integer({ description: '1-based position of the parcel' }),
    file_name: Type.String({ description: '<reference or id>-<parcel>.png, safe as a file name' }),
    content: Type.String({ description: 'base64 PNG' }),
    mime_type: Type.String(),
    size: Type.Integer({ description: 'bytes' }),
  })),
});

export const LabelSchema = Type.Object({
  shipment_id: Type.String(),
  reference_number: Nullable(Type.String()),
  provider_shipment_id: Nullable(Type.String()),
  label: Type.Object({
    content: Type.String({ description: 'base64' }),
    format: Type.String({ enum: ['pdf', 'zpl', 'epl'] }),
    mime_type: Type.String(),
    size: Type.Integer({ description: 'bytes' }),
    pages: Type.Integer(),
    source: Type.String({ enum: ['carrier', 'converted'] }),
  }),
});

export const ShipmentDocumentSchema = Type.Object({
  type: Type.String({ enum: [...CUSTOMS_DOCUMENT_TYPES] }),
  source: Type.String({ enum: ['carrier', 'packdesk'], description: 'carrier: made by the carrier; packdesk: the commercial invoice packdesk drew where the carrier made none' }),
  mime_type: Type.String(),
  size: Type.Integer(),
  created_at: Timestamp,
  url: Type.String({ description: 'The PDF' }),
});
