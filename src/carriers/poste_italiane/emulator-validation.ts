/**
 * How the emulated Poste Delivery Business checks a waybill request, field by field as the manual describes them
 * (mlocati/MLPosteDeliveryExpress `Library/Waybill/Request/*.cs` comments and limits). Poste names the field it
 * refuses by its request path, e.g. "Dati obbligatori mancanti: waybills[].data.services". The error numbers
 * follow the ranges Poste gives for its answers (1xx formal, 2xx business); the exact numbers are not published.
 */
import { POSTE_COD_PAYMENT_MODES, POSTE_PDF_FORMATS, POSTE_POINT_SERVICES, POSTE_SERVICES, POSTE_ZPL_FORMAT } from './codes.js';
import type { PosteDeliveryPoints } from './emulator-points.js';

export interface PosteRefusal {
  errorCode: number;
  errorDescription: string;
}

export interface EmulatedPosteAddress {
  nameSurname: string;
  contactName?: string;
  address: string;
  streetNumber?: string;
  zipCode: string;
  city: string;
  province?: string;
  country: string;
  phone?: string;
  email?: string;
  note1?: string;
}

export interface EmulatedWaybill {
  costCenterCode: string;
  paperless: boolean;
  clientReferenceId: string;
  printFormat: string;
  product: string;
  weightsGrams: number[];
  services: Record<string, Record<string, string>>;
  cod?: { amount: string; paymentMode: string };
  sender: EmulatedPosteAddress;
  receiver: EmulatedPosteAddress;
}

const MISSING = 101;
const FORMAT = 102;
const NO_SUCH_POSTAL_CODE = 201;
const TOO_HEAVY = 202;
const NOT_OFFERED = 203;
const NO_SUCH_POINT = 204;
const POINT_FULL = 205;

const DOMESTIC_PRODUCTS = ['APT000901', 'APT000902'];
const INTERNATIONAL_PRODUCTS = ['APT000903', 'APT000904', 'APT001013'];
/** Services the emulator knows (a subset of Poste's list: the ones a plain parcel may carry). */
const KNOWN_SERVICES = new Set<string>([
  POSTE_SERVICES.cashOnDelivery, POSTE_SERVICES.multiParcel, 'APT000946', 'APT000910', 'APT000911', 'APT000919', 'APT000930',
  ...Object.values(POSTE_POINT_SERVICES).map((s) => s.service),
]);
const MAX_PARCEL_GRAMS = 30_000;
const PHONE = /^\+?\d{1,15}$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

class Refused extends Error {
  constructor(readonly refusal: PosteRefusal) {
    super(refusal.errorDescription);
  }
}

const missing = (path: string) => new Refused({ errorCode: MISSING, errorDescription: `Dati obbligatori mancanti: ${path}` });
const badFormat = (path: string) => new Refused({ errorCode: FORMAT, errorDescription: `Formato non valido: ${path}` });

function object(value: unknown, path: string): Record<string, unknown> {
  if (value === undefined || value === null) throw missing(path);
  if (typeof value !== 'object' || Array.isArray(value)) throw badFormat(path);
  return value as Record<string, unknown>;
}

/** A string field; `required` refuses an absent or empty one, `max` a longer one. */
function text(o: Record<string, unknown>, key: string, path: string, rule: { required?: boolean; max?: number } = {}): string {
  const value = o[key];
  const at = path ? `${path}.${key}` : key;
  if (value === undefined || value === null || value === '') {
    if (rule.required) throw missing(at);
    return '';
  }
  if (typeof value !== 'string' || (rule.max !== undefined && value.length > rule.max)) throw badFormat(at);
  return value;
}

