import {
  cashOnDelivery, children, countryCodeOf, COD_FIELDS, firstFilled, localNames, namesCashOnDelivery, recipientFrom, RECIPIENT_FIELDS, textAt,
  type AddressColumns,
} from './common.js';
import type { DerivedValue, FileRow, MappingPreset, XmlNode, XmlRow } from './types.js';

// Source: the XML schemas Money S3 installs for its XML transfers (XMLDE\Schemas: _Document.xsd MoneyData/SeznamObjPrij/ObjPrij, __Objedn.xsd objednavkaType and polObjednType, __Firma.xsd dokladFirmaType, konecPrijFirmaType, adresaType, telefonType), public in a copy from Money S3 20.201 at github.com/Masa331/money_xsd. Money S3 writes its XML in Windows-1250. [inferred] PlatPodm (the order's payment terms, named by each agenda) names cash on delivery ("Dobírka"); FyzOsoba of the customer tells a person's name from a company's; Polozka/Hmotnost is the weight of the whole line, in kg (as the Intrastat mass of stock documents).

const addressOf = (party: 'KonecPrij' | 'DodOdb', named: 'Nazev' | 'ObchNazev', address: 'Adresa' | 'ObchAdresa'): AddressColumns => ({
  name: `${party}/${named}`, street: `${party}/${address}/Ulice`, city: `${party}/${address}/Misto`, postalCode: `${party}/${address}/PSC`,
  country: `${party}/${address}/KodStatu`, email: `${party}/EMail`,
});
/** The final recipient (konečný příjemce) before the customer: the delivery address of an order. */
const BLOCKS = [addressOf('KonecPrij', 'Nazev', 'Adresa'), addressOf('DodOdb', 'ObchNazev', 'ObchAdresa')];
const STATE_NAMES = ['KonecPrij/Adresa/Stat', 'DodOdb/ObchAdresa/Stat'];
/** Phones as Money S3 keeps them: a prefix (`+420`) apart from the number; a mobile first. */
const PHONES = ['KonecPrij/Mobil', 'KonecPrij/Tel', 'DodOdb/Mobil', 'DodOdb/Tel'];

const ORDER_COLUMNS = [
  'PrimDoklad', 'Doklad', 'PlatPodm', 'Doprava', 'Celkem', 'Valuty/Mena/Kod', 'Valuty/Celkem', 'DodOdb/FyzOsoba',
  ...BLOCKS.flatMap((b) => Object.values(b) as string[]), ...STATE_NAMES, ...PHONES.flatMap((p) => [`${p}/Pred`, `${p}/Cislo`]),
];
const ITEM_COLUMNS = ['Polozka/Popis', 'Polozka/PocetMJ', 'Polozka/Hmotnost'];

function rowsOfOrder(order: XmlNode, startOf: (node: XmlNode) => number | undefined): XmlRow[] {
  const values = Object.fromEntries(ORDER_COLUMNS.map((column) => [column, textAt(order, localNames(column))]));
  const items = children(order, 'Polozka');
  if (items.length === 0) return [{ at: 0, values }];
  return items.map((item) => ({
    at: startOf(item) ?? 0,
    values: { ...values, ...Object.fromEntries(ITEM_COLUMNS.map((column) => [column, textAt(item, localNames(column).slice(1))])) },
  }));
}

function phoneOf(row: FileRow): DerivedValue | undefined {
  for (const phone of PHONES) {
    const number = firstFilled(row, [`${phone}/Cislo`]);
    if (number) return { text: [row.value(`${phone}/Pred`), number.text].filter(Boolean).join(' '), column: number.column };
  }
  return undefined;
}

export const moneyS3: MappingPreset = {
  name: 'money-s3',
  columns: { 'Polozka/Hmotnost': 'parcel_weight_amount' },
  defaults: {},
  rowsAre: 'items',
  summed: ['parcel_weight_amount'],
  xml: {
    title: 'a Money S3 XML file of received orders (MoneyData with SeznamObjPrij)',
    orderPaths: ['MoneyData/SeznamObjPrij/ObjPrij'],
    columns: [...ORDER_COLUMNS, ...ITEM_COLUMNS],
    rowsOf: rowsOfOrder,
  },
  derivation: {
    fields: ['reference_number', ...RECIPIENT_FIELDS, ...COD_FIELDS],
    derive(row) {
      const person = ['true', '1'].includes(row.value('DodOdb/FyzOsoba').toLowerCase());
      const blocks = BLOCKS.map(({ name, ...rest }) => (person ? { name, ...rest } : { company: name, ...rest }));
      const recipient = recipientFrom(row, blocks);
      const chosen = blocks.findIndex((b) => firstFilled(row, [b.street, b.city, b.postalCode]));
      if (!recipient.destination_address_country_code) {
        const state = firstFilled(row, [STATE_NAMES[Math.max(chosen, 0)]]);
        if (state) recipient.destination_address_country_code = { text: countryCodeOf(state.text), column: state.column };
      }
      recipient.recipient_contact_phone_number = phoneOf(row);
      const foreign = firstFilled(row, ['Valuty/Celkem']);
      const currency = foreign ? firstFilled(row, ['Valuty/Mena/Kod']) : undefined;
      return {
        reference_number: firstFilled(row, ['PrimDoklad', 'Doklad']),
        ...recipient,
        ...cashOnDelivery(namesCashOnDelivery(row.value('PlatPodm')), foreign ?? firstFilled(row, ['Celkem']), currency, recipient.destination_address_country_code),
      };
    },
  },
};
