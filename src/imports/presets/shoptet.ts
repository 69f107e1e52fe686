import { cashOnDelivery, COD_FIELDS, firstFilled, namesCashOnDelivery, recipientFrom, RECIPIENT_FIELDS, type AddressColumns } from './common.js';
import type { MappingPreset } from './types.js';

// Source: Shoptet's order export (podpora.shoptet.cz/export-objednavek/, Objednávky → Export, CSV) with the placeholder names of its export templates (#code#, #billFullName#, #deliveryStreet#, #weight#, #totalPriceToPay# …, reproduced at dativery.com/cs/bez-kategorie/nastaveni-exportu-objednavek-u-shoptetu/); real exports in public repositories are Windows-1250, `;`, decimal commas, one row per order line with the order's columns repeated, shipping and payment as lines of their own (item code SHIPPING…/BILLING…, type shipping/billing). Column names of the item part come in two spellings (orderItemName in custom exports, itemName in others): both are read. [inferred] the unit of `weight` is kg.

const delivery = (prefix: 'delivery' | 'bill'): AddressColumns => ({
  name: `${prefix}FullName`, company: `${prefix}Company`, street: `${prefix}Street`, houseNumber: `${prefix}HouseNumber`,
  city: `${prefix}City`, postalCode: `${prefix}Zip`, country: `${prefix}CountryName`, phone: 'phone', email: 'email',
});

export const shoptet: MappingPreset = {
  name: 'shoptet',
  // zasilkovnaDistributionPointBranchId: the Packeta pickup point the buyer chose, a placeholder of Shoptet's order export
  // templates (#zasilkovnaDistributionPointBranchId#, as dativery.com's Shoptet export settings use it)
  columns: { code: 'reference_number', weight: 'parcel_weight_amount', zasilkovnaDistributionPointBranchId: 'pickup_point_id' },
  defaults: {},
  rowsAre: 'items',
  derivation: {
    fields: [...RECIPIENT_FIELDS, ...COD_FIELDS],
    derive(row) {
      const recipient = recipientFrom(row, [delivery('delivery'), delivery('bill')]);
      // the payment method is a line of the order: the order is paid on delivery when that line names it so
      const type = firstFilled(row, ['orderItemType', 'itemType'])?.text.toLowerCase();
      const code = firstFilled(row, ['orderItemCode', 'itemCode'])?.text.toUpperCase() ?? '';
      const paymentLine = type === 'billing' || code.startsWith('BILLING');
      const payment = firstFilled(row, ['orderItemName', 'itemName'])?.text ?? '';
      return {
        ...recipient,
        ...cashOnDelivery(paymentLine && namesCashOnDelivery(payment), firstFilled(row, ['totalPriceToPay', 'totalPriceWithVat']),
          firstFilled(row, ['currencyCode', 'currency']), recipient.destination_address_country_code),
      };
    },
  },
};