function address(value: unknown, path: string, international: boolean): EmulatedPosteAddress {
  const o = object(value, path);
  const country = text(o, 'country', path, { required: true });
  if (!/^[A-Z]{3}[1-9]$/.test(country)) throw badFormat(`${path}.country`);
  const zipCode = text(o, 'zipCode', path, { required: true, max: 25 });
  if (country === 'ITA1') {
    if (!/^\d{5}$/.test(zipCode)) throw badFormat(`${path}.zipCode`);
    // Italian postal codes start at 00010
    if (Number(zipCode) < 10) throw new Refused({ errorCode: NO_SUCH_POSTAL_CODE, errorDescription: `CAP inesistente: ${path}.zipCode` });
  }
  const phone = text(o, 'phone', path, { required: international });
  for (const key of ['phone', 'cellphone']) if (o[key] && !PHONE.test(String(o[key]))) throw badFormat(`${path}.${key}`);
  const email = text(o, 'email', path, { required: international, max: 50 });
  if (email && !EMAIL.test(email)) throw badFormat(`${path}.email`);
  const province = text(o, 'province', path, { max: 2 });
  if (province && province.length !== 2) throw badFormat(`${path}.province`);
  return {
    nameSurname: text(o, 'nameSurname', path, { required: true, max: 35 }),
    contactName: text(o, 'contactName', path, { required: international, max: 35 }),
    address: text(o, 'address', path, { required: true, max: 40 }),
    streetNumber: text(o, 'streetNumber', path, { max: 4 }),
    zipCode,
    city: text(o, 'city', path, { required: true, max: 30 }),
    province,
    country,
    phone,
    email,
    note1: text(o, 'note1', path, { max: 20 }),
  };
}

/** `declared[]`: weight in grams and the three sides in centimetres, each a string of a whole number above 0. */
function weights(value: unknown, path: string): number[] {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) throw missing(`${path}[]`);
  if (!Array.isArray(value)) throw badFormat(`${path}[]`);
  return value.map((entry, i) => {
    const parcel = object(entry, `${path}[${i}]`);
    for (const key of ['weight', 'height', 'length', 'width']) {
      const v = parcel[key];
      if (v === undefined || v === null || v === '') throw missing(`${path}[].${key}`);
      if (typeof v !== 'string' || !/^[1-9]\d*$/.test(v)) throw badFormat(`${path}[${i}].${key}`);
    }
    return Number(parcel.weight);
  });
}

function services(value: unknown, path: string): EmulatedWaybill['services'] {
  const o = object(value, path);
  for (const [code, parameters] of Object.entries(o)) {
    if (!KNOWN_SERVICES.has(code)) throw new Refused({ errorCode: NOT_OFFERED, errorDescription: `Servizio accessorio non valido: ${path}.${code}` });
    object(parameters, `${path}.${code}`);
  }
  return o as EmulatedWaybill['services'];
}

/** A point service's `node` must name an open point of its type; a locker takes one parcel (DeliveryToLockerItaly.cs). */
function checkPoint(chosen: EmulatedWaybill['services'], parcels: number, points: PosteDeliveryPoints): void {
  const asked = Object.keys(chosen).filter((code) => points.typeOfService(code));
  if (asked.length > 1) throw new Refused({ errorCode: NOT_OFFERED, errorDescription: `Servizi accessori incompatibili: waybills[].data.services.${asked[1]}` });
  const [service] = asked;
  if (!service) return;
  const path = `waybills[].data.services.${service}.node`;
  const node = chosen[service]!.node;
  if (!node) throw missing(path);
  const point = points.get(node);
  if (!point || point.type !== points.typeOfService(service)) throw new Refused({ errorCode: NO_SUCH_POINT, errorDescription: `Punto di consegna ${node} inesistente: ${path}` });
  if (!point.open) throw new Refused({ errorCode: POINT_FULL, errorDescription: `Punto di consegna ${node} non disponibile: ${path}` });
  if (point.type === 'locker' && parcels > 1) throw new Refused({ errorCode: NOT_OFFERED, errorDescription: `Servizio non compatibile con più colli: waybills[].data.services.${service}` });
}

