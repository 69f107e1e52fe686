/**
 * adePreparingBox_Insert checks of the ADE emulator: first the element names of the WSDL's types (an element the
 * schema lacks is a Client fault, not a consignment), then ADE's own checks, answered as ADE answers them: a SOAP
 * Fault whose faultcode is the `err_*` code and whose faultstring is ADE's wording (the codes and Polish texts
 * listed in github.com/dbojdo/gls-ade src/Api/Exception/GlsAdeApiException.php).
 */
import { EmulatedSoapFault } from '../emulator/soap.js';
import { xmlList, xmlObject, xmlString, type XmlNode, type XmlObject } from '../soap.js';

// The element names of cConsign, cServicesBool, cSenderAddress, cParcelsArray and cParcel (fixtures/schema/create-request.xsd).
const CONSIGN = ['rname1', 'rname2', 'rname3', 'rcountry', 'rzipcode', 'rcity', 'rstreet', 'rphone', 'rcontact', 'references', 'notes',
  'quantity', 'weight', 'date', 'pfc', 'sendaddr', 'srv_ade', 'srv_bool', 'srv_daw', 'srv_ident', 'srv_ppe', 'srv_sds', 'parcels'];
const SERVICES = ['cod', 'cod_amount', 'exw', 'rod', 'pod', 'exc', 'ident', 'daw', 'ps', 'pr', 's10', 's12', 'sat', 'ow', 'srs', 'sds',
  'cdx', 'cdx_amount', 'cdx_currency', 'ado'];
const SENDER = ['name1', 'name2', 'name3', 'country', 'zipcode', 'city', 'street'];
const PARCEL = ['number', 'reference', 'weight', 'srv_ade', 'srv_bool'];
const PPE = ['sname1', 'sname2', 'sname3', 'scountry', 'szipcode', 'scity', 'sstreet', 'sphone', 'scontact',
  'rname1', 'rname2', 'rname3', 'rcountry', 'rzipcode', 'rcity', 'rstreet', 'rphone', 'rcontact', 'references', 'weight'];
