/** ISO 3166-1 alpha-2 country codes (officially assigned). */
export const COUNTRY_CODES = new Set((
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
  'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
  'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
  'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
  'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' '));

/** ISO 4217 currency codes packdesk accepts for prices and cash on delivery. */
export const CURRENCY_CODES = new Set((
  'AED ARS AUD BAM BGN BRL CAD CHF CLP CNY COP CZK DKK EGP EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MAD MDL MKD MXN MYR ' +
  'NOK NZD PEN PHP PLN RON RSD RUB SAR SEK SGD THB TRY TWD UAH USD VND ZAR'
).split(' '));

const countriesPaying = (currency: string, countries: string) => Object.fromEntries(countries.split(' ').map((c) => [c, currency]));

/**
 * The currency cash on delivery is most likely paid in, by destination country: the countries the carriers of packdesk
 * deliver to (central Europe, the EU, Iberia, Italy, DHL Express beyond).
 */
const USUAL_CURRENCY: Readonly<Record<string, string>> = {
  ...countriesPaying('EUR', 'AD AT BE BG CY DE EE ES FI FR GR HR IE IT LT LU LV MC MT NL PT SI SK SM'),
  ...countriesPaying('CHF', 'CH LI'),
  ...countriesPaying('CAD', 'CA'),
  ...countriesPaying('CZK', 'CZ'),
  ...countriesPaying('DKK', 'DK'),
  ...countriesPaying('GBP', 'GB'),
  ...countriesPaying('HUF', 'HU'),
  ...countriesPaying('NOK', 'NO'),
  ...countriesPaying('PLN', 'PL'),
  ...countriesPaying('RON', 'RO'),
  ...countriesPaying('RSD', 'RS'),
  ...countriesPaying('SEK', 'SE'),
  ...countriesPaying('UAH', 'UA'),
  ...countriesPaying('USD', 'US'),
};

export function usualCurrency(country: unknown): string | undefined {
  return typeof country === 'string' ? USUAL_CURRENCY[country.trim().toUpperCase()] : undefined;
}