function check(body: unknown, points: PosteDeliveryPoints): EmulatedWaybill {
  const root = object(body, 'request');
  const costCenterCode = text(root, 'costCenterCode', '', { required: true, max: 20 });
  const paperless = text(root, 'paperless', '', { required: true });
  if (paperless !== 'true' && paperless !== 'false') throw badFormat('paperless');
  text(root, 'shipmentDate', '', { required: true });
  const list = root.waybills;
  if (!Array.isArray(list) || list.length === 0) throw missing('waybills[]');
  if (list.length > 1) throw badFormat('waybills[]');
  const waybill = object(list[0], 'waybills[]');
  const clientReferenceId = text(waybill, 'clientReferenceId', 'waybills[]', { max: 25 });
  const printFormat = text(waybill, 'printFormat', 'waybills[]', { required: true });
  if (![...POSTE_PDF_FORMATS, POSTE_ZPL_FORMAT].includes(printFormat as never)) throw badFormat('waybills[].printFormat');
  const product = text(waybill, 'product', 'waybills[]', { required: true });
  const international = INTERNATIONAL_PRODUCTS.includes(product);
  if (!international && !DOMESTIC_PRODUCTS.includes(product)) throw badFormat('waybills[].product');
  if (international && printFormat === POSTE_ZPL_FORMAT) throw new Refused({ errorCode: NOT_OFFERED, errorDescription: 'Formato di stampa non disponibile per il prodotto: waybills[].printFormat' });
  const data = object(waybill.data, 'waybills[].data');
  text(data, 'content', 'waybills[].data', { max: 30 });
  const weightsGrams = weights(data.declared, 'waybills[].data.declared');
  const chosen = services(data.services, 'waybills[].data.services');
  const sender = address(data.sender, 'waybills[].data.sender', false);
  const receiver = address(data.receiver, 'waybills[].data.receiver', international);
  if (international) object(data.international, 'waybills[].data.international');
  else if (sender.country !== 'ITA1' || receiver.country !== 'ITA1') throw new Refused({ errorCode: NOT_OFFERED, errorDescription: 'Nazione non servita dal prodotto: waybills[].data.receiver.country' });
  weightsGrams.forEach((grams, i) => {
    if (grams > MAX_PARCEL_GRAMS) throw new Refused({ errorCode: TOO_HEAVY, errorDescription: `Peso superiore al massimo consentito dal prodotto: waybills[].data.declared[${i}].weight` });
  });
  if (weightsGrams.length > 1 && !chosen[POSTE_SERVICES.multiParcel]) throw missing(`waybills[].data.services.${POSTE_SERVICES.multiParcel}`);
  checkPoint(chosen, weightsGrams.length, points);
  const cod = chosen[POSTE_SERVICES.cashOnDelivery];
  if (cod) {
    const path = `waybills[].data.services.${POSTE_SERVICES.cashOnDelivery}`;
    if (!cod.amount) throw missing(`${path}.amount`);
    if (!/^\d+(\.\d{1,2})?$/.test(cod.amount) || Number(cod.amount) <= 0) throw badFormat(`${path}.amount`);
    if (!POSTE_COD_PAYMENT_MODES.includes(cod.paymentMode as never)) throw badFormat(`${path}.paymentMode`);
  }
  return {
    costCenterCode, paperless: paperless === 'true', clientReferenceId, printFormat, product, weightsGrams, services: chosen,
    ...(cod ? { cod: { amount: cod.amount!, paymentMode: cod.paymentMode! } } : {}), sender, receiver,
  };
}

/** The waybill request as the emulator read it, or Poste's refusal of it. */
export function checkWaybillRequest(body: unknown, points: PosteDeliveryPoints): { ok: true; waybill: EmulatedWaybill } | { ok: false; refusal: PosteRefusal } {
  try {
    return { ok: true, waybill: check(body, points) };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, refusal: err.refusal };
    throw err;
  }
}
