import { amountText, cashOnDelivery, COD_FIELDS, firstFilled, namesCashOnDelivery, recipientFrom, RECIPIENT_FIELDS, type AddressColumns } from './common.js';
import type { DerivedValue, FileRow, MappingPreset } from './types.js';

// Source: [inferred] BaseLinker publishes no format for its order file export; the columns are the order and product fields of its public API (api.baselinker.com/?method=getOrders: order_id, phone, email, currency, payment_method, payment_method_cod, delivery_price, delivery_fullname, delivery_address "street and home/local number", delivery_postcode, delivery_country_code, invoice_…; products: name, sku, price_brutto, quantity, weight), one row per product with the order's columns repeated. The API has no order total: cash on delivery is the products' price_brutto × quantity plus delivery_price; the parcel's weight is the products' weight × quantity (kg).

const block = (prefix: 'delivery' | 'invoice'): AddressColumns => ({
  name: `${prefix}_fullname`, company: `${prefix}_company`, street: `${prefix}_address`, city: `${prefix}_city`,
  postalCode: `${prefix}_postcode`, country: `${prefix}_country_code`, phone: 'phone', email: 'email',
});

/** A product row's part of an order's sum; text that is no number goes on as written, for the import to report. */
function lineValue(row: FileRow, column: string, part: (value: number) => number): DerivedValue | undefined {
  const text = row.value(column);
  const value = row.number(column);
  if (text === '') return undefined;
  return { text: value === undefined ? text : amountText(part(value)), column };
}

export const baselinker: MappingPreset = {
  name: 'baselinker',
  // delivery_point_id: the pickup point the buyer chose (getOrders' delivery_point_id; BaseLinker's own shop modules keep it as bl_delivery_point_id)
  columns: { order_id: 'reference_number', delivery_point_id: 'pickup_point_id' },
  defaults: {},
  rowsAre: 'items',
  summed: ['parcel_weight_amount', 'cash_on_delivery_amount'],
  derivation: {
    fields: [...RECIPIENT_FIELDS, ...COD_FIELDS, 'parcel_weight_amount'],
    derive(row) {
      const recipient = recipientFrom(row, [block('delivery'), block('invoice')]);
      const quantity = row.number('quantity') ?? 1;
      // the delivery price belongs to the order, once: it is added on the order's first row
      const delivery = row.startsOrder(row.value('order_id')) ? row.number('delivery_price') ?? 0 : 0;
      const lineAmount = lineValue(row, 'price_brutto', (price) => price * quantity + delivery);
      const lineWeight = lineValue(row, 'weight', (weight) => weight * quantity);
      const paidOnDelivery = ['1', 'true'].includes(row.value('payment_method_cod').toLowerCase()) || namesCashOnDelivery(row.value('payment_method'));
      return {
        ...recipient,
        ...cashOnDelivery(paidOnDelivery, lineAmount, firstFilled(row, ['currency']), recipient.destination_address_country_code),
        parcel_weight_amount: lineWeight,
      };
    },
  },
};
