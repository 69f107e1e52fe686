import { cashOnDelivery, COD_FIELDS, firstFilled, namesCashOnDelivery, recipientFrom, RECIPIENT_FIELDS, type AddressColumns } from './common.js';
import type { MappingPreset } from './types.js';

// Source: WooCommerce has no order export of its own; this is the default CSV of the plugin most shops use for it, "Advanced Order Export For WooCommerce" (wordpress.org/plugins/woo-order-export-lite/, its field list in classes/core/class-wc-order-export-data-extractor-ui.php): UTF-8, `,`, columns titled by their labels ("Order Number", "First Name (Shipping)", "Address 1&2 (Shipping)", "Payment Method Title", "Order Total Amount" …), one row per product with the order's columns repeated. "Payment Method" (the gateway id, `cod` for WooCommerce's cash on delivery), "Currency", "Phone (Shipping)", "Company (Shipping)" and "Total weight" are read when the shop ticks them. [inferred] the weight is in the shop's weight unit, kg by default.

const block = (kind: 'Shipping' | 'Billing'): AddressColumns => ({
  firstName: `First Name (${kind})`, lastName: `Last Name (${kind})`, company: `Company (${kind})`, street: `Address 1&2 (${kind})`,
  city: `City (${kind})`, postalCode: `Postcode (${kind})`, country: `Country Code (${kind})`, phone: `Phone (${kind})`, email: `Email (${kind})`,
});

export const woocommerce: MappingPreset = {
  name: 'woocommerce',
  columns: { 'Order Number': 'reference_number', 'Total weight': 'parcel_weight_amount' },
  defaults: {},
  rowsAre: 'items',
  derivation: {
    fields: [...RECIPIENT_FIELDS, ...COD_FIELDS],
    derive(row) {
      const recipient = recipientFrom(row, [block('Shipping'), block('Billing')]);
      const paidOnDelivery = row.value('Payment Method').toLowerCase() === 'cod' || namesCashOnDelivery(row.value('Payment Method Title'));
      return {
        ...recipient,
        ...cashOnDelivery(paidOnDelivery, firstFilled(row, ['Order Total Amount']), firstFilled(row, ['Currency']), recipient.destination_address_country_code),
      };
    },
  },
};
