/**
 * The fields an order file can fill: the shipment creation input's field paths flattened with `_` (SPEC §7).
 * Order fields come from the first row of an order that has them; parcel fields come from every row (one parcel each).
 */

// `name`: a full name, split by the API when first_name and last_name are empty
const CONTACT = ['company_name', 'first_name', 'last_name', 'name', 'email_address', 'phone_number'] as const;
const ADDRESS = ['street_name', 'house_number', 'apartment_number', 'city_name', 'postal_code', 'country_code'] as const;

function nested(prefix: string, keys: readonly string[]): [string, string][] {
  return keys.map((k) => [`${prefix}_${k}`, `${prefix}.${k}`]);
}

/** Flattened column name → API field path of the order (shipment). */
export const ORDER_FIELDS: ReadonlyMap<string, string> = new Map([
  ...['reference_number', 'shipping_channel_id', 'label_format', 'shipping_date', 'label_comment', 'enable_tracking',
    'cash_on_delivery_amount', 'cash_on_delivery_currency'].map((k): [string, string] => [k, k]),
  ...nested('sender_contact', CONTACT),
  ...nested('recipient_contact', CONTACT),
  ...nested('origin_address', ADDRESS),
  ...nested('destination_address', ADDRESS),
  // the carrier's pickup point or locker the e-shop's checkout chose
  ['pickup_point_id', 'pickup_point.provider_point_id'],
  ['pickup_point_type', 'pickup_point.type'],
  ...nested('customs', ['contents_type', 'incoterm', 'invoice_number', 'invoice_date', 'currency', 'exporter_eori', 'exporter_vat_number', 'importer_tax_id']),
]);

/** Flattened column name → field of one parcel (`parcels.N.<field>`). */
export const PARCEL_FIELDS: ReadonlyMap<string, string> = new Map([
  ['parcel_type', 'parcel_type'],
  ...(['weight_amount', 'weight_unit', 'length_dimension', 'width_dimension', 'height_dimension', 'dimension_unit'] as const)
    .map((k): [string, string] => [`parcel_${k}`, k]),
]);

/** Flattened column name → field of one customs item (`customs.items.N.<field>`): each row with such a cell is an item. */
export const CUSTOMS_ITEM_FIELDS: ReadonlyMap<string, string> = new Map(
  (['description', 'hs_code', 'quantity', 'unit_value', 'unit_weight', 'origin_country', 'sku'] as const).map((k): [string, string] => [`customs_item_${k}`, k]),
);

/** `metadata_<key>` columns become `metadata.<key>` (text). */
export const METADATA_PREFIX = 'metadata_';

export const NUMERIC_FIELDS: ReadonlySet<string> = new Set([
  'cash_on_delivery_amount', 'parcel_weight_amount', 'parcel_length_dimension', 'parcel_width_dimension', 'parcel_height_dimension',
  'customs_item_quantity', 'customs_item_unit_value', 'customs_item_unit_weight',
]);

/** Codes that files write in either case; the API takes them in one. */
export const UPPER_CASE_FIELDS: ReadonlySet<string> = new Set([
  'cash_on_delivery_currency', 'origin_address_country_code', 'destination_address_country_code', 'parcel_weight_unit', 'parcel_dimension_unit',
  'customs_incoterm', 'customs_currency', 'customs_item_origin_country',
]);
export const LOWER_CASE_FIELDS: ReadonlySet<string> = new Set(['label_format', 'customs_contents_type']);

export function isImportField(name: string): boolean {
  return ORDER_FIELDS.has(name) || PARCEL_FIELDS.has(name) || CUSTOMS_ITEM_FIELDS.has(name) || (name.startsWith(METADATA_PREFIX) && name.length > METADATA_PREFIX.length);
}

/** The API field path of a flattened name (`parcel_weight_amount` of the 2nd parcel → `parcels.1.weight_amount`). */
export function fieldPath(name: string, parcelIndex = 0): string {
  const parcelField = PARCEL_FIELDS.get(name);
  if (parcelField) return `parcels.${parcelIndex}.${parcelField}`;
  if (name.startsWith(METADATA_PREFIX)) return `metadata.${name.slice(METADATA_PREFIX.length)}`;
  return ORDER_FIELDS.get(name) ?? name;
}