/** PR, PS, EXC and SRS exclude one another (ADE's s_srv_ppe: "Usługi te wzajemnie się wykluczają"). */
const PPE_SERVICES = ['pr', 'ps', 'exc', 'srs'];
const SDS = ['id', 'name1', 'name2', 'name3', 'country', 'zipcode', 'city', 'street', 'phone', 'email', 'gps_lati', 'gps_long',
  ...['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].flatMap((d) => [`${d}_open`, `${d}_close`])];

/** The heaviest parcel the emulated account may send (what its adeServices_GetMaxParcelWeights answers). */
export const MAX_PARCEL_KG = 31.5;
/** The largest cash-on-delivery amount of the emulated account (its adeServices_GetMaxCOD). */
export const MAX_COD_PLN = 11000;

const TEXTS: Record<string, string> = {
  err_cons_receiver_name1_empty: 'Nazwa 1 odbiorcy jest pusta.',
  err_cons_receiver_country_empty: 'Kod kraju odbiorcy jest pusty.',
  err_cons_receiver_country_code_is_invalid: 'Kod kraju odbiorcy jest niepoprawny.',
  err_cons_receiver_zipcode_empty: 'Kod pocztowy obiorcy jest pusty.',
  err_cons_receiver_zipcode_is_invalid: 'Kod pocztowy odbiorcy jest niepoprawny.',
  err_cons_receiver_zipcode_format_is_invalid: 'Format kod pocztowego odbiorcy jest nieprawidłowy.',
  err_cons_receiver_city_empty: 'Miejscowość odbiorcy jest pusta.',
  err_cons_receiver_street_empty: 'Ulica odbiorcu jest pusta.',
  err_cons_number_of_parcels_is_incorrect: 'Liczba paczek w przesyłce jest nieprawidłowa.',
  err_cons_weight_is_not_a_number: 'Waga przesyłki nie jest liczbą.',
  err_cons_weight_is_less_than_zero: 'Waga przesyłki jest mniejsza niż zero. Waga pojedynczej paczki nie może być mniejsza od 0,01kg (10g).',
  err_cons_weight_of_parcel_is_to_large: 'Waga paczki jest za duża. Informacje o wagach maksymalnych dostępne są metodą adeParcel_GetMaxWeights.',
  err_cons_srv_amount_of_cod_is_incorrect: 'Kwota usługi COD jest nieprawidłowa.',
  err_cons_srv_amount_of_cod_is_too_large: 'Kwota usługi COD jest za duża. Maksymalną wartość można uzyskać metodą adeServices_GetMaxCOD.',
  err_date_is_invalid: 'Data nadania jest nieprawidłowa',
  err_cons_srv_incorrect_combination_of_services: 'Nieprawidłowa kombinacja serwisów.',
  err_cons_srv_srs_both_addresses_must_be_in_poland: 'Usługa SRS - Oba adresy (adres odsyłającego towar i adres odbiorcy SRS) muszą być na terytorium Polski.',
  err_cons_srv_srs_sendback_name1_empty: 'Usługa SRS - Pole Nazwa 1 odsyłającego towar jest puste.',
  err_cons_srv_srs_sendback_country_empty: 'Usługa SRS - Kod kraju odsyłającego towar jest pusty.',
  err_cons_srv_srs_sendback_zipcode_empty: 'Usługa SRS - Kod pocztowy odsyłającego towar jest pusty.',
  err_cons_srv_srs_sendback_city_empty: 'Usługa SRS - Miejscowość odsyłającego towar jest pusta.',
  err_cons_srv_srs_sendback_street_empty: 'Usługa SRS - Ulica odsyłającego towar jest pusta.',
  err_cons_srv_srs_rec_name1_empty: 'Usługa SRS - Imię i nazwisko odbiorcy jest puste.',
  err_cons_srv_srs_rec_country_empty: 'Usługa SRS - Kod kraju odbiorcy jest pusty.',
  err_cons_srv_srs_rec_zipcode_empty: 'Usługa SRS - Kod pocztowy odbiorcy jest pusty.',
  err_cons_srv_srs_rec_city_empty: 'Usługa SRS - Miejscowość odbiorcy jest pusta.',
  err_cons_srv_srs_rec_street_empty: 'Usługa SRS - Ulica odbiorcy jest pusta.',
  // the ParcelShop faults (codes and wording) are inferred: no public source lists them
  err_cons_srv_sds_id_empty: 'Identyfikator punktu ParcelShop jest pusty.',
  err_cons_srv_sds_id_is_invalid: 'Punkt ParcelShop o podanym identyfikatorze nie istnieje lub nie przyjmuje paczek.',
  err_cons_srv_sds_with_cod: 'Usługa COD nie jest dostępna z doręczeniem do punktu ParcelShop.',
  err_parcelshop_not_found: 'Punkt ParcelShop nie został znaleziony.',
  err_cons_not_found: 'Przesyłka nie została znaleziona.',
  // the wording of the two pickup faults is inferred: dbojdo/gls-ade lists their codes only
  err_pickup_not_found: 'Potwierdzenie nadania nie zostało znalezione.',
  err_pickup_make_problem: 'Problem z utworzeniem potwierdzenia nadania.',
  err_sess_not_found: 'Identyfikator sesji nie został znaleziony. Uzyskanie nowego identyfikatora możliwe jest tylko za pomocą funkcji logowania do systemu.',
};

export function adeFault(code: keyof typeof TEXTS | string): EmulatedSoapFault {
  return new EmulatedSoapFault(code, TEXTS[code] ?? code);
}

export interface SeenParcel {
  weightKg: number;
  reference?: string;
}

/** A consignment the emulator accepted, as it keeps it. */
export interface SeenConsign {
  fields: XmlObject;
  parcels: SeenParcel[];
  cod: number | null;
  /** The delivery flags set in srv_bool (s10, s12, sat, srs, sds). */
  services: string[];
  /** The ParcelShop of an `sds` consignment (srv_sds.id). */
  parcelShop: string | null;
  /** The customer sending a ShopReturn-Service parcel back (srv_ppe s…), as the label prints it. */
  returnedBy: string[] | null;
}

/** An element the operation's WSDL type lacks is refused as PHP's SoapServer refuses it, before ADE reads anything. */
export function checkNames(node: XmlNode | undefined, allowed: readonly string[], at: string): void {
  for (const name of Object.keys(xmlObject(node))) {
    if (!allowed.includes(name)) throw new EmulatedSoapFault('Client', `SOAP-ERROR: Encoding: element '${name}' is not part of ${at}`);
  }
}

const isOn = (value: XmlNode | undefined) => value === '1' || value === 'true';
const text = (node: XmlNode | undefined) => (xmlString(node) ?? '').trim();

/** The consign_prep_data of an adePreparingBox_Insert, checked against the open ParcelShops; throws the fault ADE would answer. */
export function readConsign(consignNode: XmlNode | undefined, isOpenShop: (id: string) => boolean): SeenConsign {
  if (consignNode === undefined) throw new EmulatedSoapFault('Client', 'SOAP-ERROR: Encoding: object has no \'consign_prep_data\' property');
  const c = xmlObject(consignNode);
  checkNames(c, CONSIGN, 'cConsign');
  checkNames(c.srv_bool, SERVICES, 'cServicesBool');
  checkNames(c.sendaddr, SENDER, 'cSenderAddress');
  checkNames(c.srv_sds, SDS, 'cServiceSDS');
  checkNames(c.srv_ppe, PPE, 'cServicePPE');
  checkNames(c.parcels, ['items'], 'cParcelsArray');
  const items = xmlList(xmlObject(c.parcels).items);
  for (const item of items) checkNames(item, PARCEL, 'cParcel');

  if (!text(c.rname1)) throw adeFault('err_cons_receiver_name1_empty');
  if (!text(c.rcountry)) throw adeFault('err_cons_receiver_country_empty');
  if (!/^[A-Z]{2}$/.test(text(c.rcountry))) throw adeFault('err_cons_receiver_country_code_is_invalid');
  const zip = text(c.rzipcode);
  if (!zip) throw adeFault('err_cons_receiver_zipcode_empty');
  if (text(c.rcountry) === 'PL' && !/^\d{2}-?\d{3}$/.test(zip)) throw adeFault('err_cons_receiver_zipcode_format_is_invalid');
  if (/^0{2}-?0{3}$/.test(zip)) throw adeFault('err_cons_receiver_zipcode_is_invalid');
  if (!text(c.rcity)) throw adeFault('err_cons_receiver_city_empty');
  if (!text(c.rstreet)) throw adeFault('err_cons_receiver_street_empty');
  if (c.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(text(c.date))) throw adeFault('err_date_is_invalid');

  if (items.length === 0) throw adeFault('err_cons_number_of_parcels_is_incorrect');
  const parcels = items.map((item): SeenParcel => {
    const p = xmlObject(item);
    const weight = Number(text(p.weight));
    if (text(p.weight) === '' || Number.isNaN(weight)) throw adeFault('err_cons_weight_is_not_a_number');
    if (weight < 0.01) throw adeFault('err_cons_weight_is_less_than_zero');
    if (weight > MAX_PARCEL_KG) throw adeFault('err_cons_weight_of_parcel_is_to_large');
    return { weightKg: weight, ...(text(p.reference) ? { reference: text(p.reference) } : {}) };
  });

  const services = xmlObject(c.srv_bool);
  let cod: number | null = null;
  if (isOn(services.cod)) {
    cod = Number(text(services.cod_amount));
    if (!(cod > 0)) throw adeFault('err_cons_srv_amount_of_cod_is_incorrect');
    if (cod > MAX_COD_PLN) throw adeFault('err_cons_srv_amount_of_cod_is_too_large');
  }
  let parcelShop: string | null = null;
  if (isOn(services.sds)) {
    parcelShop = text(xmlObject(c.srv_sds).id);
    if (!parcelShop) throw adeFault('err_cons_srv_sds_id_empty');
    if (!isOpenShop(parcelShop)) throw adeFault('err_cons_srv_sds_id_is_invalid');
    if (cod !== null) throw adeFault('err_cons_srv_sds_with_cod');
  }
  if (PPE_SERVICES.filter((flag) => isOn(services[flag])).length > 1) throw adeFault('err_cons_srv_incorrect_combination_of_services');
  const returnedBy = isOn(services.srs) ? readShopReturn(xmlObject(c.srv_ppe)) : null;
  return { fields: c, parcels, cod, services: ['s10', 's12', 'sat', 'srs', 'sds'].filter((flag) => isOn(services[flag])), parcelShop, returnedBy };
}

/** srv_ppe of a ShopReturn-Service: both parties complete and in Poland (ADE's err_cons_srv_srs_* faults); the sender's label lines. */
function readShopReturn(ppe: XmlObject): string[] {
  for (const [side, prefix] of [['s', 'sendback'], ['r', 'rec']] as const) {
    for (const field of ['name1', 'country', 'zipcode', 'city', 'street']) {
      if (!text(ppe[`${side}${field}`])) throw adeFault(`err_cons_srv_srs_${prefix}_${field}_empty`);
    }
  }
  if (text(ppe.scountry) !== 'PL' || text(ppe.rcountry) !== 'PL') throw adeFault('err_cons_srv_srs_both_addresses_must_be_in_poland');
  return [text(ppe.sname1), text(ppe.sname2), text(ppe.sstreet), `${text(ppe.szipcode)} ${text(ppe.scity)}`, text(ppe.scountry)].filter(Boolean);
}
