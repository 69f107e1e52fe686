import { isCalendarDate } from './calendar-date.js';
import type { FieldErrorCollector } from './errors.js';
import { toMinorUnits } from './money.js';
import { COUNTRY_CODES, CURRENCY_CODES } from './reference-data.js';
import { isObject } from './values.js';

/** Incoterms 2020 (ICC): who carries the goods' risk and costs, duties and taxes included, and where. */
export const INCOTERMS: readonly string[] = ['EXW', 'FCA', 'CPT', 'CIP', 'DAP', 'DPU', 'DDP', 'FAS', 'FOB', 'CFR', 'CIF'];

/** The member states of the EU (TEU Art. 52): one customs territory and one VAT area, but for the places below. */
const EU_MEMBER_STATES = new Set('AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '));

/**
 * A place whose customs or VAT border is not its country's: the country code as an address writes it, its postal codes
 * (compared as digits, or for lettered postcodes in upper case without spaces), and the territory goods cross into there.
 */
interface TerritoryRow { country: string; digits?: RegExp; letters?: RegExp; territory: string }

/**
 * Where goods need a customs declaration to enter, as the carriers treat the places: outside the EU customs territory
 * (Union Customs Code, Regulation 952/2013 Art. 4) or outside the EU VAT area though inside it (VAT Directive 2006/112
 * Art. 6), carriers ask for a declaration and an invoice. Carriers' pages: DPD's "EU exclusion zones"
 * (dpd.com/pl/en/faq/die-ausfuhr-zollpflichtiger-waren), DHL Express on San Marino
 * (dhlexpress.nl/en/helpdesk/customs/changes/san-marino), DHL Parcel PL on Northern Ireland (dhl24.com.pl/strona/4-20-38.html).
 * A country not named here is the EU when a member state, else a territory of its own by its code.
 */
