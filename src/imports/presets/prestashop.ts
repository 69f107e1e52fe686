import { cashOnDelivery, COD_FIELDS, firstFilled, namesCashOnDelivery, recipientFrom, RECIPIENT_FIELDS } from './common.js';
import type { MappingPreset } from './types.js';

// Source: PrestaShop's back-office Orders → Export (OrderController::exportAction, CsvResponse: `;`, UTF-8) holds only ID, Reference, New client, Delivery (a country name), Customer ("J. DOE"), Total, Payment, Status and Date: no street, postcode, city, phone or e-mail, so no shipment can come of it. This preset reads instead the CSV of PrestaShop's own SQL Manager (Advanced Parameters → Database → SQL Manager, `;`) for examples/prestashop-orders.sql, whose columns are PrestaShop's database fields (ps_orders, ps_address, ps_country, ps_customer, ps_currency, ps_order_carrier in install/data/db_structure.sql); `module` ps_cashondelivery is PrestaShop's cash-on-delivery module. [inferred] ps_order_carrier.weight is in the shop's weight unit, kg by default.

export const prestashop: MappingPreset = {
  name: 'prestashop',
  columns: { reference: 'reference_number', weight: 'parcel_weight_amount' },
  defaults: {},
  // an order sent with two carriers has a row for each: still one order
  rowsAre: 'items',
  derivation: {
    fields: [...RECIPIENT_FIELDS, ...COD_FIELDS],
    derive(row) {
      const recipient = recipientFrom(row, [{
        firstName: 'firstname', lastName: 'lastname', company: 'company', street: 'address1', city: 'city', postalCode: 'postcode',
        country: 'country_iso_code', email: 'email',
      }]);
      recipient.recipient_contact_phone_number = firstFilled(row, ['phone_mobile', 'phone']);
      const paidOnDelivery = row.value('module') === 'ps_cashondelivery' || namesCashOnDelivery(row.value('payment'));
      return {
        ...recipient,
        ...cashOnDelivery(paidOnDelivery, firstFilled(row, ['total_paid_tax_incl']), firstFilled(row, ['currency_iso_code']), recipient.destination_address_country_code),
      };
    },
  },
};
