import {
  amountText, cashOnDelivery, child, children, COD_FIELDS, firstFilled, localNames, namesCashOnDelivery, recipientFrom, RECIPIENT_FIELDS, textAt,
  type AddressColumns,
} from './common.js';
import type { MappingPreset, XmlNode, XmlRow } from './types.js';

// Source: Stormware's published XML schemas for POHODA, version 2 (www.stormware.cz/xml/schema/version_2/: data.xsd dat:dataPack/dat:dataPackItem, order.xsd ord:order/ord:orderHeader/ord:orderDetail/ord:orderSummary, type.xsd typ:address/typ:shipToAddress, typ:paymentType with `delivery` for cash on delivery, typ:typeCurrencyHome/typ:typeCurrencyForeign; list.xsd lst:listOrder for POHODA's own export in rsp:responsePack). Orders carry no weight. [inferred] an order in the home currency (no ord:foreignCurrency) costs the sum of its priceNone, priceLowSum, priceHighSum, price3Sum and rounding, in the usual currency of its destination.

const HEADER = 'ord:orderHeader';
const PARTNER = `${HEADER}/ord:partnerIdentity`;
const HOME = 'ord:orderSummary/ord:homeCurrency';
const FOREIGN = 'ord:orderSummary/ord:foreignCurrency';
const ITEM = 'ord:orderDetail/ord:orderItem';

const addressOf = (block: 'typ:address' | 'typ:shipToAddress'): AddressColumns => ({
  name: `${PARTNER}/${block}/typ:name`, company: `${PARTNER}/${block}/typ:company`, street: `${PARTNER}/${block}/typ:street`,
  city: `${PARTNER}/${block}/typ:city`, postalCode: `${PARTNER}/${block}/typ:zip`, country: `${PARTNER}/${block}/typ:country/typ:ids`,
  phone: `${PARTNER}/${block}/typ:phone`, email: `${PARTNER}/${block}/typ:email`,
});
const SHIP_TO = addressOf('typ:shipToAddress');
const ADDRESS = addressOf('typ:address');
const MOBILE = `${PARTNER}/typ:address/typ:mobilPhone`;
const HOME_TOTALS = ['typ:priceNone', 'typ:priceLowSum', 'typ:priceHighSum', 'typ:price3Sum', 'typ:round/typ:priceRound'].map((p) => `${HOME}/${p}`);

/** Order columns: element paths under ord:order, as the schemas name them. */
const ORDER_COLUMNS = [
  `${HEADER}/ord:numberOrder`, `${HEADER}/ord:number/typ:numberRequested`,
  ...new Set([...Object.values(ADDRESS), MOBILE, ...Object.values(SHIP_TO)]),
  `${HEADER}/ord:paymentType/typ:paymentType`, `${HEADER}/ord:paymentType/typ:ids`,
  ...HOME_TOTALS, `${FOREIGN}/typ:currency/typ:ids`, `${FOREIGN}/typ:priceSum`,
];
const ITEM_COLUMNS = [`${ITEM}/ord:text`, `${ITEM}/ord:quantity`];

/** One row per order line (ord:orderItem), each with the order's values; one row for an order without lines. */
function rowsOfOrder(order: XmlNode, startOf: (node: XmlNode) => number | undefined): XmlRow[] {
  const values = Object.fromEntries(ORDER_COLUMNS.map((column) => [column, textAt(order, localNames(column))]));
  const items = children(child(order, 'orderDetail'), 'orderItem');
  if (items.length === 0) return [{ at: 0, values }];
  return items.map((item) => ({
    at: startOf(item) ?? 0,
    values: { ...values, ...Object.fromEntries(ITEM_COLUMNS.map((column) => [column, textAt(item, localNames(column).slice(2))])) },
  }));
}

export const pohoda: MappingPreset = {
  name: 'pohoda',
  columns: {},
  defaults: {},
  rowsAre: 'items',
  xml: {
    title: 'a POHODA data pack (dat:dataPack) or POHODA export (rsp:responsePack) of orders',
    orderPaths: ['dataPack/dataPackItem/order', 'responsePack/responsePackItem/listOrder/order'],
    columns: [...ORDER_COLUMNS, ...ITEM_COLUMNS],
    rowsOf: rowsOfOrder,
  },
  derivation: {
    fields: ['reference_number', ...RECIPIENT_FIELDS, ...COD_FIELDS],
    derive(row) {
      const recipient = recipientFrom(row, [SHIP_TO, ADDRESS]);
      recipient.recipient_contact_phone_number = firstFilled(row, [SHIP_TO.phone, MOBILE, ADDRESS.phone]);
      const paidOnDelivery = row.value(`${HEADER}/ord:paymentType/typ:paymentType`) === 'delivery'
        || namesCashOnDelivery(row.value(`${HEADER}/ord:paymentType/typ:ids`));
      const foreign = firstFilled(row, [`${FOREIGN}/typ:priceSum`]);
      const homeColumns = HOME_TOTALS.filter((column) => row.value(column) !== '');
      const home = homeColumns.length === 0 ? undefined
        : { text: amountText(homeColumns.reduce((sum, column) => sum + (row.number(column) ?? 0), 0)), column: homeColumns[0]! };
      const currency = foreign ? firstFilled(row, [`${FOREIGN}/typ:currency/typ:ids`]) : undefined;
      return {
        reference_number: firstFilled(row, [`${HEADER}/ord:numberOrder`, `${HEADER}/ord:number/typ:numberRequested`]),
        ...recipient,
        ...cashOnDelivery(paidOnDelivery, foreign ?? home, currency, recipient.destination_address_country_code),
      };
    },
  },
};