const TERRITORIES: readonly TerritoryRow[] = [
  { country: 'ES', digits: /^(35|38)\d{3}$/, territory: 'ES-CN' }, // Canary Islands (Las Palmas 35, Santa Cruz de Tenerife 38): outside VAT, Directive 2006/112 Art. 6(1)(b); DPD's list
  { country: 'ES', digits: /^51\d{3}$/, territory: 'ES-CE' }, // Ceuta: outside the customs territory, Regulation 952/2013 Art. 4(1); Directive 2006/112 Art. 6(2)(c)
  { country: 'ES', digits: /^52\d{3}$/, territory: 'ES-ML' }, // Melilla: Regulation 952/2013 Art. 4(1); Directive 2006/112 Art. 6(2)(d)
  { country: 'FI', digits: /^22\d{3}$/, territory: 'AX' }, // Åland (Mariehamn 22100), also written AX: outside VAT, Directive 2006/112 Art. 6(1)(d); DPD's list
  { country: 'DE', digits: /^78266$/, territory: 'CH' }, // Büsingen: outside Regulation 952/2013 Art. 4(1), inside Swiss customs and VAT by the treaty of 23 November 1964
  { country: 'DE', digits: /^27498$/, territory: 'DE-HELGOLAND' }, // Heligoland: Regulation 952/2013 Art. 4(1); Directive 2006/112 Art. 6(2)(a)
  { country: 'IT', digits: /^23041$/, territory: 'IT-LIVIGNO' }, // Livigno: Regulation 952/2013 Art. 4(1); Directive 2006/112 Art. 6(2)(e)
  { country: 'IT', digits: /^22061$/, territory: 'IT-CAMPIONE' }, // Campione d'Italia: customs territory since 2020 (Regulation 2019/474), outside VAT, Directive 2006/112 Art. 6(1)(f)
  { country: 'IT', digits: /^00120$/, territory: 'VA' }, // Vatican City written with its Italian postal code: no customs union with the EU
  { country: 'IT', digits: /^4789\d$/, territory: 'SM' }, // San Marino written with its Italian postal code: in a customs union with the EU, yet with VAT of its own, and DHL Express ships it dutiable with an invoice (T2L)
  { country: 'GR', digits: /^6308[67]$/, territory: 'GR-ATHOS' }, // Mount Athos: outside VAT, Directive 2006/112 Art. 6(1)(a); DPD's list
  { country: 'FR', digits: /^97133$/, territory: 'BL' }, // Saint Barthélemy (a postal code of Guadeloupe's range): overseas territory since 2012, outside Regulation 952/2013 Art. 4(1)
  { country: 'FR', digits: /^97150$/, territory: 'MF' }, // Saint Martin (likewise): outermost region (TFEU Art. 349), outside VAT, Directive 2006/112 Art. 6(1)(c)
  { country: 'FR', digits: /^971\d{2}$/, territory: 'GP' }, // Guadeloupe: outermost region (TFEU Art. 349), outside VAT, Directive 2006/112 Art. 6(1)(c)
  { country: 'FR', digits: /^972\d{2}$/, territory: 'MQ' }, // Martinique: likewise
  { country: 'FR', digits: /^973\d{2}$/, territory: 'GF' }, // French Guiana: likewise
  { country: 'FR', digits: /^974\d{2}$/, territory: 'RE' }, // Réunion: likewise
  { country: 'FR', digits: /^975\d{2}$/, territory: 'PM' }, // Saint Pierre and Miquelon: overseas territory (TFEU Art. 355(2)), outside Regulation 952/2013 Art. 4(1)
  { country: 'FR', digits: /^976\d{2}$/, territory: 'YT' }, // Mayotte: outermost region, outside VAT, Directive 2006/112 Art. 6(1)(c)
  { country: 'FR', digits: /^986\d{2}$/, territory: 'WF' }, // Wallis and Futuna: overseas territory, outside Regulation 952/2013 Art. 4(1)
  { country: 'FR', digits: /^987\d{2}$/, territory: 'PF' }, // French Polynesia: likewise
  { country: 'FR', digits: /^988\d{2}$/, territory: 'NC' }, // New Caledonia: likewise
  { country: 'GB', letters: /^BT\d/, territory: 'EU' }, // Northern Ireland: EU rules for goods (Windsor Framework); DHL Parcel PL takes GB with a BT postcode without customs clearance
  { country: 'GB', letters: /^JE\d/, territory: 'JE' }, // Jersey written as GB: outside UK VAT, declarations from GB too (DPD's list: Channel Islands)
  { country: 'GB', letters: /^GY\d/, territory: 'GG' }, // Guernsey written as GB: likewise
  { country: 'MC', territory: 'EU' }, // Monaco: in the customs territory through France, Regulation 952/2013 Art. 4(2)(a); Directive 2006/112 Art. 7
  { country: 'IM', territory: 'GB' }, // Isle of Man: in the UK's customs and VAT territory (Directive 2006/112 Art. 7 counts it with the UK)
  { country: 'LI', territory: 'CH' }, // Liechtenstein: in the Swiss customs territory by the customs treaty of 29 March 1923
];

/** The customs territory an address lies in: 'EU' for the EU customs union, else a code of the territory. */
export function customsTerritory(address: { countryCode: string; postalCode: string }): string {
  const country = address.countryCode.trim().toUpperCase();
  const digits = address.postalCode.replace(/\D/g, '');
  const letters = address.postalCode.toUpperCase().replace(/[^0-9A-Z]/g, '');
  const row = TERRITORIES.find((r) => r.country === country
    && (r.digits === undefined || r.digits.test(digits)) && (r.letters === undefined || r.letters.test(letters)));
  if (row) return row.territory;
  return EU_MEMBER_STATES.has(country) ? 'EU' : country;
}

/** Whether goods from `origin` to `destination` cross a customs border (need a declaration). */
export function crossesCustomsBorder(origin: { countryCode: string; postalCode: string }, destination: { countryCode: string; postalCode: string }): boolean {
  return customsTerritory(origin) !== customsTerritory(destination);
}

/** What the goods are, for customs. */
export const CUSTOMS_CONTENTS_TYPES = ['sale', 'gift', 'sample', 'documents', 'return', 'other'] as const;
export type CustomsContentsType = (typeof CUSTOMS_CONTENTS_TYPES)[number];

/** The customs documents kept with a shipment (a PDF each): the carrier's, or packdesk's commercial invoice. */
export const CUSTOMS_DOCUMENT_TYPES = ['commercial_invoice', 'cn23', 'proforma_invoice'] as const;
export type CustomsDocumentType = (typeof CUSTOMS_DOCUMENT_TYPES)[number];

/** The API's customs body (snake_case, as POST /v1/shipments takes it; shape already checked by the JSON schema). */
export interface CustomsInput {
  contents_type: CustomsContentsType;
  incoterm?: string;
  invoice_number?: string;
  invoice_date?: string;
  currency?: string;
  exporter_eori?: string;
  exporter_vat_number?: string;
  importer_tax_id?: string;
  items: { description: string; hs_code?: string; quantity: number; unit_value: number; unit_weight: number; origin_country: string; sku?: string }[];
}

/** How people write HS codes: digits in groups parted by spaces or dots (`8471.30 00`). */
const HS_CODE_AS_WRITTEN = /^\d[\d\s.]*$/;

/** The normalised HS code (digits only) */
export function hsCodeDigits(hsCode: string): string {
  return hsCode.replace(/\D/g, '');
}

const grams = (kg: number) => Math.round(kg * 1000);

/**
 * Adds to `errors` what is wrong with the declaration itself (HS codes, origins, incoterm, currency, invoice date,
 * values, quantities) and what does not add up with the shipment (the items weigh more than the parcels). A value
 * of the wrong type is the JSON schema's to report (handlers run with its errors collected): it is passed over here.
 */
export function checkCustoms(customs: unknown, parcelsWeightKg: number, errors: FieldErrorCollector, path = 'customs'): void {
  if (!isObject(customs)) return;
  const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const incoterm = text(customs.incoterm);
  if (incoterm !== undefined && !INCOTERMS.includes(incoterm)) {
    errors.add(`${path}.incoterm`, `must be an Incoterms 2020 code: ${INCOTERMS.join(', ')} (DAP: the recipient pays duties and taxes, DDP: the sender)`);
  }
  const currency = text(customs.currency);
  if (currency !== undefined && !CURRENCY_CODES.has(currency)) {
    errors.add(`${path}.currency`, 'must be an ISO 4217 currency code in upper case (e.g. CZK)');
  }
  const invoiceDate = text(customs.invoice_date);
  if (invoiceDate !== undefined && !isCalendarDate(invoiceDate)) {
    errors.add(`${path}.invoice_date`, 'must be a date YYYY-MM-DD');
  }
  const goods = customs.contents_type !== 'documents';
  const items = Array.isArray(customs.items) ? customs.items : [];
  let itemsWeightKg = 0;
  items.forEach((item: unknown, i) => {
    if (!isObject(item)) return;
    const at = `${path}.items.${i}`;
    const hsCode = text(item.hs_code)?.trim() ?? '';
    if (hsCode === '') {
      if (goods) errors.add(`${at}.hs_code`, 'is required for goods: the HS code of 6 to 10 digits from the customs tariff (like 6109 10 00 for cotton T-shirts)');
    } else if (!HS_CODE_AS_WRITTEN.test(hsCode) || !/^\d{6,10}$/.test(hsCodeDigits(hsCode))) {
      errors.add(`${at}.hs_code`, 'must be an HS code of 6 to 10 digits, spaces and dots allowed (like 8471.30 or 8471 30 00)');
    }
    const origin = text(item.origin_country);
    if (origin !== undefined && !COUNTRY_CODES.has(origin)) {
      errors.add(`${at}.origin_country`, 'must be the ISO 3166-1 alpha-2 code of the country the goods were made in (e.g. CZ)');
    }
    const { quantity, unit_value: unitValue, unit_weight: unitWeight } = item;
    if (typeof quantity === 'number' && (!Number.isInteger(quantity) || quantity < 1)) errors.add(`${at}.quantity`, 'must be a whole number of pieces, 1 or more');
    if (typeof unitValue === 'number' && toMinorUnits(unitValue) === undefined) errors.add(`${at}.unit_value`, 'must have at most 2 decimals');
    itemsWeightKg += typeof quantity === 'number' && typeof unitWeight === 'number' ? quantity * unitWeight : 0;
  });
  if (Number.isFinite(itemsWeightKg) && grams(itemsWeightKg) > grams(parcelsWeightKg)) {
    errors.add(`${path}.items`, `the items weigh ${grams(itemsWeightKg) / 1000} kg (quantity × unit_weight), more than the parcels' ${grams(parcelsWeightKg) / 1000} kg: check the unit weights (kg per piece) and quantities`);
  }
}
